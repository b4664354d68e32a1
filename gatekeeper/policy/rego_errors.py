"""Turn the Rego engine's S-expression errors into `file:line:col: message` we can show a person.

The engine reports a compile or evaluation error as a tree like
`(error (errormsg 27:Invalid assignment operator) (errorast (rego-unify 6:p.rego|43|1)))`:
strings are length-prefixed, locations are `<name>|<byte offset>|<length>`. The readable form
only goes to the C library's stdout, which we silence, so the mapping lives here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from gatekeeper.errors import PolicyError
from gatekeeper.lazy_pattern import lazy

_LENGTH = lazy(rb"(\d+):")
_SPAN = lazy(rb"\|(\d+)\|(\d+)")
_WORD = lazy(rb"[^\s()]+")


@dataclass(frozen=True, slots=True)
class Span:
    """A location the engine named: module name, byte offset, byte length."""

    name: str
    offset: int
    length: int


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One engine error: its message and, when known, where in which module."""

    message: str
    span: Span | None = None
    code: str | None = None


Node = list  # an S-expression list: [head, child, ...]; atoms are str or Span


def parse_sexpr(text: str | bytes) -> list[object]:
    """Parse the engine's S-expression text into nested lists of str / Span atoms."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    root: list[object] = []
    stack: list[list[object]] = [root]
    i, n = 0, len(data)
    while i < n:
        ch = data[i : i + 1]
        if ch == b"(":
            node: list[object] = []
            stack[-1].append(node)
            stack.append(node)
            i += 1
        elif ch == b")":
            if len(stack) > 1:
                stack.pop()
            i += 1
        elif ch.isspace():
            i += 1
        else:
            i = _atom(data, i, stack[-1])
    return root


def _atom(data: bytes, i: int, into: list[object]) -> int:
    sized = _LENGTH.match(data, i)
    if sized is None:
        word = _WORD.match(data, i)
        end = word.end() if word else i + 1
        into.append(data[i:end].decode("utf-8", "replace"))
        return end
    start = sized.end()
    value = data[start : start + int(sized.group(1))]
    i = start + len(value)
    span = _SPAN.match(data, i)
    if span is None:
        into.append(value.decode("utf-8", "replace"))
        return i
    offset, length = int(span.group(1)), int(span.group(2))
    i = span.end()
    if data[i : i + 1] == b":":  # the located source text follows, `length` bytes long
        i += 1 + length
    into.append(Span(value.decode("utf-8", "replace"), offset, length))
    return i


def diagnostics(text: str | bytes) -> list[Diagnostic]:
    """Every `(error ...)` in the engine's error text, in order."""
    found: list[Diagnostic] = []
    for node in _walk(parse_sexpr(text)):
        if node and node[0] == "error":
            found.append(_diagnostic(node))
    return found


def _walk(nodes: list[object]) -> Iterator[Node]:
    for node in nodes:
        if isinstance(node, list):
            yield node
            yield from _walk(node)


def _diagnostic(node: Node) -> Diagnostic:
    message, code, span = "", None, None
    for child in node[1:]:
        if isinstance(child, Span) and span is None:
            span = child
        elif isinstance(child, list) and child:
            if child[0] == "errormsg":
                message = " ".join(str(part) for part in child[1:])
            elif child[0] == "rego-errorcode" and len(child) > 1:
                code = str(child[1])
            elif span is None:
                span = _first_span(child)
    return Diagnostic(message.strip() or "unknown engine error", span, code)


def _first_span(node: Node) -> Span | None:
    for child in node:
        if isinstance(child, Span):
            return child
        if isinstance(child, list):
            inner = _first_span(child)
            if inner is not None:
                return inner
    return None


def line_col(source: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a byte offset into `source`'s UTF-8 encoding."""
    prefix = source.encode("utf-8", "surrogateescape")[:offset].decode("utf-8", "replace")
    line = prefix.count("\n") + 1
    column = len(prefix) - (prefix.rfind("\n") + 1) + 1
    return line, column


def locate(span: Span | None, modules: Mapping[str, str]) -> str | None:
    """`file:line:col` for a span inside one of `modules`, else None."""
    if span is None or span.name not in modules:
        return None
    line, column = line_col(modules[span.name], span.offset)
    return f"{span.name}:{line}:{column}"


_CALL_NAME = lazy(r"Function not found: ([A-Za-z_][\w.]*)")


def locate_text(needle: str, modules: Mapping[str, str], *, call: bool = False) -> str | None:
    """`file:line:col` of the first occurrence of `needle` (as a call when `call`) outside comments."""
    pattern = re.compile(r"(?<![\w.])" + re.escape(needle) + (r"\s*\(" if call else ""))
    for name, source in modules.items():
        for number, text in enumerate(source.splitlines(), start=1):
            code = text.split("#", 1)[0] if "#" in text and '"' not in text else text
            hit = pattern.search(code)
            if hit:
                return f"{name}:{number}:{hit.start() + 1}"
    return None


def locate_diagnostic(diag: Diagnostic, modules: Mapping[str, str]) -> str | None:
    """Best location for a diagnostic: its span, else the call it names (unknown functions)."""
    where = locate(diag.span, modules)
    if where is None:
        missing = _CALL_NAME.search(diag.message)
        if missing:
            where = locate_text(missing.group(1), modules, call=True)
    return where


def compile_error(text: str, name: str, modules: Mapping[str, str]) -> PolicyError:
    """The PolicyError for an engine build error `text`: every error, each located `file:line:col` when it can be."""
    found = diagnostics(text) or [Diagnostic(text.strip() or "the module does not compile")]
    first = found[0]
    where = locate_diagnostic(first, modules) or name or None
    if len(found) == 1:
        return PolicyError(f"does not compile: {first.message}", where=where, hint=hint_for(first.message))
    listed = "; ".join(
        f"{located}: {d.message}" if (located := locate_diagnostic(d, modules)) else d.message for d in found
    )
    return PolicyError(f"does not compile ({len(found)} errors): {listed}", where=where, hint=hint_for(first.message))


_RULE_HEAD = lazy(r"^(?:default\s+)?([A-Za-z_][\w]*)")


def rule_at(source: str, line: int) -> str | None:
    """The name of the top-level rule whose text holds `line` (1-based), if any."""
    lines = source.splitlines()
    for number in range(min(line, len(lines)), 0, -1):
        head = _RULE_HEAD.match(lines[number - 1])
        if head and head.group(1) not in ("package", "import"):
            return head.group(1)
        if lines[number - 1].startswith(("package", "import")):
            return None
    return None


def runtime_error(found: list[Diagnostic], modules: Mapping[str, str]) -> PolicyError:
    """The PolicyError for evaluation errors: every one, each at `file:line:col` and in its rule when known."""
    shown = []
    for diag in found:
        where = locate_diagnostic(diag, modules)
        rule = None
        if where:
            name, _, rest = where.rpartition(":")[0].rpartition(":")
            rule = rule_at(modules.get(name, ""), int(rest)) if rest.isdigit() else None
        text = diag.message + (f" (in rule `{rule}`)" if rule else "")
        shown.append((where, text))
    first_where, first_text = shown[0]
    if len(shown) == 1:
        return PolicyError(f"evaluation failed: {first_text}", where=first_where, hint=hint_for(found[0].message))
    listed = "; ".join(f"{where}: {text}" if where else text for where, text in shown)
    return PolicyError(f"evaluation failed ({len(shown)} errors): {listed}", where=first_where,
                       hint=hint_for(found[0].message))


def hint_for(message: str) -> str | None:
    """What a policy author can do about an engine error message, when we know."""
    lowered = message.lower()
    if "regexp" in lowered or "regex" in lowered:
        return (
            "the engine's regex dialect is ECMAScript (std::regex): no (?i), (?P<name>) or \\p{..}; "
            "see docs/policies.md"
        )
    if "function not found" in lowered:
        return ("unknown function: a typo in a helper's or a built-in's name (or a built-in regopy lacks; "
                "see docs/policies.md)")
    if "not supported" in lowered:
        return "this built-in is not available in regopy; see docs/policies.md for the dialect limits"
    if "multiple outputs" in lowered:
        return "two bodies of a complete rule produced different values; make it a partial set or add conditions"
    return None
