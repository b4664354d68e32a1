"""`git add -A && git commit -m MESSAGE` done in this process, for the plain repositories tests build.

~3,500 commits a run went through two git processes each (~8 ms of CPU together). Here the work tree is read,
its blobs, trees and commit are written as loose objects, the index as git writes it (version 2, the stat data
of each file), the branch, its reflog and HEAD's: the same object ids git gives (tests/test_gitwrite.py compares
the two, tree for tree, and has `git status`, `git diff` and `git fsck --strict` accept the result).

It does only what is certain to match: `commit()` returns None, and the caller runs git, whenever anything could
make git behave otherwise: settings other than tests/gitrepo.py's own, a branch not written as a loose ref, an
operation in progress, ignore or attribute files, nested repositories, special files, a path component that is
not plain (only `A-Za-z0-9._+@-`, inner spaces and non-ASCII letters and combining marks in UTF-8, not starting
`.git` or `git~`), or a message that is not one plain line.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import struct
import unicodedata
import zlib
from datetime import datetime
from pathlib import Path

_PLAIN_NAME = re.compile(rb"[A-Za-z0-9._+@-]+")
_PLAIN_ASCII = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+@- ")
_DOT_GIT = re.compile(rb"(?i)\.git\.*")  # what git refuses as a path component (with core.protectNTFS, its default)
_PLAIN_MESSAGE = re.compile(r"[!-~](?:[ -~]*[!-~])?")
_UNSUPPORTED = ("packed-refs", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply",
                "info/sparse-checkout", "info/exclude", "info/attributes", "shallow", "objects/info/alternates")
_SKIP_FILES = (b".gitignore", b".gitattributes", b".gitmodules")
_OWN_VARIABLES = {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
                  "GIT_COMMITTER_DATE", "GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT", "GIT_ASKPASS", "GIT_PAGER",
                  "GIT_EDITOR"}
_NETWORK_VARIABLES = ("GIT_SSL_", "GIT_HTTP_", "GIT_SSH", "GIT_PROXY_", "GIT_TRACE")  # nothing a commit reads


class _Unsupported(Exception):
    """Something in the work tree git might treat differently: let git do it."""


def _plain_name(name: bytes) -> bool:
    """A name git (with GitRepo's settings, on Linux) stores as its bytes: plain ASCII (inner spaces too), or
    UTF-8 whose other characters are letters or combining marks (`café` in NFC or NFD, `日本`: Linux git folds no
    normal form). Not a format or zero-width character (HFS+ ignores them, and git's `.git` guard with it), nor bytes
    that are not UTF-8: git may do otherwise there (tests/test_gitwrite.py compares the names allowed with git's)."""
    if _PLAIN_NAME.fullmatch(name):
        return True
    if name.startswith(b" ") or name.endswith(b" "):  # NTFS drops a trailing space: keep to inner ones
        return False
    try:
        text = name.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return bool(text) and all(char in _PLAIN_ASCII or (char > "\x7f" and unicodedata.category(char)[0] in "LM")
                              for char in text)


def _signature(env: dict[str, str], who: str) -> bytes:
    when = datetime.fromisoformat(env[f"GIT_{who}_DATE"])
    offset = int(when.utcoffset().total_seconds()) // 60  # type: ignore[union-attr]
    sign, offset = ("-", -offset) if offset < 0 else ("+", offset)
    zone = f"{sign}{offset // 60:02d}{offset % 60:02d}"
    return f"{env[f'GIT_{who}_NAME']} <{env[f'GIT_{who}_EMAIL']}> {int(when.timestamp())} {zone}".encode()


class _Writer:
    def __init__(self, git_dir: Path) -> None:
        self.objects = git_dir / "objects"
        self.entries: list[tuple[bytes, os.stat_result, int, bytes]] = []

    def store(self, kind: bytes, body: bytes) -> bytes:
        raw = kind + b" %d\0" % len(body) + body
        oid = hashlib.sha1(raw).digest()
        name = oid.hex()
        path = self.objects / name[:2] / name[2:]
        if not path.exists():
            path.parent.mkdir(exist_ok=True)
            temp = path.with_name(f"tmp_{os.getpid()}_{name[2:]}")
            temp.write_bytes(zlib.compress(raw, 1))
            temp.chmod(0o444)
            os.replace(temp, path)
        return oid

    def tree(self, folder: bytes, prefix: bytes) -> bytes | None:
        """The tree object of `folder` (None when it holds no file: git records no empty folder)."""
        items: list[tuple[bytes, bytes, bytes]] = []  # (sort key, mode, name + oid)
        with os.scandir(folder) as found:
            for entry in found:
                name = entry.name
                if not prefix and name == b".git":
                    continue
                if not _plain_name(name) or _DOT_GIT.fullmatch(name) or name in _SKIP_FILES:
                    raise _Unsupported(name)
                info = entry.stat(follow_symlinks=False)
                path = prefix + name
                if stat.S_ISDIR(info.st_mode):
                    oid = self.tree(entry.path, path + b"/")
                    if oid is not None:
                        items.append((name + b"/", b"40000", name + b"\0" + oid))
                    continue
                if stat.S_ISLNK(info.st_mode):
                    mode, body = 0o120000, os.readlink(entry.path)
                elif stat.S_ISREG(info.st_mode):
                    mode = 0o100755 if info.st_mode & stat.S_IXUSR else 0o100644
                    with open(entry.path, "rb") as handle:
                        body = handle.read()
                else:
                    raise _Unsupported(name)
                oid = self.store(b"blob", body)
                self.entries.append((path, info, mode, oid))
                items.append((name, b"%o" % mode, name + b"\0" + oid))
        if not items:
            return None
        items.sort()
        return self.store(b"tree", b"".join(mode + b" " + rest for _, mode, rest in items))

    def index(self) -> bytes:
        """The index git writes after `git add -A` (version 2, no extensions), entries in path order."""
        parts = [b"DIRC", struct.pack(">II", 2, len(self.entries))]
        for path, info, mode, oid in sorted(self.entries):
            head = struct.pack(
                ">10I", (info.st_ctime_ns // 1_000_000_000) & 0xFFFFFFFF, info.st_ctime_ns % 1_000_000_000,
                (info.st_mtime_ns // 1_000_000_000) & 0xFFFFFFFF, info.st_mtime_ns % 1_000_000_000,
                info.st_dev & 0xFFFFFFFF,
                info.st_ino & 0xFFFFFFFF, mode, info.st_uid & 0xFFFFFFFF, info.st_gid & 0xFFFFFFFF,
                info.st_size & 0xFFFFFFFF)
            entry = head + oid + struct.pack(">H", min(len(path), 0xFFF)) + path
            parts.append(entry + b"\0" * (8 - (len(entry) % 8)))
        body = b"".join(parts)
        return body + hashlib.sha1(body).digest()


def _replace(path: Path, data: bytes) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.write_bytes(data)
    os.replace(temp, path)


def _plain(root: Path, config: str) -> tuple[Path, str] | None:
    """(the branch's ref file, the branch) when the repository is one this module may write to, else None."""
    git_dir = root / ".git"
    if any(name.startswith("GIT_") and name not in _OWN_VARIABLES and not name.startswith(_NETWORK_VARIABLES)
           for name in os.environ):
        return None  # GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_*, ...: the caller's git would obey them
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg and (Path(xdg) / "git").exists():
        return None  # a user's settings git reads (HOME is /nonexistent for the tests' git)
    try:
        if (git_dir / "config").read_text(encoding="utf-8") != config:
            return None
        head = (git_dir / "HEAD").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not head.startswith("ref: refs/heads/") or any((git_dir / name).exists() for name in _UNSUPPORTED):
        return None
    branch = head.removeprefix("ref: ").strip()
    return git_dir / branch, branch


def _staged(root: Path) -> tuple[_Writer, bytes] | None:
    """The work tree's blobs and trees written, the index with them: (the writer, the root tree), or None."""
    writer = _Writer(root / ".git")
    try:
        tree = writer.tree(os.fsencode(root), b"")
    except _Unsupported:
        return None
    _replace(root / ".git" / "index", writer.index())
    return writer, tree if tree is not None else writer.store(b"tree", b"")


def stage(root: Path, config: str) -> bool:
    """`git add -A` in `root`; False (nothing written) when git must do it (see the module's docstring)."""
    return _plain(root, config) is not None and _staged(root) is not None


def commit(root: Path, message: str, env: dict[str, str], config: str) -> str | None:
    """Commit everything in `root`'s work tree on its branch, as `git add -A; git commit -q --allow-empty -m`
    would; the new commit's id, or None when git must do it (see the module's docstring)."""
    plain = _plain(root, config)
    if plain is None or not _PLAIN_MESSAGE.fullmatch(message):
        return None
    ref, branch = plain
    parent = ref.read_text(encoding="ascii").strip() if ref.is_file() else None
    staged = _staged(root)
    if staged is None:
        return None
    writer, tree = staged
    git_dir = root / ".git"
    author, committer = _signature(env, "AUTHOR"), _signature(env, "COMMITTER")
    lines = [b"tree " + tree.hex().encode()]
    if parent:
        lines.append(b"parent " + parent.encode())
    body = b"\n".join([*lines, b"author " + author, b"committer " + committer, b"", message.encode()]) + b"\n"
    new = writer.store(b"commit", body).hex()
    (git_dir / "COMMIT_EDITMSG").write_text(message + "\n", encoding="utf-8")
    what = f"commit: {message}" if parent else f"commit (initial): {message}"
    record = f"{parent or '0' * 40} {new} ".encode() + committer + f"\t{what}\n".encode()
    for log in (git_dir / "logs" / "HEAD", git_dir / "logs" / branch):
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as handle:
            handle.write(record)
    ref.parent.mkdir(parents=True, exist_ok=True)
    _replace(ref, f"{new}\n".encode())
    return new


_BRANCH_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}")


def branch(root: Path, name: str, env: dict[str, str], config: str) -> bool:
    """`git checkout -q -b name` (a new branch at HEAD, checked out); False (nothing written) when git must do it:
    the repository is not one `commit()` writes to, HEAD's branch has no commit, or `name` exists or is not plain."""
    plain = _plain(root, config)
    if plain is None or not _BRANCH_NAME.fullmatch(name):
        return False
    ref, current = plain
    git_dir = root / ".git"
    new = git_dir / "refs" / "heads" / name
    if not ref.is_file() or new.exists() or (git_dir / "logs" / "refs" / "heads" / name).exists():
        return False
    commit = ref.read_text(encoding="ascii").strip()
    committer = _signature(env, "COMMITTER")
    _replace(new, f"{commit}\n".encode())
    records = ((git_dir / "logs" / "refs" / "heads" / name, "0" * 40, "branch: Created from HEAD"),
               (git_dir / "logs" / "HEAD", commit, f"checkout: moving from {current.removeprefix('refs/heads/')} to "
                                                   f"{name}"))
    for log, old, what in records:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as handle:
            handle.write(f"{old} {commit} ".encode() + committer + f"\t{what}\n".encode())
    _replace(git_dir / "HEAD", f"ref: refs/heads/{name}\n".encode())
    return True

