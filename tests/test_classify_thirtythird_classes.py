"""Classes of misses the thirty-third label set found (bench/classify_accuracy/thirtythird.tsv: 59 repositories in
fifteen languages, many repositories and few files each, measured blind first), each with the look-alikes it must
leave alone: uv's project `uv sync` read as a requirements sync (its group and extra names, and with an all-variable
argument every word of a justfile, became requirements files; one of them, a `uv.lock` over the read bound, made
every file of the repository `deps`), Dofigen image definitions (`dofigen.yml`, from which a Dockerfile is
generated), Gemfile fragments a Gemfile evaluates (`Gemfile-rails-dependencies`), the `.python-version-default` pin,
Docusaurus' translated blog authors, and developer tools' settings (trunk's `.trunk/`, Pint, SimpleCov, Standard
Ruby, Visual Studio's CMake settings). A go-task Taskfile in a `tasks/` folder (Wails' `v3/tasks/Taskfile.yml`) stays
with the Ansible rule: lowering it by name is the escape tests/test_classify_fifteenth_classes.py keeps shut. The
real repositories below check them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.pipinstalls import installed_requirements
from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, both_ways, tree_files


@each_case(("path", "bucket", "rule"), [
    # Dofigen: the YAML a Dockerfile is generated from
    ("apps/status-page/dofigen.yml", "iac", "iac.containers"),
    ("dofigen.yaml", "iac", "iac.containers"),
    ("docs/dofigen.md", "src", None), ("src/dofigen.rs", "src", None),
    # Gemfile fragments a Gemfile evaluates
    ("Gemfile-rails-dependencies", "deps", "deps.bundler.manifest"),
    ("Gemfile-custom", "deps", "deps.bundler.manifest"),
    ("lib/gemfile_helper.rb", "src", None),
    # hynek's Python pin
    (".python-version-default", "deps", "deps.pip.toolchain"),
    ("docs/python-version.md", "src", None),
    # Docusaurus' blog authors, translated
    ("website/i18n/fr/docusaurus-plugin-content-blog/authors.yml", "src", "docs.blog-authors"),
    ("AUTHORS", "other", "other.governance"),
    # developer tools' settings
    (".trunk/trunk.yaml", "ci", "ci.other-systems"),  # its commands run in CI (red team 20)
    (".trunk/configs/.checkov.yaml", "other", "other.dev-tool-settings"),
    ("pint.json", "other", "other.dev-tool-settings"),
    (".simplecov", "other", "other.dev-tool-settings"),
    (".standard.yml", "other", "other.dev-tool-settings"),
    (".standard_todo.yml", "other", "other.dev-tool-settings"),
    ("CMakeSettings.json", "other", "other.dev-tool-settings"),
    ("src/trunk/config.go", "src", None), ("CMakePresets.json", "src", None),
    # a workflow kept beside trunk's settings is still a workflow
    (".github/workflows/trunk-check.yml", "ci", None),
])
def test_path_rules_of_the_thirty_third_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


@each_case(("line", "files"), [
    # uv's project sync installs the project's lock: group, extra and package names are no files
    ("uv sync --group dev --group tests --extra geospatial", []),
    ('uv sync "${args[@]}"', []),
    ("uv --quiet sync --all-extras --package mylib", []),
    ("pipenv sync --categories docs", []),
    # the syncs that do read requirements files keep every plain word
    ("uv pip sync requirements/dev.txt", ["requirements/dev.txt"]),
    ("uv pip --quiet sync tools/pins.lst", ["tools/pins.lst"]),
    ("python -m uv pip sync ci/pins.lst", ["ci/pins.lst"]),
    ("pip-sync tools/a.lst tools/b.lst", ["tools/a.lst", "tools/b.lst"]),
    ("uv add -r tools/extra.lst", ["tools/extra.lst"]),
])
def test_only_a_requirements_sync_reads_its_plain_words(line: str, files: list[str]) -> None:
    assert installed_requirements(line + "\n") == files


JUSTFILE = """# list the recipes
default:
    just --list

# install the development environment
sync backend="duckdb":
    uv sync --group dev --group tests --extra {{ backend }} --extra geospatial

# install with extra arguments
install *args:
    #!/usr/bin/env bash
    args=({{ args }})
    uv sync "${args[@]}"

# build the docs preview (restores the files a version bump edits)
docs-build:
    uv build --wheel
    git checkout pyproject.toml mylib/__init__.py uv.lock

# pin the tools
pins:
    uv pip sync tools/pins.lst
"""
PYPROJECT = """[project]
name = "mylib"
version = "1.0.0"
dependencies = ["pyarrow>=10"]

[dependency-groups]
dev = ["pytest"]
"""
NIX = """{ pkgs, deps }:
final: prev: {
  mylib-tests = pkgs.stdenv.mkDerivation { name = "mylib-tests"; };
}
"""
SNAPSHOT = 'SELECT\n  "t0"."a" AND "t0"."b" AS "x"\nFROM "t" AS "t0"\n'


def _big_lock() -> str:
    """A uv lock file past the 1 MiB read bound (real ones of large projects are)."""
    package = ('[[package]]\nname = "pkg{n}"\nversion = "1.0.{n}"\n'
               'source = {{ registry = "https://pypi.org/simple" }}\n'
               'sdist = {{ url = "https://files.example.invalid/pkg{n}-1.0.{n}.tar.gz", hash = "sha256:{h}" }}\n\n')
    return "version = 1\nrequires-python = \">=3.10\"\n\n" + "".join(
        package.format(n=n, h=f"{n:064x}") for n in range(4500))


def test_a_project_sync_in_a_justfile_makes_nothing_deps(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a dataframe library\n")
    git_repo.commit("base")
    lock = _big_lock()
    assert len(lock.encode()) > 1024 * 1024
    texts = {
        "justfile": JUSTFILE, "pyproject.toml": PYPROJECT, "uv.lock": lock,
        "nix/tests.nix": NIX, "mylib/tests/snapshots/out.sql": SNAPSHOT, "examples/geospatial": "# notes\n",
        "docs/dev": "notes for developers\n", "tools/pins.lst": "pyyaml==6.0.2\n",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    want = {"nix/tests.nix": "src", "mylib/tests/snapshots/out.sql": "src", "examples/geospatial": "src",
            "docs/dev": "src", "tools/pins.lst": "deps", "uv.lock": "deps", "justfile": "src"}
    assert {path: files[path].bucket for path in want} == want
    assert files["tools/pins.lst"].rule == "deps.context.requirements-include"


def test_the_thirty_third_path_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a web app with a status page and a Ruby gem\n")
    git_repo.commit("base")
    texts = {
        "apps/status-page/dofigen.yml": "builders:\n  builder:\n    fromImage: node:24-slim\n    workdir: /app\n"
                                        "fromImage: node:24-slim\ncopy:\n  - fromBuilder: builder\n    paths: [/app]\n",
        "Gemfile-rails-dependencies": 'version = ENV.fetch("RAILS_VERSION", "8.0")\ngem "rails", "~> #{version}"\n',
        ".trunk/configs/.checkov.yaml": "skip-check:\n  - CKV_GHA_7\n",
        "roles/web/tasks/main.yml": "- name: Install nginx\n  ansible.builtin.apt:\n    name: nginx\n",
    }
    want = {"apps/status-page/dofigen.yml": "iac", "Gemfile-rails-dependencies": "deps",
 ".trunk/configs/.checkov.yaml": "other", "roles/web/tasks/main.yml": "iac"}
    both_ways(git_repo, tmp_path, texts, want)
