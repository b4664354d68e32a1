"""The staged files against the work tree, read without following a link anywhere in their path.

The runner's `git add` (outside the sandbox) lstats a file and then opens it, and open follows links: a generator that
swaps a file, or a folder above it, for a link to a host file between the two (while a checkpoint runs) has git read
the host file into the checkpoint, and a resume writes that checkpoint into the work tree. After each `git add` every
staged regular file is read again here, each path component opened with O_NOFOLLOW, and its blob id compared with the
index's. A file that differs (changed meanwhile, or read through a link) makes the snapshot fail: a checkpoint is
skipped, the capture stops (the generator has ended by then, so nothing can change a file under it).
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from collections.abc import Mapping
from pathlib import Path

from gatekeeper.atomic import write_atomic
from gatekeeper.errors import RunError
from gatekeeper.gitcmd import SAFE_GIT, git_program

_REGULAR = (b"100644", b"100755")
# What the runner's git runs as `git` (GIT_EXEC_PATH): for a gitlink whose HEAD is unchanged, `git add` runs
# `git status` inside that nested repository, whose `.git/config` and `.gitattributes` are the generator's (a filter
# driver there ran outside the sandbox). This one reads nothing, runs nothing, and says "clean".
QUIET_GIT = "#!/bin/sh\nexit 0\n"
_GITLINK = b"160000"


def quiet_exec_path(run_path: Path) -> str:
    """A folder of the runner's (outside the sandbox's reach, read-only inside it) holding only QUIET_GIT as `git`."""
    folder = run_path / "quiet-git"
    program = folder / "git"
    if not program.is_file() or program.is_symlink() or program.read_text() != QUIET_GIT:
        folder.mkdir(exist_ok=True)
        write_atomic(program, QUIET_GIT, mode=0o755)
    return str(folder)


def _open_no_links(root: Path, rel: bytes) -> int:
    """A descriptor of `root/rel` opened with no link followed in any component (OSError otherwise)."""
    parts = rel.split(b"/")
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        # O_NONBLOCK: a FIFO put there meanwhile does not block the runner; it is not a regular file anyway.
        return os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
    finally:
        os.close(fd)


def _open_regular(root: Path, rel: bytes) -> int | None:
    """A descriptor of the regular file `root/rel` (no link followed), or None."""
    try:
        fd = _open_no_links(root, rel)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def _read_regular(root: Path, rel: bytes, limit: int = 1 << 20) -> bytes | None:
    """A small git file (HEAD, a ref, packed-refs) of a nested repository: None when absent, not a regular file, or
    over `limit` bytes (a generator's huge file is not read into the runner's memory)."""
    fd = _open_regular(root, rel)
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    return data if len(data) <= limit else None


def _blob_id(fd: int, oid_length: int) -> str | None:
    """The blob id of the file open at `fd`, streamed (a huge sparse file is never held in memory); None when its size
    changes while read."""
    size = os.fstat(fd).st_size
    digest = (hashlib.sha256 if oid_length == 64 else hashlib.sha1)(b"blob %d\0" % size)
    done = 0
    while chunk := os.read(fd, 1 << 20):
        done += len(chunk)
        if done > size:
            return None
        digest.update(chunk)
    return digest.hexdigest() if done == size else None


def _git(args: list[str], env: Mapping[str, str], cwd: Path, stdin: int | None, timeout: float) -> bytes:
    try:
        done = subprocess.run([git_program(), *SAFE_GIT, *args], cwd=cwd, env=dict(env),
                              stdin=subprocess.DEVNULL if stdin is None else stdin, capture_output=True,
                              timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunError(f"cannot check the snapshot against the work tree: git {args[0]}: {exc}",
                       where=str(cwd)) from None
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip()[:300]
        raise RunError(f"cannot check the snapshot against the work tree: {detail}", where=str(cwd))
    return done.stdout


def _file_matches(root: Path, rel: bytes, staged: str, env: Mapping[str, str], timeout: float) -> bool:
    fd = _open_regular(root, rel)
    if fd is None:
        return False
    try:
        if _blob_id(fd, len(staged)) == staged:
            return True
        # A `.gitattributes` conversion (no filters: the runner's git has no driver configured) changes the blob:
        # git hashes the very bytes read here, from this descriptor.
        os.lseek(fd, 0, os.SEEK_SET)
        converted = _git(["hash-object", "--stdin", "--path", os.fsdecode(rel)], env, root, fd, timeout)
        return converted.decode().strip() == staged
    finally:
        os.close(fd)


def _gitlink_head(root: Path, rel: bytes) -> str | None:
    """The commit a nested repository's HEAD names, read with no link followed (a `.git` file, a `commondir` or a
    link in the way gives None: git would have read another repository)."""
    git_dir = rel + b"/.git"
    if _read_regular(root, git_dir + b"/commondir") is not None:
        return None
    head = _read_regular(root, git_dir + b"/HEAD")
    if head is None or not head.startswith(b"ref: "):
        return head.strip().decode(errors="replace") if head is not None else None
    name = head[5:].strip()
    if not name.startswith(b"refs/") or b".." in name.split(b"/"):
        return None
    loose = _read_regular(root, git_dir + b"/" + name)
    if loose is not None:
        return loose.strip().decode(errors="replace")
    for line in (_read_regular(root, git_dir + b"/packed-refs", 64 << 20) or b"").splitlines():
        oid, _, ref = line.partition(b" ")
        if ref == name:
            return oid.decode(errors="replace")
    return None


def changed_files(root: Path, base: str, env: Mapping[str, str], timeout: float) -> list[str]:
    """Staged regular files (added or changed against `base`) whose content in the work tree, read with no link
    followed, is not what the index holds (after git's own conversions of `.gitattributes`: eol, ident, encoding), and
    nested repositories (gitlinks) whose HEAD, read the same way, is not the staged commit."""
    raw = _git(["diff-index", "--cached", "--raw", "-z", "--no-renames", base, "--"], env, root, None, timeout)
    fields = raw.split(b"\0")
    differing = []
    for at in range(0, len(fields) - 1, 2):
        meta, rel = fields[at].split(b" "), fields[at + 1]
        if len(meta) < 5 or meta[1] not in (*_REGULAR, _GITLINK):
            continue  # deleted, or a link (its target is what git read with readlink)
        staged = meta[3].decode()
        if meta[1] == _GITLINK:
            # git read the nested repository's HEAD: a `.git` file or `commondir` swapped in names a host repository.
            if _gitlink_head(root, rel) != staged:
                differing.append(os.fsdecode(rel))
            continue
        if not _file_matches(root, rel, staged, env, timeout):
            differing.append(os.fsdecode(rel))
    return differing


def require_work_tree(root: Path, base: str, env: Mapping[str, str], timeout: float, index: Path) -> None:
    """RunError when the staged tree is not the work tree (`changed_files`). `index` (the runner's, whose entries keep
    the stat git saw) is removed, so that the next snapshot reads every file afresh."""
    differing = changed_files(root, base, env, timeout)
    if differing:
        index.unlink(missing_ok=True)
        raise RunError(f"files changed while the runner read them (or were read through a link): "
                       f"{', '.join(differing[:5])}", where=str(root), hint="take the snapshot again")
