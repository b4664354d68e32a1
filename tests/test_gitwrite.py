"""tests/gitwrite.py commits and stages in-process: the objects, index and refs must be the ones git writes.

Twin repositories get the same generated work trees and edits, one committed by tests/gitwrite.py and one by
`git add -A; git commit`; their commits must have the same ids, and git must find the in-process one clean."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import gitwrite
import pytest
from gitrepo import GIT_ENV, INIT_CONFIG, SETTINGS, GitRepo
from tables import each_case

CONFIG = INIT_CONFIG + SETTINGS
NAMES = ["a", "b", "a-b", "a.b", "a0", "A", "_x", "z+1", "v@2", "deep", "src", "x.yaml",
         "caf\u00e9", "cafe\u0301", "\u65e5\u672c", "\u00c9t\u00e9.md",  # NFC and NFD: two names to git
         "two words", "a b.txt"]


def git(root: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=root, env={**os.environ, **GIT_ENV}, capture_output=True,
                          check=True).stdout


def by_git(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").decode().strip()


def edit(rng: random.Random, roots: list[Path]) -> None:
    """The same random edit in each root: new, changed, removed or executable files, symlinks, folders."""
    for _ in range(rng.randint(1, 6)):
        depth = rng.randint(1, 3)
        rel = "/".join(rng.choice(NAMES) for _ in range(depth))
        action = rng.choice(["write", "write", "exec", "link", "remove", "empty"])
        data = rng.choice([b"", b"one\n", b"two\n", bytes(range(256)), b"x" * rng.randint(1, 3000)])
        target = rng.choice(["a", "../b", "nowhere"])
        for root in roots:
            path = root / rel
            if any(p.is_file() or p.is_symlink() for p in [*path.parents][: depth - 1]):
                continue  # a file where a folder would go: the same skip in every root
            if action == "remove":
                if path.is_symlink() or path.is_file():
                    path.unlink()
                continue
            if path.is_dir() and not path.is_symlink():
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_symlink() or path.exists():
                path.unlink()
            if action == "link":
                path.symlink_to(target)
            elif action == "empty":
                path.mkdir()  # an empty folder: git records nothing
            else:
                path.write_bytes(data)
                path.chmod(0o755 if action == "exec" else 0o644)


@each_case("seed", range(12))
def test_commits_are_the_ones_git_makes(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    ours, theirs = GitRepo(tmp_path / "ours"), GitRepo(tmp_path / "theirs")
    for step in range(4):
        edit(rng, [ours.root, theirs.root])
        message = f"step {step}"
        made = gitwrite.commit(ours.root, message, GIT_ENV, CONFIG)
        assert made is not None
        assert made == by_git(theirs.root, message) == git(ours.root, "rev-parse", "HEAD").decode().strip()
        assert git(ours.root, "status", "--porcelain", "--ignored", "--untracked-files=all") == b""
        assert git(ours.root, "diff", "HEAD", "--stat") == b""
        assert git(ours.root, "ls-files", "-s") == git(theirs.root, "ls-files", "-s")
        for log in ("logs/HEAD", "logs/refs/heads/main", "COMMIT_EDITMSG"):
            assert (ours.root / ".git" / log).read_bytes() == (theirs.root / ".git" / log).read_bytes()
    git(ours.root, "fsck", "--strict", "--no-dangling")


def test_the_index_tells_git_what_changed_after(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("a.txt", "one\n")
    repo.write("tools/run", "#!/bin/sh\n", mode=0o755)
    repo.commit()
    repo.write("a.txt", "two\n")  # the same size, written at once: git must still see it (racy entries)
    (repo.root / "tools" / "run").chmod(0o644)
    assert git(repo.root, "status", "--porcelain") == b" M a.txt\n M tools/run\n"


def test_staging_gives_gits_patch(tmp_path: Path) -> None:
    rng = random.Random(99)
    ours, theirs = GitRepo(tmp_path / "ours"), GitRepo(tmp_path / "theirs")
    edit(rng, [ours.root, theirs.root])
    assert ours.commit() == by_git(theirs.root, "base")
    for _ in range(5):
        edit(rng, [ours.root, theirs.root])
        assert gitwrite.stage(ours.root, CONFIG)
        git(theirs.root, "add", "-A")
        assert git(ours.root, "diff", "--cached", "--binary") == git(theirs.root, "diff", "--cached", "--binary")


def _git_folder(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in (root / ".git").rglob("*")
            if path.is_file() and "objects" not in path.relative_to(root).parts}


def test_a_new_branch_is_the_one_git_checkout_makes(tmp_path: Path) -> None:
    ours, theirs = GitRepo(tmp_path / "ours"), GitRepo(tmp_path / "theirs")
    for repo in (ours, theirs):
        repo.write("a.txt", "one\n")
        repo.write("tools/run", "#!/bin/sh\n", mode=0o755)
        repo.commit()
    index = (theirs.root / ".git" / "index").read_bytes()
    assert gitwrite.branch(ours.root, "pr", GIT_ENV, CONFIG)
    git(theirs.root, "checkout", "-q", "-b", "pr")
    after = (theirs.root / ".git" / "index").read_bytes()
    # git rewrites the index with the same entries and adds its cache-tree extension (tree ids it may reuse; no
    # command's answer depends on it); the next commit writes the whole index again
    assert after[:len(index) - 20] == index[:-20] and after[len(index) - 20:].startswith(b"TREE")
    assert _git_folder(ours.root).keys() == _git_folder(theirs.root).keys()
    for path, data in _git_folder(theirs.root).items():
        if path != ".git/index":  # the stat data of the twins' files differs
            assert _git_folder(ours.root)[path] == data, path
    assert ours.commit("on pr") == by_git(theirs.root, "on pr")
    assert git(ours.root, "status", "--porcelain") == b""
    assert not gitwrite.branch(ours.root, "pr", GIT_ENV, CONFIG)  # it exists: git must say so
    assert not gitwrite.branch(ours.root, "-x", GIT_ENV, CONFIG)


@pytest.mark.parametrize("setup", [
    "ignore file", "attributes", "nested repository", "odd name", "dot-git name", "zero-width name", "not utf-8 name",
    "fifo", "settings", "detached",
    "packed branch", "merge in progress", "message", "environment",
])
def test_git_does_what_might_differ(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setup: str) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("a.txt", "one\n")
    first = repo.commit()
    message = "second"
    if setup == "ignore file":
        repo.write(".gitignore", "*.log\n")
        repo.write("x.log", "ignored\n")
    elif setup == "attributes":
        repo.write(".gitattributes", "*.txt text eol=crlf\n")
    elif setup == "nested repository":
        GitRepo(repo.root / "sub").commit()
    elif setup == "odd name":
        repo.write("trailing space ", "x\n")
    elif setup == "dot-git name":
        repo.write("docs/.GIT./x", "x\n")
    elif setup == "zero-width name":
        repo.write(".g\u200cit/x", "x\n")  # HFS+ reads `.git`
    elif setup == "not utf-8 name":
        repo.write(b"caf\xe9.txt", "x\n")
    elif setup == "fifo":
        os.mkfifo(repo.root / "pipe")
    elif setup == "settings":
        repo.git("config", "core.filemode", "false")
    elif setup == "detached":
        repo.git("checkout", "-q", "--detach")
    elif setup == "packed branch":
        repo.git("pack-refs", "--all")
    elif setup == "merge in progress":
        (repo.root / ".git" / "MERGE_HEAD").write_text(first + "\n")
    elif setup == "message":
        message = "two\n\nlines"
    elif setup == "environment":
        monkeypatch.setenv("GIT_INDEX_FILE", str(tmp_path / "other-index"))
    assert gitwrite.commit(repo.root, message, GIT_ENV, CONFIG) is None
    assert not gitwrite.stage(repo.root, CONFIG) or setup == "message"
    assert git(repo.root, "rev-parse", "HEAD").decode().strip() == first  # nothing was written
