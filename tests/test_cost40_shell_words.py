"""cost40: the readers that split a command line as a shell does read it in time linear in the line.

`shlex` builds a word one character at a time (a new string each time): 64 KiB of one word cost `pipinstalls`'
splitting 64 ms against 7.4 at 16 KiB, 1 MiB 17 CPU-s (tests/test_cost40_reader_shapes.py found it in
`pipinstalls._words` and `composeruns._rewritten`). `shellwords.split` reads as `shlex` does with the word in a list;
these tests hold it to `shlex`'s words and errors on generated lines, and its callers to linear cost.
"""

from __future__ import annotations

import random
import shlex

import pytest

from gatekeeper.classify import composeruns, dockerrefs, pipinstalls, shellwords
from gatekeeper.gitobjects import TreeEntry
from tests.cpucost import assert_linear, repeated

_PUNCTUATION = ";&|()<>"
_PIECES = ["a", "b", "-p", " ", "\t", "\n", "\r", "'", '"', "\\", "#", ";", "&", "|", "(", ")", "<", ">", "x y", "''",
           '""', "\\\n", "é", "=", "$", "`", "${", "./"]


def _shlex(text: str, comments: bool, punctuation: str) -> list[str] | str:
    try:
        if not punctuation:
            return shlex.split(text, comments=comments)
        lexer = shlex.shlex(text, posix=True, punctuation_chars=punctuation)
        lexer.whitespace_split = True
        lexer.commenters = "#" if comments else ""
        return list(lexer)
    except ValueError as error:
        return str(error)


def _split(text: str, comments: bool, punctuation: str) -> list[str] | str:
    try:
        return shellwords.split(text, comments, punctuation)
    except ValueError as error:
        return str(error)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("punctuation", ["", _PUNCTUATION])
@pytest.mark.parametrize("comments", [False, True])
def test_the_words_and_errors_are_shlex_s(seed: int, comments: bool, punctuation: str) -> None:
    draw = random.Random(seed)
    for _ in range(3_000):
        text = "".join(draw.choice(_PIECES) for _ in range(draw.randint(0, 16)))
        assert _split(text, comments, punctuation) == _shlex(text, comments, punctuation), repr(text)


@pytest.mark.parametrize("text", ["", " ", "a", "'", '"', "\\", "''", "a#b", "a #b\nc", "a&&b", "a;;|b", "'a'\"b\"c",
                                  '"a\\"b\\\\c\\d"', "a\\ b", "(a)", "a\n\nb", "é ü"])
def test_edges(text: str) -> None:
    for comments in (False, True):
        for punctuation in ("", _PUNCTUATION):
            assert _split(text, comments, punctuation) == _shlex(text, comments, punctuation), repr(text)


_UNITS = ["a", "'a'", '"a"', "\\a", "a\\ ", "&", "#a"]


@pytest.mark.parametrize("unit", _UNITS)
def test_split_is_linear(unit: str) -> None:
    for comments, punctuation in ((False, ""), (True, ""), (False, _PUNCTUATION)):
        assert_linear(lambda text: _split(text, comments, punctuation),  # noqa: B023  (called before the loop moves)
                      repeated(unit, "pip install ", " x"), budget=0.5)


@pytest.mark.parametrize("unit", _UNITS)
def test_pip_install_lines_are_read_in_linear_time(unit: str) -> None:
    assert_linear(pipinstalls.installed_projects, repeated(unit, "pip install -e ", " .\n"), budget=0.5)


@pytest.mark.parametrize("unit", _UNITS)
def test_compose_run_lines_are_read_in_linear_time(unit: str) -> None:
    tree = {"compose.yml": TreeEntry("100644", "1" * 40)}
    compose = b"services:\n  app:\n    image: x\n    volumes:\n      - .:/src\n    working_dir: /src\n"
    assert_linear(lambda text: composeruns.localized(text, tree, lambda _: compose),
                  repeated(unit, "docker compose run app ", " x\n"), budget=0.5)


@pytest.mark.parametrize("unit", _UNITS)
def test_dockerfile_run_lines_are_read_in_linear_time(unit: str) -> None:
    assert_linear(dockerrefs._words, repeated(unit, "RUN ", " x"), budget=0.5)
