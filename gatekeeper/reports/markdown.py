"""A pull-request comment (and GitHub job summary): headline, findings table, collapsed paths.

Paths come from an agent's patch and are untrusted: every piece of data is escaped so that it
renders as literal text and can neither inject Markdown, HTML, links nor break the table.
"""

from __future__ import annotations

import re
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
# What GitHub turns live in a comment's text whatever its escapes (its filters read the rendered text, where `\@` and
# `&#64;` are `@` again): a mention or an e-mail link (`@x`), an issue reference (`#1`, `x/y#1`, `GH-1`), an autolink
# (`www.`, `http://`, `https://`, `ftp://`, `mailto:`, `xmpp:`), an emoji shortcode (`:white_check_mark:` would
# spoof a verdict). A word holding one is shown as a code span, which GitHub leaves as it is. (`<`, `>`, `&` as
# entities are text: no tag can start.)
_LIVE = re.compile(r"@[A-Za-z0-9]|#\d|\bGH-\d|www\.|\b(?:https?|ftp)://|\b(?:mailto|xmpp):"
                   r"|:(?:[A-Za-z+-][A-Za-z0-9_+-]*|100|1234):", re.IGNORECASE)
_BACKTICKS = re.compile(r"`+")


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
    """Markdown-inert text on one line: markup characters backslash-escaped, `<>&"` as entities; a word GitHub would
    turn into a mention, reference, link or HTML (_LIVE) as a code span."""
    shown = " ".join(display(text).split())
    if not _LIVE.search(shown):  # most text: one pass
        return _escaped(shown)
    return " ".join(span(word) if _LIVE.search(word) else _escaped(word) for word in shown.split(" "))


def _escaped(text: str) -> str:
    out = []
    for char in text:
        if char in _ENTITIES:
            out.append(_ENTITIES[char])
        elif char in _SPECIAL:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def span(text: str) -> str:
    """`text` as a GFM code span: fenced by more backticks than it holds in a row, padded when it starts or ends with
    one, its pipes escaped (a table cell ends at a bare `|`, even inside a span; GFM reads `\\|` there as `|`)."""
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text.replace('|', chr(92) + '|')}{pad}{fence}"


def code(text: object) -> str:
    """`text` shown as code: `<code>` around escaped text, or one code span when a word of it is live (_LIVE)."""
    shown = " ".join(display(text).split())
    return span(shown) if _LIVE.search(shown) else f"<code>{_escaped(shown)}</code>"


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
        # An HTML block: GitHub shows it raw (no span, no autolink) and reads no mention inside `<code>`.
        f"<summary><code>{''.join(_ENTITIES.get(c, c) for c in display(item.rule))}</code>: {len(item.paths or ())} "
        f"{noun}</summary>",
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
