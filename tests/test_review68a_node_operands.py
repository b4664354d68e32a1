"""Review 68a: `node OPERAND` as Node resolves it (noderuns.py names a folder operand's index files).

On 58f4e83c `node tools/gen` named `tools/gen/index.js` but not `tools/gen.js`, the file Node's module lookup tries
first (the operand with `.js`, then the folder); a folder with a dot in its name (`tools/gen.d`, `v1.2`) read as a
file with a type, and `node` after the shell's `if`, `elif`, `while`, `until`, `else` or `!` was not read at all."""

from __future__ import annotations

from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.noderuns import line_files

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: |\n          {command}\n")
STARTS = ["{node}", "if {node}; then echo ok; fi", "while {node}; do break; done", "until {node}; do sleep 1; done",
          "! {node}", "if true; then :; elif {node}; then :; fi", "if false; then :; else {node}; fi"]
OPERANDS = [("tools/gen", "tools/gen.js"), ("tools/gen", "tools/gen/index.js"),
            ("./tools/gen.d", "tools/gen.d/index.js"), ("tools/v1.2", "tools/v1.2/index.js"),
            ("scripts/release.v2", "scripts/release.v2.js")]


@each_case("command, source", [(start.format(node=f"node {operand}"), source)
                               for start in STARTS for operand, source in OPERANDS])
def test_the_file_node_runs_for_its_operand_is_read(command: str, source: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), source: "console.log(1)\n",
             "README.md": "x\n"}
    assert source in tree_runs(files), command  # before: 28 of 35 missed


@each_case("command", ["echo node tools/gen", "node -e 'x' tools/gen", "node tools/gen.mjs", "# node tools/gen",
                       "node --version tools/gen"])
def test_look_alikes_name_no_script(command: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "tools/gen.js": "x\n",
             "tools/gen/index.js": "x\n", "README.md": "x\n"}
    assert not {"tools/gen.js", "tools/gen/index.js"} & tree_runs(files), command


@each_case("hostile", [repeated("if node a.b; then "), repeated("! node "), repeated("elif node x.y "),
                       repeated("node a.b.c.d.e ")])
def test_hostile_lines_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(line_files, hostile, budget=0.25)
