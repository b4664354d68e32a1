"""The review packet: derive the facts of a patch (one streaming pass) and build packet v1 from them.

Reading and validating a packet file, and comparing a packet with its patch, live in `gatekeeper.verify`.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, partial
from pathlib import Path
from typing import Any

from gatekeeper import __version__
from gatekeeper.atomic import write_output
from gatekeeper.bounded import load_json, read_bytes
from gatekeeper.classify.change import classify_changes
from gatekeeper.classify.context import classify_in_context, refine, unread_by_path
from gatekeeper.classify.contexttypes import Context
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.diff import HashingReader, open_patch, parse_patch_stream, unsafe_reason
from gatekeeper.errors import PatchError, where
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import BUCKETS, ClassifiedFile, Derived, FileChange
from gatekeeper.readable import inert_json
from gatekeeper.revrange import RevRange
from gatekeeper.verify import validate_packet

SCHEMA_VERSION = 1
RUN_ID = lazy(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")  # what `packet --run-id` accepts
OUTSIDE_RUNNER_SANDBOX = {"backend": "none", "network": "unknown", "egress_checked": False, "env_passed": []}


@dataclass(frozen=True, slots=True)
class Parsed:
    """A patch read once: its bytes' sha256 and size, its file changes, their path tier (`classify_changes`) and what
    tiers 2 and 3 ask of each file alone (`quiet`: context.unread_by_path): what every derivation of the changes starts
    from, whatever context adds markers and content to it."""

    patch: Path
    sha256: str
    bytes: int
    changes: tuple[FileChange, ...]
    paths: tuple[ClassifiedFile, ...]
    quiet: Callable[[], tuple[bool, ...]]  # computed at its first call, once


def parse(patch: Path, rules: RuleSet) -> Parsed:
    """Hash and parse `patch`, and classify its changes by their paths (PatchError / InputFileError on bad input)."""
    with open_patch(patch) as handle:
        reader = HashingReader(handle)
        changes = tuple(parse_patch_stream(reader, str(patch)))
    paths = tuple(classify_changes(changes, rules))
    return Parsed(patch, reader.hexdigest(), reader.bytes, changes, paths, cache(partial(unread_by_path, paths)))


def derive(patch: Path, rules: RuleSet, context: Context | None = None) -> Derived:
    """Hash, parse and classify `patch` (PatchError / InputFileError on bad input).

    `context`: where markers and content come from (a TreeContext); by default the patch itself."""
    return derive_parsed(parse(patch, rules), rules, context)


def derive_parsed(parsed: Parsed, rules: RuleSet, context: Context | None = None) -> Derived:
    """`parsed` classified with `context` (by default the patch itself): tiers 2 and 3 on its path tier. A gate
    that derives one patch with two contexts (a patch packet checked under `--tree`) parses it and runs the path
    tier once."""
    if context is not None:
        return derive_from(str(parsed.patch), parsed.sha256, parsed.bytes, parsed.changes, rules, context=context,
                           files=refine(parsed.paths, rules, context, parsed.quiet))
    own = PatchContext(parsed.patch, parsed.changes, rules.context)
    try:
        return derive_from(str(parsed.patch), parsed.sha256, parsed.bytes, parsed.changes, rules, context=own,
                           files=refine(parsed.paths, rules, own, parsed.quiet))
    finally:
        own.close()


def derive_from(name: str, sha256: str, size: int, changes: Sequence[FileChange], rules: RuleSet, *,
                context: Context | None = None, files: Sequence[ClassifiedFile] | None = None) -> Derived:
    """Build a Derived from already-parsed changes (for callers that stream the patch themselves).

    `files`: the changes already classified with `context` (else they are classified here)."""
    if context is None:
        context = PatchContext(None, changes, rules.context)  # paths only: content-dependent files need context
    if files is None:
        files = classify_in_context(changes, rules, context)
    files = tuple(files)
    radius = {bucket: {"files": 0, "additions": 0, "deletions": 0} for bucket in BUCKETS}
    for item in files:
        totals = radius[item.bucket]
        totals["files"] += 1
        totals["additions"] += item.change.additions
        totals["deletions"] += item.change.deletions
    diff = {
        "sha256": sha256,
        "bytes": size,
        "file_count": len(files),
        "additions": sum(c.additions for c in changes),
        "deletions": sum(c.deletions for c in changes),
    }
    unsafe = tuple(c for c in changes if c.unsafe)
    return Derived(name, sha256, size, files, diff, radius, unsafe, context.kind)


def new_run_id() -> str:
    """A fresh run id: UTC time to the second plus a random suffix (sorts by time, never collides in practice)."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(4)


def now_rfc3339() -> str:
    """The current UTC time as RFC 3339 with a `+00:00` offset (the Rego engine cannot parse `Z`)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_bundle_revision(policy_dir: Path) -> str | None:
    """The `revision` of `<policy_dir>/.manifest`, or None when the manifest is absent or has none."""
    try:
        path = policy_dir / ".manifest"
        manifest = load_json(read_bytes(path), str(path))
    except (OSError, ValueError):
        return None
    revision = manifest.get("revision") if isinstance(manifest, dict) else None
    return revision if isinstance(revision, str) else None


def refuse_unsafe(derived: Derived) -> None:
    """Raise PatchError naming the first unsafe path and its patch line, when there is one."""
    if not derived.unsafe:
        return
    first = derived.unsafe[0]
    shown = first.old_path if first.old_path and unsafe_reason(first.path) is None else first.path
    more = f" (and {len(derived.unsafe) - 1} more unsafe paths)" if len(derived.unsafe) > 1 else ""
    raise PatchError(
        f"unsafe path {shown!r}: {first.unsafe}{more}",
        where=where(derived.patch, first.line),
        hint="a patch may only name relative paths inside the work tree; refusing to build a packet",
    )


def build_packet(
    derived: Derived,
    rules: RuleSet,
    *,
    run_id: str | None = None,
    model_requested: str | None = None,
    model_reported: str | None = None,
    reported_by: str | None = None,
    model_served: Sequence[str] | None = None,
    relay: dict[str, Any] | None = None,
    repository: dict[str, Any] | None = None,
    generator: dict[str, Any] | None = None,
    sandbox: dict[str, Any] | None = None,
    checkpoints: Sequence[dict[str, Any]] = (),
    bundle_revision: str | None = None,
    created_at: str | None = None,
) -> dict[str, Any]:
    """Packet v1 for `derived`, validated against the schema (PatchError when the patch names an unsafe path)."""
    refuse_unsafe(derived)
    packet: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id or new_run_id(),
        "created_at": created_at or now_rfc3339(),
        "tool": {"name": "gatekeeper", "version": __version__},
        # An empty mapping means nothing is known: recorded as null, like a packet built outside the runner.
        "repository": dict(repository) if repository else None,
        "generator": dict(generator) if generator else None,
        "model": {"requested": model_requested, "reported": model_reported, "reported_by": reported_by},
        "diff": dict(derived.diff),
        "blast_radius": {bucket: dict(totals) for bucket, totals in derived.blast_radius.items()},
        "files": [item.to_dict() for item in derived.files],
        "sandbox": dict(sandbox) if sandbox is not None else dict(OUTSIDE_RUNNER_SANDBOX, env_passed=[]),
        "classifier": {"bundle_revision": bundle_revision, "rules_digest": rules.digest, "context": derived.context},
        "checkpoints": [dict(point) for point in checkpoints],
    }
    if model_served is not None:  # only the runner's relay knows; absent means nobody watched
        packet["model"]["served"] = list(model_served)
    if relay is not None:
        packet["relay"] = dict(relay)
    return validate_packet(packet, "packet")


@contextmanager
def open_tree_context(revs: RevRange | None, rules: RuleSet) -> Iterator[TreeContext | None]:
    """The TreeContext of the resolved `--tree` (revrange.resolve_option); None without one."""
    if revs is None:
        yield None
        return
    with TreeContext(revs, rules) as context:
        yield context


def write_packet(path: Path, packet: dict[str, Any]) -> None:
    """Write the packet atomically (temporary file, fsync, rename) as ASCII JSON; a device or pipe the
    user named (`-o /dev/stdout`) gets the bytes as `>` would give them."""
    write_output(path, packet_json(packet))


def packet_json(packet: dict[str, Any]) -> str:
    """The packet as stored: one top-level field per line and one file entry per line, ASCII-escaped.

    Readable and diffable, and fast: `indent=` would force json's pure-Python encoder (3x slower at 10k files).
    """
    out = ["{"]
    last = len(packet) - 1
    for index, (key, value) in enumerate(packet.items()):
        comma = "," if index < last else ""
        if key == "files" and value:
            out.append(f"  {json.dumps(key)}: [")
            out.append(",\n".join("    " + json.dumps(entry, ensure_ascii=True) for entry in value))
            out.append(f"  ]{comma}")
        else:
            out.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=True)}{comma}")
    out.append("}")
    return inert_json("\n".join(out)) + "\n"  # a CI log reads no name in it as a command
