"""Review 68b: TypeDoc's plugins through the options files an options file `extends`, and through the
`typedocOptions` of tsconfig.json and package.json (typedocplugins.py).

TypeDoc merges `"extends": "./typedoc.base.json"` (a string or a list, followed) and reads `typedocOptions` from
tsconfig.json and package.json; a relative `plugin` there is imported in the CI job. Misses 8 read the options files'
own `plugin` only: on 58f4e83c an edit to each such plugin was allowed (exit 0). JSONC (comments, trailing commas)
is read as TypeDoc reads it. Look-alikes: a plugin package's name, an `extends` of a package, a repository whose CI
does not run TypeDoc.
"""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from tables import each_case

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
J = json.dumps
LAYOUTS = [  # (the tree's settings, the plugin TypeDoc loads)
    ({"typedoc.json": J({"extends": "./typedoc.base.json"}), "typedoc.base.json": J({"plugin": ["./tools/p.mjs"]})},
     "tools/p.mjs"),
    ({"typedoc.json": J({"extends": ["typedoc-config-pkg", "./config/td.json"]}),
      "config/td.json": J({"plugin": "./plugin"})}, "config/plugin.js"),
    ({"typedoc.json": J({"extends": "./a.json"}), "a.json": J({"extends": "./b.json"}),
      "b.json": J({"plugin": ["./tools/p.cjs"]})}, "tools/p.cjs"),
    ({"tsconfig.json": "{\n  // TypeDoc\n  \"typedocOptions\": {\"plugin\": [\"./tools/p.mjs\",],},\n}\n"},
     "tools/p.mjs"),
    ({"package.json": J({"name": "a", "typedocOptions": {"plugin": ["./tools/td/index.js"]}})}, "tools/td/index.js"),
    ({"typedoc.jsonc": "// docs\n{\"plugin\": [\"./tools/p.mjs\"], /* x */}\n"}, "tools/p.mjs"),
]
COMMANDS = ["npx typedoc", "pnpm exec typedoc --out docs"]


@each_case("command, files, plugin", [(c, f, p) for c in COMMANDS for f, p in LAYOUTS])
def test_a_plugin_typedoc_reaches_is_read(command: str, files: dict[str, str], plugin: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, plugin: "export {}\n"}
    assert plugin in tree_runs(tree), files  # before: 10 of 12 missed


@each_case("command, files, path", [
    ("npx typedoc", {"typedoc.json": J({"extends": "typedoc-config-pkg", "plugin": ["typedoc-plugin-x"]})},
     "tools/p.mjs"),
    ("npm test", {"tsconfig.json": J({"typedocOptions": {"plugin": ["./tools/p.mjs"]}})}, "tools/p.mjs"),
    ("npx typedoc", {"tsconfig.json": J({"compilerOptions": {"plugins": [{"name": "./tools/p.mjs"}]}})},
     "tools/p.mjs"),
])
def test_look_alikes_stay_out(command: str, files: dict[str, str], path: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, path: "export {}\n"}
    assert path not in tree_runs(tree)


def test_an_edit_of_an_extended_options_file_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="npx typedoc"),
            "typedoc.json": J({"extends": "./typedoc.base.json"}), "typedoc.base.json": J({"plugin": []}),
            "src/x.mjs": "export {}\n"}
    code, named = gated_rules(committed(tmp_path, base, {"typedoc.base.json": J({"plugin": ["./src/x.mjs"]})}), True)
    assert (code, named.get("core.ci")) == (3, ["typedoc.base.json"]), named  # before: exit 0
