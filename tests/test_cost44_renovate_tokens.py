"""renovatemerge's JSON5 tokens without a backtracking mark per character (cost 44's memory sweep).

A repeated alternation (`(?:[\\w$+.-]|\\\\u….)+`, a string's `(?:[^"\\\\]|\\\\.)*`) kept a mark per character on the
regular expression engine's stack: a Renovate settings file of one 1 MiB word peaked at 266 MB, the worst of the 2,079
cost-40 readings and the 420 dear cost-test readings cost 44 measured. Possessive runs keep none; the branches are
disjoint, so every token is the same (the old pattern is kept here as the oracle).
"""

from __future__ import annotations

import random
import re
import tracemalloc

import pytest

from gatekeeper.classify import renovatemerge

OLD = re.compile(r"""(?P<space>[\s\ufeff\u200b]+)|(?P<comment>//[^\n\r\u2028\u2029]*|/\*.*?\*/)
    |(?P<string>"(?:[^"\\\n\r]|\\(?:\r\n|.))*"|'(?:[^'\\\n\r]|\\(?:\r\n|.))*')
    |(?P<punct>[{}\[\]:,])|(?P<word>(?:[\w$+.-]|\\u[0-9a-fA-F]{4})+)""", re.VERBOSE | re.DOTALL)
PIECES = ['"', "'", "\\", "\\u0041", "\\u00", "\\x41", "\n", "\r\n", "a", "b-", "$", "+1", ".", " ", "\t", "{", "}",
          "[", "]", ":", ",", "//", "/*", "*/", "*", "\u2028", "\ufeff", "é", "automerge", "true", "null"]


def _texts(count: int) -> list[str]:
    rng = random.Random(4402)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 24))) for _ in range(count)]


def test_every_token_is_the_old_patterns() -> None:
    for text in _texts(1500):
        for at in range(len(text)):
            old, new = OLD.match(text, at), renovatemerge._TOKEN.match(text, at)
            assert (old is None) == (new is None), (text, at)
            if old is not None and new is not None:
                assert (old.lastgroup, old.span()) == (new.lastgroup, new.span()), (text, at)


@pytest.mark.parametrize(("head", "unit", "tail"), [("", "abc-", ""), ("", "a\\u0041", ""), ('"', "a\\", ""),
                                                   ("{\"a\": '", "\\u0041\\n", "'}")])
def test_a_long_token_holds_no_mark_per_character(head: str, unit: str, tail: str) -> None:
    text = (head + unit * ((1 << 18) // len(unit)) + tail)[:renovatemerge.FULL_READ].encode()
    tracemalloc.start()
    try:
        for complete in (True, False):
            renovatemerge.merges(text, complete)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak  # ed28b952: 26-79 MB at 256 KiB (the text and its decoded copy: ~2.5 MB)
