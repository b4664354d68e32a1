"""Patterns whose alternatives run from an opener to a closer (`${{ … }}`, `${…}`, `$(…)`, a backtick pair), read in
linear time with the answers of `re` (cost round 42).

`re` tries such an alternative at every opener; an opener with no closer after it scans to the line's (or the text's)
end before it fails, so a line of `${{` costs the square of its length (64 KiB: seconds). Here each alternative
names what ends its scan (`stop`, the first one after the opener) and what must follow it (`then`), and an
alternative is tried at an opener only where that stop exists (in the opener's line for `line`); the stops are
found with a cached forward `str.find`, so the whole text is scanned a few times at most. An alternative left out
is one `re` would have tried and failed, and the alternatives keep their order, so the matches are the same.
Alternatives must not hold groups or match an empty text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Enclosed:
    """One alternative: `source` starts with the literal `opener`, then scans to the first `stop` (within its line for
    `line`), which `then` must follow."""

    source: str
    opener: str
    stop: str
    then: str = ""
    line: bool = False


_BOUND_PER_CHARACTER, _BOUND_FLOOR = 4, 4_096  # the failed scans `re` may make: linear in the text


class _Next:
    """Where a needle next occurs at or after a position, for positions that mostly grow: each find starts past the
    last one found (a step back scans only the gap)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.seen: dict[str, tuple[int, int]] = {}

    def find(self, needle: str, at: int) -> int:
        # `seen[needle]` = (asked, found): no occurrence in [asked, found), and one at `found` (-1: none past `asked`)
        if needle not in self.seen:
            found = self.text.find(needle, at)
        else:
            asked, found = self.seen[needle]
            if at < asked:
                gap = self.text.find(needle, at, asked + len(needle) - 1)
                found = gap if gap != -1 else found
            elif found != -1 and found < at:
                found = self.text.find(needle, at)
            else:
                at = asked
        self.seen[needle] = (at, found)
        return found


class Enclosures:
    """An alternation of plain (bounded) sources and `Enclosed` ones, with `finditer` and `sub` as `re`'s."""

    def __init__(self, *alternatives: str | Enclosed, flags: int = 0) -> None:
        self.alternatives = alternatives
        self.flags = flags
        self.enclosed = [alt for alt in alternatives if isinstance(alt, Enclosed)]
        self.openers = "".join(sorted({alt.opener[0] for alt in self.enclosed}))
        self.variants: dict[tuple[bool, ...], re.Pattern[str] | None] = {}

    def _variant(self, kept: tuple[bool, ...]) -> re.Pattern[str] | None:
        if kept not in self.variants:  # compiled at first use, as `lazy` patterns are
            flags = iter(kept)
            sources = [alt if isinstance(alt, str) else alt.source for alt in self.alternatives
                       if isinstance(alt, str) or next(flags)]
            self.variants[kept] = re.compile("|".join(f"(?:{source})" for source in sources), self.flags) \
                if sources else None
        return self.variants[kept]

    def _closes(self, alt: Enclosed, at: int, nexts: _Next) -> bool:
        stop = nexts.find(alt.stop, at + len(alt.opener))
        if stop == -1 or not nexts.text.startswith(alt.then, stop + len(alt.stop)):
            return False
        newline = nexts.find("\n", at + len(alt.opener)) if alt.line else -1
        return newline == -1 or stop < newline

    def _failed_scans(self, text: str) -> int:
        """At most how many characters `re` scans at openers whose alternative then fails (stopped past the bound)."""
        bound, scanned = _BOUND_PER_CHARACTER * len(text) + _BOUND_FLOOR, 0
        for alt in self.enclosed:
            if alt.line:  # an opener past its line's last stop scans to the line's end
                lines = text.split("\n") if alt.opener in text else []
                for line in (line for line in lines if alt.opener in line):
                    last = line.rfind(alt.stop)
                    scanned += line.count(alt.opener, max(0, last - len(alt.opener) + 1)) * len(line)
            elif not alt.then:  # past the text's last stop
                last = text.rfind(alt.stop)
                scanned += text.count(alt.opener, max(0, last - len(alt.opener) + 1)) * len(text)
            else:  # where the first stop after it is not followed by `then`: to that stop
                nexts, at = _Next(text), text.find(alt.opener)
                while at != -1 and scanned <= bound:
                    if not self._closes(alt, at, nexts):
                        stop = nexts.find(alt.stop, at + len(alt.opener))
                        scanned += (stop if stop != -1 else len(text)) - at
                    at = text.find(alt.opener, at + 1)
            if scanned > bound:
                break
        return scanned

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches `re.finditer` would give, left to right: `re`'s own where its failed scans cost a few times
        the text (most texts: `re` is ~15 times quicker than this scanner), else this scanner's."""
        whole = self._cheap(text)
        return whole.finditer(text) if whole is not None else self._scan(text)

    def _cheap(self, text: str) -> re.Pattern[str] | None:
        """The whole alternation where `re` reads `text` in linear time."""
        whole = self._variant(tuple(True for _ in self.enclosed))
        return whole if self._failed_scans(text) <= _BOUND_PER_CHARACTER * len(text) + _BOUND_FLOOR else None

    def _scan(self, text: str) -> Iterator[re.Match[str]]:
        plain = self._variant(tuple(False for _ in self.enclosed))
        starts = re.compile("[" + re.escape(self.openers) + "]")
        nexts = _Next(text)
        pos, candidate = 0, starts.search(text)
        ahead = plain.search(text) if plain is not None else None  # the first plain match at or after `pos`
        while True:
            if ahead is not None and ahead.start() < pos:
                ahead = plain.search(text, pos) if plain is not None else None
            while candidate is not None and candidate.start() < pos:
                candidate = starts.search(text, pos)
            at = candidate.start() if candidate is not None else len(text) + 1
            if ahead is not None and ahead.start() < at:
                yield ahead
                pos = ahead.end()
                continue
            if candidate is None:
                return
            variant = self._variant(tuple(self._closes(alt, at, nexts) for alt in self.enclosed))
            found = variant.match(text, at) if variant is not None else None
            if found is None:
                candidate = starts.search(text, at + 1)
                continue
            yield found
            pos = found.end()

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
        """`re.sub(pattern, repl, text)`."""
        if (whole := self._cheap(text)) is not None:
            return whole.sub(repl, text)
        parts, done = [], 0
        for found in self.finditer(text):
            parts += [text[done:found.start()], repl(found) if callable(repl) else found.expand(repl)]
            done = found.end()
        return "".join(parts) + text[done:]


# A GitHub expression on its line, `${{ … }}` (ciconfigs, ciruns, deployruns, pipinstalls).
GITHUB_EXPRESSION = Enclosures(Enclosed(r"\$\{\{.*?\}\}", "${{", "}}", line=True))
