"""Review 68a: hostile go.mod files against gotools.py (`go tool NAME` runs a `tool` directive's package).

On 58f4e83c a `tool (` line with no `)` after it scanned the rest of the file from each such line (quadratic: 170 ms
at 64 KiB, a 1 MiB go.mod tens of seconds), and only the first 64 directives were read: the 65th tool of a go.mod,
run by CI, stayed `src` (exit 0). Now the directives are read line by line, all of them (linear), and a go.mod past
what is read names every package of the name CI runs below its folder (fail closed)."""

from __future__ import annotations

from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.gotools import _tools
from gatekeeper.classify.sniff import FULL_READ

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
HEAD = "module example.com/m\n\ngo 1.24\n\n"


@each_case("hostile", [repeated("tool (\n"), repeated("tool (a b c\n"), repeated("tool (\n\ta/b\n"),
                       repeated("\ttool (\n", HEAD), repeated("tool ( // x\n"), repeated("tool (\n)\n"),
                       repeated("tool a/b\n"), repeated("tool (", "")])
def test_hostile_go_mods_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(_tools, hostile, budget=0.25)  # before: 2 of 8 quadratic (`tool (\n`: 15 times for 4 times)


def _many(count: int, block: bool) -> str:
    tools = [f"example.com/m/cmd/t{index}" for index in range(count)]
    return HEAD + ("tool (\n" + "".join(f"\t{tool}\n" for tool in tools) + ")\n" if block
                   else "".join(f"tool {tool}\n" for tool in tools))


@each_case("count, block, at", [(count, block, at) for count in (65, 1000, 10000) for block in (False, True)
                                for at in (0, count - 1)])
def test_every_tool_directive_is_read(count: int, block: bool, at: int) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=f"go tool t{at}"), "go.mod": _many(count, block),
             f"cmd/t{at}/main.go": "package main\n", "cmd/other/main.go": "package main\n"}
    runs = tree_runs(files)
    assert f"cmd/t{at}/main.go" in runs and "cmd/other/main.go" not in runs  # before: 6 of 12 missed (past 64)


def test_a_tool_past_what_is_read_of_a_go_mod_fails_closed() -> None:
    padding = "// " + "x" * 76 + "\n"
    gomod = HEAD + padding * (FULL_READ // len(padding) + 1) + "tool example.com/m/internal/gen\n"
    files = {".github/workflows/ci.yml": WORKFLOW.format(command="go tool gen"), "go.mod": gomod,
             "internal/gen/main.go": "package main\n", "internal/other/main.go": "package main\n"}
    runs = tree_runs(files)
    assert "internal/gen/main.go" in runs and "internal/other/main.go" not in runs  # before: missed


@each_case("command", ["go tool cover -html=c.out", "go tool pprof x", "echo go tool t1", "go tool t99"])
def test_look_alikes_name_no_tool(command: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "go.mod": _many(10, True),
             "cmd/t1/main.go": "package main\n", "cmd/cover/main.go": "package main\n"}
    assert not {"cmd/t1/main.go", "cmd/cover/main.go"} & tree_runs(files), command
