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
        error = entry.record.get("error")
        if isinstance(error, dict):  # a could-not-decide record: why the gate exited 2
            out.append(f"    could not decide: {error.get('kind')}: {error.get('message')}")
        out += ["    " + line for line in trust_lines(entry.record)]
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


def trust_lines(record: dict[str, Any]) -> list[str]:
    """Who vouched for what in `record`: the packet's signer, each approval that counted, the record's key.

    As stored: `audit verify --trust` is what checks the record's signature (show only reads it)."""
    lines = []
    attestation = record.get("attestation")
    if isinstance(attestation, dict):
        keyid = str(attestation.get("keyid") or "")[:16]
        lines.append(f"packet   {attestation.get('reason')}" + (f" (key {keyid})" if keyid else ""))
    approvals = record.get("approvals")
    if isinstance(approvals, dict):
        for approval in approvals.get("approvals") or []:
            groups = f" [{','.join(approval.get('groups') or [])}]" if approval.get("groups") else ""
            comment = f": {approval.get('comment')}" if approval.get("comment") else ""
            lines.append(f"approval {approval.get('signer')}{groups} key {str(approval.get('keyid'))[:16]} at "
                         f"{approval.get('approved_at')} accepted {', '.join(approval.get('rules') or [])}{comment}")
        lines += [f"approval not counted: {problem}" for problem in approvals.get("problems") or []]
    signature = record.get("signature")
    if isinstance(signature, dict):
        keyids = [str(s.get("keyid"))[:16] for s in signature.get("signatures") or [] if isinstance(s, dict)]
        lines.append(f"signed   record signed by key {', '.join(keyids) or '?'} (check: audit verify --trust)")
    return lines
