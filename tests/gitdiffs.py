"""Patches git writes for one file going from one text to another, asked of one long-lived git process.

Hundreds of tests want `git diff` of a single edited file (tests/test_deps_edits.py `_patch`): each ran a git
process of its own. Here the two versions are stored as blobs and trees in one scratch repository and
`git diff-tree --stdin -p` writes the patch: git still writes every patch (the same bytes `git diff` writes in
the test's repository; tests/test_gitdiffs.py compares the two), one process per set of options for the session.
A line that is no object id is echoed back and flushed: the end of each answer.

`commit_patch` does the same for `git diff BASE HEAD` between two commits of a test's repository (its loose objects
linked into the scratch repository). GITDIFFS_CHECK=1 in the environment also asks git in the test's repository and
asserts the two are the same bytes (every call site passed so when this was written).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import tempfile
import zlib
from pathlib import Path
from typing import Protocol

from gitwrite import _Unsupported, _Writer

_END = b"~~ end of answer ~~\n"  # no patch line looks like it: content lines start with " ", "+", "-" or "\\"
# git reads no user or system settings here (tests/gitrepo.py GIT_ENV)
_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}
_CONFIG = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
_EMPTY_TREE = bytes.fromhex("4b825dc642cb6eb9a060e54bf8d69288fbee4904")
_ABBREV = 7  # what `git diff` shows of a blob id in a test's small repository
_FULL_ID = re.compile(r"[0-9a-f]{40}")
_INDEX_LINE = re.compile(rb"^index ([0-9a-f]+)\.\.([0-9a-f]+)", re.MULTILINE)
# `git diff A B` follows renames (diff.renames is true by default); `git diff-tree` only when told
_RENAME_OPTIONS = ("-M", "-C", "--find-renames", "--find-copies", "--no-renames")


class Repo(Protocol):
    """What is used of tests/gitrepo.GitRepo (which imports this module)."""

    root: Path
    config: str  # the settings GitRepo writes

    def git(self, *args: str, input: bytes | None = None) -> bytes: ...


class _Oracle:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="gitdiffs-"))
        for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags"):
            (self.folder / ".git" / sub).mkdir(parents=True)
        (self.folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
        (self.folder / ".git" / "config").write_text(_CONFIG, encoding="utf-8")
        self.writer = _Writer(self.folder / ".git")
        self.running: dict[tuple[str, ...], subprocess.Popen[bytes]] = {}

    def close(self) -> None:
        for process in self.running.values():
            assert process.stdin is not None and process.stdout is not None
            process.stdin.close()
            process.stdout.close()
            process.wait()
        self.running.clear()
        shutil.rmtree(self.folder, ignore_errors=True)

    def crowded(self, oid: bytes) -> bool:
        """Whether another object shares `oid`'s first seven hex digits (git would show more of it here)."""
        name = oid.hex()
        folder = self.folder / ".git" / "objects" / name[:2]
        return folder.is_dir() and any(other.startswith(name[2:_ABBREV]) and other != name[2:]
                                       for other in os.listdir(folder))

    def tree(self, path: str, blob: bytes) -> bytes:
        """The root tree holding only `path` (a regular file, 100644) with blob `blob`."""
        parts = path.encode().split(b"/")
        oid = self.writer.store(b"tree", b"100644 " + parts[-1] + b"\0" + blob)
        for folder in reversed(parts[:-1]):
            oid = self.writer.store(b"tree", b"40000 " + folder + b"\0" + oid)
        return oid

    def ask(self, options: tuple[str, ...], old: bytes, new: bytes) -> bytes:
        process = self.running.get(options)
        if process is None:
            process = subprocess.Popen(
                ["git", "-c", f"core.abbrev={_ABBREV}", "diff-tree", "--stdin", "-p", *options],
                cwd=self.folder, env={**os.environ, **_ENV}, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            self.running[options] = process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(old.hex().encode() + b" " + new.hex().encode() + b"\n" + _END)
        process.stdin.flush()
        echo = process.stdout.readline()
        assert echo == old.hex().encode() + b" " + new.hex().encode() + b"\n", echo
        lines = []
        while (line := process.stdout.readline()) != _END:
            assert line, "git diff-tree stopped"
            lines.append(line)
        return b"".join(lines)


_ORACLE: list[_Oracle] = []


@atexit.register
def _close() -> None:
    for oracle in _ORACLE:
        oracle.close()
    _ORACLE.clear()


def file_patch(path: str, old: bytes, new: bytes, *options: str) -> bytes:
    """What `git diff OPTIONS` prints in a repository whose index holds `path` as `old` and whose work tree holds it
    as `new` (a regular file, not executable; no attributes): the patch of that one file, or b"" when unchanged."""
    oracle = _oracle()
    for _ in range(2):
        blobs = [oracle.writer.store(b"blob", data) for data in (old, new)]
        trees = [oracle.tree(path, blob) for blob in blobs]
        if not any(oracle.crowded(blob) for blob in blobs):
            break
        oracle.close()  # a fresh repository, where seven digits name each blob
        _ORACLE[0] = oracle = _Oracle()
    return oracle.ask(tuple(options), trees[0], trees[1])


def commit_patch(repo: Repo, base: str, head: str, *options: str) -> bytes:
    """What `git diff OPTIONS BASE HEAD` prints in `repo` (full commit ids, a loose branch or its `~1`; a repository
    of loose objects, as GitRepo writes one, with no attribute files), from the session's git process: the
    repository's objects are linked into the scratch repository. Anything else is asked of git in `repo` itself."""
    patch = _commit_patch(repo, base, head, *options)
    if os.environ.get("GITDIFFS_CHECK"):
        assert patch == repo.git("diff", *options, base, head), (base, head, options)
    return patch


def index_patch(repo: Repo, *options: str) -> bytes | None:
    """What `git diff --cached OPTIONS` prints in `repo` right after tests/gitwrite.py staged its whole work tree
    (the index holds the work tree): HEAD's tree against the work tree's, from the session's git process; None
    when that cannot be told for certain here (the caller asks git)."""
    git_dir = repo.root / ".git"
    head = _named(git_dir, "HEAD")
    if not _FULL_ID.fullmatch(head) or not _plain(repo):
        return None
    for _ in range(2):
        oracle = _oracle()
        objects = _link_objects(git_dir, oracle)
        try:
            work = _Writer(oracle.folder / ".git").tree(os.fsencode(repo.root), b"") or _EMPTY_TREE
        except _Unsupported:
            return None
        patch = oracle.ask((*_renames(options), *options), bytes.fromhex(_tree_of(objects, head)), work)
        if _short_ids(patch):
            break
        _fresh()
    else:
        raise AssertionError("no scratch repository gave seven-digit ids")
    if os.environ.get("GITDIFFS_CHECK"):
        assert patch == repo.git("diff", "--cached", *options), options
    return patch


def _commit_patch(repo: Repo, base: str, head: str, *options: str) -> bytes:
    git_dir = repo.root / ".git"
    base, head = _named(git_dir, base), _named(git_dir, head)
    if not (_FULL_ID.fullmatch(base) and _FULL_ID.fullmatch(head)) or not _plain(repo):
        return repo.git("diff", *options, base, head)
    for _ in range(2):
        objects = _link_objects(git_dir, _oracle())
        trees = [_tree_of(objects, commit) for commit in (base, head)]
        patch = _ORACLE[0].ask((*_renames(options), *options), bytes.fromhex(trees[0]), bytes.fromhex(trees[1]))
        if _short_ids(patch):
            return patch
        _fresh()
    raise AssertionError("no scratch repository gave seven-digit ids")


def _plain(repo: Repo) -> bool:
    """A repository git reads as the scratch one: GitRepo's settings, loose objects, no attribute files."""
    git_dir = repo.root / ".git"
    return (git_dir / "config").read_text(encoding="utf-8") == repo.config and not _has_attributes(repo.root) \
        and not any((git_dir / "objects" / "pack").glob("*.pack")) and not (git_dir / "info" / "attributes").exists()


def _renames(options: tuple[str, ...]) -> tuple[str, ...]:
    """`git diff` follows renames unless told otherwise (diff.renames is true by default); `git diff-tree` only when
    told."""
    return () if any(option.startswith(_RENAME_OPTIONS) for option in options) else ("-M",)


def _short_ids(patch: bytes) -> bool:
    """Every blob id of the patch's index lines in seven digits (or full): what a small repository shows."""
    return all(len(oid) in (_ABBREV, 40) for pair in _INDEX_LINE.findall(patch) for oid in pair)


def _oracle() -> _Oracle:
    if not _ORACLE:
        _ORACLE.append(_Oracle())
    return _ORACLE[0]


def _fresh() -> None:
    """A new scratch repository (git needed more digits for an id in the old one than in a small one)."""
    _ORACLE[0].close()
    _ORACLE[0] = _Oracle()


def _link_objects(git_dir: Path, oracle: _Oracle) -> Path:
    objects = oracle.folder / ".git" / "objects"
    for folder in (git_dir / "objects").iterdir():
        if len(folder.name) != 2:
            continue
        (objects / folder.name).mkdir(exist_ok=True)
        for item in folder.iterdir():
            target = objects / folder.name / item.name
            if not target.exists():
                try:
                    os.link(item, target)
                except OSError:
                    shutil.copyfile(item, target)
    return objects


def _named(git_dir: Path, name: str) -> str:
    """A full commit id for `name`, a loose branch (or HEAD on one) or its first parent (`~1`); else `name`."""
    branch, _, up = name.partition("~")
    if branch == "HEAD":
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
        branch = head.removeprefix("ref: refs/heads/") if head.startswith("ref: refs/heads/") else ""
    ref = git_dir / "refs" / "heads" / branch
    if _FULL_ID.fullmatch(name) or up not in ("", "1") or not re.fullmatch(r"[A-Za-z0-9_-]+", branch) \
            or not ref.is_file():
        return name
    commit = ref.read_text(encoding="utf-8").strip()
    if up:
        raw = zlib.decompress((git_dir / "objects" / commit[:2] / commit[2:]).read_bytes()).split(b"\0", 1)[1]
        parents = [line[7:] for line in raw.split(b"\n\n")[0].split(b"\n")[1:] if line.startswith(b"parent ")]
        return parents[0].decode() if parents else name
    return commit


def _has_attributes(root: Path) -> bool:
    for folder, dirs, files in os.walk(root):
        if ".gitattributes" in files:
            return True
        if folder == str(root):
            dirs[:] = [d for d in dirs if d != ".git"]
    return False


def _tree_of(objects: Path, commit: str) -> str:
    raw = zlib.decompress((objects / commit[:2] / commit[2:]).read_bytes())
    body = raw.split(b"\0", 1)[1]
    assert body.startswith(b"tree "), commit
    return body[5:45].decode()
