"""The policy input document a gate hands the engine (schema gatekeeper/schemas/input-v1.schema.json).

Built in two parts, so that the engine child can take the bulk in while the gate finishes the rest (gate.decide):
`input_first` (the files, their summary, the attestation) and `input_rest` (the packet, the claims compared,
`integrity`, and the dependency delta); `whole_input` joins them, `build_input` builds both at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gatekeeper.attest.facts import UNCHECKED
from gatekeeper.deps.gateinput import DepsInput, FactsOf, from_patch
from gatekeeper.model import BUCKETS, TAGS, ClassifiedFile, Derived

_NOTABLE_BUCKETS = frozenset({"ci", "iac", "deps"})
_INPUT_KEYS = ("packet", "files", "summary", "integrity", "attestation", "dependencies")
# The fields a `files` entry of the policy input leaves out when they hold these values (file_entry; the input
# schema's `default`s): absent means this value. Policies read them with `object.get(f, FIELD, DEFAULT)`, or
# where absence answers as the default does (`"x" in f.tags`).
FILE_DEFAULTS: dict[str, Any] = {"old_path": None, "tags": [], "ecosystem": None, "binary": False, "old_mode": None,
                                 "new_mode": None, "symlink_target": None, "unsafe": None}


def build_input(
    packet: Mapping[str, Any], derived: Derived, differences: Sequence[str], *, deps: DepsInput | None = None,
    attestation: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The policy input document (schema gatekeeper/schemas/input-v1.schema.json).

    `deps`: the dependency delta and facts (default: what the patch alone shows).
    `attestation`: what the packet's signature proved (attest.packet.PacketAttestation.to_input); without
    a trust file the packet's runner-only claims are unverified."""
    if deps is None:
        deps = from_patch(Path(derived.patch), None)
    return whole_input(input_first(derived, deps=deps, attestation=attestation), input_rest(packet, differences, deps))


def input_first(derived: Derived, *, deps: DepsInput, attestation: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The policy input's `files`, `summary` and `attestation` (see build_input)."""
    buckets = {bucket: {"files": 0, "additions": 0, "deletions": 0} for bucket in BUCKETS}
    tags = dict.fromkeys(TAGS, 0)
    additions = deletions = 0
    for item in derived.files:
        counts = buckets[item.bucket]
        counts["files"] += 1
        counts["additions"] += item.change.additions
        counts["deletions"] += item.change.deletions
        additions += item.change.additions
        deletions += item.change.deletions
        for tag in item.tags:
            tags[tag] = tags.get(tag, 0) + 1
    entries = [file_entry(item, deps.facts_of) for item in derived.files]
    summary = {"buckets": buckets, "tags": tags, "files": len(entries), "additions": additions, "deletions": deletions,
               "facts": sum(1 for entry in entries if "facts" in entry), "notable": notable(entries)}
    return {
        "files": entries,
        "summary": summary,
        "attestation": dict(attestation) if attestation is not None else UNCHECKED.to_input(),
    }


def input_rest(packet: Mapping[str, Any], differences: Sequence[str], deps: DepsInput) -> dict[str, Any]:
    """The policy input's `packet` (without its `files`), `integrity` (how the packet's claims differ from the patch)
    and `dependencies`."""
    return {"packet": {key: value for key, value in packet.items() if key != "files"},
            "integrity": {"ok": not differences, "differences": list(differences)}, "dependencies": deps.to_input()}


def whole_input(first: Mapping[str, Any], rest: Mapping[str, Any]) -> dict[str, Any]:
    """The policy input from its two parts, its keys in the schema's order."""
    both = {**first, **rest}
    return {key: both[key] for key in _INPUT_KEYS}


def notable(entries: Sequence[Mapping[str, Any]]) -> list[int]:
    """The positions in `files` of the entries a policy looks at one by one (`input.summary.notable`): bucket ci,
    iac or deps, any tag, or facts. A policy reads those through it rather than walking `files` (each walk costs the
    engine ~0.12 s on 10,000 files, whatever it tests); a change of source files only has none."""
    return [index for index, entry in enumerate(entries)
            if entry["bucket"] in _NOTABLE_BUCKETS or "tags" in entry or "facts" in entry]


def file_entry(item: ClassifiedFile, facts_of: FactsOf | None = None) -> dict[str, Any]:
    """One `files` entry of the policy input: the packet's file entry without the fields that hold their
    default (`FILE_DEFAULTS`), plus the folder (`dir`) and, when the file has any, its content `facts`
    (gatekeeper.deps.facts).

    Every field is a few calls of the engine's C input builder for every file (a 10,000-file change: a field
    left out saves 30,000 calls), and a plain source file has six of the eight at their defaults."""
    c = item.change
    entry: dict[str, Any] = {"path": c.path}
    if c.old_path is not None:
        entry["old_path"] = c.old_path
    entry["status"] = c.status
    entry["bucket"] = item.bucket
    entry["rule"] = item.rule
    if item.tags:
        entry["tags"] = list(item.tags)
    if item.ecosystem is not None:
        entry["ecosystem"] = item.ecosystem
    entry["additions"] = c.additions
    entry["deletions"] = c.deletions
    if c.binary:
        entry["binary"] = True
    if c.old_mode is not None:
        entry["old_mode"] = c.old_mode
    if c.new_mode is not None:
        entry["new_mode"] = c.new_mode
    if c.symlink_target is not None:
        entry["symlink_target"] = c.symlink_target
    if c.unsafe is not None:
        entry["unsafe"] = c.unsafe
    entry["dir"] = c.path.rpartition("/")[0]
    facts = facts_of(c) if facts_of is not None else None
    if facts is not None:
        entry["facts"] = facts
    return entry
