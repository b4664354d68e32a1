"""A real git repository in a temporary folder, for tests that need patches git itself made."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import gitdiffs
import gitwrite

from gatekeeper.gitobjects import GitObjects

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
}


# What `git init -q -b main --template=` writes on Linux (tests/test_gitrepo.py compares the two on the same
# filesystem), written without a git process: ~2,000 repositories a run, ~3 ms of CPU each. No template: git
# would copy a dozen sample hooks; nothing here uses them. Then settings: `core.autocrlf false` (patches byte
# for byte), and no automatic maintenance, which every `git commit` otherwise checks for in a child process of
# its own (~2.3 ms of a commit's ~5.5 ms CPU; ~3,300 commits a run).
INIT_CONFIG = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"
# `--author` as tests write it: a plain name and an address (git reads the same two parts).
_AUTHOR = re.compile(r"([A-Za-z][A-Za-z .-]*[A-Za-z]) <([A-Za-z0-9.@_+-]+)>")
SETTINGS = "[core]\n\tautocrlf = false\n[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n"


def init_skeleton(git_dir: Path) -> None:
    for folder in ("objects/info", "objects/pack", "refs/heads", "refs/tags"):
        (git_dir / folder).mkdir(parents=True)
    (git_dir / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (git_dir / "config").write_text(INIT_CONFIG + SETTINGS, encoding="utf-8")


class GitRepo:
    """A scratch repository: write files, commit a base, stage changes, take the patch."""

    config = INIT_CONFIG + SETTINGS  # what a repository this class created holds in .git/config

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        if (root / ".git").exists():  # an existing repository: git reinitialises it, keeping its config and HEAD
            self.git("init", "-q", "-b", "main", "--template=")
            with (root / ".git" / "config").open("a", encoding="utf-8") as config:
                config.write(SETTINGS)
        else:
            init_skeleton(root / ".git")

    def git(self, *args: str, input: bytes | None = None) -> bytes:
        env = {**os.environ, **GIT_ENV}
        done = subprocess.run(
            ["git", *args], cwd=self.root, env=env, input=input, capture_output=True, check=True
        )
        return done.stdout

    def write(self, path: str | bytes, data: bytes | str = b"", mode: int | None = None) -> Path:
        target = self.root / os.fsdecode(path) if isinstance(path, bytes) else self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.encode() if isinstance(data, str) else data)
        if mode is not None:
            target.chmod(mode)
        return target

    def move(self, old: str, new: str) -> None:
        """Rename a file in the work tree (the next patch shows a rename, or a delete and an add)."""
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        os.rename(self.root / old, self.root / new)

    def symlink(self, path: str, target: str) -> None:
        link = self.root / path
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)

    def commit(self, message: str = "base", author: str | None = None) -> str:
        """`git add -A` and `git commit -q --allow-empty -m message [--author author]`: written in this process where
        that is certain to give what git gives (tests/gitwrite.py), else by git. `author`: `Name <email>`."""
        env = GIT_ENV
        if author is not None:
            name, email = _AUTHOR.fullmatch(author).groups()  # type: ignore[union-attr]
            env = {**GIT_ENV, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email}
        made = gitwrite.commit(self.root, message, env, INIT_CONFIG + SETTINGS)
        if made is not None:
            return made
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, *(["--author", author] if author else []))
        return self.head()

    def branch(self, name: str) -> None:
        """`git checkout -q -b name`: written in this process where that is certain to give what git gives
        (tests/gitwrite.py), else by git."""
        if not gitwrite.branch(self.root, name, GIT_ENV, INIT_CONFIG + SETTINGS):
            self.git("checkout", "-q", "-b", name)

    def objects(self) -> GitObjects:
        """gatekeeper's reader of this repository's objects, told its git folder (`<root>/.git`, where this class
        keeps it) rather than asking `git rev-parse --absolute-git-dir` again in every test."""
        return GitObjects(self.root, git_dir=str((self.root / ".git").resolve()))

    def head(self) -> str:
        """HEAD's commit: read from the loose ref a commit on a branch just wrote (no third git process per
        commit, ~1,700 in a run); `git rev-parse` when HEAD is detached or the ref is packed."""
        head = (self.root / ".git" / "HEAD").read_text(encoding="utf-8").strip()
        if head.startswith("ref: "):
            ref = self.root / ".git" / head.removeprefix("ref: ")
            if ref.is_file():
                return ref.read_text(encoding="utf-8").strip()
        return self.git("rev-parse", "HEAD").decode().strip()

    def add(self) -> None:
        """`git add -A`: written in this process where that is certain to give what git gives (tests/gitwrite.py),
        else by git."""
        if not gitwrite.stage(self.root, INIT_CONFIG + SETTINGS):
            self.git("add", "-A")

    def staged_patch(self, *extra: str) -> bytes:
        """Stage everything and return `git diff --cached --binary` against HEAD: written by the session's long-lived
        git process (tests/gitdiffs.py) when this process staged the work tree, else by git here."""
        if gitwrite.stage(self.root, self.config):
            patch = gitdiffs.index_patch(self, "--binary", *extra)
            if patch is not None:
                return patch
        else:
            self.git("add", "-A")
        return self.git("diff", "--cached", "--binary", *extra)

    def save_patch(self, dest: Path, *extra: str) -> Path:
        dest.write_bytes(self.staged_patch(*extra))
        return dest


def edited_commits(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[GitRepo, str, str]:
    """A repository at `root` holding `files` (BASE), then the commit that makes each edit `{old: new}` in its file
    (HEAD): (repo, base, head). Every `old` must be in its file, so an edit that no longer applies fails loudly."""
    repo = GitRepo(root)
    for path, body in files.items():
        repo.write(path, body)
    base = repo.commit()
    for path, pairs in edits.items():
        body = files[path]
        for old, new in pairs.items():
            assert old in body, (path, old)
            body = body.replace(old, new)
        repo.write(path, body)
    return repo, base, repo.commit("bump")


def two_commits(root: Path, base: dict[str, str] | dict[str, bytes],
                head: dict[str, str] | dict[str, bytes]) -> tuple[GitRepo, str, str]:
    """A repository at `root` holding `base` (BASE), then a commit that writes `head` over it (HEAD): (repo, base,
    head)."""
    repo = GitRepo(root)
    for path, text in base.items():
        repo.write(path, text)
    first = repo.commit("base")
    for path, text in head.items():
        repo.write(path, text)
    return repo, first, repo.commit("head")
