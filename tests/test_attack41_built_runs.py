"""Attack 41: a builder's input is data (datawords.BUILDERS, cileft67) unless the line runs what it built (`esbuild
x.ts --outfile=o.js && node o.js`); split over two lines or two steps, the run went unseen.

`esbuild scripts/release.ts --bundle --outfile=o.js`, then `node o.js` on the next line, step or script item; `tsc
scripts/release.ts --outDir out` then `cd out && node release.js`; `ncc build scripts/release.ts -o dist` then
`./dist/index.js`. The release script is the job's code as on one line. On main 7022fb12 each named nothing and the
gated edit of the script exited 0. A later line that only reads or compares the output (`git diff --exit-code dist`,
`ls dist`) runs nothing: the input stays data.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citools import named_paths
from cpucost import assert_linear
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import datawords

SCRIPT = "scripts/release.ts"
# (the builder's line, its output as a later line names it)
BUILDS = [("esbuild {f} --bundle --platform=node --outfile=o.js", "o.js"),
          ("esbuild {f} --bundle --outfile=dist/release.js", "dist/release.js"),
          ("esbuild {f} --outdir=out", "out/release.js"), ("tsc {f} --outDir out", "out/release.js"),
          ("ncc build {f} -o dist", "dist/index.js"), ("npx ncc build {f} -o dist/pre", "dist/pre/index.js"),
          ("rollup {f} --file dist/release.js --format cjs", "dist/release.js"),
          ("bun build {f} --outdir dist --target node", "dist/release.js"), ("swc {f} -o o.js", "o.js"),
          ("pnpm exec tsup {f} --out-dir build", "build/release.js"), ("babel {f} --out-file o.js", "o.js")]
RUNS = ["node {o}", "node --enable-source-maps {o}", "./{o}", "bun {o}", "deno run -A {o}",
        "cd {d} && node {n}", "NODE_ENV=production node {o}", "sh -c 'node {o}'"]
DEFINITIONS = {
    ".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                "      - run: |\n          {a}\n      - run: |\n          {b}\n",
    ".gitlab-ci.yml": "release:\n  script:\n    - |\n      {a}\n    - |\n      {b}\n",
    "ci/release.sh": "#!/bin/bash\nset -e\n{a}\n{b}\n",
}
LOOK_ALIKES = ["git diff --exit-code {d}", "ls -la {d}", "echo built {o}", "test -f {o}", "rm -rf {d}"]


def _lines(build: str, output: str, run: str) -> tuple[str, str]:
    folder, _, name = output.rpartition("/")
    return build.format(f=SCRIPT), run.format(o=output, d=folder or ".", n=name)


@pytest.mark.parametrize(("build", "output"), BUILDS)
def test_a_later_line_running_the_output_names_the_input(build: str, output: str) -> None:
    for at, run in enumerate(RUNS):
        first, second = _lines(build, output, run)
        if run.startswith("cd") and "/" not in output:
            continue
        for path, template in list(DEFINITIONS.items())[at % 3:] if at else DEFINITIONS.items():
            assert SCRIPT in named_paths(path, template.format(a=first, b=second)), (path, first, second)


@pytest.mark.parametrize(("build", "output"), BUILDS[::2])
def test_a_later_line_reading_the_output_keeps_the_input_data(build: str, output: str) -> None:
    for look in LOOK_ALIKES:
        first, second = _lines(build, output, look)
        text = DEFINITIONS["ci/release.sh"].format(a=first, b=second)
        assert SCRIPT not in named_paths("ci/release.sh", text), (first, second)
        assert not datawords.built_runs(text.splitlines())


def test_package_scripts_that_build_then_run(tmp_path: Path) -> None:
    """package.json's `build` bundles the release script and `release` runs the bundle: the gated edit needs a human."""
    package = json.dumps({"name": "acme", "scripts": {"build": f"esbuild {SCRIPT} --bundle --outfile=dist/release.js",
                                                      "release": "node dist/release.js"}})
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: npm ci && npm run build && npm run release\n")
    base = {".github/workflows/ci.yml": workflow, "package.json": package, SCRIPT: "console.log(1)\n"}
    _, first, second = two_commits(tmp_path, base, {SCRIPT: "console.log(1)\nrequire('child_process')\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


def test_a_long_text_of_builds_is_read_in_linear_time() -> None:
    unit = "esbuild a.ts --outfile=o{}.js\n"

    def text(count: int) -> list[str]:
        return [unit.format(at) for at in range(count)] + ["node x.js"]

    assert_linear(datawords.built_runs, lambda size: text(size // 8), budget=2.0)


# a builder's option that loads code (babel's `--plugins`/`--presets`) or runs a command after the build (tsup's
# `--onSuccess`, tsdown's `--on-success`): its file stays named, as `-c`/`--plugin` did
OPTIONS = [("babel --plugins ./tools/plugin.js src -d lib", "tools/plugin.js"),
           ("babel --presets ./tools/preset.js src -d lib", "tools/preset.js"),
           ("babel --plugins=./tools/a.js,./tools/plugin.js src -d lib", "tools/plugin.js"),
           ('tsup src/index.ts --onSuccess "bash tools/post.sh"', "tools/post.sh"),
           ('tsup src/index.ts --onSuccess="bash tools/post.sh"', "tools/post.sh"),
           ("tsup src/index.ts --onSuccess 'node tools/post.js'", "tools/post.js"),
           ("tsup src/index.ts --onSuccess 'node dist/index.js'", "src/index.ts"),
           ('tsdown --on-success "bash tools/post.sh"', "tools/post.sh")]


@pytest.mark.parametrize(("line", "target"), OPTIONS)
def test_a_builders_loading_or_running_option_keeps_its_file(line: str, target: str) -> None:
    for path, template in DEFINITIONS.items():
        assert target in named_paths(path, template.format(a=f"npx {line}", b="echo done")), (path, line)
