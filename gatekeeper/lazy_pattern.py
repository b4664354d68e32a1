"""Regular expressions compiled at their first use, not when their module is imported.

A gate imports ~1,200 module-level patterns (content signals, dependency formats, Rego lint) and a
bundle brings ~1,400 classification globs; compiling them all costs ~0.1 s of CPU at every
start-up, while one gate uses a few dozen. `lazy(...)` returns a stand-in that compiles on the first
attribute read and then holds the compiled pattern's bound methods in its own slots, so every later
call goes straight to `re` (no extra Python frame on the hot paths).

A pattern that no match can avoid holding a literal run of text (or one of several) (`AWSTemplateFormatVersion` in
`^[ \\t]*"?AWSTemplateFormatVersion"?[ \\t]*:`) searches only text that holds it: `re` tries a pattern
that starts with `^` or a character class at every position, and a 1 MiB file read whole costs ~0.1 s of
searches that a substring test (memchr-fast) answers in microseconds. The answer is the same: a text without
the run has no match (`required_literal` takes only runs every match contains).

It is typed as `re.Pattern` and answers everything a pattern does, with two exceptions: it is not
an instance of `re.Pattern`, and it cannot be passed to the `re` module's functions (`re.sub(p, ...)`);
call its methods instead (`p.sub(...)`), as every module that uses it does.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from re import _constants as sre  # type: ignore[attr-defined]  # CPython's own parser of pattern text
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, AnyStr, cast

# What a compiled pattern offers; read once, copied into the stand-in's slots.
_FORWARDED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner", "pattern",
              "flags", "groups", "groupindex")
# A run shorter than this is in most texts anyway: its test would only cost.
_MIN_RUN = 3


class _Lazy:
    __slots__ = ("_source", "_flags", "_compiled", *_FORWARDED)

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source, self._flags = source, flags
        self._compiled: re.Pattern[Any] | None = None

    def __getattr__(self, name: str) -> object:
        # Reached only while a slot is still empty: before the first use, at the first `search` (its guards are
        # worked out then, from one parse of the text: a pattern only ever matched, as the classification globs
        # are, is parsed once, by `re`), and for unknown names.
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
            for attr in _FORWARDED:
                if attr != "search":
                    setattr(self, attr, getattr(compiled, attr))
        if name == "search":
            self.search = _searching(compiled, self._source, self._flags)
            return self.search
        return getattr(self, name) if name in _FORWARDED else getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, done at the first use (a bad pattern raises re.error then, not here)."""
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))


def _searching(compiled: re.Pattern[Any], source: str | bytes, flags: int) -> Callable[..., re.Match[Any] | None]:
    """`compiled.search`, behind the guards its text allows (required_literal, line_starts)."""
    try:
        parsed = sre_parse.parse(source, flags)
    except re.error:
        return compiled.search
    search = compiled.search
    runs = _required_runs(parsed, source)
    if runs is not None:
        search = _guarded_search(compiled, runs)
    starts = _line_starts(parsed, source)
    if starts is not None:
        search = _line_guarded(search, starts)
    return search


def _guarded_search(compiled: re.Pattern[Any], runs: tuple[Any, ...]) -> Callable[..., re.Match[Any] | None]:
    search = compiled.search
    kind = type(runs[0])
    if len(runs) == 1:
        (run,) = runs

        def guarded_one(text: Any, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[Any] | None:
            # Not in the part searched: no match there. Only that part is tested, so a caller stepping `pos`
            # through a text (jobshapes: one search per item) stays linear (attack 14: `- job:` * 60,000 took
            # 100 CPU-s when each search tested the whole text). Anything but str/bytes goes to `re` as it is.
            if type(text) is kind and text.find(run, max(pos, 0), max(endpos, 0)) < 0:
                return None
            return search(text, pos, endpos)

        return guarded_one

    def guarded(text: Any, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[Any] | None:
        if type(text) is kind:
            start, end = max(pos, 0), max(endpos, 0)
            for run in runs:
                if text.find(run, start, end) >= 0:
                    break
            else:
                return None
        return search(text, pos, endpos)

    return guarded


def _line_guarded(search: Callable[..., re.Match[Any] | None], starts: tuple[Any, ...]
                  ) -> Callable[..., re.Match[Any] | None]:
    """`search`, answered None at C speed where no line of the part searched starts with one of `starts`."""
    kind = type(starts[0])
    after = tuple(("\n" if kind is str else b"\n") + start for start in starts)
    firsts = frozenset(start[:1] for start in starts) if all(starts) else None

    def guarded(text: Any, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[Any] | None:
        # A match at s > 0 has a newline at s - 1 >= pos - 1 and its start text before endpos; one at 0 needs pos 0.
        if type(text) is kind:
            if firsts is not None and len(text) >= _HEADS_FROM and (heads := _line_heads(text)) is not None \
                    and heads.isdisjoint(firsts):
                return None  # no line of the whole text starts with a first character of `starts`
            start, end = max(pos, 0), max(endpos, 0)
            if not (start == 0 and text.startswith(starts, 0, end)) and all(
                    text.find(line, max(start - 1, 0), end) < 0 for line in after):
                return None
        return search(text, pos, endpos)

    return guarded


# A text this long has the first characters of its lines worked out once (_line_heads): a lockfile read whole is
# searched by ~80 guarded patterns, each of whose finds of a line start reads all of it again.
_HEADS_FROM = 1 << 16
_HEADS_LINE = 16  # past one line in this many characters, reading the heads would cost more than the finds
_HEADS: list[tuple[Any, frozenset[Any] | None]] = []  # the last long text and its heads (held: no id is reused)


def _line_heads(text: Any) -> frozenset[Any] | None:
    """The first character of every line of `text` (str or bytes; None when it has too many lines to be worth it)."""
    last = _HEADS[0] if _HEADS else None  # (read once: another thread may replace it)
    if last is not None and last[0] is text:
        return last[1]
    heads = None
    if text.count(b"\n" if isinstance(text, bytes) else "\n") * _HEADS_LINE <= len(text):
        lines = text.split(b"\n" if isinstance(text, bytes) else "\n")
        heads = frozenset(line[:1] for line in lines)
    _HEADS[:] = [(text, heads)]
    return heads


def line_starts(source: str | bytes, flags: int = 0) -> tuple[str | bytes, ...] | None:
    """The texts of which a multi-line pattern that starts with `^` begins every match with one, right at the start
    of a line (what follows `^`, as far as it is spelled a few ways: `^version[ \t]*:` -> `version`), or None.

    `re` tries such a pattern at every position of a text (~10 ms for a 0.5 MB lockfile read whole, per pattern);
    the text holds a match only where a line starts with one of them, which `find` answers at C speed."""
    try:
        parsed = sre_parse.parse(source, flags)
    except re.error:
        return None
    return _line_starts(parsed, source)


def _line_starts(parsed: Any, source: str | bytes) -> tuple[str | bytes, ...] | None:
    """line_starts of the parsed pattern `source`."""
    if not parsed.state.flags & re.MULTILINE or parsed.state.flags & (re.IGNORECASE | re.LOCALE):
        return None
    items = list(parsed)
    if not items or items[0] != (sre.AT, sre.AT_BEGINNING):
        return None
    best = None
    for end in range(2, len(items) + 1):  # the longest prefix after `^` that is spelled a few ways
        found = _spellings(items[1:end])
        if found is None:
            break
        if all(found):
            best = found
    if best is None:
        return None
    if isinstance(source, bytes):
        return tuple(bytes(text) for text in best)
    return tuple("".join(map(chr, text)) for text in best)


def required_literal(source: str | bytes, flags: int = 0) -> tuple[str | bytes, ...] | None:
    """Runs of literal text (each at least 3 characters) of which every match of the pattern holds one, or None.

    One run when the pattern's top-level sequence must match it; several when it must match one of several
    alternatives that each hold one (`(?:hosts|roles)`). Only what the sequence must match is looked at: literals
    in a row, the inside of plain groups and of repeats that match at least once, and alternatives. Optional parts,
    lookarounds, conditionals and case-insensitive parts are skipped (nothing in them is certain, or spelled one
    way).
    """
    try:
        parsed = sre_parse.parse(source, flags)
    except re.error:
        return None
    return _required_runs(parsed, source)


def _required_runs(parsed: Any, source: str | bytes) -> tuple[str | bytes, ...] | None:
    """required_literal of the parsed pattern `source`."""
    if parsed.state.flags & (re.IGNORECASE | re.LOCALE):
        return None
    found = _required(list(parsed))
    if found is None:
        return None
    if isinstance(source, bytes):
        return tuple(bytes(run) for run in found)
    return tuple("".join(map(chr, run)) for run in found)


def _case_sensitive_items(source: str | bytes, flags: int) -> list[Any] | None:
    """The parsed top-level sequence of a pattern that matches case-sensitively, or None (a bad or
    case-insensitive pattern: its texts are not spelled one way)."""
    try:
        parsed = sre_parse.parse(source, flags)
    except re.error:
        return None
    if parsed.state.flags & (re.IGNORECASE | re.LOCALE):
        return None
    return list(parsed)


def _required(items: list[Any]) -> list[list[int]] | None:
    """The best choice of runs for a sequence: the one whose shortest run is longest."""
    choices: list[list[list[int]]] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) >= _MIN_RUN:
            choices.append([list(run)])
        run.clear()

    for op, arg in items:
        if op is sre.LITERAL:
            run.append(arg)
            continue
        flush()
        inner: list[list[int]] | None = None
        if op is sre.SUBPATTERN and not arg[1] & (re.IGNORECASE | re.LOCALE):
            inner = _required(list(arg[3]))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and arg[0] >= 1:
            inner = _required(list(arg[2]))
        elif op is sre.ATOMIC_GROUP:
            inner = _required(list(arg))
        elif op is sre.BRANCH:
            options = [_required(list(option)) for option in arg[1]]
            if all(option is not None for option in options):
                inner = [one for option in options if option is not None for one in option]
        if inner is not None:
            choices.append(inner)
    flush()
    if not choices:
        return None
    return max(choices, key=lambda runs: (min(len(one) for one in runs), -len(runs)))


_MAX_SPELLINGS = 256


def alternatives(source: AnyStr, flags: int = 0) -> tuple[AnyStr, ...] | None:
    """Every text the pattern matches, when it matches a few (at most 256), none of them empty, each spelled one way:
    literals, plain groups, alternatives, a class of single characters, an optional part. Else None.

    Then a search for the pattern finds a match in a text exactly when one of them occurs in it, which `find`
    answers at C speed where `re` tries every alternative at every position (patchscan's candidate headers: 10,000
    header lines searched in ~5 ms instead of ~30)."""
    items = _case_sensitive_items(source, flags)
    found = None if items is None else _spellings(items)
    if found is None or not all(found):
        return None
    if isinstance(source, bytes):
        return cast("tuple[AnyStr, ...]", tuple(bytes(text) for text in found))
    return cast("tuple[AnyStr, ...]", tuple("".join(map(chr, text)) for text in found))


def _spellings(items: list[Any]) -> list[list[int]] | None:
    """Every text the sequence `items` matches (as character codes), or None."""
    out: list[list[int]] = [[]]
    for op, arg in items:
        options: list[list[int]] | None = None
        if op is sre.LITERAL:
            options = [[arg]]
        elif op is sre.IN and all(kind is sre.LITERAL for kind, _ in arg):
            options = [[code] for _, code in arg]
        elif op is sre.SUBPATTERN and not (arg[1] | arg[2]) & (re.IGNORECASE | re.LOCALE):
            options = _spellings(list(arg[3]))
        elif op is sre.BRANCH:
            options = []
            for option in arg[1]:
                inner = _spellings(list(option))
                if inner is None:
                    return None
                options += inner
        elif op is sre.MAX_REPEAT and arg[0] == 0 and arg[1] == 1:
            inner = _spellings(list(arg[2]))
            options = None if inner is None else [[], *inner]
        if options is None:
            return None
        out = [text + option for text in out for option in options]
        if len(out) > _MAX_SPELLINGS:
            return None
    return out
