"""Regular expressions compiled at their first use, not when their module is imported.

A gate imports ~300 module-level patterns (content signals, dependency formats, Rego lint) and a
bundle brings ~1,500 classification globs; compiling them all costs tens of milliseconds of every
start-up, while one gate uses a handful. `lazy(...)` returns a stand-in that compiles on the first
attribute read and then holds the compiled pattern's bound methods in its own slots, so every later
call goes straight to `re` (no extra Python frame on the hot paths).

It is typed as `re.Pattern` and answers everything a pattern does, with two exceptions: it is not
an instance of `re.Pattern`, and it cannot be passed to the `re` module's functions (`re.sub(p, ...)`);
call its methods instead (`p.sub(...)`), as every module that uses it does.
"""

from __future__ import annotations

import re
from typing import AnyStr, cast

# What a compiled pattern offers; read once, copied into the stand-in's slots.
_FORWARDED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner", "pattern",
              "flags", "groups", "groupindex")


class _Lazy:
    __slots__ = ("_source", "_flags", *_FORWARDED)

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str) -> object:
        # Reached only while a slot is still empty, i.e. before the first use (and for unknown names).
        compiled = re.compile(self._source, self._flags)
        for attr in _FORWARDED:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, done at the first use (a bad pattern raises re.error then, not here)."""
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))
