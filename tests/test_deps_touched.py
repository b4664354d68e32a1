"""Which dependency files two commits differ in: what `git diff-tree -r --no-renames` lists (read through the batch
process, GitObjects.changed), or from both trees' listings when the reader holds them (the gate's TreeContext
listed them). The two routes must give the same files in the same order as git diff-tree itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import treeblobs
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.sources import tree_delta
from gatekeeper.deps.treeblobs import touched_files
from gatekeeper.gitobjects import GitObjects
from tests.gitrepo import GitRepo

BASE = {
    "requirements.txt": "requests==2.31.0\n",
    "a": "a file that becomes a folder\n",
    "a.b/requirements.txt": "flask==3.0.0\n",
    "a-b/requirements.txt": "flask==3.0.0\n",
    "b/Cargo.toml": '[package]\nname = "b"\nversion = "0.1.0"\n',
    "c/go.mod": "module c\n\nrequire github.com/a/b v1.0.0\n",
    "Dockerfile": "FROM python:3.11-slim\n",
    "pom.xml": "<project><version>1</version></project>\n",
    "src/main.go": "package main\n",
    "web/package.json": '{"dependencies": {"left-pad": "1.0.0"}}\n',
}


@pytest.fixture(scope="module")
def commits(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, str]:
    """BASE, then a HEAD that adds, deletes, edits, changes the type and mode of dependency files, turns a file into
    a folder, adds a gitlink and a file whose name is not UTF-8, and edits source files (which are left out)."""
    repo = GitRepo(tmp_path_factory.mktemp("touched") / "repo")
    for path, text in BASE.items():
        repo.write(path, text)
    base = repo.commit()
    repo.write("requirements.txt", "requests==2.32.0\n")
    (repo.root / "a").unlink()
    repo.write("a/requirements.txt", "httpx==0.27.0\n")  # `a` (a file) gone, `a/requirements.txt` new
    repo.write("a.b/requirements.txt", "flask==3.0.1\n")
    repo.write("a-b/requirements.txt", "flask==3.0.2\n")
    (repo.root / "b/Cargo.toml").unlink()
    (repo.root / "c/go.mod").chmod(0o755)  # the mode alone
    (repo.root / "Dockerfile").unlink()
    repo.symlink("Dockerfile", "c/go.mod")  # a file becomes a link
    repo.write("pom.xml", "<project><version>2</version></project>\n")
    repo.write("src/main.go", "package main // edited\n")
    repo.write(b"\xff\xfe/requirements.txt", "six==1.16.0\n")  # sorts after `\U0001f600/` as bytes, before as text
    repo.write("\U0001f600/requirements.txt", "attrs==23.0.0\n")
    repo.write("web/package.json", '{"dependencies": {"left-pad": "1.1.0"}}\n')
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{base},vendor/lib")
    repo.git("commit", "-q", "-m", "head")
    return repo, base, repo.head()


def _diff_tree(repo: GitRepo, base: str, head: str) -> list[treeblobs.Touched]:
    """What git diff-tree itself lists, filtered as touched_files filters."""
    fields = repo.git("diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", base, head).split(b"\0")
    out = []
    for meta, name in zip(fields[0::2], fields[1::2], strict=False):
        old_mode, new_mode, old_oid, new_oid, _ = meta[1:].decode().split(" ")
        path = os.fsdecode(name)
        if treeblobs._reads(path, old_mode, new_mode):
            out.append(treeblobs.Touched(path, old_mode, new_mode, old_oid, new_oid))
    return out


def test_both_routes_list_the_same_files_in_the_same_order(commits: tuple[GitRepo, str, str]) -> None:
    repo, base, head = commits
    with repo.objects() as git:
        assert git.listed(base) is None
        by_git = touched_files(git, base, head)
    with repo.objects() as git:
        git.tree(base), git.tree(head)
        assert git.listed(base) is not None and git.listed(head) is not None
        by_trees = touched_files(git, base, head)
    assert by_trees == by_git == _diff_tree(repo, base, head)
    paths = [t.path for t in by_git]
    assert "src/main.go" not in paths and "a" not in paths  # no format reads them
    assert {"a/requirements.txt", "b/Cargo.toml", "c/go.mod", "Dockerfile", "pom.xml", "vendor/lib",
            "\udcff\udcfe/requirements.txt"} <= set(paths)


def test_the_listings_route_runs_no_git(commits: tuple[GitRepo, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    repo, base, head = commits
    with repo.objects() as git:
        expected = touched_files(git, base, head)
        git.tree(base), git.tree(head)

        def refused(*args: object, **kwargs: object) -> None:
            raise AssertionError("the trees were compared again although both were listed")

        monkeypatch.setattr(GitObjects, "changed", refused)
        assert touched_files(git, base, head) == expected


def test_the_order_is_what_git_diff_tree_gives_for_many_names(tmp_path: Path) -> None:
    """Names whose order differs between a path's characters and git's tree order (`a-`, `a.`, `a/`, `a0`), and
    names beyond ASCII: both routes list them alike."""
    names = ["x/requirements.txt", "x-/requirements.txt", "x.y/requirements.txt", "x0/requirements.txt",
             "x/y/requirements.txt", "xy/requirements.txt", "é/requirements.txt", "z/requirements.txt",
             "requirements.txt", "Requirements.txt", "requirements-dev.txt", "requirements/base.txt"]
    repo = GitRepo(tmp_path / "repo")
    for index, name in enumerate(names):
        repo.write(name, f"pkg{index}==1.0\n")
    base = repo.commit()
    for index, name in enumerate(names):
        repo.write(name, f"pkg{index}==2.0\n")
    head = repo.commit("head")
    with repo.objects() as git:
        by_git = touched_files(git, base, head)
        git.tree(base), git.tree(head)
        by_trees = touched_files(git, base, head)
    assert len(by_git) == len(names) and by_trees == by_git == _diff_tree(repo, base, head)


def test_the_delta_is_the_same_through_either_route(commits: tuple[GitRepo, str, str]) -> None:
    repo, base, head = commits
    with repo.objects() as git:
        by_git = tree_delta(git, base, head)
    with repo.objects() as git:
        git.tree(base), git.tree(head)
        by_trees = tree_delta(git, base, head)
    assert by_trees == by_git and by_git.changes


NAMES = [
    "requirements.txt", "REQUIREMENTS.TXT", "requirements.in", "constraints.txt", "requirements-dev.lock",
    "requirements.lock", "compose.yml", "docker-compose.override.yaml", "libs.versions.toml", "app.csproj",
    "main.tf", "rules.mk", "build.gradle", "build.gradle.kts", "Dockerfile", "Dockerfile.prod", "x.dockerfile",
    "Containerfile", "go.mod", "go.sum", "package.json", "Cargo.lock", "pom.xml", "Makefile", "main.go", "README",
    "x.txt", "notes.in", "x.lock", "x.toml", "x.yml", "requirements.txt\n", "compose.yml\n", "requirements.\u0131n",
    "requirements-x.loc\u212a", "requirements.t\u0445t", "caf\u00e9.go", "a.b.c", ".txt", "txt", "",
]


@each_case("folder, name", [(folder, name) for name in NAMES
                            for folder in ["", "requirements/", ".github/workflows/", "deep/er/"]])
def test_format_for_answers_as_without_its_suffix_shortcut(folder: str, name: str) -> None:
    """format_for's shortcut (no rule can match a name of another suffix) gives what its rules give: line breaks
    (`$` matches before one) and non-ASCII letters IGNORECASE folds (`ı`, the Kelvin sign) take the rules."""
    shortcut = format_for(folder + name)

    class Every:
        def __contains__(self, item: object) -> bool:
            return True

    with pytest.MonkeyPatch.context() as monkeypatch:  # undone before the next case's shortcut
        monkeypatch.setattr("gatekeeper.deps.registry._SUFFIXES", Every())
        assert format_for(folder + name) == shortcut
