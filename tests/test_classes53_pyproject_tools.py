"""A pyproject.toml of tool settings only is `other`, with proof on every side (issue 12, classes53; pyprojecttools.py).

Projects packaged by setup.py keep a pyproject.toml for `[tool.black]` or `[tool.pytest.ini_options]` alone (15 of
the 159 root pyproject.toml files of the mirrored repositories' HEADs; the labelled kube-hunter and ansible-mso files):
what a setup.cfg of tool settings only holds, which is already `other`. Lowering from `deps` needs the whole file on
every side to show it; a package, a requirement, a packager's or installer's table or a tool not known to be settings
only keeps it `deps`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from gitrepo import two_commits
from incli import run_cli, tree_classify
from tables import each_case

from gatekeeper.classify.pyprojecttools import RULE, pyproject_tools

# Real shapes, written here.
BLACK = "[tool.black]\nline-length = 120\ntarget-version = ['py38']\n"
PYTEST_RUFF = ('[tool.pytest.ini_options]\nmarkers = [\n    "slow: marks tests as slow",\n]\n\n[tool.ruff]\n'
               'exclude = [".git", ".tox", "build"]\nline-length = 88\n\n[tool.ruff.lint]\nselect = ["E", "F", "I"]\n')
MYPY = ('[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = ["yaml.*"]\nignore_missing_imports = true\n\n'
        '[tool.coverage.run]\nsource = ["plugins"]\n\n[tool.isort]\nprofile = "black"\n')
INLINE = 'tool.codespell = { skip = "*.po,*.svg", ignore-words-list = "crate" }\n'
TOOLS = {"BLACK": BLACK, "PYTEST_RUFF": PYTEST_RUFF, "MYPY": MYPY, "INLINE": INLINE}

# What must stay deps: a package, a build backend, requirements, packagers' and installers' tables, other tools.
KEEP = {
    "project": '[project]\nname = "x"\nversion = "1"\ndependencies = ["requests>=2"]\n\n' + BLACK,
    "build-system": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n' + BLACK,
    "dependency-groups": BLACK + '\n[dependency-groups]\ntest = ["pytest", "pytest-mock"]\n',
    "poetry": BLACK + '\n[tool.poetry.dependencies]\npython = "^3.10"\nrequests = "^2.31"\n',
    "uv": BLACK + '\n[tool.uv.sources]\nmylib = { git = "https://example.invalid/mylib" }\n',
    "hatch": '[tool.hatch.envs.default]\ndependencies = ["pytest"]\n',
    "setuptools": '[tool.setuptools.packages.find]\nwhere = ["src"]\n',
    "tox": '[tool.tox]\nlegacy_tox_ini = """\n[testenv]\ndeps = pytest\n"""\n',
    "cibuildwheel": '[tool.cibuildwheel]\nbefore-build = "pip install cython"\n',
    "unknown-tool": BLACK + '\n[tool.newthing]\nx = 1\n',
    "empty-tool": "[tool]\n",
    "broken": "[tool.black\nline-length = 88\n",
    "empty": "",
    "long": BLACK + "".join(f"# {'padding ' * 10}{i}\n" for i in range(120)),  # past the 8 KiB read whole
}


@each_case("shape", sorted(TOOLS))
def test_tool_settings_only(shape: str) -> None:
    found = pyproject_tools(TOOLS[shape])
    assert found is not None and found[:2] == ("other", RULE), found


@each_case("shape", sorted(k for k in KEEP if k != "long"))
def test_anything_else_is_no_proof(shape: str) -> None:
    assert pyproject_tools(KEEP[shape]) is None


def _entry(tmp_path: Path, base: dict[str, str], head: dict[str, str], path: str = "pyproject.toml") -> dict[str, str]:
    repo, first, second = two_commits(tmp_path / "repo", {"setup.py": "from setuptools import setup\nsetup()\n",
                                                          **base}, head)
    return tree_classify(repo.root, first, second)[path]


@each_case("shape", sorted(TOOLS))
def test_with_the_commits_at_the_root_and_below(tmp_path: Path, shape: str) -> None:
    entry = _entry(tmp_path, {"pyproject.toml": BLACK, "pkg/pyproject.toml": BLACK},
                   {"pyproject.toml": TOOLS[shape] + "# edited\n", "pkg/pyproject.toml": TOOLS[shape] + "# edited\n"})
    assert (entry["bucket"], entry["rule"]) == ("other", RULE), entry
    below = _entry(tmp_path / "b", {"pkg/pyproject.toml": BLACK}, {"pkg/pyproject.toml": TOOLS[shape] + "# edited\n"},
                   "pkg/pyproject.toml")
    assert (below["bucket"], below["rule"]) == ("other", RULE), below


@each_case("shape", sorted(KEEP))
def test_a_change_that_adds_packaging_stays_deps(tmp_path: Path, shape: str) -> None:
    # BASE holds tool settings only; HEAD holds something else: one side without proof keeps deps.
    assert _entry(tmp_path, {"pyproject.toml": BLACK}, {"pyproject.toml": KEEP[shape]})["bucket"] == "deps"


@pytest.mark.parametrize("shape", ["project", "build-system", "poetry"])
def test_a_change_that_removes_packaging_stays_deps(tmp_path: Path, shape: str) -> None:
    # The base side names a package: a change cannot leave deps by deleting what it removes.
    assert _entry(tmp_path, {"pyproject.toml": KEEP[shape]}, {"pyproject.toml": BLACK})["bucket"] == "deps"


def test_a_new_file_from_a_patch_and_an_edit_it_shows_in_part(tmp_path: Path) -> None:
    # An added file is shown whole: proof. An edit shows hunks only: no proof, deps.
    settings = BLACK + "".join(f"[tool.isort.section{i}]\nkey = {i}\n" for i in range(30))
    repo, base, head = two_commits(tmp_path / "repo", {"lib/pyproject.toml": settings},
                                   {"pyproject.toml": PYTEST_RUFF, "lib/pyproject.toml": settings + "[tool.mypy]\n"})
    patch = tmp_path / "change.patch"
    patch.write_bytes(commit_patch(repo, base, head))
    done = run_cli(["classify", patch, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    got = {e["path"]: (e["bucket"], e["rule"]) for e in json.loads(done.stdout)["files"]}
    assert got["pyproject.toml"] == ("other", RULE), got
    assert got["lib/pyproject.toml"][0] == "deps", got


def test_the_gate_still_reviews_new_requirements(tmp_path: Path) -> None:
    # End to end: a tool-settings pyproject.toml that gains a [project] with dependencies is a dependency change.
    repo, base, head = two_commits(tmp_path / "repo", {"pyproject.toml": BLACK, "app.py": "x = 1\n"},
                                   {"pyproject.toml": BLACK + '\n[project]\nname = "a"\nversion = "1"\n'
                                    'dependencies = ["evil-package==6.6.6"]\n'})
    entry = tree_classify(repo.root, base, head)["pyproject.toml"]
    assert entry["bucket"] == "deps", entry
