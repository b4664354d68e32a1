"""Over-reads 3, a CI miss: a Crystal program a workflow builds and runs by its path was `src` (termisu's
`run_specs.cr`, the seventy-fourth set: `crystal build run_specs.cr -o ./bin/run_specs`, then kcov runs
`./bin/run_specs`). The walk names the source files a language's runner runs by path (ciruns.SOURCES: `go run x.go`,
`swift x.swift`, `dotnet fsi x.fsx`, ...); Crystal's, Nim's, Zig's and Haskell's were not among them.

The class: `.cr`, `.nim`, `.zig` and `.hs` are source types a runner runs by path (`crystal run x.cr`, `crystal
x.cr`, `nim c -r x.nim`, `nim r x.nim`, `zig run x.zig`, `runghc x.hs`, `stack runghc x.hs`, `cabal run x.hs`).
Each form is classified with `--tree` through a real repository; a file of those types that no step names stays
`src`."""

from __future__ import annotations

from tables import each_case

from gatekeeper.classify.ciruns import SCRIPT_TYPES
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

FORMS = [
    ("crystal build run_specs.cr -o ./bin/run_specs && ./bin/run_specs", "run_specs.cr"),
    ("crystal run scripts/gen.cr -- --check", "scripts/gen.cr"),
    ("crystal scripts/gen.cr", "scripts/gen.cr"),
    ("nim c -r tools/check.nim", "tools/check.nim"),
    ("nim r tools/check.nim", "tools/check.nim"),
    ("zig run scripts/gen.zig", "scripts/gen.zig"),
    ("runghc scripts/Gen.hs", "scripts/Gen.hs"),
    ("stack runghc -- scripts/Gen.hs", "scripts/Gen.hs"),
    ("cabal run scripts/Gen.hs", "scripts/Gen.hs"),
]


def _workflow(command: str) -> str:
    return ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            f"      - run: {command}\n")


@each_case("command, named", FORMS)
def test_a_step_runs_the_source_it_names(git_repo: GitRepo, command: str, named: str) -> None:
    git_repo.write(".github/workflows/ci.yml", _workflow(command))
    git_repo.write(named, "puts 1\n")
    git_repo.write("src/app.cr", "puts 2\n")
    git_repo.write("src/App.hs", "main = pure ()\n")
    git_repo.commit("base")
    git_repo.write(named, "puts 3\n")
    git_repo.write("src/app.cr", "puts 4\n")  # a look-alike: named by no step
    git_repo.write("src/App.hs", "main = print 1\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert (files[named].bucket, files[named].rule) == ("ci", "ci.context.ci-run")
    assert files["src/app.cr"].bucket == "src" and files["src/App.hs"].bucket == "src"


def test_the_types_are_script_types() -> None:
    assert {"cr", "nim", "zig", "hs"} <= SCRIPT_TYPES
