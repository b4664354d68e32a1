"""A pull-request comment (and GitHub job summary): headline, findings table, collapsed paths.

Paths come from an agent's patch and are untrusted: every piece of data is escaped so that it
renders as literal text and can neither inject Markdown, HTML, links nor break the table.
"""

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
    outcome,
    path_text,
    short_digest,
)

ICONS: Mapping[str, str] = {"allow": "\u2705", "review": "\u26a0\ufe0f", "deny": "\u26d4"}
# GitHub caps a comment at 65,536 characters: keep each finding's path list readable and bounded.
MAX_PATHS = 100
# What can start emphasis, code, links, tables, strikethrough or math mid-line: `#`, `-`, `+`, `.`
# only matter at the start of a line, where escaped data never stands.
_SPECIAL = frozenset("\\`*_[]|~$!")
_ENTITIES: Mapping[str, str] = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;"}


def render(decision: Mapping[str, Any]) -> str:
    """The decision as GitHub-flavoured Markdown."""
    items = findings(decision)
    verdict = outcome(decision)
    lines = [f"### {ICONS[verdict]} gatekeeper: {HEADLINES[verdict]}", ""]
    if decision.get("dry_run"):
        lines += ["> **Dry run**: this is the real decision; the check did not fail because of it.", ""]
    lines += [f"{escape(counts_phrase(items)).capitalize()} \u00b7 policies: {_policies(decision)}", ""]
    if items:
        lines += ["| level | policy | rule | finding | files |", "|---|---|---|---|---|"]
        lines += [_row(item) for item in items]
        lines.append("")
        for item in items:
            if item.paths:
                lines += _path_list(item)
    lines += dependencies.markdown_lines(decision, escape)
    lines.append(_footer(decision))
    return "\n".join(lines) + "\n"


def escape(text: object) -> str:
    """Markdown-inert text: markup characters backslash-escaped, `<>&"` as entities, no line breaks."""
    out = []
    for char in " ".join(display(text).split()):
        if char in _ENTITIES:
            out.append(_ENTITIES[char])
        elif char in _SPECIAL:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def code(text: object) -> str:
    """`text` shown as code without a backtick span (a backtick in the data could close one)."""
    return f"<code>{escape(text)}</code>"


def _row(item: Finding) -> str:
    files = str(len(item.paths or ())) if item.paths else "\u2013"
    # A multi-line message keeps its breaks inside the cell.
    message = "<br>".join(escape(line) for line in display(item.msg).splitlines()) or "\u2013"
    bucket = f" ({escape(item.bucket)})" if item.bucket else ""
    return f"| **{item.level}** | {escape(item.policy)} | {code(item.rule)} | {message}{bucket} | {files} |"


def _path_list(item: Finding) -> list[str]:
    noun = "file" if len(item.paths or ()) == 1 else "files"
    lines = [
        "<details>",
        f"<summary>{code(item.rule)}: {len(item.paths or ())} {noun}</summary>",
        "",
    ]
    lines += [f"- {code(path_text(path))}" for path in (item.paths or ())[:MAX_PATHS]]
    hidden = len(item.paths or ()) - MAX_PATHS
    if hidden > 0:
        lines.append(f"- \u2026 and {hidden} more (the JSON or SARIF report lists them all)")
    lines += ["", "</details>", ""]
    return lines


def _policies(decision: Mapping[str, Any]) -> str:
    names = [
        f"{escape(p.get('name', '?'))} {escape(p.get('version', ''))}".strip()
        for p in decision.get("policies") or ()
    ]
    return ", ".join(names) if names else "none"


def _footer(decision: Mapping[str, Any]) -> str:
    bundle = decision.get("bundle") or {}
    packet = decision.get("packet") or {}
    tool = decision.get("tool") or {}
    parts = [
        f"bundle {code(bundle.get('name') or '?')} revision {code(bundle.get('revision') or '?')}",
    ]
    if bundle.get("commit"):
        parts.append(f"commit {code(short_digest(bundle['commit']))}")
    parts.append(f"digest {code(bundle.get('digest') or '-')}")
    if packet.get("run_id"):
        parts.append(f"run {code(packet['run_id'])}")
    parts.append(f"diff sha256 {code(short_digest(packet.get('diff_sha256')))}")
    parts.append(f"{escape(tool.get('name', 'gatekeeper'))} {escape(tool.get('version', ''))}".strip())
    if decision.get("decided_at"):
        parts.append(f"decided {escape(decision['decided_at'])}")
    return "<sub>" + " \u00b7 ".join(parts) + "</sub>"
