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
    from gatekeeper.classify.context import Context
    from gatekeeper.deps.gateinput import FactsOf
    from gatekeeper.model import ClassifiedFile, FileChange
    from gatekeeper.packet import Derived

# Small first batches get the child going early; later ones amortise the pipe and pickle overhead.
_FIRST_BATCH = 256
_BATCH = 2048


def file_entry(item: ClassifiedFile, facts_of: FactsOf | None = None) -> dict[str, Any]:
    """One `files` entry of the policy input: the packet's file entry plus the folder (`dir`) and, when
    the file has any, its content `facts` (gatekeeper.deps.facts)."""
    entry = item.to_dict()
    entry["dir"] = item.change.path.rpartition("/")[0]
    facts = facts_of(item.change) if facts_of is not None else None
    if facts is not None:
        entry["facts"] = facts
    return entry


def derive_feeding(
    patch: Path, rules: RuleSet, consume: Callable[[list[dict[str, Any]]], None], parsed: Callable[[], None],
    context: Context | None = None, facts_of: FactsOf | None = None,
) -> tuple[Derived, list[dict[str, Any]]]:
    """`packet.derive(patch, rules, context)` plus every file's input entry, in order.

    Each batch of entries goes to `consume` as soon as it is classified; `parsed` is called after the last.
    Batches go out while the patch is parsed, except when the patch context must see every path first:
    a patch that mentions a marker name anywhere (a marker anywhere in it counts).
    """
    from gatekeeper.classify.patchcontext import PatchContext
    from gatekeeper.diff import HashingReader, open_patch, parse_patch_stream
    from gatekeeper.packet import derive_from

    changes: list[FileChange] = []
    files: list[ClassifiedFile] = []
    entries: list[dict[str, Any]] = []
    size = _FIRST_BATCH
    own = PatchContext.streaming(patch, rules.context) if context is None else None
    live: Context | None = context or own
    try:
        with open_patch(patch) as handle:
            reader = HashingReader(handle)
            for change in parse_patch_stream(reader, str(patch)):
                changes.append(change)
                if live is not None and len(changes) - len(files) >= size:
                    _flush(changes, files, entries, rules, live, consume, facts_of)
                    size = _BATCH
        if live is None:
            live = own = PatchContext(patch, changes, rules.context)
            while len(files) < len(changes):
                _flush(changes[: len(files) + size], files, entries, rules, live, consume, facts_of)
                size = _BATCH
        _flush(changes, files, entries, rules, live, consume, facts_of)
    finally:
        if own is not None:
            own.close()
    parsed()
    derived = derive_from(str(patch), reader.hexdigest(), reader.bytes, changes, rules, context=live, files=files)
    return derived, entries


def _flush(changes: list[FileChange], files: list[ClassifiedFile], entries: list[dict[str, Any]], rules: RuleSet,
           context: Context, consume: Callable[[list[dict[str, Any]]], None], facts_of: FactsOf | None) -> None:
    from gatekeeper.classify.context import classify_in_context

    done = classify_in_context(changes[len(files):], rules, context)
    if done:
        files.extend(done)
        batch = [file_entry(item, facts_of) for item in done]
        entries.extend(batch)
        consume(batch)
