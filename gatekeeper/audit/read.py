"""Read a decision log for show, stats and replay (verify reads it its own, more forgiving way)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gatekeeper.errors import AuditError, where

REQUIRED = ("seq", "time", "outcome", "findings", "policies", "bundle", "prev", "hash")


@dataclass(frozen=True, slots=True)
class Entry:
    """One record with the line it sits on."""

    line: int
    record: dict[str, Any]


def read_lines(log: Path, *, upto: int | None = None) -> Iterator[tuple[int, bytes]]:
    """Each raw line of `log` (without its newline) and its 1-based number; AuditError when unreadable.

    `upto` stops after that many bytes: a snapshot of a log that gates may be appending to.
    """
    try:
        handle = open(log, "rb")
    except OSError as exc:
        raise AuditError(f"cannot read the decision log: {exc.strerror}", where=str(log),
                         hint="check the path and its permissions") from exc
    with handle:
        try:
            remaining = upto
            for number, raw in enumerate(handle, start=1):
                if remaining is not None:
                    if remaining <= 0:
                        break
                    raw = raw[:remaining]
                    remaining -= len(raw)
                yield number, raw.rstrip(b"\n")
        except OSError as exc:
            raise AuditError(f"cannot read the decision log: {exc.strerror}", where=str(log)) from exc


def parse_record(raw: bytes) -> dict[str, Any] | None:
    """The record on a line, or None when the line is not one."""
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict) or any(key not in record for key in REQUIRED):
        return None
    if not isinstance(record["seq"], int) or not isinstance(record["hash"], str):
        return None
    return record


def load_entries(log: Path) -> list[Entry]:
    """Every record of `log`; a line that is not a record is an AuditError (verify tells more)."""
    entries = []
    for number, raw in read_lines(log):
        record = parse_record(raw)
        if record is None:
            raise AuditError("not a decision record", where=where(log, number),
                             hint="run `gatekeeper audit verify` on the log")
        entries.append(Entry(number, record))
    return entries


def find_entry(entries: list[Entry], ref: str, log: Path) -> Entry:
    """The record named by `ref`: its seq number, or a unique prefix (>= 6 hex digits) of its hash."""
    hits: list[Entry] = []
    if ref.isdigit():
        hits = [e for e in entries if e.record["seq"] == int(ref)]
    prefix = ref.lower()
    if not hits and len(prefix) >= 6 and all(c in "0123456789abcdef" for c in prefix):
        hits = [e for e in entries if e.record["hash"].startswith(prefix)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise AuditError(f"no record {ref!r} in the log", where=str(log),
                         hint="name a record by its seq number or at least 6 hex digits of its hash (see `audit show`)")
    raise AuditError(f"record {ref!r} is ambiguous: {len(hits)} records match", where=str(log),
                     hint="give more digits of the hash")
