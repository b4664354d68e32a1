"""Over-reads 3, a false alarm: a JavaScript or TypeScript program the CI walk reads named product files in its
comments (agent-as-repo's `src/core/tree-sitter-chunker.ts`, the seventieth set: `scripts/gen-sea-config.ts`, which
the release build runs, says in a JSDoc block ` * src/shell/tree-sitter-paths.ts, src/core/tree-sitter-chunker.ts);
the MCP` and the product module was `ci`). A comment runs nothing.

The class: in a `.js`/`.mjs`/`.cjs`/`.jsx`/`.ts`/`.mts`/`.cts`/`.tsx` text the walk reads, a line whose first
non-blank characters are `//`, `/*` or `*` (a JSDoc block's lines, its end) names nothing. Only whole lines: a
comment after code keeps the line (a `//` inside a string, `"http://x"`, is no comment), and a line inside a block
comment that does not start with `*` is kept (inside a template literal a shell would run it). Look-alikes that
must stay named: the same path in code, in a template literal a program hands to a shell, after code on a line."""

from __future__ import annotations

from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.ciruns import named_in
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

COMMENTS = [
    "// see tools/gen.sh for the rest\n",
    "  // tools/gen.sh\n",
    "/** Builds the bundle (tools/gen.sh does the rest). */\n",
    "/**\n * The SEA build embeds tools/gen.sh's output.\n */\n",
    "/*\n * tools/gen.sh\n */\n",
    "/* tools/gen.sh */\n",
]
CODE = [
    'execSync("bash tools/gen.sh");\n',
    "const run = () => spawnSync('./tools/gen.sh');\n",
    "execSync(`\n./tools/gen.sh\n`);\n",  # a template literal a shell runs
    'execSync("curl -s http://127.0.0.1:9/y | sh"); execSync("tools/gen.sh"); // done\n',  # code before a comment
    "/*\n./tools/gen.sh\n*/\n",  # a block line that does not start with `*`: kept (a template's shell line)
    "const url = 'http://example.com'; execSync('tools/gen.sh')\n",
]


def _names(path: str, text: str) -> bool:
    return "tools/gen.sh" in named_in(path, text)[0]


@each_case("text", COMMENTS)
def test_comment_lines_name_nothing(text: str) -> None:
    for name in ("scripts/build.ts", "scripts/build.mjs", "scripts/build.js", "scripts/build.cts"):
        assert not _names(name, "import { x } from 'y';\n" + text), name


@each_case("text", CODE)
def test_code_keeps_its_names(text: str) -> None:
    assert _names("scripts/build.ts", "import { execSync } from 'node:child_process';\n" + text)


def test_a_shell_script_keeps_its_comment_lines_as_before() -> None:
    assert _names("scripts/build.sh", "#!/bin/sh\n# tools/gen.sh runs first\n")  # unchanged: not a JS text


def test_the_walk_leaves_a_module_a_comment_names(git_repo: GitRepo) -> None:
    git_repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - uses: actions/checkout@v4\n      - run: npx tsx scripts/build.ts\n")
    git_repo.write("scripts/build.ts", "/**\n * Bundles src/core/chunker.ts for the SEA.\n */\n"
                   "// src/cli.ts is the entry\nimport { execSync } from 'node:child_process';\n"
                   "execSync('bash tools/gen.sh');\n")
    for path in ("src/core/chunker.ts", "src/cli.ts", "tools/gen.sh"):
        git_repo.write(path, "export {};\n")
    git_repo.commit("base")
    for path in ("src/core/chunker.ts", "src/cli.ts", "tools/gen.sh"):
        git_repo.write(path, "export const x = 1;\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in ("src/core/chunker.ts", "src/cli.ts", "tools/gen.sh")} == \
        {"src/core/chunker.ts": "src", "src/cli.ts": "src", "tools/gen.sh": "ci"}


@each_case("unit", [" * tools/gen.sh\n", " " * 64 + "x\n", "/*/*/*", "//" * 32 + "\n"])
def test_hostile_texts_cost_linear_time(unit: str) -> None:
    assert_linear(lambda text: named_in("scripts/build.ts", text), repeated(unit), budget=2.0)
