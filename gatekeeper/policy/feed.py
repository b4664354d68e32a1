"""The policy input's file entries, and deriving a patch in batches that hands them on as they exist.

The gate's engine child pushes file entries into the Rego engine while the parent still parses
the rest of the patch; `derive_feeding` is `packet.derive` cut into batches for that purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gatekeeper.classify import RuleSet
    from gatekeeper.model import ClassifiedFile, FileChange
    from gatekeeper.packet import Derived

# Small first batches get the child going early; later ones amortise the pipe and pickle overhead.
_FIRST_BATCH = 256
_BATCH = 2048


def file_entry(item: ClassifiedFile) -> dict[str, Any]:
    """One `files` entry of the policy input: the packet's file entry plus the folder (`dir`)."""
    entry = item.to_dict()
    entry["dir"] = item.change.path.rpartition("/")[0]
    return entry


def derive_feeding(
    patch: Path, rules: RuleSet, consume: Callable[[list[dict[str, Any]]], None], parsed: Callable[[], None]
) -> tuple[Derived, list[dict[str, Any]]]:
    """`packet.derive(patch, rules)` plus every file's input entry, in order.

    Each batch of entries goes to `consume` as soon as it is classified; `parsed` is called after the last.
    """
    from gatekeeper.classify import classify_changes
    from gatekeeper.diff import HashingReader, open_patch, parse_patch_stream
    from gatekeeper.packet import derive_from

    changes: list[FileChange] = []
    entries: list[dict[str, Any]] = []
    size = _FIRST_BATCH
    with open_patch(patch) as handle:
        reader = HashingReader(handle)
        for change in parse_patch_stream(reader, str(patch)):
            changes.append(change)
            if len(changes) - len(entries) >= size:
                _flush(changes, entries, rules, consume, classify_changes, file_entry)
                size = _BATCH
    _flush(changes, entries, rules, consume, classify_changes, file_entry)
    parsed()
    derived = derive_from(str(patch), reader.hexdigest(), reader.bytes, changes, rules)
    return derived, entries


def _flush(changes: list[FileChange], entries: list[dict[str, Any]], rules: RuleSet,
           consume: Callable[[list[dict[str, Any]]], None], classify: Any, entry: Any) -> None:
    batch = [entry(item) for item in classify(changes[len(entries):], rules)]
    if batch:
        entries.extend(batch)
        consume(batch)
