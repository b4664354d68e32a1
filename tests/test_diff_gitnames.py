"""gatekeeper.diff.gitnames: the reimplementation of git's own name readers, checked against git itself.

Each expectation below is also asked of `git apply --numstat -z` (git 2.39 here), so a case that
stops matching git fails, whatever our literal says.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from gitrepo import GIT_ENV
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import each_case

from gatekeeper.diff.gitnames import git_find_name, git_header_name
from gatekeeper.diff.section import _git_reads_header_as

ENV = {**os.environ, **GIT_ENV}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("gitnames")
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def git_reads(patch: bytes, cwd: Path) -> bytes | None:
    done = subprocess.run(["git", "apply", "--numstat", "-z", "-"], input=patch, capture_output=True, cwd=cwd, env=ENV)
    if done.returncode:
        return None
    return done.stdout.split(b"\t", 2)[2].rstrip(b"\0")


def header_patch(header: bytes) -> bytes:
    return b"diff --git " + header + b"\nold mode 100644\nnew mode 100755\n"


@each_case(
    ("header", "name"),
    [
        (b"a/x b/x", b"x"),
        (b"a/x y b/x y", b"x y"),
        (b"a/x b/x b/x b/x", b"x b/x"),  # the first split whose halves match
        (b"a/x\tb/x", b"x"),  # git splits at a tab too
        (b'a/Dockerfile "b/Dockerfile" c/Dockerfile "b/Dockerfile"', b"Dockerfile"),  # the reported header
        (b'"a/x" "b/x"junk', b"x"),  # text after the second quoted name is ignored
        (b'"a/x"\t\r "b/x"', b"x"),  # any run of SP, HT, CR between quoted names
        (b'"a/x" b/x', None),  # git counts the newline: a quoted then bare name never matches...
        (b'"a/x\\n" b/x', b"x\n"),  # ...unless the quoted one ends in an escaped newline
        (b'"a/\\303\\251" "b/\\303\\251"', b"\xc3\xa9"),
        (b'"a/x\\000y" "b/x\\000z"', None),  # git compares C strings: we refuse NUL
        (b"b/ a/", b""),  # git reads an empty name (and we refuse it later)
        (b"a/x /x", None),  # a second name starting with '/' stops git's scan
        (b"x b/x", None),  # no prefix on the first name
        (b'a/x "b/x', None),  # unclosed: git would read on into the next line
    ],
)
def test_header_name_as_git_reads_it(scratch: Path, header: bytes, name: bytes | None) -> None:
    assert git_header_name(header) == name
    if b"\\000" not in header:
        assert git_reads(header_patch(header), scratch) == name


@each_case(
    ("text", "strip", "tab_ends", "name"),
    [
        (b"a/x y\t", 1, True, b"x y"),
        (b"a/x\tjunk", 1, True, b"x"),
        (b"a/x\r", 1, True, b"x"),
        (b"a//x", 1, True, b"/x"),  # squashed, but still absolute (marked unsafe by the parser)
        (b"a/d//x", 1, True, b"d/x"),
        (b"/etc/passwd", 1, True, b"etc/passwd"),  # git strips up to the first slash, even at 0
        (b'"a/x"junk', 1, True, b"x"),
        (b'"a/x\\q"', 1, True, b'x\\q"'),  # a bad escape: git reads the raw text
        (b"x", 1, True, None),
        (b"x y\tz", 0, False, b"x y\tz"),  # rename/copy lines: no prefix, a tab is part of the name
        (b"x\ry", 0, False, b"x"),
    ],
)
def test_find_name(text: bytes, strip: int, tab_ends: bool, name: bytes | None) -> None:
    assert git_find_name(text, strip, tab_ends) == name


@each_case(
    ("text", "name"), [(b"a/x\tjunk", b"x"), (b"a/x\r", b"x"), (b'"a/x"junk', b"x"), (b"a/d//x", b"d/x")]
)
def test_find_name_on_plus_lines_as_git(scratch: Path, text: bytes, name: bytes) -> None:
    plus = text.replace(b"a/", b"b/", 1)
    patch = (
        b"diff --git a/q b/q\nindex 1111111..2222222 100644\n--- "
        + text
        + b"\n+++ "
        + plus
        + b"\n@@ -1 +1 @@\n-a\n+b\n"
    )
    assert git_reads(patch, scratch) == name == git_find_name(plus, 1, True)


WORDS = [
    b"a/",
    b"b/",
    b"x",
    b"y",
    b" ",
    b"\t",
    b"\r",
    b'"',
    b"\\",
    b"\\\\",
    b"/",
    b" b/",
    b"\\t",
    b"\\303\\251",
    b"\\n",
    b'\\"',
    b"\xc3\xa9",
    b'"b/x"',
    b"c/x",
]


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12))
def test_header_name_agrees_with_git_on_any_word_soup(scratch: Path, words: list[bytes]) -> None:
    header = b"".join(words)
    assert git_header_name(header) == git_reads(header_patch(header), scratch)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=8), st.lists(st.sampled_from(WORDS), max_size=12))
def test_the_parsers_answer_for_a_header_is_git_header_names(name_words: list[bytes], other_words: list[bytes]) -> None:
    # The parser's shortcut for `a/NAME b/NAME` (section._git_reads_header_as) answers as git_header_name does, for
    # the header git writes for the name and for any other header.
    name = b"".join(name_words)
    for header in (b"a/" + name + b" b/" + name, b"".join(other_words), b"a/" + name + b" b/" + b"".join(other_words)):
        assert _git_reads_header_as(header, name) == (git_header_name(header) == name), (header, name)


@each_case(("header", "name", "reads"), [
    (b"a/src/x.go b/src/x.go", b"src/x.go", True),
    (b"a/a b/a b/a b/a", b"a b/a", True),  # a space in the name: git's scan, not the shortcut
    (b"a/x b/x", b"y", False),
    (b"a/x b/x ", b"x", False),
    (b"a/x\tb/x", b"x", True),  # git also splits at a tab: the scan answers
    (b"a/x /y b/x /y", b"x /y", False),  # git gives up at a separator followed by '/'
    (b"a/x\t/y b/x\t/y", b"x\t/y", False),
])
def test_the_parsers_answer_for_some_headers(header: bytes, name: bytes, reads: bool) -> None:
    assert _git_reads_header_as(header, name) is reads
    assert (git_header_name(header) == name) is reads
