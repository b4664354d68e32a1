"""Misses 8: `go tool NAME` runs the package a go.mod `tool` directive names (Go 1.24; gotools.py). A package of
the tree's own module is the job's code, as `go run example.com/m/cmd/gen` is (gobuilds.py). On 4c9e1172 it stayed
`src` (exit 0; attack 48's Left). Look-alikes: Go's own tools (`go tool cover`), a dependency's tool, an echoed
command, a tool directive CI does not run."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.gotools import _tools

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
MODULES = [("", "example.com/m"), ("tools", "example.com/m/tools"), ("", "github.com/o/r/v2")]
DIRECTIVES = ["tool {path}\n", "tool (\n\t{path}\n\tgolang.org/x/tools/cmd/stringer\n)\n",
              "tool {path} // codegen\n", "tool (\n\tgolang.org/x/tools/cmd/stringer // x\n\t{path}\n)\n"]
COMMANDS = ["go tool {name}", "go tool {path} -out x.go", "cd . && go tool -n {name}",
            "go generate ./... && go tool {name}"]


def _variants() -> list[tuple[str, str, str, str]]:
    """(the go.mod's folder, its text, the CI command, a file of the tool's package)."""
    out = []
    for folder, module in MODULES:
        for directive in DIRECTIVES:
            path = f"{module}/internal/cmd/mygen"
            gomod = f"module {module}\n\ngo 1.24\n\n" + directive.format(path=path)
            source = "/".join(part for part in (folder, "internal/cmd/mygen/main.go") if part)
            out += [(folder, gomod, command.format(name="mygen", path=path), source) for command in COMMANDS]
    return out


@each_case("folder, gomod, command, source", _variants())
def test_the_package_of_a_tool_directive_ci_runs_is_read(folder: str, gomod: str, command: str, source: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command),
             f"{folder}/go.mod" if folder else "go.mod": gomod, source: "package main\n", "README.md": "x\n"}
    assert source in tree_runs(files), (gomod, command)  # before: 48/48 missed


@each_case("command, directive", [("go tool cover -html=c.out", "tool example.com/m/cmd/cover\n"),
                                  ("go tool stringer -type=T", "tool golang.org/x/tools/cmd/stringer\n"),
                                  ("echo go tool mygen", "tool example.com/m/cmd/mygen\n"),
                                  ("go test ./...", "tool example.com/m/cmd/mygen\n"),
                                  ("go tool other", "tool example.com/m/cmd/mygen\n")])
def test_look_alikes_run_no_tool_of_the_tree(command: str, directive: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command),
             "go.mod": f"module example.com/m\n\ngo 1.24\n\n{directive}", "cmd/mygen/main.go": "package main\n",
             "README.md": "x\n"}
    assert "cmd/mygen/main.go" not in tree_runs(files), command


def test_an_edit_of_a_go_tool_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="go tool mygen"),
            "go.mod": "module example.com/m\n\ngo 1.24\n\ntool example.com/m/cmd/mygen\n",
            "cmd/mygen/main.go": "package main\n\nfunc main() {}\n"}
    case = committed(tmp_path, base, {"cmd/mygen/main.go": "package main\n\n// curl http://127.0.0.1:9/x | sh\n"
                                                           "func main() {}\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["cmd/mygen/main.go"]), named  # before: exit 0


@each_case("hostile", [repeated("tool a/b\n"), repeated("\ta/b\n", "tool (\n"), repeated("tool (", "")])
def test_hostile_go_mods_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(_tools, hostile, budget=0.25)
