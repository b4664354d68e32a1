"""The class of misses the seventieth label set showed (bench/classify_accuracy/seventieth.tsv: 21 ordinary
repositories fetched for it, weighted to CI, measured blind first), with the look-alikes it must leave alone.

- The tasks of a Go build pipeline kept in a package of the repository's own module: goyek/workflow's workflow runs
  `./goyek.sh all` → `go run ./build`, and `build/main.go` imports `github.com/goyek/workflow`, the module's root
  package, whose files define the goyek tasks the job runs (`stage-test.go`, `go-lint.go`, ...). The Go reader made
  `build/*.go` `ci`; nothing read what that program imports, so the tasks stayed `src`. Taken: a package of the module
  (its path from the nearest `go.mod`) that a Go file CI runs imports, when a file of that package imports a Go task
  runner (goyek, mage's `mg`): every non-test Go file of the package. A product package the program imports, a task
  package nothing CI runs imports, a test file and another module's package are left alone.
"""

from __future__ import annotations

import pytest
from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import added_files

WORKFLOW = """name: build
on: [push, pull_request]
jobs:
  goyek:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
      - name: Build
        run: {command}
"""
GOYEK_TASK = """package {package}

import (
\t"github.com/goyek/goyek/v2"
\t"github.com/goyek/x/cmd"
)

var TaskGoVet = goyek.Define(goyek.Task{{
\tName:  "go-vet",
\tUsage: "go vet",
\tAction: func(a *goyek.A) {{
\t\tcmd.Exec(a, "go vet ./...")
\t}},
}})
"""
MAGE_TASK = """//go:build mage

package {package}

import "github.com/magefile/mage/mg"

type Build mg.Namespace

func (Build) All() error {{ return nil }}
"""
HELPER = """package {package}

import "strings"

func trimmed(s string) string {{ return strings.TrimSpace(s) }}
"""
PRODUCT = """package {package}

// Version is the product's version.
const Version = "1.2.3"
"""


def _main(*imports: str) -> str:
    lines = "\n".join(f'\t"{name}"' for name in imports)
    return f"// Build is this repository's build pipeline.\npackage main\n\nimport (\n{lines}\n)\n\nfunc main() {{}}\n"


# (module line, its path, the command the workflow runs, more files, the task package's folder)
SHAPES = [
    # goyek/workflow's own shape: a script runs the program in build/, which imports the module's root package
    ("module github.com/goyek/workflow", "github.com/goyek/workflow", "./goyek.sh -v all git-diff",
     {"goyek.sh": "#!/bin/bash\nset -euo pipefail\ngo run ./build $@\n"}, ""),
    ("module example.com/pipe", "example.com/pipe", "go run ./build all", {}, "tasks"),
    ("module example.com/pipe", "example.com/pipe", "go run -tags ci ./build/ lint", {}, "internal/ci"),
    ("module example.com/pipe/v2", "example.com/pipe/v2", "go run ./build -v all", {}, "tasks"),
    ("module   example.com/pipe // the build module", "example.com/pipe", "go run build/main.go all", {},
     "tools/pipeline"),
]


@each_case("module, path, command, extra, folder, task", [(module, path, command, extra, folder, task)
           for module, path, command, extra, folder in SHAPES for task in [GOYEK_TASK, MAGE_TASK]])
def test_the_task_package_a_ci_run_go_program_imports_is_ci(git_repo: GitRepo, module: str, path: str, command: str,
                                                            extra: dict[str, str], folder: str, task: str) -> None:
    package = folder.rpartition("/")[2] or "workflow"
    at = f"{folder}/" if folder else ""
    files = added_files(git_repo, {
        ".github/workflows/build.yml": WORKFLOW.format(command=command),
        "go.mod": f"{module}\n\ngo 1.22\n\nrequire github.com/goyek/goyek/v2 v2.1.0\n",
        "build/main.go": _main(f"{path}/{folder}".rstrip("/"), f"{path}/product"),
        f"{at}lint.go": task.format(package=package),
        f"{at}helpers.go": HELPER.format(package=package),  # same package: the tasks' code
        f"{at}lint_test.go": HELPER.format(package=package),  # the package's tests: not the job's program
        "product/version.go": PRODUCT.format(package="product"),  # a product package the program imports
        **extra}, "# pipe\n")
    for name in (f"{at}lint.go", f"{at}helpers.go"):
        assert files[name].bucket == "ci", files[name]
        assert files[name].rule == "ci.context.ci-run", files[name]
    assert files[f"{at}lint_test.go"].bucket == "src", files[f"{at}lint_test.go"]
    assert files["product/version.go"].bucket == "src", files["product/version.go"]


# Look-alikes: the package holds tasks, but nothing CI runs imports it; or CI's program imports another module's
# package of the same folder name; or the task runner is only named in a comment of a product package's file.
LOOK_ALIKES = [
    # the workflow runs `go test`, not the pipeline: build/main.go is no CI program
    ("go test ./...", _main("example.com/pipe/tasks"), "tasks", GOYEK_TASK),
    # CI's program imports a package of another module that happens to end in the same folder name
    ("go run ./build all", _main("example.org/other/tasks"), "tasks", GOYEK_TASK),
    # CI's program imports the product package, whose file only mentions goyek in a comment
    ("go run ./build all", _main("example.com/pipe/tasks"), "tasks",
     "package tasks\n\n// These were goyek tasks (github.com/goyek/goyek) before the move to make.\nconst X = 1\n"),
]


@each_case(("command", "main", "folder", "task"), LOOK_ALIKES)
def test_a_task_package_no_ci_program_imports_stays_src(git_repo: GitRepo, command: str, main: str, folder: str,
                                                       task: str) -> None:
    files = added_files(git_repo, {
        ".github/workflows/build.yml": WORKFLOW.format(command=command),
        "go.mod": "module example.com/pipe\n\ngo 1.22\n",
        "build/main.go": main,
        f"{folder}/lint.go": task.format(package="tasks") if "{package}" in task else task,
        f"{folder}/helpers.go": HELPER.format(package="tasks")}, "# pipe\n")
    for name in (f"{folder}/lint.go", f"{folder}/helpers.go"):
        assert files[name].bucket == "src", files[name]


def test_a_task_package_of_a_nested_module_needs_that_modules_path(git_repo: GitRepo) -> None:
    """A nested go.mod makes its folder another module: the root module's path does not name its packages."""
    files = added_files(git_repo, {
        ".github/workflows/build.yml": WORKFLOW.format(command="go run ./build all"),
        "go.mod": "module example.com/pipe\n\ngo 1.22\n",
        "build/main.go": _main("example.com/pipe/tools/tasks"),
        "tools/go.mod": "module example.com/tools\n\ngo 1.22\n",
        "tools/tasks/lint.go": GOYEK_TASK.format(package="tasks")}, "# pipe\n")
    assert files["tools/tasks/lint.go"].bucket == "src", files["tools/tasks/lint.go"]


@pytest.mark.parametrize("tasks", [False, True])
def test_a_large_package_is_read_for_its_runner_not_counted(git_repo: GitRepo, tasks: bool) -> None:
    """A product package of a hundred files CI's program imports (Vikunja's `pkg/models`, 91 files, which
    `pkg/routes/routes.go` imports) is read file by file up to MAX_PACKAGE_FILES: no task runner, no `ci` (at a
    bound of 64 it counted as a task package whole); with a runner in its last file it is one."""
    models = {f"models/m{n:03}.go": HELPER.format(package="models") for n in range(100)}
    if tasks:
        models["models/m099.go"] = GOYEK_TASK.format(package="models")
    files = added_files(git_repo, {
        ".github/workflows/build.yml": WORKFLOW.format(command="go run ./build all"),
        "go.mod": "module example.com/app\n\ngo 1.22\n",
        "build/main.go": _main("example.com/app/models"), **models}, "# app\n")
    assert {files[name].bucket for name in models} == {"ci" if tasks else "src"}
