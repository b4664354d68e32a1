"""A bounded reader of EDN, the data notation Clojure's `deps.edn` is written in (no evaluation: EDN has none).

Maps become dicts (a key twice is an error, as the Clojure reader says), vectors `tuple`s, lists `EList`, sets
`ESet`, keywords `Keyword` (without the colon), symbols `Symbol`, strings `str`, numbers `Number` (as written),
`nil`/`true`/`false` None/True/False, a tagged literal `Tagged`. Commas are whitespace, `;` starts a comment, `#_`
discards the next form. What EDN does not define — Clojure's reader macros (`#?`, `#(`, `#"…"`, `'`, `@`, `^`),
more than one top-level form, nesting past `MAX_DEPTH`, an unbalanced bracket or string — is a `ManifestError`.
"""

from __future__ import annotations

import json
from typing import Any

from gatekeeper.deps.model import ManifestError
from gatekeeper.lazy_pattern import lazy

MAX_DEPTH = 64
_TOKEN = lazy(r"""(?x)
    (?P<space>[\s,]+) | (?P<comment>;[^\n]*)
  | (?P<string>"(?:[^"\\]|\\[\s\S])*+")
  | (?P<open>\#\{|[\[{(]) | (?P<close>[\]})])
  | (?P<discard>\#_)
  | (?P<tag>\#[A-Za-z][\w.*+!?<>=/-]*)
  | (?P<char>\\(?:newline|space|tab|return|formfeed|backspace|u[0-9a-fA-F]{4}|[^\s,]))
  | (?P<atom>[A-Za-z0-9*+!_?<>=.:/&%$-][\w.*+!?<>=:/#&%$'-]*)
""")
_NUMBER = lazy(r"^[+-]?\d[\w.+-]*$")
_SYMBOL = lazy(r"^(?:[A-Za-z*+!_?<>=.&%$-][\w.*+!?<>=:#&%$'-]*(?:/[A-Za-z*+!_?<>=.&%$-][\w.*+!?<>=:#&%$'-]*)?|/)$")
# A keyword's name may start with a digit (next-jdbc's `:1.10` alias, round 54): Clojure's EdnReader matches the colon
# itself as the symbol's first, non-digit character, so `:1.10` and `:1/a` read; a name after `/` still may not
# start with one (`:a/1`), nor may a part be empty.
_KEYWORD = lazy(r"^(?:[\w*+!?<>=.&%$-][\w.*+!?<>=:#&%$'-]*(?:/[A-Za-z*+!_?<>=.&%$-][\w.*+!?<>=:#&%$'-]*)?)$")
_CLOSING = {"{": "}", "#{": "}", "[": "]", "(": ")"}


class Keyword(str):
    """`:mvn/version`, held without its colon."""


class Symbol(str):
    """`cljfmt/cljfmt`, `medley`."""


class Number(str):
    """A number as written."""


class EList(tuple[Any, ...]):
    """`( … )`."""


class ESet(tuple[Any, ...]):
    """`#{ … }`, in the order written."""


class Tagged(tuple[str, Any]):
    """`#inst "…"`: (tag, value)."""


def _tokens(body: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if m is None or m.end() == pos:
            raise ManifestError(f"not EDN at offset {pos}: {body[pos:pos + 20]!r}")
        kind = m.lastgroup or ""
        if kind not in ("space", "comment"):
            out.append((kind, m.group()))
        pos = m.end()
    return out


def _atom(word: str) -> Any:
    if word == "nil":
        return None
    if word in ("true", "false"):
        return word == "true"
    if word.startswith(":"):
        if len(word) == 1 or word.startswith("::") or _KEYWORD.match(word[1:]) is None:
            raise ManifestError(f"not an EDN keyword: {word[:80]!r}")
        return Keyword(word[1:])
    if _NUMBER.match(word):
        return Number(word)
    if _SYMBOL.match(word) is None:
        raise ManifestError(f"not an EDN symbol: {word[:80]!r}")
    return Symbol(word)


class _Reader:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.at = 0

    def form(self, depth: int) -> Any:
        """The next form, past any discarded ones."""
        if depth > MAX_DEPTH:
            raise ManifestError(f"EDN nested deeper than {MAX_DEPTH}")
        while True:
            if self.at >= len(self.tokens):
                raise ManifestError("EDN ends inside a form")
            kind, word = self.tokens[self.at]
            self.at += 1
            if kind != "discard":
                break
            self.form(depth + 1)  # `#_` drops the form after it (`#_#_ k v` drops two)
        if kind == "string":
            try:
                value: str = json.loads(word, strict=False)
            except ValueError:
                raise ManifestError(f"an EDN string this reader does not read: {word[:80]!r}") from None
            return value
        if kind == "atom":
            return _atom(word)
        if kind == "char":
            return Symbol(word)
        if kind == "tag":
            return Tagged((word, self.form(depth + 1)))
        if kind == "open":
            return self._collection(word, depth)
        raise ManifestError(f"an unexpected {word!r} in EDN")

    def _collection(self, opening: str, depth: int) -> Any:
        items: list[Any] = []
        while True:
            while self.at < len(self.tokens) and self.tokens[self.at][0] == "discard":
                self.at += 1
                self.form(depth + 1)
            if self.at >= len(self.tokens):
                raise ManifestError(f"an EDN {opening!r} that is never closed")
            kind, word = self.tokens[self.at]
            if kind == "close":
                self.at += 1
                if word != _CLOSING[opening]:
                    raise ManifestError(f"an EDN {opening!r} closed by {word!r}")
                break
            items.append(self.form(depth + 1))
        if opening == "[":
            return tuple(items)
        if opening == "(":
            return EList(items)
        if opening == "#{":
            return ESet(items)
        if len(items) % 2:
            raise ManifestError("an EDN map with a key and no value")
        out: dict[Any, Any] = {}
        for key, value in zip(items[::2], items[1::2], strict=True):
            try:
                if key in out:
                    raise ManifestError(f"an EDN map with the key {render(key)[:80]!r} twice")
            except TypeError:
                raise ManifestError("an EDN map keyed by a map") from None
            out[key] = value
        return out


def loads(body: str) -> Any:
    """The one top-level form of `body`."""
    reader = _Reader(_tokens(body))
    value = reader.form(0)
    while reader.at < len(reader.tokens) and reader.tokens[reader.at][0] == "discard":
        reader.at += 1
        reader.form(1)
    if reader.at != len(reader.tokens):
        raise ManifestError("EDN with more than one top-level form")
    return value


def render(value: Any) -> str:
    """A form written back, compactly: how an option is shown and compared."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Keyword):
        return f":{value}"
    if isinstance(value, (Symbol, Number)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Tagged):
        return f"{value[0]} {render(value[1])}"
    if isinstance(value, dict):
        return "{" + " ".join(f"{render(k)} {render(v)}" for k, v in value.items()) + "}"
    opening, closing = ("(", ")") if isinstance(value, EList) else \
        ("#{", "}") if isinstance(value, ESet) else ("[", "]")
    return opening + " ".join(render(v) for v in value) + closing
