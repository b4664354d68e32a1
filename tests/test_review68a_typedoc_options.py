"""Review 68a: what TypeDoc reads its plugins from beyond one options file (typedocplugins.py).

On 58f4e83c the `plugin` entries of a file the options file `extends` (TypeDoc merges it in first), a plugin named
`../x` from an options file in a folder, and tsconfig.json's or package.json's `typedocOptions` named nothing: the
plugin's edit stayed `src`. An `extends` chain that loops (a file that extends itself, two that extend each other) or
runs past its bound ends, naming the files it could not finish (fail closed)."""

from __future__ import annotations

import json

from citools import tree_runs
from tables import each_case

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
PLUGIN = "export function load() {}\n"


def _extends_cases() -> list[tuple[str, dict[str, str], str]]:
    out = []
    for command, options in (("npx typedoc", "typedoc.json"), ("npx typedoc --options docs/td.json", "docs/td.json")):
        folder = options.rpartition("/")[0]
        at = f"{folder}/" if folder else ""
        for extends in ("./base.json", ["./base.json"], ["./other.json", "./base.json"]):
            out.append((command, {options: json.dumps({"extends": extends}), f"{at}other.json": "{}",
                                  f"{at}base.json": json.dumps({"plugin": ["./plug.mjs"]})}, f"{at}plug.mjs"))
        out.append((command, {options: json.dumps({"extends": "./cfg/base.json"}),
                              f"{at}cfg/base.json": json.dumps({"plugin": "./plug.mjs"})}, f"{at}cfg/plug.mjs"))
        out.append((command, {options: json.dumps({"extends": "./a.json"}), f"{at}a.json": '{"extends": "./b.json"}',
                              f"{at}b.json": json.dumps({"plugin": ["./plug.mjs"]})}, f"{at}plug.mjs"))
    out.append(("npx typedoc --options docs/td.json", {"docs/td.json": json.dumps({"plugin": ["../tools/td.mjs"]})},
                "tools/td.mjs"))
    out.append(("npx typedoc", {"tsconfig.json": json.dumps({"typedocOptions": {"plugin": ["./plug.mjs"]}})},
                "plug.mjs"))
    out.append(("npx typedoc", {"package.json": json.dumps({"name": "x", "typedocOptions": {"plugin": "./plug.mjs"}})},
                "plug.mjs"))
    return out


@each_case("command, files, plugin", _extends_cases())
def test_a_plugin_typedoc_reads_by_another_file_is_read(command: str, files: dict[str, str], plugin: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, plugin: PLUGIN, "README.md": "x\n"}
    assert plugin in tree_runs(tree), files  # before: 13 of 13 missed


@each_case("files, named", [
    ({"typedoc.json": '{"extends": "./typedoc.json", "plugin": ["./plug.mjs"]}'}, "plug.mjs"),
    ({"typedoc.json": '{"extends": "./b.json"}', "b.json": '{"extends": "./typedoc.json", "plugin": "./plug.mjs"}'},
     "plug.mjs"),
    ({"typedoc.json": '{"extends": "./c0.json"}',
      **{f"c{i}.json": json.dumps({"extends": f"./c{i + 1}.json"}) for i in range(40)}}, "c7.json"),
    ({"typedoc.json": '{"extends": "./broken.json"}', "broken.json": '{"plugin": ['}, "broken.json"),
    ({"tsconfig.json": '{\n  // x\n  "typedocOptions": {"plugin": ["./plug.mjs"]}\n}\n'}, "tsconfig.json"),
])
def test_loops_bounds_and_unreadable_files_fail_closed(files: dict[str, str], named: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command="npx typedoc"), **files, "plug.mjs": PLUGIN,
            "README.md": "x\n"}
    assert named in tree_runs(tree), files


@each_case("command, files", [
    ("npx typedoc", {"typedoc.json": '{"extends": "@org/typedoc-config"}'}),
    ("npx typedoc", {"tsconfig.json": '{\n  // comments are common here\n  "compilerOptions": {}\n}\n'}),
    ("npx tsc", {"tsconfig.json": json.dumps({"typedocOptions": {"plugin": ["./plug.mjs"]}})}),
    ("npx typedoc", {"typedoc.json": json.dumps({"extends": "./base.json"}), "base.json": '{"entryPoints": ["x"]}'}),
])
def test_look_alikes_name_no_plugin(command: str, files: dict[str, str]) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, "plug.mjs": PLUGIN,
            "README.md": "x\n"}
    runs = tree_runs(tree)
    assert "plug.mjs" not in runs and "tsconfig.json" not in runs, files
