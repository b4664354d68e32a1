"""The relay log: an append-only file of JSON lines, one per model call the relay passed on or refused, each fsynced
before the reply ends; read back as whole records only (a kill mid-write leaves a torn last line, which is no
record), and summarised for the packet. The egress recorder (egresslog.py) keeps its log with the same writer.
"""
from __future__ import annotations

import json
import os
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gatekeeper.bounded import load_json
from gatekeeper.errors import LimitError
from gatekeeper.runner.relay_api import served_models


class RelayLog:
    """The append-only relay log (JSON lines): each record flushed and fsynced before the reply ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _drop_torn_tail(path)
        self._handle = open(path, "ab")  # noqa: SIM115 - kept open for the relay's lifetime
        self._lock = threading.Lock()

    def append(self, record: Mapping[str, Any]) -> None:
        self.extend([record])

    def extend(self, records: Sequence[Mapping[str, Any]]) -> None:
        """Append `records` and fsync once (a burst of them costs one fsync)."""
        if not records:
            return
        data = b"".join(json.dumps(r, sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"
                        for r in records)
        with self._lock:
            self._handle.write(data)
            self._handle.flush()
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        with self._lock:
            self._handle.close()


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


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The packet's view of a relay log: models that answered, counts, refused attempts by host."""
    served = served_models(records)
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
