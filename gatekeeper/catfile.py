"""One long-lived `git cat-file --batch` per reader: objects by name, and trees listed through it.

A reader used to start its own `cat-file` and one `ls-tree -r` per commit; a commit's tree is now read as tree objects
through the same pipe: BASE and HEAD share most subtrees, read once. The process ends when its reader closes, except
inside `shared_processes()` (the `gate`, `classify`, `packet` and `verify` commands): there the next reader of the
same repository and environment in the same thread takes it over, and the block's end ends it. A command's readers
(the range's ancestry walk, BASE's configuration, the tree context) then start one process instead of three. (An
unscoped hand-over, a process left idle until the interpreter exits, left a child running in a library caller that
waits for its children: removed.)
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import IO

from gatekeeper.errors import GatekeeperError
from gatekeeper.gitcmd import SAFE_GIT, git_program

# Requests written before their answers are read: few enough that they fit in a pipe however git reads them (a
# pipe holds 4 KiB at the least; a request is at most 66 bytes), so neither side can block the other.
_PIPELINE = 48
_Key = tuple[str, tuple[tuple[str, str], ...]]  # what a process reads: its folder and its environment
# The processes readers left for the next reader, within `shared_processes()`. A context variable: a thread started
# inside the block (the gate's tree check) starts with none, so its readers never share one with the block's.
_LEFT: ContextVar[dict[_Key, subprocess.Popen[bytes]] | None] = ContextVar("catfile_left", default=None)


@contextmanager
def shared_processes() -> Iterator[None]:
    """Within the block, a reader that closes leaves its process to the next reader of the same folder and
    environment in this thread; every process left is ended when the block ends."""
    left: dict[_Key, subprocess.Popen[bytes]] = {}
    token = _LEFT.set(left)
    try:
        yield
    finally:
        _LEFT.reset(token)
        for process in left.values():
            _end(process)


class CatFileError(GatekeeperError):
    """git cat-file could not be started or stopped answering."""


class CatFile:
    """`git cat-file --batch` in `repo` with `env`, started at the first read."""

    def __init__(self, repo: Path, env: dict[str, str], *, shareable: bool = True) -> None:
        self.repo = repo
        self._shareable = shareable  # False: its folder goes away when it closes (mergedcopy.py), never left
        self._env = env
        self._key: _Key = (str(repo), tuple(sorted(env.items())))
        self._process: subprocess.Popen[bytes] | None = None
        self._busy = False  # a read under way: a process left mid-answer is never taken over

    def close(self) -> None:
        """End the process, or leave it to the next reader (`shared_processes`)."""
        process, self._process = self._process, None
        if process is None:
            return
        left = _LEFT.get()
        if left is None or not self._shareable or self._busy or process.poll() is not None or self._key in left:
            _end(process)
        else:
            left[self._key] = process

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
            left = _LEFT.get()
            if left is not None and self._shareable and (taken := left.pop(self._key, None)) is not None:
                if taken.poll() is None:
                    self._process = taken
                    return taken
                _end(taken)
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


def tree_entries(data: bytes, raw_size: int, where: str) -> Iterable[tuple[str, bytes, str]]:
    """The entries of a tree object as git reads them: (mode, name, object id), the mode canonical as `git ls-tree`
    prints it (git's canon_mode: 100755 for any executable file mode, 100644 for another file, 040000 for a folder,
    120000 for a symlink, 160000 for anything else); CatFileError for an entry git would refuse.

    One regular expression reads every entry (a 20,000-file tree's objects: 84 -> 30 ms); an object it does not
    read whole, end to end, is read again entry by entry, which names the entry git would refuse."""
    pattern = _ENTRIES.get(raw_size)
    if pattern is None:
        pattern = _ENTRIES[raw_size] = re.compile(rb"([0-7]+) ([^\0]+)\0(.{%d})" % raw_size, re.DOTALL)
    out = []
    end = 0
    modes = _MODES
    for match in pattern.finditer(data):
        if match.start() != end:
            break
        end = match.end()
        text, name, oid = match.groups()
        mode = modes.get(text)
        if mode is None:
            mode = modes[text] = _canon(int(text, 8))
        out.append((mode, name, oid.hex()))
    if end == len(data):
        return out
    return list(_entry_by_entry(data, raw_size, where))


# The entry pattern by the length of a raw object id (20: SHA-1, 32: SHA-256); canonical modes by their text.
_ENTRIES: dict[int, re.Pattern[bytes]] = {}
_MODES: dict[bytes, str] = {}


def _entry_by_entry(data: bytes, raw_size: int, where: str) -> Iterable[tuple[str, bytes, str]]:
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
