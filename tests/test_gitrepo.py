"""tests/gitrepo.py writes a new repository's `.git` itself: it must be what `git init` writes, and work as one."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from gitrepo import GIT_ENV, INIT_CONFIG, GitRepo


def _layout(git_dir: Path) -> dict[str, bytes | None]:
    found: dict[str, bytes | None] = {}
    for current, _, files in os.walk(git_dir):
        folder = Path(current)
        found[folder.relative_to(git_dir).as_posix()] = None
        for name in files:
            found[(folder / name).relative_to(git_dir).as_posix()] = (folder / name).read_bytes()
    return found


def test_the_skeleton_is_what_git_init_writes_here(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", "--template=", str(tmp_path / "real")], check=True,
                   env={**os.environ, **GIT_ENV}, capture_output=True)
    ours = GitRepo(tmp_path / "ours")
    real = _layout(tmp_path / "real" / ".git")
    made = _layout(ours.root / ".git")
    assert made.keys() == real.keys()
    assert {k: v for k, v in made.items() if k != "config"} == {k: v for k, v in real.items() if k != "config"}
    assert real["config"] == INIT_CONFIG.encode()
    assert made["config"] is not None and made["config"].startswith(INIT_CONFIG.encode())


def test_git_works_in_it(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    assert repo.git("rev-parse", "--is-inside-work-tree").strip() == b"true"
    assert repo.git("config", "core.autocrlf").strip() == b"false"
    repo.write("a.txt", "one\n")
    base = repo.commit()
    repo.write("a.txt", "two\n")
    assert b"+two" in repo.staged_patch()
    assert repo.git("symbolic-ref", "HEAD").strip() == b"refs/heads/main"
    assert repo.git("rev-parse", "main").decode().strip() == base
    repo.git("fsck", "--strict")
