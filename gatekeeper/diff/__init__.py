"""Git patch parsing: `git diff --binary` text in, one FileChange per changed file out.

Streams the patch (never the whole file in memory), keeps non-UTF-8 path bytes as surrogate
escapes, takes counts from hunk lines (so they equal `git diff --numstat`) and marks unsafe paths
instead of raising on them. See docs/packet.md for every form handled.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from gatekeeper.diff.lines import HashingReader, read_lines
from gatekeeper.diff.parser import parse_lines
from gatekeeper.diff.paths import unsafe_reason
from gatekeeper.errors import InputFileError
from gatekeeper.model import FileChange

__all__ = ["HashingReader", "open_patch", "parse_patch", "parse_patch_stream", "refuse_device", "unsafe_reason"]


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
    """Open a patch for binary reading, turning OS errors into an InputFileError.

    A regular file, a pipe (`--patch <(git diff ...)`) or /dev/null; a device such as /dev/zero
    would be read forever, so it is refused.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise InputFileError(
            f"cannot read the patch: {exc.strerror or exc}", where=str(path), hint="check the path and its permissions"
        ) from exc
    try:
        refuse_device(os.fstat(handle.fileno()), path, "patch")
    except BaseException:
        handle.close()
        raise
    return handle


def refuse_device(info: os.stat_result, path: Path, what: str) -> None:
    """Raise InputFileError when `info` is a device other than /dev/null (an endless or special input)."""
    if not (stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)):
        return
    null = os.stat(os.devnull)
    if stat.S_ISCHR(info.st_mode) and info.st_rdev == null.st_rdev:
        return
    raise InputFileError(
        f"the {what} is a device, not a file", where=str(path), hint=f"pass the {what} as a regular file or a pipe"
    )
