"""Reading a patch as lines in one streaming pass that also hashes and counts every byte."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import BinaryIO

from gatekeeper.errors import PatchError, where

CHUNK = 1 << 20
# Only a line's head matters to the parser (its first byte, a header, a symlink target), so a
# longer line is cut here; this bounds memory whatever the patch holds (a 1 GB minified line).
MAX_KEPT = 1 << 16


class HashingReader:
    """Wraps a binary stream; every byte read through it is hashed (sha256) and counted."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._sha = hashlib.sha256()
        self.bytes = 0

    def read(self, size: int) -> bytes:
        data = self._stream.read(size)
        if data:
            self._sha.update(data)
            self.bytes += len(data)
        return data

    def hexdigest(self) -> str:
        return self._sha.hexdigest()


def read_lines(reader: HashingReader, name: str) -> Iterator[tuple[int, bytes, bool]]:
    """Yield `(line_number, line_without_newline, cut)`; `cut` is true when the line was longer than MAX_KEPT.

    Raises PatchError when the last line has no newline: git ends every patch line with one, so
    that is a truncated file.
    """
    number = 0
    pending = b""
    pending_cut = False
    while True:
        data = reader.read(CHUNK)
        if not data:
            break
        start = 0
        if pending or pending_cut:
            nl = data.find(b"\n")
            if nl < 0:
                if not pending_cut:
                    pending += data
                    if len(pending) > MAX_KEPT:
                        pending, pending_cut = pending[:MAX_KEPT], True
                continue
            if not pending_cut:
                pending += data[:nl]
                if len(pending) > MAX_KEPT:
                    pending, pending_cut = pending[:MAX_KEPT], True
            number += 1
            yield number, pending, pending_cut
            pending, pending_cut = b"", False
            start = nl + 1
        parts = data[start:].split(b"\n")
        pending = parts.pop()
        for part in parts:
            number += 1
            if len(part) > MAX_KEPT:
                yield number, part[:MAX_KEPT], True
            else:
                yield number, part, False
        if len(pending) > MAX_KEPT:
            pending, pending_cut = pending[:MAX_KEPT], True
    if pending or pending_cut:
        raise PatchError(
            "the patch ends in the middle of a line (no final newline)",
            where=where(name, number + 1),
            hint="the file looks truncated; take the patch again with `git diff --cached --binary`",
        )
