"""cost40: `dotnetrun.assemblies` reads a word of many `(` in time linear in its length.

`_EXE` (a program run by its path: `$(x.exe)`, `(mono tools/x.exe`) is tried from each `(` of a word and scanned to the
word's end when no `.exe` ends a name there: 64 KiB of `(` (or `$(`) cost 1.9 CPU-s at 16 KiB, 16 times its 4 KiB
(tests/test_cost40_reader_shapes.py found it). The word's tail past its last `.exe` is cut to its last characters
first; the names found are 4c9e1172's, compared on generated texts.
"""

from __future__ import annotations

import random
import re

import pytest

from gatekeeper.classify import dotnetrun
from tests.cpucost import assert_linear, repeated

# 4c9e1172's reading: `_EXE` over the whole text
_OLD_EXE = re.compile(r"(?:^|[;&|(`]|\$\()[ \t]*+(?:-[ \t]++)?+(?:run:[ \t]*+(?:[|>][-+]?+[ \t]*+)?+)?+"
                      r"(?:(?:call|mono|start)[ \t]++)?+['\"]?+([^\s'\";|&`]*?)\.exe(?![\w.])",
                      re.IGNORECASE | re.MULTILINE)
_PIECES = ["(", "$(", "((", "x", "tools/x", ".exe", ".EXE", ".exe.", ".exea", " ", "\t", "\n", ";", "|", "&", "`", "'",
           '"', "-", "- ", "run:", "run: ", "run:>-", "run:|", ">", "+", "call ", "mono ", "start ", "start", "call",
           "a/b", "\\", "$", "y" * 20, "(" * 20, "z" * 40, "w.exe" + "(" * 40, "(" * 30 + "run:>+start", "-" * 33]


def _names(text: str) -> list[str]:
    return dotnetrun._EXE.findall(dotnetrun._WORD.sub(dotnetrun._dead_tail_cut, text))


@pytest.mark.parametrize("seed", range(4))
def test_the_names_are_the_old_pattern_s(seed: int) -> None:
    draw = random.Random(seed)
    for _ in range(5_000):
        text = "".join(draw.choice(_PIECES) for _ in range(draw.randint(1, 24)))
        assert _names(text) == _OLD_EXE.findall(text), repr(text)


@pytest.mark.parametrize("text", ["$(tools/build.exe)", "(mono ./out/x.exe", "x; call bin\\nev.exe",
                                  "(" * 40 + " x.exe", "a" * 40 + "(" + " x.exe",
                                  "run:>+start" + "(" * 40 + "(run:>+start x.exe",
                                  "w.exe" + "(" * 60 + "- y.exe", "a.exe(" + "b" * 50 + ".exe"])
def test_edges(text: str) -> None:
    assert _names(text) == _OLD_EXE.findall(text)


@pytest.mark.parametrize("unit", ["(", "$(", "a(", "((x", "(run:", "x.exe("])
@pytest.mark.parametrize("head", ["x.exe ", "-p q\n"])
def test_a_word_of_parens_is_read_in_linear_time(unit: str, head: str) -> None:
    assert_linear(lambda text: dotnetrun.assemblies(text, {}, lambda _: b""), repeated(unit, head, " done\n"),
                  budget=1.0)
