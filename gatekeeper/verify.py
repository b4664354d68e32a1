"""Packet validation (JSON Schema 2020-12) and comparison of a packet's claims with its patch."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from gatekeeper import schema_validation
from gatekeeper.bounded import Limits, load_json
from gatekeeper.diff import refuse_device
from gatekeeper.errors import InputFileError, PacketError, where
from gatekeeper.model import Derived

SCHEMA_FILE = "packet-v1.schema.json"
# Facts a file entry states about the patch; `rule`, `tags` and `ecosystem` name rules, which may
# legitimately change between packet and gate, while the bucket they lead to must not.
FILE_FACTS = (
    "old_path",
    "status",
    "bucket",
    "additions",
    "deletions",
    "binary",
    "old_mode",
    "new_mode",
    "symlink_target",
    "unsafe",
)
DIFF_FACTS = ("sha256", "bytes", "file_count", "additions", "deletions")
# A packet is ~290 bytes per changed file (bench/bench_packet.py: 10,000 files, 2.9 MB). The caps allow
# 20x that change and refuse a pipe that never ends, a multi-GB "packet", or nesting meant to crash a parser.
MAX_FILES = 200_000
PACKET_LIMITS = Limits(max_bytes=128 << 20, max_depth=64, max_values=MAX_FILES * 40)
MAX_PACKET_BYTES = PACKET_LIMITS.max_bytes


def schema() -> dict[str, Any]:
    """The packet v1 JSON Schema, as published in the package."""
    return schema_validation.load(SCHEMA_FILE)


def validate_packet(obj: object, where_: str) -> dict[str, Any]:
    """Return `obj` when it is a valid packet v1.

    Else raise PacketError naming `where_` and the bad field's JSON path."""
    files = obj.get("files") if isinstance(obj, dict) else None
    if isinstance(files, list) and len(files) > MAX_FILES:
        # Checked before the schema so that the cost of validating is bounded too (see docs/packet.md#limits).
        raise PacketError(
            f"{len(files):,} file entries, more than the {MAX_FILES:,} a packet may hold",
            where=where(where_, field="files"),
            hint="a change this large cannot be reviewed as one packet; split it",
        )
    error = schema_validation.first_error(SCHEMA_FILE, obj)
    if error is None:
        return cast("dict[str, Any]", obj)
    field, message = error
    raise PacketError(
        message,
        where=where(where_, field=field),
        hint="the packet must match gatekeeper/schemas/packet-v1.schema.json (see docs/packet.md)",
    )


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)  # in C: a packet has ~10 objects per changed file, and this hook runs for each
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}")
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _read_packet_bytes(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            refuse_device(os.fstat(handle.fileno()), path, "packet")
            data = handle.read(MAX_PACKET_BYTES + 1)
    except OSError as exc:
        raise InputFileError(
            f"cannot read the packet: {exc.strerror or exc}", where=str(path), hint="check the path and its permissions"
        ) from exc
    if len(data) > MAX_PACKET_BYTES:
        raise PacketError(
            f"larger than {MAX_PACKET_BYTES >> 20} MiB",
            where=str(path),
            hint="a packet is JSON written by `gatekeeper packet`; it is far smaller than its patch",
        )
    return data


def load_packet(path: Path) -> dict[str, Any]:
    """Read a packet file: UTF-8 JSON (no duplicate keys, no NaN) valid against the schema; PacketError otherwise."""
    return validate_packet(read_packet(path), str(path))


def read_packet(path: Path) -> dict[str, Any]:
    """`load_packet` but for the schema check, which is the caller's to make (`validate_packet`): a JSON object
    within PACKET_LIMITS. The gate checks it beside the engine child, where the parent is idle."""
    data = _read_packet_bytes(Path(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PacketError(
            f"not UTF-8 (byte {exc.start})", where=str(path), hint="a packet is JSON written by `gatekeeper packet`"
        ) from None
    try:
        obj = load_json(text, str(path), PACKET_LIMITS, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise PacketError(
            f"not valid JSON: {exc.msg}",
            where=where(path, exc.lineno),
            hint="a packet is JSON written by `gatekeeper packet`",
        ) from None
    except ValueError as exc:
        raise PacketError(
            f"not valid JSON: {exc}", where=str(path), hint="a packet is JSON written by `gatekeeper packet`"
        ) from None
    return obj if isinstance(obj, dict) else validate_packet(obj, str(path))


def compare(packet: Mapping[str, Any], derived: Derived) -> list[str]:
    """Every difference between what a (schema-valid) packet claims and what its patch shows; empty when they agree."""
    out: list[str] = context_differences(packet, derived)
    claimed_diff = packet.get("diff", {})
    for key in DIFF_FACTS:
        if claimed_diff.get(key) != derived.diff[key]:
            out.append(f"diff.{key}: packet says {claimed_diff.get(key)!r}, patch shows {derived.diff[key]!r}")
    claimed_radius = packet.get("blast_radius", {})
    for bucket, totals in derived.blast_radius.items():
        for key, value in totals.items():
            said = claimed_radius.get(bucket, {}).get(key)
            if said != value:
                out.append(f"blast_radius.{bucket}.{key}: packet says {said!r}, patch shows {value!r}")
    out.extend(_compare_files(packet.get("files", []), [item.to_dict() for item in derived.files]))
    for change in derived.unsafe:
        out.append(f"{derived.patch}:{change.line}: unsafe path {change.path!r}: {change.unsafe}")
    return out


def packet_context(packet: Mapping[str, Any]) -> str:
    """The context a packet says classified it ("tree" or "patch"; absent means patch)."""
    return str((packet.get("classifier") or {}).get("context") or "patch")


def context_differences(packet: Mapping[str, Any], derived: Derived) -> list[str]:
    """A packet is re-derived with the context it names; a different one is a difference."""
    said = packet_context(packet)
    if said == derived.context:
        return []
    hint = "; pass --tree BASE..HEAD to re-derive it" if said == "tree" else ""
    return [f"classifier.context: the packet was classified with {said!r} context, "
            f"re-derived with {derived.context!r}{hint}"]


def _compare_files(claimed: list[dict[str, Any]], actual: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    by_path: dict[object, tuple[int, dict[str, Any]]] = {}
    for index, entry in enumerate(claimed):
        path = entry.get("path")
        if path in by_path:
            out.append(f"files[{index}]: the packet lists {path!r} a second time")
            continue
        by_path[path] = (index, entry)
    actual_paths = set()
    for entry in actual:
        path = entry["path"]
        actual_paths.add(path)
        if path not in by_path:
            out.append(f"files: the patch changes {path!r}, the packet does not list it")
            continue
        index, said = by_path[path]
        if said == entry:  # the common case at C speed: every key equal, so every compared one is too
            continue
        for key in FILE_FACTS:
            if said.get(key) != entry.get(key):
                out.append(
                    f"files[{index}].{key} ({path!r}): packet says {said.get(key)!r}, patch shows {entry.get(key)!r}"
                )
    for path, (index, _) in by_path.items():
        if path not in actual_paths:
            out.append(f"files[{index}]: the packet lists {path!r}, the patch does not change it")
    if not out and [e.get("path") for e in claimed] != [e["path"] for e in actual]:
        out.append("files: the packet lists the files in another order than the patch")
    return out
