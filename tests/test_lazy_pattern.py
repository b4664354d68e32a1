"""The lazy patterns' literal guard: a search skipped because the text lacks a required run must be one that
finds nothing. Attacked with strings each pattern matches (hypothesis' from_regex), for every lazy pattern of the
package, and with the regex constructs whose literals are not certain (optional parts, lookarounds, alternatives
with an empty or short option, case-insensitive parts)."""

from __future__ import annotations

import bisect
import functools
import importlib
import importlib.util
import itertools
import pkgutil
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.internal.intervalsets import IntervalSet
from hypothesis.strategies._internal import regex as hypothesis_regex
from hypothesis.strategies._internal.lazy import unwrap_strategies
from hypothesis.strategies._internal.strings import OneCharStringStrategy
from tables import each_case

import gatekeeper
from gatekeeper.lazy_pattern import _Lazy, alternatives, lazy, line_starts, required_literal


def _package_patterns() -> list[tuple[str, _Lazy]]:
    """Every lazy pattern of the package, from the modules whose source names `lazy` (a module that makes one
    names it, even under an alias); the others are not imported at collection (demo_agent, the sandbox's agent
    script, imports the anthropic SDK: ~2.6 s of CPU in every pytest worker)."""
    found, seen = [], set()
    for info in pkgutil.walk_packages(gatekeeper.__path__, "gatekeeper."):
        if info.name.endswith("__main__"):
            continue
        spec = importlib.util.find_spec(info.name)
        assert spec is not None and spec.origin is not None, info.name
        if "lazy" not in Path(spec.origin).read_text(encoding="utf-8"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, _Lazy) and id(value) not in seen:  # once, where it is first met
                seen.add(id(value))
                found.append((f"{info.name}.{name}", value))
    return found


PATTERNS = [(name, p) for name, p in _package_patterns()
            if required_literal(p._source, p._flags) is not None or line_starts(p._source, p._flags) is not None]


@each_case(
    ("source", "flags", "runs"),
    [
        (r'^[ \t]*"?AWSTemplateFormatVersion"?[ \t]*:', re.M, ("AWSTemplateFormatVersion",)),
        (r"^(?:hosts|roles)[ \t]*:", re.M, ("hosts", "roles")),
        (r"(?:hosts|ro)x", 0, None),  # an option of two letters: nothing certain enough
        (r"(?:hosts|)x", 0, None),  # an empty option
        (r"abc(?:defgh)?", 0, ("abc",)),  # the optional part is not required
        (r"ab(?:cdefg)*", 0, None),
        (r"ab(?:cdefg)+", 0, ("cdefg",)),
        (r"(?=lookahead)x", 0, None),
        (r"(?!negative)xyz", 0, ("xyz",)),
        (r"(?i)caseless", 0, None),
        (r"caseless", re.I, None),
        (r"(?i:caseless)abc", 0, ("abc",)),
        (r"(a)?(?(1)then|else)", 0, None),
        (rb"bytes[ \t]*=", 0, (b"bytes",)),
        (r"\bone\b|two|three", 0, ("one", "two", "three")),
        (r"long_run_here|ab", 0, None),
        (r"[abc]def", 0, ("def",)),
        (r"a\.b\.c", 0, ("a.b.c",)),
    ],
)
def test_required_literal(source: str | bytes, flags: int, runs: tuple[str | bytes, ...] | None) -> None:
    assert required_literal(source, flags) == runs


class _Runs:
    """`hypothesis.strategies` as hypothesis' regex converter sees it while it builds a pattern's strategy, with
    one change: a repeated character class (`[ \\t]*`, `\\s+`, `[^"]{2,}`), which it draws as a list of one-character
    strings (per character a continue-or-stop choice, a character choice and their spans), is drawn as `st.text`
    over the same characters with the same bounds: one string choice. The provider draws that string as the list
    would be drawn (the same average length, each character picked alike), so the strings and the language covered
    are the same; ~60% of this file's CPU was those per-character choices (the runner patterns' texts run to
    hundreds of characters). Anything else (a bytes pattern's classes, a repeated group) is the real `st.lists`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(st, name)

    @staticmethod
    def lists(elements: st.SearchStrategy[Any], *, min_size: int = 0, max_size: int | None = None,
              **rest: Any) -> st.SearchStrategy[Any]:
        if not rest and isinstance(unwrap_strategies(elements), OneCharStringStrategy):
            return st.text(alphabet=elements, min_size=min_size, max_size=max_size)  # `.map("".join)` keeps it
        return st.lists(elements, min_size=min_size, max_size=max_size, **rest)


@contextmanager
def _runs_as_text() -> Iterator[None]:
    real = hypothesis_regex.st
    hypothesis_regex.st = _Runs()  # type: ignore[assignment]
    try:
        yield
    finally:
        hypothesis_regex.st = real


@functools.cache
def _strategy(compiled: re.Pattern[str] | re.Pattern[bytes]) -> st.SearchStrategy[str | bytes] | None:
    """The strategy of strings `compiled` matches, made once a pattern, not once an example (the regex parsed into
    a tree of strategies cost ~4 of this file's ~24 CPU-seconds when every example made its own), and resolved
    here, with character-class runs drawn whole (`_Runs`). A pattern the converter cannot resolve fails its test
    as it did at the first draw; one `from_regex` refuses outright is skipped."""
    try:
        strategy = st.from_regex(compiled)
    except Exception:
        return None
    with _runs_as_text():
        strategy.validate()  # resolves the lazy strategy: the converter runs now, under _Runs
    return strategy


_PREFIXES = st.sampled_from(["", "\n", "x\n", " "])
_REAL_CONTAINS = IntervalSet.__contains__


def _contains(self: IntervalSet, elem: str | int) -> bool:
    """`IntervalSet.__contains__` by bisection over its sorted, disjoint intervals (any other set: the real one). The
    engine asks it of every character of every string it replays or mutates (`choice_permitted`), and the real one
    walks the intervals in Python: a class like `\\w` holds hundreds of them (~30% of this file's CPU). The same
    answer, so the same choices and the same examples."""
    starts = self.__dict__.get("_bisect_starts")
    if starts is None:
        pairs = self.intervals
        ordered = all(u <= v for u, v in pairs) and all(a[1] < b[0] for a, b in itertools.pairwise(pairs))
        starts = self.__dict__["_bisect_starts"] = [u for u, _ in pairs] if ordered else False
    if starts is False:
        return _REAL_CONTAINS(self, elem)
    code = ord(elem) if isinstance(elem, str) else elem
    assert 0 <= code <= 0x10FFFF
    index = bisect.bisect_right(starts, code) - 1
    return index >= 0 and code <= self.intervals[index][1]


@pytest.fixture
def fast_intervals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IntervalSet, "__contains__", _contains)


@pytest.mark.parametrize(("name", "pattern"), PATTERNS, ids=[name for name, _ in PATTERNS])
@pytest.mark.usefixtures("fast_intervals")
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_guard_never_hides_a_match(name: str, pattern: _Lazy, data: st.DataObject) -> None:
    compiled = re.compile(pattern._source, pattern._flags)
    strategy = _strategy(compiled)
    if strategy is None:  # constructs hypothesis cannot generate for
        pytest.skip("hypothesis cannot generate this pattern")
    text = data.draw(strategy)
    prefix = data.draw(_PREFIXES)
    text = (prefix.encode() if isinstance(text, bytes) else prefix) + text  # a bytes pattern reads bytes
    expected = compiled.search(text)
    got = pattern.search(text)
    assert (got.span() if got else None) == (expected.span() if expected else None), name
    for pos in (0, 1, len(text) // 2):
        expected = compiled.search(text, pos)
        got = pattern.search(text, pos)
        assert (got.span() if got else None) == (expected.span() if expected else None), name


def test_guard_on_text_without_the_run() -> None:
    pattern = lazy(r"^[ \t]*Resources[ \t]*:", re.M)
    assert pattern.search("Resource: x\nresources:\n") is None
    assert pattern.search("x\n  Resources:\n").start() == 2
    assert pattern.search("Resources:", 1) is None
    assert pattern.search(b"Resources:".decode(), endpos=5) is None
    with pytest.raises(TypeError):
        pattern.search(b"Resources:")  # str pattern, bytes text: `re`'s own error, not a silent None


@each_case(("pattern", "texts"), [
    (rb"(package|go\.(mod|sum)|\.ya?ml|pip\.(conf|ini))", (b"package", b"go.mod", b"go.sum", b".yml", b".yaml",
                                                        b"pip.conf", b"pip.ini")),
    (r"a[bc]d", ("abd", "acd")),
    (r"(?:x|y)z?", ("x", "xz", "y", "yz")),
    (r"ab+", None), (r"a.b", None), (r"a[^b]", None), (r"a[b-d]", None), (r"x?", None), (r"^ab", None),
    (r"(?i)ab", None), (r"a(?i:b)", None), (r"(?=a)ab", None), (r"a{2}", None), ("[", None),
    (r"[ab][cd][ef][gh][ij][kl][mn][op][qr]", None),  # 512 texts: more than are worth a find each
])
def test_alternatives_are_every_text_a_finite_pattern_matches(pattern: str | bytes,
                                                              texts: tuple[str | bytes, ...] | None) -> None:
    assert alternatives(pattern) == texts
    for text in texts or ():
        assert re.fullmatch(pattern, text) is not None


@each_case(("source", "flags", "starts"), [
    (r"^version[ \t]*:", re.M, ("version",)),
    (r"(?m)^(?:steps|jobs|pr)[ \t]*:", 0, ("steps", "jobs", "pr")),
    (r"""^["']?on["']?[ \t]*:""", re.M, ("on", 'on"', "on'", '"on', '"on"', "\"on'", "'on", "'on\"", "'on'")),
    (rb"^FROM[ \t]", re.M, (b"FROM ", b"FROM\t")),
    (r"^(?:a|)x", re.M, ("ax", "x")),
    (r"^[ \t]+version", re.M, None),  # indented: no text right at the line's start
    (r"^(?:|a)", re.M, None),  # an empty start
    (r"^version", 0, None),  # the start of the text only: `re` finds that at once
    (r"^version", re.M | re.I, None),
    (r"^a|^b", re.M, ("a", "b")),  # re reads it as ^[ab]
    (r"\Aversion", re.M, None),
])
def test_line_starts(source: str | bytes, flags: int, starts: tuple[str | bytes, ...] | None) -> None:
    assert line_starts(source, flags) == starts


def test_line_guard_finds_what_re_finds() -> None:
    """Matches at the text's start, after a newline, never mid-line; `pos` and `endpos` as `re` reads them (a match
    at pos needs the newline before it, which lies before pos)."""
    source = r"^(?:jobs|steps)[ \t]*:"
    pattern, compiled = lazy(source, re.M), re.compile(source, re.M)
    texts = ["jobs:", "x\njobs:", "xjobs:\n", "  jobs:\nsteps :", "a\n\nsteps:\n", "jobs", "\njob", "steps:jobs:"]
    for text in texts:
        for pos in range(-1, len(text) + 2):
            for endpos in range(-1, len(text) + 2):
                got, expected = pattern.search(text, pos, endpos), compiled.search(text, pos, endpos)
                assert (got.span() if got else None) == (expected.span() if expected else None), (text, pos, endpos)
    lock = '{\n  "name": "web",\n  "version": "1.0.0",\n  "jobs": []\n}\n' * 2000
    assert pattern.search(lock) is None and compiled.search(lock) is None
