"""Reading a list of paths (one per line) for `gatekeeper classify --paths`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from gatekeeper.model import FileChange


def read_paths(stream: BinaryIO) -> Iterator[FileChange]:
    """One FileChange (status "modified") per non-empty line; unsafe paths are marked, not refused.

    Lines end with LF or CRLF; a leading "./" is dropped; bytes that are not UTF-8 are kept as
    surrogate escapes, as the patch parser keeps them.
    """
    from gatekeeper.diff import unsafe_reason

    for number, raw in enumerate(stream, start=1):
        line = raw.rstrip(b"\n")
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            continue
        path = line.decode("utf-8", "surrogateescape")
        while path.startswith("./"):
            path = path[2:]
        yield FileChange(path=path, old_path=None, status="modified", unsafe=unsafe_reason(path), line=number)
