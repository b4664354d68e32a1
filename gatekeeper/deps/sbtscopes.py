"""Which definition a name in an sbt build file means, where the file defines it more than once (attack 15).

deps/sbt.py resolves a module's group or version written as a definition's name (`org %% "core" % coreV`) within
the file. A name defined once is that definition. A name defined twice with different strings is Scala's scoping:
`Forks.org` is the `org` of `object Forks`, `org` the innermost one in scope (smithy4s writes `val org` in each
dependency's own `new { ... }` block). Those are resolved here by the braces around the lines read so far, and
refused (a problem, reviewed) where the reader cannot tell: a name no open block defines above its use, a
definition whose value is no string alone on its line, a file whose multi-line strings or comments could hide a
brace. A qualified name (`V.cats`, `Forks.org`) is the member of that object: the definitions directly inside every
`object V {` block of the file (one line or many; a structural value's `val V = new {` block too, weaver-test's
`Version.fs2`), resolved when they all give one string, else refused — http4s writes `object V { val cats =
"2.11.0" }` beside `lazy val cats = … % V.cats`, the module named like its version.
Before, the name alone was resolved (the latest or the first definition), so `Forks.org %% "cats-core" % "2.10.1"`
whose group is another author's read as `org.typelevel:cats-core`'s patch upgrade, allowed under `--enable deps`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gatekeeper.deps.model import ManifestError
from gatekeeper.lazy_pattern import lazy

MAX_DEPTH = 200  # braces open at once; deeper is refused when a resolution needs them
# Any definition of a name, wherever on its line (`object Forks { val org = "x" }`, `var v: String = ...`).
ANY_DEFINITION = lazy(r"(?<![\w.])(?:val|var|def)\s++(\w{1,200}+)\s*+[:=(]")
# What the braces are read past: strings, characters, line comments; and the definitions among them.
_TOKEN = lazy(r'"(?:[^"\\\n]|\\.)*+"|\'(?:[^\'\\\n]|\\.)\'|//.*+|[{}]|(?<![\w.])(?:val|var|def)\s++(\w{1,200}+)'
              r'\s*+[:=(]')


# A triple-quoted string opened and closed on its line with no quote inside (`"""(\d+)\.(\d+)""".r`): the
# tokens read it as strings, so a brace in it is no block; any other `"""` may span lines and hide one.
_ONE_LINE_TRIPLE = lazy(r'"""[^"\n]*+"""')
# `object V {` (also `object V extends X {`): the brace that opens the object's body, on the object's own line; or
# `val Version = new {` (weaver-test): a value of an anonymous class whose members are read as `Version.http4s` too.
_OBJECT = lazy(r"(?<![\w.])(?:object\s++(\w{1,200}+)[^{}\n]*+|(?:lazy\s++)?val\s++(\w{1,200}+)\s*+=\s*+new\s*+)$")


def _walk(line: str, strict: re.Pattern[str]) -> Iterator[tuple[str, str | None]]:
    """One line's braces and definitions in order: `("{", the object it opens or None)`, `("}", None)`, or a
    definition's `(name, its string)` (None for a value that is no string alone on its line)."""
    alone = strict.match(line)
    first = True
    for m in _TOKEN.finditer(line):
        if m[0] == "{":
            opened = _OBJECT.search(line, 0, m.start())
            yield "{", (opened[1] or opened[2]) if opened is not None else None
        elif m[0] == "}":
            yield "}", None
        elif m[1] is not None:
            yield m[1], alone["v"] if first and alone is not None and alone["name"] == m[1] else None
            first = False


def members(lines: list[str], strict: re.Pattern[str]) -> tuple[dict[str, dict[str, set[str | None]]], bool]:
    """The definitions directly inside each `object NAME {` block: NAME -> name -> the strings it is given (blocks
    of one name pooled), and whether the file's braces balance (else the blocks are not what they seem)."""
    found: dict[str, dict[str, set[str | None]]] = {}
    stack: list[str | None] = [None]
    balanced = True
    for line in lines:
        for token, value in _walk(line, strict):
            if token == "{":
                stack.append(value)
            elif token == "}":
                if len(stack) > 1:
                    stack.pop()
                else:
                    balanced = False
            elif stack[-1] is not None:
                found.setdefault(stack[-1], {}).setdefault(token, set()).add(value)
    return found, balanced


def ambiguous(lines: list[str], strict: re.Pattern[str]) -> set[str]:
    """The names `lines` define more than once, unless each time alone on its line (`strict`, sbt's _VAL) with one
    and the same string."""
    count: dict[str, int] = {}
    read: dict[str, tuple[int, set[str]]] = {}  # the definitions alone on their line: how many, their strings
    for line in lines:
        if "val" in line or "def" in line or "var" in line:
            for m in ANY_DEFINITION.finditer(line):
                count[m[1]] = count.get(m[1], 0) + 1
            if (d := strict.match(line)) is not None:
                times, strings = read.get(d["name"], (0, set()))
                read[d["name"]] = (times + 1, strings | {d["v"]})
    return {name for name, times in count.items()
            if times > 1 and not (read.get(name, (0, ()))[0] == times and len(read[name][1]) == 1)}


class Scopes:
    """The definitions of the open blocks, as a file's lines are read in order (`read` each line before resolving
    the names it uses)."""

    def __init__(self, lines: list[str], strict: re.Pattern[str]) -> None:
        self.twice = ambiguous(lines, strict)
        self._strict = strict
        self._stack: list[dict[str, str | None]] = [{}]
        self._members, balanced = members(lines, strict) if self.twice else ({}, True)
        self._unsure = not balanced or bool(self.twice) and any(
            "/*" in line or ('"""' in line and '"""' in _ONE_LINE_TRIPLE.sub("", line)) for line in lines)
        self._deep = False

    def read(self, line: str) -> None:
        if not self.twice:
            return
        for token, value in _walk(line, self._strict):
            if token == "{":
                self._stack.append({})
                self._deep = self._deep or len(self._stack) > MAX_DEPTH
            elif token == "}":
                if len(self._stack) > 1:
                    self._stack.pop()
                else:
                    self._unsure = True  # more closed than opened: the blocks are not what they seem
            else:
                self._stack[-1][token] = value

    def resolve(self, ref: str, definitions: dict[str, str]) -> str | None:
        """The string `ref` (a name, maybe qualified) means, or None when the file defines it as no string; raises
        ManifestError where the file defines it twice and the reader cannot tell which one."""
        name = ref.rsplit(".", 1)[-1]
        if name not in self.twice:
            return definitions.get(name)
        if "." in ref and not self._unsure:
            owner = ref.rsplit(".", 1)[0].rsplit(".", 1)[-1]
            given = self._members.get(owner, {}).get(name, set())
            if len(given) == 1 and (value := next(iter(given))) is not None:
                return value
        elif not self._unsure and not self._deep:
            for scope in reversed(self._stack):
                if name in scope:
                    if (value := scope[name]) is not None:
                        return value
                    break
        raise ManifestError(f"{ref[:80]!r} names a definition the file writes more than once: which one it means "
                            "is not read")
