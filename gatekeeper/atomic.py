"""Atomic file writes: a reader sees the old file or the whole new one, never half of it."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gatekeeper.errors import InputFileError


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o644) -> Path:
    """Write `data` to `path` through a temporary file in the same folder, fsync, rename."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise InputFileError(
            f"cannot write: {exc.strerror}", where=str(target), hint="check the folder exists and is writable"
        ) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        fsync_dir(target.parent)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise InputFileError(
                f"cannot write: {exc.strerror}", where=str(target), hint="check free space and permissions"
            ) from exc
        raise
    return target


def write_output(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write a file the user named on the command line (`--output`, `-o`): atomically, except to a character
    device or a pipe (`/dev/null`, `/dev/stdout`, a FIFO), named directly or through a link, which get the
    bytes as `>` would give them — a rename over one would replace the device node (as root, /dev/null
    became a regular file). Internal writes use write_atomic, which never writes through a link."""
    target = Path(path)
    try:
        special = stat.S_ISCHR(os.stat(target).st_mode) or stat.S_ISFIFO(os.stat(target).st_mode)
    except OSError:
        special = False  # absent or unreachable: write_atomic says why if it cannot write
    if not special:
        return write_atomic(target, data)
    try:
        with open(target, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as exc:
        raise InputFileError(f"cannot write: {exc.strerror}", where=str(target),
                             hint="check the device or pipe accepts writes") from exc
    return target


def withdraw_output(path: str | os.PathLike[str] | None) -> None:
    """Remove the file or link the user named for a report that was not written (the command could not decide):
    what lies there came from elsewhere — in CI, often the checkout under review — and a job that publishes the path
    whatever the status would publish it as this run's report. A device, a pipe or a folder stays (best effort)."""
    if path is None:
        return
    try:
        mode = os.lstat(path).st_mode
        if not (stat.S_ISDIR(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            os.unlink(path)
    except OSError:
        pass  # absent, or not ours to remove: the exit status still says no decision was made


def named_input(outputs: Sequence[Path | None], inputs: Sequence[Path | None]) -> Path | None:
    """The input whose directory entry one of `outputs` names (however its folder is spelled: `./`, `..`, absolute, a
    symlinked folder), which a report written there would replace and withdraw_output would remove (review 67b); None
    when none does. A link at the output to an input, or a hard link, is its own entry: replacing it leaves the
    input."""
    taken = {spelling for input_ in inputs if input_ is not None for spelling in (_entry(input_),
                                                                                  os.path.realpath(input_))}
    return next((output for output in outputs if output is not None and _entry(output) in taken), None)


def _entry(path: Path) -> str:
    """The directory entry `path` names: its folder resolved, its last name as given."""
    absolute = os.path.abspath(path)
    return os.path.join(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> Path:
    """Write `obj` as indented JSON (with a final newline) atomically.

    ASCII-escaped so that paths holding non-UTF-8 bytes (kept as surrogate escapes) survive.
    """
    return write_atomic(path, json.dumps(obj, indent=2, sort_keys=False, ensure_ascii=True) + "\n")


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable: the directory entry on disk too (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
