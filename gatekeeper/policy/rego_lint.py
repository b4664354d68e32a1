"""A lexical check of Rego source for the malformed forms regopy accepts and silently truncates.

regopy 1.5.2 compiles a rule body holding a stray `)` or `]`, drops everything after it, and so
lets a `review` rule produce nothing (the gate fails open). This is not a parser: it tokenizes
strings, raw strings and comments, then checks that brackets balance and that no statement line
ends in an infix operator or a comma. Statement lines are the module's top level and query
bodies (rule bodies, `if`/`else`/`every` blocks, the part of a comprehension after `|`); inside
`()`, `[]` and object/set literals a newline is only whitespace, so a line may end anywhere there.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from gatekeeper.errors import PolicyError
from gatekeeper.lazy_pattern import lazy

_TOKEN = lazy(
    r"""
    (?P<nl>\n)
    |(?P<ws>[ \t\r\f\v]+|\#[^\n]*)
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
    |(?P<str>"(?:[^"\\\n]|\\.)*")
    |(?P<raw>`[^`]*`)
    |(?P<num>[0-9][0-9A-Za-z_.]*)
    |(?P<op>:=|==|!=|<=|>=|[<>=+\-*/%&|:,;.!])
    |(?P<open>[(\[{])
    |(?P<close>[)\]}])
    |(?P<badstr>")
    |(?P<badraw>`)
    |(?P<other>.)
    """,
    re.X,
)
# Operators that need a right operand: a statement line ending in one is cut in two.
_INFIX = frozenset({"==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "&", "|", ":=", "="})
# Tokens after which a `{` starts a value (object, set, comprehension), never a query body.
_OPERAND_NEXT = _INFIX | {",", ":", ";", "(", "[", "{", "|bar"}
_KEYWORDS_OPERAND_NEXT = frozenset({"in", "contains", "not", "some", "with", "as", "default", "every", "import"})
_BODY_AFTER = frozenset({"if", "else"})
_PAIRS = {")": "(", "]": "[", "}": "{"}
_STATEMENT_HINT = (
    "keep an operator and both its operands on one line, or wrap the expression in parentheses: "
    "inside (), [] and {} literals a newline is free"
)


@dataclass(frozen=True, slots=True)
class LintError:
    """One malformed spot: 1-based line and column, what is wrong and what to do."""

    line: int
    column: int
    message: str
    hint: str


@dataclass(slots=True)
class _Frame:
    bracket: str
    line: int
    column: int
    statements: bool  # newline separates statements here (top level, query bodies)


# A pure function of the text: a process that loads the same modules again (`gatekeeper test` per fixture, the
# test suite's ~3,000 bundle loads) scans each distinct module once (~2 ms each).
@functools.lru_cache(maxsize=256)
def find_error(source: str) -> LintError | None:
    """The first malformed spot in `source`, or None when the lexical checks pass."""
    stack: list[_Frame] = [_Frame("", 0, 0, True)]
    line, line_start = 1, 0
    prev = ""  # the last significant token, on any line
    prev_line = 0
    tail: tuple[str, int, int] | None = None  # last significant token of the current line: text, line, col
    for m in _TOKEN.finditer(source):
        kind = m.lastgroup
        if kind == "ws":
            continue
        if kind == "nl":
            error = _line_end(tail, stack[-1])
            if error:
                return error
            tail = None
            line, line_start = line + 1, m.end()
            continue
        text = m.group()
        column = m.start() - line_start + 1
        if kind == "badstr":
            return LintError(line, column, "unterminated string", 'close the string with `"` on the same line '
                             "(use a raw `...` string for text over several lines)")
        if kind == "badraw":
            return LintError(line, column, "unterminated raw string", "close the raw string with a backtick")
        if kind == "open":
            in_body = stack[-1].statements and len(stack) > 1
            statements = text == "{" and _opens_body(prev, prev_line == line, in_body)
            stack.append(_Frame(text, line, column, statements))
        elif kind == "close":
            error = _close(text, line, column, stack, tail)
            if error:
                return error
        elif text == "|" and not stack[-1].statements and stack[-1].bracket in "[{":
            stack[-1].statements = True  # a comprehension: its query follows the bar
            text = "|bar"
        if kind == "raw" and "\n" in text:
            line += text.count("\n")
            line_start = m.start() + text.rfind("\n") + 1
        tail = (text, line, column)
        prev, prev_line = text, line
    error = _line_end(tail, stack[-1])
    if error:
        return error
    if len(stack) > 1:
        frame = stack[-1]
        return LintError(frame.line, frame.column, f"`{frame.bracket}` is never closed",
                         f"add the matching `{_closer(frame.bracket)}`")
    return None


def check_source(source: str, name: str) -> None:
    """Raise PolicyError at `name:line:col` when `source` fails the lexical checks."""
    error = find_error(source)
    if error is not None:
        raise PolicyError(
            f"malformed Rego: {error.message}", where=f"{name}:{error.line}:{error.column}", hint=error.hint
        )


def _opens_body(prev: str, same_line: bool, in_body: bool) -> bool:
    """True when a `{` after the token `prev` opens a query body rather than an object or set."""
    if prev in _BODY_AFTER:
        return True
    if prev == "" or prev in _OPERAND_NEXT or prev in _KEYWORDS_OPERAND_NEXT:
        return False
    # After a complete term: a body (`p[x] {`, `every x in xs {`), unless the `{` begins a new
    # statement line inside a body, where it is a set or object literal starting an expression.
    return same_line or not in_body


def _line_end(tail: tuple[str, int, int] | None, frame: _Frame) -> LintError | None:
    if tail is None or not frame.statements:
        return None
    text, line, column = tail
    if text in _INFIX:
        return LintError(line, column, f"the line ends in `{text}`, whose right operand is missing",
                         _STATEMENT_HINT)
    if text == ",":
        return LintError(line, column, "the line ends in `,` outside brackets", "remove the comma; "
                         "statements of a rule body are separated by newlines or `;`")
    return None


_Tail = tuple[str, int, int]  # the last significant token of a line: text, line, column


def _close(text: str, line: int, column: int, stack: list[_Frame], tail: _Tail | None) -> LintError | None:
    frame = stack[-1]
    if frame.bracket != _PAIRS[text]:
        if not frame.bracket:
            return LintError(line, column, f"`{text}` has no matching `{_PAIRS[text]}`", "remove the stray bracket")
        return LintError(
            line, column,
            f"`{text}` does not close `{frame.bracket}` opened at {frame.line}:{frame.column}",
            f"remove the stray `{text}` or close the `{frame.bracket}` with `{_closer(frame.bracket)}` first",
        )
    if tail is not None and tail[0] in _INFIX:
        return LintError(tail[1], tail[2], f"`{tail[0]}` has no right operand before `{text}`",
                         "complete or remove the operator")
    stack.pop()
    return None


def _closer(bracket: str) -> str:
    return {"(": ")", "[": "]", "{": "}"}[bracket]


@functools.lru_cache(maxsize=256)
def rule_heads(source: str) -> frozenset[str]:
    """The names of the rules `source` defines: the first name of each top-level statement (`default x`
    counts as `x`; `package` and `import` are not rules). For a module that passed `find_error`.

    Remembered by the source text: every gate over the same bundle asks again (`gatekeeper test` once per
    fixture case, ~1 ms a module each time)."""
    heads: set[str] = set()
    depth, first, after_default = 0, True, False
    for m in _TOKEN.finditer(source):
        kind = m.lastgroup
        if kind == "ws":
            continue
        if kind == "nl":
            first = first or depth == 0
            continue
        text = m.group()
        if first and depth == 0 and kind == "name":
            name = text.split(".", 1)[0]
            if name == "default" and not after_default:
                after_default = True
                continue
            if name not in ("package", "import"):
                heads.add(name)
        first, after_default = False, False
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(depth - 1, 0)
    return frozenset(heads)
