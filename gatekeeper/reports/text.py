"""The default report, for people reading a terminal or a CI log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gatekeeper.reports import dependencies
from gatekeeper.reports.findings import (
    HEADLINES,
    Finding,
    counts_phrase,
    display,
    findings,
    one_line,
    outcome,
    path_text,
    policies_phrase,
    short_digest,
)

# A 10,000-file change must not bury the headline; `--format json` lists every path.
MAX_PATHS = 20


def render(decision: Mapping[str, Any]) -> str:
    """The decision as a short plain-text report: outcome, findings with their paths, provenance."""
    items = findings(decision)
    lines = [f"gatekeeper: {HEADLINES[outcome(decision)]}"]
    if decision.get("dry_run"):
        lines.append("  dry run: this is the real decision, but the exit status is 0")
    lines.append(f"  {counts_phrase(items)}; policies: {one_line(policies_phrase(decision))}")
    lines.append(f"  {_change_line(decision)}")
    lines.append(f"  {_bundle_line(decision)}")
    for item in items:
        lines.append("")
        lines.extend(_finding_lines(item))
    table = dependencies.text_lines(decision)
    if table:
        lines += ["", *table]
    return "\n".join(lines) + "\n"


def _finding_lines(item: Finding) -> list[str]:
    where = f" [{one_line(item.bucket)}]" if item.bucket else ""
    head = f"{item.level.upper():<6} {one_line(item.rule)} (policy {one_line(item.policy)}){where}"
    lines = [head]
    # A multi-line message keeps its lines, each indented under its finding.
    lines.extend(f"       {line}" for line in display(item.msg).splitlines() or [""])
    for path in (item.paths or ())[:MAX_PATHS]:
        lines.append(f"       - {path_text(path)}")
    hidden = len(item.paths or ()) - MAX_PATHS
    if hidden > 0:
        lines.append(f"       ... and {hidden} more (--format json lists them all)")
    return lines


def _change_line(decision: Mapping[str, Any]) -> str:
    summary = decision.get("summary") or {}
    packet = decision.get("packet") or {}
    files = summary.get("files", 0)
    noun = "file" if files == 1 else "files"
    buckets = summary.get("buckets") or {}
    spread = ", ".join(
        f"{name} {counts.get('files', 0)}"
        for name, counts in buckets.items()
        if isinstance(counts, Mapping) and counts.get("files")
    )
    text = f"change: {files} {noun}, +{summary.get('additions', 0)} -{summary.get('deletions', 0)}"
    if spread:
        text += f" ({spread})"
    text += f"; diff sha256 {short_digest(packet.get('diff_sha256'))}"
    if packet.get("run_id"):
        text += f"; run {one_line(packet['run_id'])}"
    return text


def _bundle_line(decision: Mapping[str, Any]) -> str:
    bundle = decision.get("bundle") or {}
    text = f"bundle: {one_line(bundle.get('name') or '?')} revision {one_line(bundle.get('revision') or '?')}"
    if bundle.get("commit"):
        text += f" (commit {short_digest(bundle['commit'])})"
    text += f"; digest {short_digest(bundle.get('digest'))}"
    return text
