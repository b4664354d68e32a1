"""A YAML CI definition's text without its comments (issue 12, the label92 round; the ninety-first set's class 6).

`#   make bootstrap` in the CodeQL starter workflow, `#       run: ./scripts/fuzzit.sh` in a step left commented out:
a comment is no step, and the walk reads a definition's raw lines (ciruns.named_tasks, walknames.named), so it read
them as runs. A YAML comment is `#` at a line's start or after whitespace, outside a quoted or block scalar; inside a
block scalar (`run: |`) the lines are a shell's (or PowerShell's, Python's), and a line starting with `#` is a comment
there too. Each comment is cut to nothing and the line kept, so line numbers stay.

Fail closed, in the direction that reads more: a `#` with a quote before it on its line (`echo "a # b"`) stays, and so
does every line of a quoted scalar over several lines; only whole `#` lines are cut inside a block scalar (a trailing
`# x` there may be inside a shell's quotes).
"""

from __future__ import annotations

from gatekeeper.lazy_pattern import lazy

__all__ = ["uncommented"]

# a line that starts a block scalar: `key: |`, `- >-`, `run: |2 # note`, with an anchor or tag before the indicator
_BLOCK_START = lazy(r"(?:^|[\s:-])\s*(?:[&!]\S*\s+)*[|>][-+1-9]{0,2}\s*$")
_TAIL = 256  # the end of a line the indicator is looked for in (a longer anchor or tag: its lines read as YAML's)
# the start of a value that is a quoted scalar: after any `- ` and a `key:` (itself plain or quoted)
_QUOTED_VALUE = lazy(r"""\s*(?:-\s+)*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-][^#'":]*):\s+)?(["'])""")
# the first quote or comment of a line: a quote before any comment keeps the line whole
_QUOTE_OR_COMMENT = lazy(r"""["'`]|(?:^|(?<=[ \t]))#""")


def uncommented(text: str) -> str:
    """`text` (a YAML file's) with its comments cut: whole `#` lines, a `#` after whitespace outside quotes and block
    scalars to the line's end, and whole `#` lines inside a block scalar (shell comments)."""
    if "#" not in text:
        return text
    out: list[str] = []
    block: int | None = None  # the indentation a block scalar's lines are deeper than
    quote = ""  # the quote a scalar over several lines is still open with
    for line in text.split("\n"):
        stripped = line.lstrip(" \t")
        indent = len(line) - len(stripped)
        if quote:
            if _close(line, 0, quote) is not None:
                quote = ""
            out.append(line)
            continue
        if block is not None:
            if not stripped or indent > block:
                out.append("" if stripped.startswith("#") else line)
                continue
            block = None
        code, quote = _code(line)
        out.append(code)
        if not quote and _BLOCK_START.search(code[-_TAIL:]) is not None:  # a tail: one line's whitespace read once
            block = indent
    return "\n".join(out)


def _code(line: str) -> tuple[str, str]:
    """(`line` without its YAML comment, the quote a quoted scalar it opens leaves open at its end or "")."""
    start = 0
    if (value := _QUOTED_VALUE.match(line)) is not None:
        end = _close(line, value.end(), value.group(1))
        if end is None:
            return line, value.group(1)
        start = end
    found = _QUOTE_OR_COMMENT.search(line, start)
    if found is None or found.group() != "#":
        return line, ""  # a quote before any `#`: kept whole (fail closed: it may be a shell's)
    return line[:found.start()].rstrip(), ""


def _close(line: str, start: int, quote: str) -> int | None:
    """The index past the quote that closes a `quote` scalar in `line` from `start`, None when it stays open."""
    at = start
    while (at := line.find(quote, at)) != -1:
        if quote == '"':
            before = at
            while before > start and line[before - 1] == "\\":
                before -= 1
            if (at - before) % 2 == 0:
                return at + 1
        elif line.startswith("''", at):
            at += 2
            continue
        else:
            return at + 1
        at += 1
    return None
