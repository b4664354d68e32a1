"""Regular expressions compiled at their first use, not when their module is imported, and searched only
where they can match.

A gate imports ~300 module-level patterns (content signals, dependency formats, Rego lint) and a
bundle brings ~1,500 classification globs; compiling them all costs tens of milliseconds of every
start-up, while one gate uses a handful. `lazy(...)` returns a stand-in that compiles on the first
attribute read and then holds the compiled pattern's bound methods in its own slots, so every later
call goes straight to `re` (no extra Python frame on the hot paths).

`search` first asks whether the text holds a literal every match must contain (`needles`): the content
signals are line patterns (`(?m)^Resources:`), for which `re` tries every position of a 64 KiB window
(~0.2 ms each, ~47 of them per file), while `str.find` skips a text without the word in microseconds.
The literal is read from the pattern's own parse, so it cannot disagree with the pattern; a pattern with
no such literal (or a case-insensitive one) is searched as it is.

It is typed as `re.Pattern` and answers everything a pattern does, with two exceptions: it is not
an instance of `re.Pattern`, and it cannot be passed to the `re` module's functions (`re.sub(p, ...)`);
call its methods instead (`p.sub(...)`), as every module that uses it does.
"""

from __future__ import annotations

import re
import re._parser as sre_parse  # type: ignore[import-not-found]  # the parse re.compile uses (typeshed: none)
import sys
from collections.abc import Callable
from typing import Any, AnyStr, cast

# What a compiled pattern offers; read once, copied into the stand-in's slots.
_FORWARDED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner", "pattern",
              "flags", "groups", "groupindex")
# A shorter literal is in nearly every text, and each alternative costs one scan of the text.
MIN_NEEDLE = 3
MAX_NEEDLES = 8


class _Lazy:
    __slots__ = ("_source", "_flags", *_FORWARDED)

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str) -> object:
        # Reached only while a slot is still empty, i.e. before the first use (and for unknown names).
        compiled = re.compile(self._source, self._flags)
        for attr in _FORWARDED:
            setattr(self, attr, getattr(compiled, attr))
        found = needles(self._source, self._flags)
        if found:
            self.search = _prefiltered(compiled.search, found)
        return getattr(self, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, done at the first use (a bad pattern raises re.error then, not here)."""
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))


def _prefiltered(search: Callable[..., Any], found: tuple[Any, ...]) -> Callable[..., Any]:
    if len(found) == 1:
        [needle] = found

        def one(string: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
            return search(string, pos, endpos) if needle in string else None
        return one

    def any_of(string: Any, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        return search(string, pos, endpos) if any(n in string for n in found) else None
    return any_of


def needles(source: str | bytes, flags: int = 0) -> tuple[str, ...] | tuple[bytes, ...]:
    """Literals of which every match of the pattern contains at least one; () when there are none to rely on.

    From the parse: a run of literal characters in the pattern's top-level sequence (zero-width assertions
    such as `^` or `\\b` do not break a run: they consume nothing), a group's own sequence, and an alternation
    whose every branch has such literals. Repeats, classes and case-insensitive parts give none."""
    try:
        parsed = sre_parse.parse(source, flags)
    except (re.error, RecursionError, OverflowError):  # compile raises it; here there is just no prefilter
        return ()
    if parsed.state.flags & sre_parse.SRE_FLAG_IGNORECASE:
        return ()
    found = _sequence(list(parsed))
    if not found or len(found) > MAX_NEEDLES or min(map(len, found)) < MIN_NEEDLE:
        return ()
    if isinstance(source, bytes):
        return tuple(bytes(codes) for codes in found)
    return tuple("".join(map(chr, codes)) for codes in found)


def _sequence(items: list[tuple[Any, Any]]) -> list[list[int]] | None:
    best: list[list[int]] | None = None
    run: list[int] = []

    def consider(candidate: list[list[int]] | None) -> None:
        nonlocal best
        if candidate and all(candidate) and (best is None or min(map(len, candidate)) > min(map(len, best))):
            best = candidate

    for op, av in items:
        if op is sre_parse.LITERAL:
            run.append(av)
            continue
        if op is sre_parse.AT:
            continue  # zero width: the characters on either side are next to each other in the match
        consider([run])
        run = []
        if op is sre_parse.SUBPATTERN:
            _group, add_flags, _del_flags, inner = av
            if not add_flags & sre_parse.SRE_FLAG_IGNORECASE:
                consider(_sequence(list(inner)))
        elif op is sre_parse.BRANCH:
            alternatives: list[list[int]] = []
            for branch in av[1]:
                inner_found = _sequence(list(branch))
                if not inner_found:
                    alternatives = []
                    break
                alternatives.extend(inner_found)
            consider(alternatives)
    consider([run])
    return best
