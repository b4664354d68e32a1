"""`audit show`: the log as a readable table, or as JSON, optionally for one run id."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from gatekeeper.audit.read import Entry

COLUMNS = ("seq", "time", "run id", "outcome", "findings", "policies", "bundle")


def select(entries: Sequence[Entry], run_id: str | None) -> list[Entry]:
    """The entries for `run_id` (exact match), or all of them."""
    if run_id is None:
        return list(entries)
    return [e for e in entries if e.record.get("run_id") == run_id]


def render_json(entries: Sequence[Entry]) -> str:
    """The records as a JSON array, as they are stored."""
    return json.dumps([e.record for e in entries], indent=2, ensure_ascii=True)


def render_table(entries: Sequence[Entry]) -> str:
    """One row per decision; the findings of each decision on indented lines below it."""
    rows = [_row(e.record) for e in entries]
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(COLUMNS)]
    out = ["  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True)).rstrip()]
    for entry, row in zip(entries, rows, strict=True):
        out.append("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
        for finding in entry.record.get("findings") or []:
            out.append("    " + _finding(finding))
    if not rows:
        out.append("(no decisions)")
    return "\n".join(out)


def _row(record: dict[str, Any]) -> list[str]:
    bundle = record.get("bundle") or {}
    commit = (bundle.get("commit") or "")[:10]
    label = f"{bundle.get('revision') or '-'}" + (f"@{commit}" if commit else "")
    if bundle.get("uncommitted"):  # the commit does not hold what decided: only the digest does
        label += f"+uncommitted (digest {str(bundle.get('digest') or '')[:12]})"
    policies = ",".join(f"{p.get('name')}@{p.get('version')}" for p in record.get("policies") or [])
    outcome = str(record.get("outcome")) + (" (dry run)" if record.get("dry_run") else "")
    return [
        str(record.get("seq")),
        str(record.get("time", ""))[:19].replace("T", " "),
        str(record.get("run_id") or "-"),
        outcome,
        str(len(record.get("findings") or [])),
        policies or "-",
        label,
    ]


def _finding(finding: dict[str, Any]) -> str:
    paths = finding.get("paths") or []
    where = f" [{', '.join(paths[:3])}{', ...' if len(paths) > 3 else ''}]" if paths else ""
    return f"{finding.get('level', '?'):6} {finding.get('rule', '?')}: {finding.get('msg', '')}{where}"
