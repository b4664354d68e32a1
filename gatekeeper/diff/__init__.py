"""Git patch parsing: `git diff --binary` text in, one FileChange per changed file out.

Streams the patch (never the whole file in memory), keeps non-UTF-8 path bytes as surrogate
escapes, takes counts from hunk lines (so they equal `git diff --numstat`) and marks unsafe paths
instead of raising on them. See docs/packet.md for every form handled.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from gatekeeper.diff.lines import HashingReader, read_lines
from gatekeeper.diff.parser import parse_lines
from gatekeeper.diff.paths import unsafe_reason
from gatekeeper.errors import InputFileError
from gatekeeper.model import FileChange

__all__ = ["HashingReader", "parse_patch", "parse_patch_stream", "unsafe_reason"]


def parse_patch_stream(stream: BinaryIO | HashingReader, name: str) -> Iterator[FileChange]:
    """Parse a binary stream of patch text; `name` is used in PatchError locations (`name:line`).

    Pass a HashingReader to get the sha256 and size of exactly the bytes parsed.
    """
    reader = stream if isinstance(stream, HashingReader) else HashingReader(stream)
    return parse_lines(read_lines(reader, name), name)


def parse_patch(path: Path) -> Iterator[FileChange]:
    """Parse the patch file at `path`, streaming (raises InputFileError when unreadable, PatchError when malformed)."""
    handle = open_patch(path)
    try:
        yield from parse_patch_stream(handle, str(path))
    finally:
        handle.close()


def open_patch(path: Path) -> BinaryIO:
    """Open a patch for binary reading, turning OS errors into an InputFileError."""
    try:
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise InputFileError(
            f"cannot read the patch: {exc.strerror or exc}", where=str(path), hint="check the path and its permissions"
        ) from exc
