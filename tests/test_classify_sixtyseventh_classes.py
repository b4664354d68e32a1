"""Classes of misses the sixty-seventh label set showed (bench/classify_accuracy/sixtyseventh.tsv: 22 repositories
fetched for it, weighted to CI, measured blind first), each with the look-alikes it must leave alone.

- The build recipe a CI step hands to a builder that runs it: disorderedmaterials/GudPy's build action runs
  `pyinstaller gudpy.spec`, and a PyInstaller spec is a Python program PyInstaller executes in the job (what it bundles
  into the release binaries); `rpmbuild -ba x.spec` runs the spec's `%prep`/`%build`/`%install` shell sections the same
  way. The walk read a command's file argument only by a script's extension, so the spec stayed `src`.
- Yarn's constraints (`constraints.pro`, Prolog, and Yarn 4's `yarn.config.cjs`), which `yarn constraints` evaluates
  against every workspace's manifest and can rewrite its dependencies (`--fix`): the package manager's rules, `deps` as
  its other settings are (principle 3); belgattitude/nextjs-monorepo-example's was `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.commandlines import scripts
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, added_files, assert_path_rule, patch_files, tree_files

# GudPy's shape: a composite action in a folder of the workflows folder, which a workflow runs.
WORKFLOW = """name: Release
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: ./.github/workflows/build
"""
ACTION = """name: Build
runs:
  using: composite
  steps:
    - name: Build the binaries
      shell: bash
      run: |
        pyside6-rcc gui/resources.qrc -o gui/resources_rc.py
        {command}
"""
# What runs the recipe, and the recipe's path (from the root).
RECIPE_COMMANDS = [
    ("pyinstaller gudpy.spec", "gudpy.spec"),
    ("pyinstaller --noconfirm --clean packaging/app.spec", "packaging/app.spec"),
    ("pyinstaller.exe -y packaging/app.spec", "packaging/app.spec"),
    ("python -m PyInstaller --clean packaging/app.spec", "packaging/app.spec"),
    ("python3 -m pyinstaller packaging/app.spec --distpath dist", "packaging/app.spec"),
    ("sudo pyinstaller \"packaging/app.spec\"", "packaging/app.spec"),
    ("cd packaging && pyinstaller app.spec", "packaging/app.spec"),
    ("rpmbuild -ba packaging/app.spec", "packaging/app.spec"),
    ("rpmbuild --define \"_topdir $PWD/rpm\" -bb rpm/app.spec", "rpm/app.spec"),
]
# Lines that name a spec without a builder running it, or a builder without a spec.
RECIPE_LOOK_ALIKES = [
    "cat packaging/app.spec",
    "sed -i \"s/^Version:.*/Version: $V/\" packaging/app.spec",
    "git diff --exit-code packaging/app.spec",
    "pyinstaller --onefile src/main.py",  # a script, named by its extension already; no spec
    "echo pyinstaller is installed; ls packaging/app.spec",
    "rpm -qip packaging/app.spec",
]


@each_case(("command", "recipe"), RECIPE_COMMANDS)
def test_a_recipe_a_builder_runs_in_a_step_is_ci(git_repo: GitRepo, command: str, recipe: str) -> None:
    files = added_files(git_repo, {".github/workflows/release.yml": WORKFLOW,
                                   ".github/workflows/build/action.yml": ACTION.format(command=command),
                                   recipe: "# -*- mode: python -*-\na = Analysis(['main.py'])\n",
                                   "packaging/other.spec": "Name: other\nVersion: 1\n"}, "# app\n")
    assert files[recipe].bucket == "ci", files[recipe]
    assert files["packaging/other.spec"].bucket not in ("ci", "iac"), files["packaging/other.spec"]


@each_case("line", RECIPE_LOOK_ALIKES)
def test_a_spec_no_builder_runs_stays_where_it_was(git_repo: GitRepo, line: str) -> None:
    git_repo.write("README.md", "# app\n")
    git_repo.commit("base")
    git_repo.write(".github/workflows/release.yml", WORKFLOW)
    git_repo.write(".github/workflows/build/action.yml", ACTION.format(command=line))
    git_repo.write("packaging/app.spec", "Name: app\nVersion: 1\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["packaging/app.spec"].bucket not in ("ci", "iac"), files["packaging/app.spec"]


def test_a_gitlab_job_building_from_a_spec_names_it(git_repo: GitRepo, tmp_path: Path) -> None:
    """Another CI system, the same command; a patch that holds the definition names the spec too."""
    git_repo.write("README.md", "# app\n")
    git_repo.commit("base")
    git_repo.write(".gitlab-ci.yml", "build:\n  script:\n    - pip install pyinstaller\n"
                                     "    - pyinstaller --clean tools/freeze.spec\n")
    git_repo.write("tools/freeze.spec", "a = Analysis(['app.py'])\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["tools/freeze.spec"].bucket == "ci"
    assert patch_files(git_repo, tmp_path)["tools/freeze.spec"].bucket == "ci"


@pytest.mark.parametrize("size", [64 * 1024, 256 * 1024])
def test_the_recipe_reading_stays_linear(size: int) -> None:
    """A builder's line of a huge word, and of many spec words: each line split once, a bounded number of words."""
    assert scripts("pyinstaller " + "a" * size + ".spec\n") == ["a" * size + ".spec"]
    many = "pyinstaller " + " ".join(f"s{n}.spec" for n in range(size // 8)) + "\n"
    assert len(scripts(many)) <= 16


@each_case("path", ["constraints.pro", "packages/web/constraints.pro", "yarn.config.cjs",
                                  "apps/site/yarn.config.cjs"])
def test_yarns_constraints_are_package_manager_settings(path: str) -> None:
    assert_path_rule(path, "deps", "deps.npm.settings")


@each_case("path", ["constraints.pl", "src/constraints.py", "docs/constraints.pro.md", "yarn.config.js",
                                  "lib/constraints.prolog"])
def test_constraints_look_alikes_are_no_yarn_settings(path: str) -> None:
    assert RULES.match(path).rule != "deps.npm.settings"
