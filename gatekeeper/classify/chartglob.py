"""Helm's `.Files.Glob` patterns matched in time linear in the path (attack 22, tests/test_attack22_chart_files.py).

Helm matches with gobwas/glob: `*` stops at `/`, `**` does not, `?` one character but `/`, `[abc]`/`[!a-z]` a class,
`{a,b}` alternatives, `\\x` the character x. chartfiles.py translated a glob to a backtracking regex: a template's
`.Files.Glob "**a**a**a**a**a**a**a**a**c"` against one long chart path ran for minutes (each `.*` retried at every
position), and the template is part of the change under review. Here each alternative is a token list run as a set
of states over the path's characters: O(path x tokens). A pattern this reader cannot take (an unclosed class or
brace, more than MAX_ALTERNATIVES alternatives) matches every file (fail closed).
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["MAX_ALTERNATIVES", "matcher"]

MAX_ALTERNATIVES = 64
_Token = tuple[str, str]  # (kind, argument): lit, one, seg (`*`), any (`**`), class (a one-character regex)


def matcher(glob: str) -> Callable[[str], bool]:
    """Whether a path (relative to the chart) matches `glob`; every path when the glob is not one this reads."""
    alternatives = _expand(glob)
    try:
        tokens = [_tokens(one) for one in alternatives] if alternatives is not None else None
    except ValueError:
        tokens = None
    if tokens is None:
        return lambda path: True
    return lambda path: any(_match(one, path) for one in tokens)


def _expand(glob: str) -> list[str] | None:
    """`{a,b}` alternatives spelt out (nested too); None when unbalanced or more than MAX_ALTERNATIVES."""
    out, todo = [], [glob]
    while todo:
        text = todo.pop()
        start = text.find("{")
        if start < 0:
            if "}" in text:
                return None
            out.append(text)
        else:
            depth, parts, begin = 0, [], start + 1
            for at in range(start, len(text)):
                depth += (text[at] == "{") - (text[at] == "}")
                if depth == 1 and text[at] == ",":
                    parts.append(text[begin:at])
                    begin = at + 1
                elif depth == 0:
                    parts.append(text[begin:at])
                    todo += [text[:start] + part + text[at + 1:] for part in parts]
                    break
            else:
                return None
        if len(out) + len(todo) > MAX_ALTERNATIVES:
            return None
    return out


def _tokens(glob: str) -> list[_Token]:
    out: list[_Token] = []
    at = 0
    while at < len(glob):
        char = glob[at]
        if glob.startswith("**", at):
            kind, at = "any", at + 2
            while at < len(glob) and glob[at] == "*":
                at += 1
            out.append((kind, ""))
            continue
        if char == "[":
            end = glob.find("]", at + 2)
            if end < 0:
                raise ValueError(glob)
            body = glob[at + 1:end]
            negated = body[:1] in ("!", "^")
            re.compile(f"[{'^' if negated else ''}{body[negated:]}]")  # a class this cannot read raises re.error
            out.append(("class", f"[{'^' if negated else ''}{body[negated:]}]"))
            at = end + 1
            continue
        if char == "\\" and at + 1 < len(glob):
            out.append(("lit", glob[at + 1]))
            at += 2
            continue
        out.append(("seg", "") if char == "*" else ("one", "") if char == "?" else ("lit", char))
        at += 1
    return out


def _match(tokens: list[_Token], path: str) -> bool:
    states = _closure(tokens, {0})
    for char in path:
        after: set[int] = set()
        for at in states:
            if at == len(tokens):
                continue
            kind, argument = tokens[at]
            if kind == "any" or kind == "seg" and char != "/":
                after.add(at)
            elif kind == "lit" and char == argument or kind == "one" and char != "/" or (
                    kind == "class" and char != "/" and re.fullmatch(argument, char)):
                after.add(at + 1)
        states = _closure(tokens, after)
        if not states:
            return False
    return len(tokens) in states


def _closure(tokens: list[_Token], states: set[int]) -> set[int]:
    """`states` and those a `*`/`**` matching nothing reaches."""
    out, todo = set(states), list(states)
    while todo:
        at = todo.pop()
        if at < len(tokens) and tokens[at][0] in ("any", "seg") and at + 1 not in out:
            out.add(at + 1)
            todo.append(at + 1)
    return out
