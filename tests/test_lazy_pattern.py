"""The lazy patterns' literal guard: a search skipped because the text lacks a required run must be one that
finds nothing. Attacked with texts each pattern matches, drawn from the pattern's own tree (`tests/regex_texts.py`),
for every lazy pattern of the package, and with the regex constructs whose literals are not certain (optional
parts, lookarounds, alternatives with an empty or short option, case-insensitive parts)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import re
import time
import zlib
from pathlib import Path
from re import _parser as sre_parse  # type: ignore[attr-defined]

import pytest
from regex_texts import matched_texts
from tables import each_case

import gatekeeper
from gatekeeper import lazy_pattern
from gatekeeper.lazy_pattern import (
    _guarded_search,
    _Lazy,
    _line_guarded,
    alternatives,
    lazy,
    line_starts,
    required_literal,
)


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


_TEXTS = 30  # texts a pattern matches, each read after each prefix from each position below
_PREFIXES = ("", "\n", "x\n", " ")


def check_guard(name: str, pattern: _Lazy, texts: list[str] | list[bytes]) -> None:
    """`pattern.search` (the guarded one) finds what `re` finds, on each text after each prefix, from the text's
    start, its second position, its middle and `re`'s own match's start and the position after it."""
    compiled = re.compile(pattern._source, pattern._flags)
    for body in texts:
        for prefix in _PREFIXES:
            text = (prefix.encode() if isinstance(body, bytes) else prefix) + body  # a bytes pattern reads bytes
            first = compiled.search(text)
            at = first.start() if first else 0
            for pos in (0, 1, len(text) // 2, at, at + 1):
                expected, got = compiled.search(text, pos), pattern.search(text, pos)
                assert (got.span() if got else None) == (expected.span() if expected else None), (name, text, pos)


@each_case(("name", "pattern"), PATTERNS, ids=[name for name, _ in PATTERNS])
def test_guard_never_hides_a_match(name: str, pattern: _Lazy) -> None:
    """Every lazy pattern of the package, on texts it matches drawn from its own tree (`tests/regex_texts.py`: every
    optional part, option, repeat count and class edge, seeded by the pattern's name): only a text with a match can
    catch a search the guard skipped wrongly."""
    texts = matched_texts(pattern._source, pattern._flags, _TEXTS, seed=zlib.crc32(name.encode()))
    assert texts, f"{name}: no text drawn from its tree matches it"
    check_guard(name, pattern, texts)


@each_case(("source", "flags", "runs", "starts"), [
    (r"ab(?:cdefg)?xyz", 0, ("cdefg",), None),  # an optional part taken as required
    (r"(?:hosts|ro)xy", 0, ("hosts",), None),  # an option dropped
    (r"(?i:caseless)abc", 0, ("caseless",), None),  # a case-blind part spelled one way
    (r"(?:abc)*defg", 0, ("abc",), None),  # a repeat that may match nothing
    (r"^(?:a|)x", re.M, None, ("ax",)),  # a line start's empty option dropped
    (r"^[ \t]*key:", re.M, None, ("key",)),  # an indented line taken as a line start
    (rb"(?m)^(?:FROM|from)\s", 0, None, (b"FROM",)),  # bytes: an option of the line start dropped
])
def test_a_planted_wrong_guard_is_caught(source: str | bytes, flags: int, runs: tuple[str | bytes, ...] | None,
                                         starts: tuple[str | bytes, ...] | None) -> None:
    """The drawn texts catch a guard that skips a text with a match: each planted guard here is wrong for some."""
    compiled = re.compile(source, flags)
    search = compiled.search if runs is None else _guarded_search(compiled, runs)
    planted = _Lazy(source, flags)
    planted.search = search if starts is None else _line_guarded(search, starts)
    with pytest.raises(AssertionError):
        check_guard("planted", planted, matched_texts(source, flags, _TEXTS))


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


@each_case("first", ["fullmatch", "search"])
def test_a_pattern_is_parsed_once_to_compile_and_once_more_at_its_first_search(first: str) -> None:
    """The guards are worked out at the first `search`, from one parse of the text: a pattern only ever matched (the
    classification globs) is parsed once, by `re` (main's parsed it three times at its first use, ~10 ms before a
    10,000-file gate forks its engine child)."""
    source = rf"^[ \t]*key_{first}_{os.getpid()}_{time.monotonic_ns()}[ \t]*:"  # in no cache of `re`
    parsed: list[object] = []
    real = sre_parse.parse
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sre_parse, "parse", lambda *args, **kwargs: parsed.append(args[0]) or real(*args, **kwargs))
        pattern = lazy(source, re.M)
        key = source[7:source.index("[", 7)]
        if first == "fullmatch":
            assert pattern.fullmatch(f"  {key}:") and pattern.groups == 0 and pattern.pattern == source
            assert parsed == [source]
        assert pattern.search(f"{key}:\n  {key} :", 1).start() == len(key) + 2
        assert pattern.search(f"x{key}:") is None and pattern.search(f"x {key}:\nkey:") is None
    assert parsed == [source, source]
    assert "guarded" in pattern.search.__qualname__  # the line guard, over the run's


LINE_PATTERNS = [(name, p) for name, p in PATTERNS if line_starts(p._source, p._flags) is not None]


@each_case(("name", "pattern"), LINE_PATTERNS, ids=[name for name, _ in LINE_PATTERNS])
def test_line_heads_never_hide_a_match(name: str, pattern: _Lazy, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first characters of a long text's lines (`_line_heads`), asked of every text here: a pattern's texts after
    each prefix find what `re` finds."""
    monkeypatch.setattr(lazy_pattern, "_HEADS_FROM", 0)
    monkeypatch.setattr(lazy_pattern, "_HEADS_LINE", 0)
    check_guard(name, pattern, matched_texts(pattern._source, pattern._flags, 4, seed=zlib.crc32(name.encode())))


def test_a_long_text_has_its_line_heads_read_once() -> None:
    """A lockfile read whole (bench_deps' shape, 150 KB): each line-start pattern of the content tier answers from
    one reading of its lines' first characters, and finds what `re` finds, on str and bytes, LF and CRLF."""
    entry = ('    "node_modules/p{0}": {{\n      "version": "1.0.0",\n'
             '      "resolved": "https://r.invalid/p{0}.tgz"\n    }},\n')
    lock = '{\n  "name": "web",\n  "lockfileVersion": 3,\n  "packages": {\n' + "".join(map(entry.format, range(1500)))
    sources = [r"^version[ \t]*:", r"(?m)^(?:steps|jobs|pr)[ \t]*:", r"""^["']?on["']?[ \t]*:""", r"^\}"]
    for text in (lock, lock.replace("\n", "\r\n"), lock + "\njobs:\n", lock + "}\n"):
        for source in sources:
            for data in (text, text.encode()):
                pattern_source = source.encode() if isinstance(data, bytes) else source
                compiled, pattern = re.compile(pattern_source, re.M), lazy(pattern_source, re.M)
                got, expected = pattern.search(data), compiled.search(data)
                assert (got.span() if got else None) == (expected.span() if expected else None), (source, len(data))
                assert lazy_pattern._HEADS[0][0] is data  # the last long text's heads are held with the text
    heads = lazy_pattern._line_heads(lock)
    assert heads == frozenset({"{", " ", ""}) and lazy_pattern._line_heads(lock) is heads
    assert lazy_pattern._line_heads("\n" * 70_000) is None  # a line a character: the finds are cheaper
