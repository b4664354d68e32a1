"""The dependency table of a decision (its `dependencies` delta), as GitHub's dependency-review-action shows one.

Names, versions and manifests come from the change under review: every cell is escaped by the caller's
escaper (control and bidirectional characters, Markdown markup), and the table is bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gatekeeper.reports.findings import path_text

# A 10,000-dependency lockfile rewrite must not bury the decision; `--format json` lists every change.
MAX_ROWS = 50
_SIGN = {"added": "+", "removed": "-", "upgraded": "\u2191", "downgraded": "\u2193", "changed": "~"}
HEADER = ("change", "ecosystem", "name", "from", "to", "direct", "scope", "vulnerabilities", "manifest")


def changes(decision: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    deps = decision.get("dependencies")
    found = deps.get("changes") if isinstance(deps, Mapping) else None
    return [c for c in found if isinstance(c, Mapping)] if isinstance(found, list) else []


def problems(decision: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    deps = decision.get("dependencies")
    found = deps.get("problems") if isinstance(deps, Mapping) else None
    return [p for p in found if isinstance(p, Mapping)] if isinstance(found, list) else []


def cell(value: object) -> str:
    """A value as one safe line: controls and bidirectional marks escaped as in paths."""
    return path_text("-" if value is None or value == "" else str(value))


def summary(items: list[Mapping[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for c in items:
        kind = str(c.get("change"))
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))


def rows(items: list[Mapping[str, Any]], esc: Callable[[str], str] = str) -> list[tuple[str, ...]]:
    """One row per change (at most MAX_ROWS), every cell made safe by `cell` and then `esc`."""
    out = []
    for c in items[:MAX_ROWS]:
        kind = str(c.get("change"))
        pinned = c.get("pinned")
        to = cell(c.get("to")) + ("" if pinned is None else " (pinned)" if pinned else " (not pinned)")
        if c.get("claimed"):  # unverified: the change's own message says so (docs/dependencies.md)
            to += f" ({cell(c.get('claimed'))} claimed by the commit message)"
        vulns = c.get("vulnerabilities") or []
        values = (f"{_SIGN.get(kind, '?')} {cell(kind)}", cell(c.get("ecosystem")), cell(c.get("name")),
                  cell(c.get("from")), to, "yes" if c.get("direct") else "no", cell(c.get("scope")),
                  cell(", ".join(str(v) for v in vulns) if isinstance(vulns, list) else vulns),
                  cell(c.get("manifest")) + (" (partial)" if c.get("partial") else ""))
        out.append(tuple(esc(v) for v in values))
    return out


def text_lines(decision: Mapping[str, Any]) -> list[str]:
    """The plain-text table (empty when the decision has no dependency changes)."""
    items = changes(decision)
    if not items:
        return []
    table = [HEADER, *rows(items)]
    widths = [max(len(r[i]) for r in table) for i in range(len(HEADER))]
    lines = [f"dependency review: {summary(items)}"]
    lines += ["  " + "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in table]
    if len(items) > MAX_ROWS:
        lines.append(f"  ... and {len(items) - MAX_ROWS} more (--format json lists them all)")
    unread = problems(decision)[:MAX_ROWS]
    lines += [f"  not fully read: {cell(p.get('manifest'))}: {cell(p.get('kind'))}" for p in unread]
    return lines


def markdown_lines(decision: Mapping[str, Any], esc: Callable[[str], str]) -> list[str]:
    """The Markdown table (empty when the decision has no dependency changes); `esc` makes a cell inert."""
    items = changes(decision)
    if not items:
        return []
    lines = [f"#### Dependency review: {esc(summary(items))}", "",
             "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in rows(items, esc)]
    if len(items) > MAX_ROWS:
        lines.append(f"\n\u2026 and {len(items) - MAX_ROWS} more (the JSON report lists them all)")
    lines.append("")
    return lines
