"""`gatekeeper deps`: options in, the delta rendered as text or JSON out (the CLI stays thin)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from gatekeeper.deps import advisories
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from gatekeeper.errors import UsageError
from gatekeeper.gitobjects import GitObjects
from gatekeeper.readable import inert_json, printable

_SIGN = {"added": "+", "removed": "-", "upgraded": "↑", "downgraded": "↓", "changed": "~"}


@dataclass(frozen=True, slots=True)
class DepsRequest:
    """What `gatekeeper deps` was asked for."""

    patch: Path | None  # None with `tree`; Path("-") reads stdin
    tree: str | None  # "BASE..HEAD"
    fmt: str
    advisories: Path | None
    repo: Path


def split_range(spec: str) -> tuple[str, str]:
    """BASE and HEAD of `BASE..HEAD` (UsageError for any other form)."""
    base, sep, head = spec.partition("..")
    if not sep or not base or not head or head.startswith("."):
        raise UsageError(f"not a commit range: {spec!r}", where="--tree", hint="write BASE..HEAD (two dots)")
    return base, head


def compute(request: DepsRequest, stdin: BinaryIO) -> Delta:
    """The delta the request names, with vulnerabilities marked when an advisories folder is given."""
    if (request.patch is None) == (request.tree is None):
        raise UsageError("give either a PATCH or --tree BASE..HEAD", hint="see `gatekeeper deps --help`")
    # Load advisories first: a bad folder is reported before any git or patch work.
    index = advisories.load(request.advisories) if request.advisories is not None else None
    if request.tree is not None:
        base, head = split_range(request.tree)
        with GitObjects(request.repo) as git:
            delta = tree_delta(git, base, head)
    elif request.patch == Path("-"):
        delta = patch_delta(None, stdin)
    else:
        delta = patch_delta(request.patch)
    if index is not None:
        delta = Delta(advisories.mark(delta.changes, index), delta.problems)
    return delta


def render_json(delta: Delta) -> str:
    doc = {"changes": [c.to_dict() for c in delta.changes], "problems": [p.to_dict() for p in delta.problems]}
    return inert_json(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"


def render_text(delta: Delta) -> str:
    """A table per manifest, as GitHub's dependency-review-action shows it."""
    counts: dict[str, int] = {}
    for c in delta.changes:
        counts[c.change] = counts.get(c.change, 0) + 1
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "no dependency changes"
    lines = [f"Dependency review: {summary}"]
    manifests = sorted({c.manifest for c in delta.changes})
    for manifest in manifests:
        rows: list[tuple[str, ...]] = [("", "ecosystem", "name", "from", "to", "direct", "scope", "vulnerabilities")]
        for c in delta.changes:
            if c.manifest == manifest:
                pinned = "" if c.pinned is None else " (pinned)" if c.pinned else " (not pinned)"
                if c.claimed:  # unverified: the change's own message says so (docs/dependencies.md)
                    pinned += f" ({c.claimed} claimed by the commit message)"
                rows.append((f"{_SIGN[c.change]} {c.change}", c.ecosystem, c.name, c.from_version or "-",
                             f"{c.to_version or '-'}{pinned}", "yes" if c.direct else "no", c.scope,
                             ", ".join(c.vulnerabilities) or ("-" if not c.partial else "- (partial)")))
        rows = [tuple(printable(v) for v in r) for r in rows]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines += ["", printable(manifest)]
        lines += ["  " + "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    if delta.problems:
        lines += ["", "Not fully read:"] + [printable(f"  {p.manifest}: {p.kind}: {p.msg}") for p in delta.problems]
    return "\n".join(lines) + "\n"


RENDERERS: dict[str, Callable[[Delta], str]] = {"text": render_text, "json": render_json}


def deps_report(request: DepsRequest, stdin: BinaryIO) -> str:
    return RENDERERS[request.fmt](compute(request, stdin))
