"""Atomic file writes: a reader sees the old file or the whole new one, never half of it."""

from __future__ import annotations

import json
import os
import tempfile
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
