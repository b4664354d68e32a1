"""Attack 48: the Go package CI builds and then runs, or runs by its module path (gobuilds.py). `go install ./cmd/tool
&& tool`, `go build -o bin/t ./cmd/t && ./bin/t` and `go run example.com/x/cmd/tool` (the module's `go.mod` says which
folder) named no file: an edit of the program was exit 0 on c315ac6c."""

from __future__ import annotations

from pathlib import Path

from citools import LINE_DEFINITIONS, tree_runs, with_line
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import gobuilds

FILES = {"go.mod": "module example.com/x\n\ngo 1.22\n", "main.go": "package main\n",
         "cmd/tool/main.go": "package main\n", "cmd/tool/flags.go": "package main\n",
         "cmd/app/main.go": "package main\n", "internal/a/a.go": "package a\n",
         "tools/go.mod": "module example.com/x/tools // the tools' own module\n\ngo 1.22\n",
         "tools/gen/main.go": "package main\n",
         "deep/mods/sub/go.mod": "module   \"example.com/deep\"\n", "deep/mods/sub/cmd/d/main.go": "package main\n"}

# (the build or run, then how CI runs what it built; the file it runs)
_BUILDS = [
    ("go install ./cmd/tool", "tool --check", "cmd/tool/main.go"),
    ("go install -v ./cmd/tool/", "tool", "cmd/tool/flags.go"),
    ("go install -tags ci ./cmd/tool", "$(go env GOPATH)/bin/tool", "cmd/tool/main.go"),
    ("go install -ldflags '-s -w' ./cmd/tool", "\"$HOME/go/bin/tool\" run", "cmd/tool/main.go"),
    ("go install example.com/x/cmd/tool", "tool", "cmd/tool/main.go"),
    ("go build -o bin/t ./cmd/tool", "./bin/t", "cmd/tool/main.go"),
    ("go build -o=bin/t ./cmd/tool", "bin/t", "cmd/tool/flags.go"),
    ("go build -trimpath -o ./out/ ./cmd/tool", "./out/tool", "cmd/tool/main.go"),
    ("go build ./cmd/tool", "./tool -v", "cmd/tool/main.go"),
    ("go build -o tool-ci example.com/x/cmd/tool", "./tool-ci", "cmd/tool/main.go"),
    ("cd tools && go install ./gen", "gen", "tools/gen/main.go"),
    ("go install example.com/x/tools/gen", "gen", "tools/gen/main.go"),
]
RUNS = [(f"{build} && {run}", target) for build, run, target in _BUILDS] \
    + [(f"{build}; {run}", target) for build, run, target in _BUILDS[:4]] \
    + [("go run example.com/x/cmd/tool", "cmd/tool/main.go"),
       ("go run -race example.com/x/cmd/tool --fix", "cmd/tool/flags.go"),
       ("go run example.com/x/tools/gen", "tools/gen/main.go"),
       ("go run example.com/deep/cmd/d", "deep/mods/sub/cmd/d/main.go"),
       ("go run 'example.com/x/cmd/tool'", "cmd/tool/main.go"),
       ("go test -toolexec 'go run example.com/x/cmd/tool' ./...", "cmd/tool/main.go"),
       ("go install ./cmd/tool && go test -exec tool ./...", "cmd/tool/main.go"),
       ("go install ./cmd/tool && go test -toolexec=tool ./...", "cmd/tool/main.go")]


@each_case(("definition", "template", "line", "target"), [(*d, *run) for d in LINE_DEFINITIONS for run in RUNS])
def test_the_program_ci_builds_then_runs_is_ci(definition: str, template: str, line: str, target: str) -> None:
    assert target in tree_runs(with_line(definition, template, line, FILES))


def test_two_steps_build_then_run() -> None:
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: go install ./cmd/tool\n      - run: tool check\n")
    assert "cmd/tool/main.go" in tree_runs({**FILES, ".github/workflows/ci.yml": workflow})


def test_an_unreadable_module_name_is_read_as_any_folder() -> None:
    files = {**FILES, "go.mod": "go 1.22\n"}  # no module line: every folder the path may end with
    assert "cmd/tool/main.go" in tree_runs(with_line(*LINE_DEFINITIONS[0], "go run example.com/x/cmd/tool", files))


# (a line that builds, installs or fetches but runs nothing of the tree; a file that stays src)
LOOKALIKES = [("go build ./cmd/tool", "cmd/tool/main.go"), ("go build -o bin/t ./cmd/tool", "cmd/tool/main.go"),
              ("go install ./cmd/tool && echo done", "cmd/tool/main.go"), ("go install ./...", "cmd/app/main.go"),
              ("go install . && x", "main.go"), ("go build ./... && ./tool", "cmd/tool/main.go"),
              ("go install example.com/x/cmd/tool@v1.2.0 && tool", "cmd/tool/main.go"),
              ("go run example.com/other/cmd/tool", "cmd/tool/main.go"),
              ("go run example.com/xy/cmd/tool", "cmd/tool/main.go"),
              ("go run example.com/x/cmd/tool", "cmd/app/main.go"),
              ("go run example.com/x/cmd/tool", "internal/a/a.go"),
              ("go install ./cmd/tool && tool", "cmd/app/main.go"),
              ("echo go install ./cmd/tool", "cmd/tool/main.go"),
              ("echo go install ./cmd/tool && tool", "cmd/tool/main.go"),
              ("true; printf '%s' 'go build -o t ./cmd/tool' && ./t", "cmd/tool/main.go")]


def test_a_comment_line_runs_nothing() -> None:
    script = "#!/bin/bash\n# go install ./cmd/tool && tool\n  # go run example.com/x/cmd/tool\n"
    files = {**FILES, "ci/build.sh": script}
    assert "cmd/tool/main.go" not in tree_runs(with_line(*LINE_DEFINITIONS[0], "bash ci/build.sh", files))


@each_case(("line", "target"), LOOKALIKES)
def test_a_build_nothing_runs_stays_src(line: str, target: str) -> None:
    assert target not in tree_runs(with_line(*LINE_DEFINITIONS[0], line, FILES))


@each_case("line", ["go install ./cmd/tool && tool", "go build -o bin/t ./cmd/tool && ./bin/t",
                    "go run example.com/x/cmd/tool"])
def test_the_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    base = with_line(*LINE_DEFINITIONS[0], line, FILES)
    _, first, second = two_commits(tmp_path / "repo", base, {"cmd/tool/flags.go": "package main\n\nfunc init() {}\n"})
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]


@each_case("text", [repeated("go install ./cmd/t && t\n", "", ""), repeated("go build -o bin/t ./x ", "", "&& t"),
                    repeated("go run ", "", " example.com/x/cmd/t"), repeated("a/b/", "go run example.com/x/", " x")])
def test_the_commands_are_read_in_linear_time(text: object) -> None:
    mods = (gobuilds.Module(None, ""), gobuilds.Module("example.com/x", "tools"))
    assert_linear(lambda source: gobuilds.packages(source, "ci/build.sh", ["sub"], mods), text,  # type: ignore[arg-type]
                  budget=1.0)
