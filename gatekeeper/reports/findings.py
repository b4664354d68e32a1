"""What every report format shares: the decision's findings (model.Finding, most severe first), counts, safe text."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gatekeeper.model import LEVELS, OUTCOMES, Finding
from gatekeeper.readable import inert, printable

HEADLINES: Mapping[str, str] = {
    "allow": "allow: the change may queue normally",
    "review": "review required: a human must approve before merge",
    "deny": "deny: the change must not merge",
}

# Characters no report should pass through raw: C0/C1 controls (terminal escapes, XML-invalid
# bytes) other than newline and tab, and the lone surrogates that stand for non-UTF-8 path bytes.
# Bidirectional marks, overrides and isolates (and the Unicode line separators) are escaped too: a
# dependency name or path carrying U+202E would make a reviewer read its row in another order.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     r"\ud800-\udfff\ufffe\uffff]")


def findings(decision: Mapping[str, Any]) -> tuple[Finding, ...]:
    """The decision's reasons as Findings, most severe level first (stable within a level)."""
    items = [Finding.from_dict(reason) for reason in decision.get("reasons") or ()]
    return tuple(sorted(items, key=lambda item: _level_rank(item.level)))


def level_counts(items: Sequence[Finding]) -> dict[str, int]:
    """How many findings each level has, in LEVELS order (levels with none included)."""
    counts = {level: 0 for level in LEVELS}
    for item in items:
        counts[item.level] = counts.get(item.level, 0) + 1
    return counts


def counts_phrase(items: Sequence[Finding]) -> str:
    """`3 findings (1 deny, 2 warn)` or `no findings`."""
    if not items:
        return "no findings"
    parts = [f"{n} {level}" for level, n in level_counts(items).items() if n]
    noun = "finding" if len(items) == 1 else "findings"
    return f"{len(items)} {noun} ({', '.join(parts)})"


def policies_phrase(decision: Mapping[str, Any]) -> str:
    """`core 1.0.0, deps 1.1.0`: the policies the decision evaluated."""
    names = [
        f"{p.get('name', '?')} {p.get('version', '')}".strip() for p in decision.get("policies") or ()
    ]
    return ", ".join(names) if names else "none"


def outcome(decision: Mapping[str, Any]) -> str:
    """The decision's outcome; anything unexpected reads as deny, so a report never looks greener."""
    value = decision.get("outcome")
    return value if value in OUTCOMES else "deny"


def short_digest(value: object, length: int = 12) -> str:
    """The first characters of a hex digest, for people; the full value stays in json and sarif."""
    text = "" if value is None else str(value)
    return text[:length] if text else "-"


def display(text: object) -> str:
    """`text` made safe to print: line ends as `\\n`, other controls and non-UTF-8 bytes as `\\xNN`."""
    # A bare carriage return would let a message overwrite its own line on a terminal.
    lines = str(text).replace("\r\n", "\n").replace("\r", "\n")
    return inert(_UNSAFE.sub(_escape_char, lines))  # and no line a CI runner reads as a command


def path_text(path: object) -> str:
    """A path for people: every control character escaped (`\\n`, `\\t`, `\\xNN`), so two different
    names never print alike and a name never spans two lines."""
    return printable(str(path))


def one_line(text: object) -> str:
    """`display(text)` with line breaks and tabs folded into single spaces."""
    return " ".join(display(text).split())


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the original byte is code - 0xDC00
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def _level_rank(level: str) -> int:
    return LEVELS.index(level) if level in LEVELS else len(LEVELS)
