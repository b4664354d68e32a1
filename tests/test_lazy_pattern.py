"""The literal prefilter of lazy patterns (gatekeeper/lazy_pattern.py) never changes what a search finds.

`needles` reads from a pattern's parse the literals every match must contain; `search` skips a text without
them. A wrong literal would make a content signal miss the file an attacker wrote, so: the derivation on
each construct that must (or must not) give one, and every lazy pattern the gate holds searched with and
without the prefilter over generated texts built from its own pieces.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatekeeper
from gatekeeper.lazy_pattern import _Lazy, lazy, needles


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"(?m)^heat_template_version\s*:", ("heat_template_version",)),
    (r"^(?:jobs|stages)\s*:", ("jobs", "stages")),
    (r"(?:foo)?barbaz", ("barbaz",)),  # an optional group gives nothing, the literal after it does
    (r"x\bYZW", ("xYZW",)),  # zero-width: the letters stand next to each other in the match
    (r"^(\s*)- hosts:", ("- hosts:",)),
    (b"abcd+e", (b"abc",)),
    (r"(?:abc|de)fgh", ("fgh",)),
])
def test_literals_every_match_holds(pattern: str | bytes, expected: tuple[str | bytes, ...]) -> None:
    assert needles(pattern) == expected


@pytest.mark.parametrize("pattern", [
    r"(?i)resources:", r"a(?i:bcdef)g", r"(?:resources)?:", r"(?:abc)*def?", r"[abc]{5}", r"(?=kind:)k",
    r"(?<=apiVersion)x", r"(?:abcd|e)", r"ab|cd", r"(ab)\1", r"\w+: \d+", r"",
])
def test_no_literal_to_rely_on(pattern: str) -> None:
    assert needles(pattern) == ()


def test_a_case_insensitive_flag_passed_separately_gives_none() -> None:
    assert needles("Resources:", re.IGNORECASE) == ()
    assert lazy("Resources:", re.IGNORECASE).search("resources:") is not None


def _all_lazy_patterns() -> list[_Lazy]:
    found = {}
    for info in pkgutil.walk_packages(gatekeeper.__path__, "gatekeeper."):
        if ".runner" in info.name or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, _Lazy):
                found[id(value)] = value
    return list(found.values())


PATTERNS = _all_lazy_patterns()
PIECES = ["\n", " ", "  ", "\t", ":", "-", "#", "{", "}", '"', "x", "1", "\r\n", "---\n", "{{", "."]


def _texts(pattern: _Lazy, rng: random.Random) -> list[str | bytes]:
    source = pattern._source
    as_text = source.decode("latin-1") if isinstance(source, bytes) else source
    words = [w for w in re.split(r"[^A-Za-z0-9_$./@-]+", as_text) if w] or ["a"]
    texts = []
    for _ in range(40):
        parts = [rng.choice(words) if rng.random() < 0.5 else rng.choice(PIECES) for _ in range(rng.randint(0, 12))]
        texts.append("".join(parts))
    return [t.encode("latin-1", "replace") for t in texts] if isinstance(source, bytes) else list(texts)


def test_the_gate_holds_prefiltered_patterns() -> None:
    assert len(PATTERNS) > 100
    assert sum(bool(needles(p._source, p._flags)) for p in PATTERNS) > 50


@pytest.mark.parametrize("index", range(0, len(PATTERNS), 25))
def test_every_lazy_pattern_finds_what_re_finds(index: int) -> None:
    rng = random.Random(index)
    for pattern in PATTERNS[index:index + 25]:
        plain = re.compile(pattern._source, pattern._flags)
        for text in _texts(pattern, rng):
            got, want = pattern.search(text), plain.search(text)
            assert (got and got.span()) == (want and want.span()), (pattern, text)


_SOURCES = st.recursive(
    st.sampled_from(["abc", "de", "f", r"\s*", r"\d+", "^", r"\b", "$", ".", "[xy]", ":"]),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map("".join),
        st.tuples(inner, inner).map(lambda p: f"(?:{p[0]}|{p[1]})"),
        inner.map(lambda p: f"(?:{p})?"), inner.map(lambda p: f"(?:{p})+"), inner.map(lambda p: f"({p})"),
        inner.map(lambda p: f"(?i:{p})"), inner.map(lambda p: f"(?={p})"),
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(source=_SOURCES, text=st.text(alphabet="abcdefxy: \n1ABC", max_size=40), multiline=st.booleans())
def test_prefilter_never_hides_a_match_of_any_pattern(source: str, text: str, multiline: bool) -> None:
    flags = re.MULTILINE if multiline else 0
    want = re.compile(source, flags).search(text)
    got = lazy(source, flags).search(text)
    assert (got and got.span()) == (want and want.span())
    if want is not None:
        assert all(isinstance(n, str) for n in needles(source, flags))
        assert not needles(source, flags) or any(n in want.group() for n in needles(source, flags))
