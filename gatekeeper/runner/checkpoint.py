"""Checkpoints: the workspace diff against the base, snapshotted while the generator runs.

Each checkpoint is `checkpoints/NNNN.diff`, written atomically, then listed in state.json; a
snapshot identical to the previous one is not written again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gatekeeper.atomic import fsync_dir
from gatekeeper.runner import workspace
from gatekeeper.runner.rundir import RunDir, now


def _name(seq: int) -> str:
    return f"{seq:04d}.diff"


def take(run: RunDir, base: str, previous: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Snapshot the workspace; the new checkpoint entry, or None when nothing changed since the last."""
    seq = (previous[-1]["seq"] + 1) if previous else 1
    at = now()
    staging = run.checkpoints / ".next.diff"
    snap = workspace.snapshot(run, base, staging)
    last_sha = previous[-1]["sha256"] if previous else None
    if (snap.bytes == 0 and last_sha is None) or snap.sha256 == last_sha:
        staging.unlink(missing_ok=True)
        return None
    staging.replace(run.checkpoints / _name(seq))
    fsync_dir(run.checkpoints)
    return {"seq": seq, "at": at, "sha256": snap.sha256, "bytes": snap.bytes}


def last(run: RunDir, entries: Sequence[Mapping[str, Any]]) -> Path | None:
    """The newest checkpoint file that state.json lists and that is on disk intact."""
    for entry in reversed(entries):
        path = run.checkpoints / _name(int(entry["seq"]))
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() == entry["sha256"]:
            return path
    return None
