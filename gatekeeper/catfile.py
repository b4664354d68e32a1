"""One long-lived `git cat-file --batch` per repository: objects by name, trees listed through it, and the process
handed from one reader of the repository to the next.

A gate opens the same repository several times (its range, its configuration from BASE, the tree context, the
dependency delta): each reader used to start its own `cat-file` and one `ls-tree -r` per commit. Objects never
change, so a reader that closes leaves its process idle for the next reader of the same repository (at most one
idle process, ended when another is left or the interpreter exits), and a commit's tree is read as tree objects
through the same pipe: BASE and HEAD share most subtrees, read once.
"""

from __future__ import annotations

import atexit
import subprocess
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from gatekeeper.errors import GatekeeperError
from gatekeeper.gitcmd import SAFE_GIT, git_program

# Requests written before their answers are read: few enough that they fit in a pipe however git reads them (a
# pipe holds 4 KiB at the least; a request is at most 66 bytes), so neither side can block the other.
_PIPELINE = 48
_Key = tuple[str, str, tuple[tuple[str, str], ...]]
_IDLE: dict[_Key, subprocess.Popen[bytes]] = {}
_IDLE_LOCK = threading.Lock()  # readers in several threads hand processes over one at a time


class CatFileError(GatekeeperError):
    """git cat-file could not be started or stopped answering."""


class CatFile:
    """`git cat-file --batch` in `repo` with `env`; `key` names the repository (its git folder) for the hand-over."""

    def __init__(self, repo: Path, env: dict[str, str], git_dir: str) -> None:
        self.repo = repo
        self._env = env
        self._key: _Key = (str(repo), git_dir, tuple(sorted(env.items())))
        self._process: subprocess.Popen[bytes] | None = None
        self._busy = False  # a read under way: a process left mid-answer is never handed on

    def close(self) -> None:
        """Leave the process idle for the next reader of this repository (ending the one idle before)."""
        process, self._process = self._process, None
        if process is None:
            return
        if self._busy or process.poll() is not None:
            _end(process)
            return
        with _IDLE_LOCK:
            before = list(_IDLE.values())
            _IDLE.clear()
            _IDLE[self._key] = process
        for other in before:
            _end(other)

    def read(self, name: bytes, kind: bytes | None = None, limit: int | None = None) -> tuple[bytes, bytes | None]:
        """The header line for `name` and, when the object is of `kind`, its content (its first `limit` bytes when
        given); the rest of the object is read and dropped."""
        return self.read_many([name], kind, limit)[0]

    def read_many(self, names: Sequence[bytes], kind: bytes | None = None,
                  limit: int | None = None) -> list[tuple[bytes, bytes | None]]:
        """`read` of each name, asked a few at a time before their answers are read (one round trip for many)."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        out: list[tuple[bytes, bytes | None]] = []
        self._busy = True
        for start in range(0, len(names), _PIPELINE):
            chunk = names[start:start + _PIPELINE]
            try:
                process.stdin.write(b"".join(name + b"\n" for name in chunk))
                process.stdin.flush()
                out.extend(_answer(process.stdout, kind, limit) for _ in chunk)
            except (BrokenPipeError, OSError) as exc:
                raise CatFileError(f"git cat-file stopped: {exc}", where=str(self.repo)) from None
        self._busy = False
        return out

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            with _IDLE_LOCK:
                idle = _IDLE.pop(self._key, None)
            if idle is not None and idle.poll() is None:
                self._process = idle
                return idle
            try:
                self._process = subprocess.Popen(
                    [git_program(), *SAFE_GIT, "cat-file", "--batch"], cwd=self.repo, env=self._env,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            except OSError as exc:
                raise CatFileError(f"cannot run git: {exc.strerror}", hint="install git") from None
        return self._process


def _answer(stdout: IO[bytes], kind: bytes | None, limit: int | None) -> tuple[bytes, bytes | None]:
    read = stdout.read
    header = stdout.readline()
    if not header:
        raise OSError("no answer")
    fields = header.split()
    if len(fields) != 3 or not fields[2].isdigit():  # `NAME missing`, `NAME ambiguous`: nothing follows
        return header, None
    size = int(fields[2])
    if fields[1] != kind:
        limit = 0
    want = size if limit is None else min(size, limit)
    data = read(want)
    rest = size - want + 1  # the content's remainder and git's trailing newline
    while rest > 0:
        chunk = read(min(rest, 1 << 16))
        if not chunk:
            break
        rest -= len(chunk)
    return header, data if fields[1] == kind else None


def _end(process: subprocess.Popen[bytes]) -> None:
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            try:
                pipe.close()
            except OSError:
                pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@atexit.register
def _end_idle() -> None:
    with _IDLE_LOCK:
        before = list(_IDLE.values())
        _IDLE.clear()
    for process in before:
        _end(process)


def tree_entries(data: bytes, raw_size: int, where: str) -> Iterable[tuple[str, bytes, str]]:
    """The entries of a tree object as git reads them: (mode, name, object id), the mode canonical as `git ls-tree`
    prints it (git's canon_mode: 100755 for any executable file mode, 100644 for another file, 040000 for a folder,
    120000 for a symlink, 160000 for anything else); CatFileError for an entry git would refuse."""
    at = 0
    while at < len(data):
        space = data.find(b" ", at)
        nul = data.find(b"\0", space + 1) if space >= 0 else -1
        if space <= at or nul < 0 or nul + 1 + raw_size > len(data) or nul == space + 1:
            raise CatFileError("a malformed tree object", where=where)
        text = data[at:space]
        if not text.isdigit() or b"8" in text or b"9" in text:
            raise CatFileError("a malformed mode in a tree object", where=where)
        mode = int(text, 8)
        name = data[space + 1:nul]
        oid = data[nul + 1:nul + 1 + raw_size].hex()
        at = nul + 1 + raw_size
        yield _canon(mode), name, oid


def _canon(mode: int) -> str:
    kind = mode & 0o170000
    if kind == 0o100000:
        return "100755" if mode & 0o100 else "100644"
    if kind == 0o120000:
        return "120000"
    if kind == 0o040000:
        return "040000"
    return "160000"
