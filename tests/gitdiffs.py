"""Patches git writes for one file going from one text to another, asked of one long-lived git process.

Hundreds of tests want `git diff` of a single edited file (tests/test_deps_edits.py `_patch`): each ran a git
process of its own. Here the two versions are stored as blobs and trees in one scratch repository and
`git diff-tree --stdin -p` writes the patch: git still writes every patch (the same bytes `git diff` writes in
the test's repository; tests/test_gitdiffs.py compares the two), one process per set of options for the session.
A line that is no object id is echoed back and flushed: the end of each answer.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.gitrepo import GIT_ENV, init_skeleton
from tests.gitwrite import _Writer

_END = b"~~ end of answer ~~\n"  # no patch line looks like it: content lines start with " ", "+", "-" or "\\"
_ABBREV = 7  # what `git diff` shows of a blob id in a test's small repository


class _Oracle:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="gitdiffs-"))
        init_skeleton(self.folder / ".git")
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
                cwd=self.folder, env={**os.environ, **GIT_ENV}, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
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
    if not _ORACLE:
        _ORACLE.append(_Oracle())
    oracle = _ORACLE[0]
    for _ in range(2):
        blobs = [oracle.writer.store(b"blob", data) for data in (old, new)]
        trees = [oracle.tree(path, blob) for blob in blobs]
        if not any(oracle.crowded(blob) for blob in blobs):
            break
        oracle.close()  # a fresh repository, where seven digits name each blob
        _ORACLE[0] = oracle = _Oracle()
    return oracle.ask(tuple(options), trees[0], trees[1])
