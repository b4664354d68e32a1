"""Read a decision log, from a file or a git ref, into one shape that verify, show, stats and replay share."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gatekeeper.audit.line import MAX_LINE_BYTES, parse_line
from gatekeeper.errors import AuditError, where

_SKIP_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Item:
    """One stored record as bytes: a line of a file, or the record of one commit on a git ref."""

    number: int  # the line number, or the position on the ref (1 = the oldest commit)
    raw: bytes
    commit: str | None = None
    defect: str | None = None  # what is wrong around the bytes (git: a merge commit, a tree that is not one record)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A log as read at one moment: what messages call it, and its items in order."""

    name: str  # the file, or REMOTE#REF
    items: tuple[Item, ...]
    in_git: bool = False

    def where(self, number: int) -> str:
        """`file:3`, or `REMOTE#REF: record 3 (commit 0a1b2c3d4e)`, for an error's `where`."""
        return f"{self.name}: {self.label(number)}" if self.in_git else where(self.name, number)

    def label(self, number: int) -> str:
        """How a message names item `number`: `line 3`, or `record 3 (commit 0a1b2c3d4e)`."""
        if not self.in_git:
            return f"line {number}"
        item = self.items[number - 1] if 0 < number <= len(self.items) else None
        commit = f" (commit {item.commit[:12]})" if item is not None and item.commit else ""
        return f"record {number}{commit}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One record with the line (or ref position) it sits on."""

    line: int
    record: dict[str, Any]
    commit: str | None = None


def read_lines(log: Path, *, upto: int | None = None) -> Iterator[tuple[int, bytes]]:
    """Each raw line of `log` (without its newline) and its 1-based number; AuditError when unreadable.

    `upto` stops after that many bytes: a snapshot of a log that gates may be appending to. A line longer
    than MAX_LINE_BYTES comes back cut to MAX_LINE_BYTES + 1 bytes (the reader refuses it), never whole.
    """
    try:
        handle = open(log, "rb")
    except OSError as exc:
        raise AuditError(f"cannot read the decision log: {exc.strerror}", where=str(log),
                         hint="check the path and its permissions") from exc
    with handle:
        try:
            remaining = upto
            number = 0
            while remaining is None or remaining > 0:
                raw = handle.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    break
                number += 1
                consumed = len(raw)
                if not raw.endswith(b"\n") and len(raw) > MAX_LINE_BYTES:
                    consumed += _skip_rest_of_line(handle)
                if remaining is not None:
                    raw = raw[:remaining]
                    remaining -= consumed
                yield number, raw.removesuffix(b"\n")
        except OSError as exc:
            raise AuditError(f"cannot read the decision log: {exc.strerror}", where=str(log)) from exc


def _skip_rest_of_line(handle: Any) -> int:
    skipped = 0
    while True:
        chunk = handle.readline(_SKIP_CHUNK)
        skipped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return skipped


def snapshot_file(log: Path, *, upto: int | None = None) -> Snapshot:
    """The lines of `log` (up to `upto` bytes) as a Snapshot."""
    return Snapshot(str(log), tuple(Item(number, raw) for number, raw in read_lines(log, upto=upto)))


def load_entries(snapshot: Snapshot) -> list[Entry]:
    """Every record of the log; one that is not a canonical record is an AuditError (verify tells more)."""
    entries = []
    for item in snapshot.items:
        parsed = parse_line(item.raw)
        if item.defect is not None or parsed.record is None or not parsed.ok:
            raise AuditError(f"not a decision record: {item.defect or parsed.reason}",
                             where=snapshot.where(item.number),
                             hint="run `gatekeeper audit verify` on the log")
        entries.append(Entry(item.number, parsed.record, item.commit))
    return entries


def find_entry(entries: list[Entry], ref: str, name: str) -> Entry:
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
        raise AuditError(f"no record {ref!r} in the log", where=name,
                         hint="name a record by its seq number or at least 6 hex digits of its hash (see `audit show`)")
    raise AuditError(f"record {ref!r} is ambiguous: {len(hits)} records match", where=name,
                     hint="give more digits of the hash")
