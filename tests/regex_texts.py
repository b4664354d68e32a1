"""Texts a regular expression matches, generated from its own parsed tree, deterministically (a seeded draw).

For tests whose property needs texts a pattern matches (the lazy patterns' guard: a skipped search must find
nothing, so only a text with a match can catch a wrong skip). Every choice point of the pattern is drawn both
ways: an optional part present and absent, a repeat at its least, one more and a few more, every option of an
alternative, a class's edges (a range's ends and middle, a category's ASCII and non-ASCII members, a line end or
space where the class allows it) and characters it refuses for a negated one, a case-insensitive part in either
case, a group referenced as it was drawn. The first text takes every least choice, the second every largest one.
What the tree does not spell (a word boundary, a lookaround) is left to `re`: the caller keeps the texts that match.
"""

from __future__ import annotations

import random
import re
from re import _constants as sre  # type: ignore[attr-defined]  # CPython's own parser of pattern text
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

# Characters offered where a class or `.` allows them (with the pattern's own literals): ASCII letters, digits and
# punctuation, the line and space characters, and non-ASCII members of \w, \d and \s.
_POOL = [ord(c) for c in "aZz_09-.:/\"'=#@ \t\n\r\x0b\x0c{}[]()<>,;!$%&*+?\\|~`^"] + [
    0xE9, 0x0663, 0x00A0, 0x2028, 0x3000, 0x1F600]
_CATEGORIES = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_SPACE: r"\s",
               sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W"}
_AT_MOST = 6  # the largest repeat drawn beyond a repeat's least (an unbounded one)
# The flags as plain ints: `&` of two re.RegexFlag members is an enum operation (~2 µs), and a draw asks per character
_IGNORECASE, _DOTALL, _MULTILINE, _ASCII = int(re.IGNORECASE), int(re.DOTALL), int(re.MULTILINE), int(re.ASCII)


def _flip(code: int) -> int:
    """The same letter in the other case (a code with no other case: itself)."""
    other = chr(code).swapcase()
    return ord(other) if len(other) == 1 else code


class _Texts:
    def __init__(self, source: str | bytes, flags: int, seed: int) -> None:
        parsed = sre_parse.parse(source, flags)
        self.items = list(parsed)
        self.flags = int(parsed.state.flags)
        self.is_bytes = isinstance(source, bytes)
        self.rng = random.Random(seed)
        literals = {arg for op, arg in _walk(self.items) if op in (sre.LITERAL, sre.NOT_LITERAL)}
        limit = 0x100 if self.is_bytes else 0x110000
        self.pool = sorted(c for c in {*_POOL, *literals} if c < limit)
        self.classes: dict[int, list[int]] = {}
        self.others: dict[tuple[int, ...], list[int]] = {}  # the pool but some characters: what `[^x]` and `.` offer
        self.mode = "random"

    def text(self, mode: str) -> list[int]:
        self.mode, self.groups = mode, {}
        out: list[int] = []
        self._items(self.items, out, self.flags)
        return out

    def around(self) -> list[int]:
        return [self.pool[self.rng.randrange(len(self.pool))] for _ in range(self.rng.randrange(4))]

    def _pick(self, options: list[Any]) -> Any:
        if self.mode == "least":
            return options[0]
        if self.mode == "most":
            return options[-1]
        return options[self.rng.randrange(len(options))]

    def _char(self, code: int, flags: int) -> int:
        return _flip(code) if flags & _IGNORECASE and self._pick([False, True]) else code

    def _items(self, items: list[Any], out: list[int], flags: int) -> None:
        for index, (op, arg) in enumerate(items):
            if op is sre.ASSERT and (arg[0] < 0 or index == len(items) - 1):
                # A lookbehind's text before what follows; a lookahead's at the end of its sequence, where nothing
                # else is spelled after it (elsewhere it would have to agree with what follows: left to `re`).
                self._items(list(arg[1]), out, flags)
            else:
                self._item(op, arg, out, flags)

    def _item(self, op: Any, arg: Any, out: list[int], flags: int) -> None:  # noqa: C901 - one branch an opcode
        if op is sre.LITERAL:
            out.append(self._char(arg, flags))
        elif op is sre.NOT_LITERAL:
            out.append(self._pick(self._others((arg, _flip(arg)) if flags & _IGNORECASE else (arg,))))
        elif op is sre.ANY:
            out.append(self._pick(self._others(() if flags & _DOTALL else (10,))))
        elif op is sre.IN:
            out.append(self._char(self._pick(self._members(arg, flags)), flags))
        elif op is sre.BRANCH:
            self._items(list(self._pick(arg[1])), out, flags)
        elif op is sre.SUBPATTERN:
            group, add, remove, inner = arg
            start = len(out)
            self._items(list(inner), out, (flags | add) & ~remove)
            if group is not None:
                self.groups[group] = out[start:]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            least, most, inner = arg
            counts = [count for count in (least, least + 1, least + 2, least + _AT_MOST) if count <= most]
            for _ in range(self._pick(counts)):
                self._items(list(inner), out, flags)
        elif op is sre.GROUPREF:
            out.extend(self.groups.get(arg, []))
        elif op is sre.GROUPREF_EXISTS:
            group, yes, no = arg
            chosen = yes if group in self.groups else no
            if chosen is not None:
                self._items(list(chosen), out, flags)
        elif op is sre.ATOMIC_GROUP:
            self._items(list(arg), out, flags)
        elif op is sre.AT:
            multiline = flags & _MULTILINE
            if arg is sre.AT_BEGINNING and multiline and out and out[-1] != 10:
                out.append(10)
            elif arg is sre.AT_END and multiline and self._pick([False, True]):
                out.append(10)
        # ASSERT_NOT, the other AT kinds: nothing spelled; `re` decides whether the text matches.

    def _others(self, refused: tuple[int, ...]) -> list[int]:
        """The pool's characters but `refused`, worked out once a draw's set."""
        if refused not in self.others:
            self.others[refused] = [c for c in self.pool if c not in refused]
        return self.others[refused]

    def _members(self, items: list[Any], flags: int) -> list[int]:
        """A class's edges and a sample of its members (or, negated, of what it refuses) from the pool."""
        key = id(items)
        if key not in self.classes:
            negated = bool(items) and items[0][0] is sre.NEGATE
            edges = []
            for op, arg in items:
                if op is sre.LITERAL:
                    edges.append(arg)
                elif op is sre.RANGE:
                    edges += [arg[0], (arg[0] + arg[1]) // 2, arg[1]]
            pattern = re.compile(_source(items, self.is_bytes), flags & (_ASCII | _IGNORECASE))
            wrap = bytes if self.is_bytes else (lambda codes: "".join(map(chr, codes)))
            found = [c for c in ([] if negated else edges) + self.pool if pattern.fullmatch(wrap([c]))]
            assert found, f"nothing drawn for the class {items!r}"
            self.classes[key] = sorted(set(found), key=found.index)
        return self.classes[key]


def _source(items: list[Any], is_bytes: bool) -> str | bytes:
    """The class `items` written again as pattern text (membership is asked of `re` itself, not guessed)."""
    parts = []
    for op, arg in items:
        if op is sre.NEGATE:
            parts.append("^")
        elif op is sre.LITERAL:
            parts.append(re.escape(chr(arg)))
        elif op is sre.RANGE:
            parts.append(f"{re.escape(chr(arg[0]))}-{re.escape(chr(arg[1]))}")
        elif op is sre.CATEGORY:
            parts.append(_CATEGORIES[arg])
        else:
            raise AssertionError(f"class item not drawn: {op} {arg}")
    text = "[" + "".join(parts) + "]"
    return text.encode("latin-1") if is_bytes else text


def _walk(items: Any) -> Any:
    """Every (op, arg) of a parsed pattern, nested ones too."""
    for op, arg in items:
        yield op, arg
        if op is sre.SUBPATTERN:
            yield from _walk(arg[3])
        elif op is sre.BRANCH:
            for option in arg[1]:
                yield from _walk(option)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            yield from _walk(arg[2])
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            yield from _walk(arg[1])
        elif op is sre.ATOMIC_GROUP:
            yield from _walk(arg)
        elif op is sre.GROUPREF_EXISTS:
            yield from _walk(arg[1])
            if arg[2] is not None:
                yield from _walk(arg[2])


def matched_texts(source: str | bytes, flags: int, count: int, seed: int = 0) -> list[str | bytes]:
    """Up to `count` different texts the pattern matches: every least choice, every largest, then seeded draws."""
    texts = _Texts(source, flags, seed)
    compiled = re.compile(source, flags)
    found: dict[str | bytes, None] = {}
    for index in range(count * 3):
        codes = texts.text("least" if index == 0 else "most" if index == 2 else "random")
        if index % 2:  # every other draw in text, as a file holds it: the pool's characters, line ends among them
            codes = texts.around() + codes + texts.around()
        text: str | bytes = bytes(codes) if texts.is_bytes else "".join(map(chr, codes))
        if compiled.search(text) is not None:
            found.setdefault(text)
            if len(found) == count:
                break
    return list(found)
