"""How things read for people: counts with their noun, and names from a change made safe to print.

`printable` is the one escaper for every name, path or message line that came from a change under review
and is shown to a person (terminal tables, text, markdown, junit, annotations). It escapes what would
drive a terminal, forge a line, reorder a row or hide a character: C0 controls, DEL, C1 controls,
format characters (bidi marks, overrides and isolates, zero-width characters, the BOM, tag characters),
the Unicode line and paragraph separators, the noncharacters U+FFFE/U+FFFF (invalid in XML) and lone
surrogates. Undecodable path bytes, carried as surrogate escapes (U+DC80-U+DCFF), print as `\\xNN`.
A backslash is escaped too, so two different names never print alike: the escaping can be undone.
`inert` breaks what a CI runner reads from a job's log as a command (red team 49); `printable` applies it.
"""

from __future__ import annotations

import re
import unicodedata

from gatekeeper.lazy_pattern import lazy

# Everything but printable ASCII other than the backslash: only these need a closer look.
_CANDIDATE = lazy(r"[^\x20-\x5b\x5d-\x7e]")
_NAMED = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Unicode categories never shown raw: controls, format characters, surrogates, line/paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_NONCHARACTERS = frozenset({0xFFFE, 0xFFFF})
# What CI runners act on in a step's output: Azure Pipelines `##vso[...]` and `##[...]` and TeamCity `##teamcity[...]`
# anywhere in a line (the agent searches each line), GitHub Actions `::name::` (and `##[`) at a line's start after its
# blanks, and Buildkite's group headers `--- `, `+++ `, `~~~ `, `^^^ +++` at a line's start (read after blanks too;
# a carriage return starts a line as a terminal shows it).
# The first `#` of the pair, the first `:` or the lead's first character is printed as `\x23`/`\x3a`/`\x2d`..., which
# undo like every escape.
_LOG_COMMAND = lazy(r"#(?=#[A-Za-z]*\[)|(?:^|(?<=\r))([^\S\n]*)(?::(?=:)|([-+~^])(?=\2\2(?:[^\S\n]|$)))", re.MULTILINE)
_GROUP_LEADS = frozenset("-+~^")
_JSON_COMMAND = lazy(r"#(?=#[A-Za-z]*\[)")  # JSON's own lines never start with `::`


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n noun` with the noun in the plural unless n is 1."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def printable(text: str) -> str:
    """`text` on one line with nothing hidden: controls, format characters and non-UTF-8 bytes as escapes
    (`\\n`, `\\t`, `\\x1b`, `\\xff` for an undecodable byte, `\\u202e`), a backslash as `\\\\`."""
    return inert(_CANDIDATE.sub(_escape, text))


def inert(text: str) -> str:
    """`text` with every CI log command marker broken: `##vso[`, `##[`, `##teamcity[` anywhere, `::` and a Buildkite
    group header (`--- `, `+++ `, `~~~ `, `^^^`) at a line's start (after blanks). The rest is unchanged; names and
    messages from a change are printed through it."""
    first = text[:1]  # most text, a name on one line that starts with a letter: no pass
    if "##" in text or "::" in text or first in _GROUP_LEADS or first.isspace() or "\n" in text or "\r" in text:
        return _LOG_COMMAND.sub(_break_command, text)
    return text


def inert_json(text: str) -> str:
    """JSON text with the same value and no CI log command in it: the `#` that starts `##vso[`, `##[` or
    `##teamcity[` written `\\u0023` (a `#` stands only inside a JSON string, where the escape means the same)."""
    return _JSON_COMMAND.sub(r"\\u0023", text) if "##" in text else text


def _break_command(match: re.Match[str]) -> str:
    lead = match.group(1)
    return "\\x23" if lead is None else f"{lead}\\x{ord(match.group()[len(lead)]):02x}"


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte code - 0xDC00 was not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x80:  # C0 and DEL; \x80-\xff always means a raw byte, so C1 controls take \u below
        return f"\\x{code:02x}"
    if code in _NONCHARACTERS or unicodedata.category(char) in HIDDEN_CATEGORIES:
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return char
