"""The relay log: an append-only file of JSON lines, one per model call the relay passed on or refused, each fsynced
before the reply ends; read back as whole records only (a kill mid-write leaves a torn last line, which is no
record), and summarised for the packet. The egress recorder (egresslog.py) keeps its log with the same writer.
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gatekeeper.bounded import load_json
from gatekeeper.errors import LimitError
from gatekeeper.runner.relay_api import served_models

# A model no allowed list holds, served by a call whose record an earlier attempt may have lost (runner 37).
UNRECORDED = "(unrecorded)"


class RelayLog:
    """The append-only relay log (JSON lines): each record flushed and fsynced before the reply ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _drop_torn_tail(path)
        self._handle = open(path, "ab")  # noqa: SIM115 - kept open for the relay's lifetime
        self._lock = threading.Lock()
        # A write that failed (a full disk) may have lost records: the buffer keeps what fits, not all (runner 37).
        self.failed = False

    def append(self, record: Mapping[str, Any]) -> None:
        self.extend([record])

    def extend(self, records: Sequence[Mapping[str, Any]]) -> None:
        """Append `records` and fsync once (a burst of them costs one fsync)."""
        if not records:
            return
        data = b"".join(json.dumps(r, sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"
                        for r in records)
        with self._lock:
            try:
                self._handle.write(data)
                self._handle.flush()
                os.fsync(self._handle.fileno())
            except OSError:
                self.failed = True
                raise

    def close(self) -> None:
        with self._lock:
            self._handle.close()


@dataclass(eq=False)
class Call:
    """One call the relay passed on and has not recorded yet: its record so far, made whole by `finish`, and the
    upstream connection's socket (set once connected), which stopping the relay shuts."""

    record: dict[str, Any]
    finish: Callable[[dict[str, Any]], dict[str, Any]]
    upstream: socket.socket | None = None
    cut: bool = False
    recorded: bool = field(default=False)


class Calls:
    """The calls under way. The relay records a call when it ends, and a generator that read a streamed answer's
    first events can leave while the upstream still streams: its record came after the runner had stopped the relay
    and closed the log, and was lost (runner 37). `cut_all` ends each call, waits for its record, and writes the
    record itself for a call that does not end in time: nothing relayed goes unrecorded."""

    def __init__(self, log: RelayLog) -> None:
        self._log = log
        self._calls: set[Call] = set()
        self._lock = threading.Lock()

    def begin(self, call: Call) -> Call:
        with self._lock:
            self._calls.add(call)
        return call

    def connected(self, call: Call, upstream: socket.socket | None) -> None:
        with self._lock:
            call.upstream = upstream
            if call.cut:
                _shut(upstream)

    def end(self, call: Call, record: Mapping[str, Any]) -> bool:
        """Append `record` unless the call was recorded already (cut_all gave up waiting on it); whether it was."""
        with self._lock:
            self._calls.discard(call)
            if call.recorded:
                return False
            call.recorded = True
            try:
                self._log.append(record)
            except OSError:
                pass  # kept in the log's buffer: the relay's stop writes it, or stops the run (relay.Relay.stop)
            return True

    def cut_all(self, within: float = 5.0) -> None:
        with self._lock:
            for call in self._calls:
                call.cut = True
                _shut(call.upstream)
        until = time.monotonic() + within
        while self._calls and time.monotonic() < until:
            time.sleep(0.01)
        with self._lock:
            for call in list(self._calls):
                call.recorded = True
                record = call.finish(dict(call.record))
                record["error"] = "the run ended during the call: cut off"
                self._log.append(record)
            self._calls.clear()


def _shut(upstream: socket.socket | None) -> None:
    if upstream is not None:
        try:
            upstream.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def read_log(path: Path) -> list[dict[str, Any]]:
    """The whole records of a relay log (a torn last line, left by a kill mid-write, is not one)."""
    if not path.is_file():
        return []
    records = []
    for number, line in enumerate(path.read_bytes().split(b"\n"), 1):
        try:
            record = load_json(line, f"{path}:{number}")
        except (ValueError, LimitError):
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def opened(log: Path) -> None:
    """Mark `log` in use by a relay, before its first record: `log`.open, removed by `closed` once the log is whole.
    One left by an earlier attempt (its runner killed, its log not closed whole) becomes `log`.unclean, for good."""
    marker = Path(f"{log}.open")
    if marker.exists():
        os.replace(marker, f"{log}.unclean")
    marker.touch()


def closed(log: Path, *, whole: bool) -> None:
    """The relay closed `log`: whole (every record written), or not (a write failed: `log`.unclean, for good)."""
    if whole:
        Path(f"{log}.open").unlink(missing_ok=True)
    else:
        os.replace(f"{log}.open", f"{log}.unclean")


def summarize_log(log: Path) -> dict[str, Any]:
    """The packet's relay summary of the whole log, with its sha256 as read (the signed packet names the log its
    counts and models come from); `served` names UNRECORDED when an attempt's relay did not close its log whole."""
    data = log.read_bytes() if log.is_file() else b""
    unclean = os.path.lexists(f"{log}.unclean") or os.path.lexists(f"{log}.open")
    return {**summarize(read_log(log), unclean=unclean), "log_sha256": hashlib.sha256(data).hexdigest()}


def summarize(records: list[dict[str, Any]], *, unclean: bool = False) -> dict[str, Any]:
    """The packet's view of a relay log: models that answered, counts, refused attempts by host."""
    served = sorted({*served_models(records), *([UNRECORDED] if unclean else [])})
    refused = Counter(str(r.get("host") or "relay") for r in records if r.get("refused"))
    return {
        "served": served,
        "requests": sum(1 for r in records if not r.get("refused")),
        "refused": sum(refused.values()),
        "refused_by_host": [{"host": host, "count": n} for host, n in sorted(refused.items())],
        # Saturated at the packet's integer limit (2**53): an upstream's usage past it must not cost the packet.
        "tokens": min(sum(int(r.get("input_tokens") or 0) + int(r.get("output_tokens") or 0) for r in records), 2**53),
    }


def _drop_torn_tail(path: Path) -> None:
    """Cut a last line that a kill left unfinished, so the next record starts on its own line."""
    try:
        with open(path, "rb+") as handle:
            data = handle.read()
            end = data.rfind(b"\n") + 1
            if end != len(data):
                handle.truncate(end)
    except FileNotFoundError:
        pass
