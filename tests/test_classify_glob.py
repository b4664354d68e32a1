"""Glob semantics of the classification rules: what each pattern matches, and the patterns refused."""

from __future__ import annotations

import random
import re

import pytest
from tables import each_case

from gatekeeper.classify.glob import GlobError, _bracket, compile_glob, full_regex, segment_regex
from gatekeeper.classify.index import GlobIndex


def glob_matches(pattern: str, path: str) -> bool:
    glob = compile_glob(pattern)
    by_regex = bool(full_regex(glob).fullmatch(path))
    by_index = bool(GlobIndex([glob]).mask(path))
    assert by_regex == by_index, (pattern, path)
    return by_index


@each_case(
    ("pattern", "path", "expected"),
    [
        ("Jenkinsfile", "Jenkinsfile", True),
        ("Jenkinsfile", "a/b/Jenkinsfile", True),
        ("Jenkinsfile", "Jenkinsfile.groovy", False),
        ("*.tf", "modules/net/main.tf", True),
        ("*.tf", "main.tf.bak", False),
        ("*.tf", ".tf", True),  # '*' matches an empty stem, as in gitignore
        (".github/workflows/**", ".github/workflows/ci.yml", True),
        (".github/workflows/**", ".github/workflows/sub/x.yml", True),
        (".github/workflows/**", "x/.github/workflows/ci.yml", False),  # a slash anchors at the root
        (".github/workflows/*.yml", ".github/workflows/sub/x.yml", False),
        ("/ci/**", "ci/run.sh", True),
        ("/ci/**", "lib/ci/run.sh", False),
        ("/ci/**", "ci", False),  # the folder's contents, not a file named ci
        ("testdata/", "pkg/x/testdata/Dockerfile", True),
        ("testdata/", "testdata", False),
        ("**/testdata/**", "testdata/a/b", True),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("a/**/b", "ab", False),
        ("**", "anything/at/all", True),
        ("*", "deep/file", True),
        ("Dockerfile.*", "svc/Dockerfile.prod", True),
        ("Dockerfile.*", "svc/Dockerfile", False),
        ("*.[1-9].md", "man/git.1.md", True),
        ("*.[1-9].md", "man/git.x.md", False),
        ("file[!a].txt", "fileb.txt", True),
        ("file[!a].txt", "filea.txt", False),
        ("?.txt", "a.txt", True),
        ("?.txt", "ab.txt", False),
        ("\\*literal", "*literal", True),
        ("\\*literal", "xliteral", False),
        ("**/{{cookiecutter.*}}/**", "t/{{cookiecutter.slug}}/.github/workflows/ci.yml", True),
        # Matching ignores case: a case trick must not hide a workflow from the gate.
        (".github/workflows/**", ".GitHub/Workflows/CI.yml", True),
        ("dockerfile", "DockerFile", True),
        ("*.TF", "main.tf", True),
    ],
)
def test_glob_semantics(pattern: str, path: str, expected: bool) -> None:
    assert glob_matches(pattern, path) is expected


@each_case(
    ("pattern", "why"),
    [
        ("", "empty"),
        ("!foo", "negation"),
        ("a/**b", "whole path segment"),
        ("a[bc", "unclosed"),
        ("a//b", "empty path segment"),
        ("../x", "segment"),
        ("x\\", "trailing backslash"),
        (" x", "spaces"),
        ("/", "only"),
        ("[z-a].txt", "bad character class"),  # the regex would not compile: refused at load, not at first use
        ("src/[9-0]x/**", "bad character class"),
    ],
)
def test_bad_globs_are_refused(pattern: str, why: str) -> None:
    with pytest.raises(GlobError, match=why):
        compile_glob(pattern)


def _one_char_at_a_time(segment: str) -> str:
    """The translation `segment_regex` makes, written one character at a time (the reference)."""
    out, i = [], 0
    while i < len(segment):
        ch = segment[i]
        if ch == "*":
            while i < len(segment) and segment[i] == "*":
                i += 1
            out.append("[^/]*")
            continue
        if ch == "?":
            out.append("[^/]")
        elif ch == "\\":
            if i + 1 >= len(segment):
                raise GlobError("trailing backslash")
            i += 1
            out.append(re.escape(segment[i]))
        elif ch == "[":
            i, klass = _bracket(segment, i)
            out.append(klass)
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def test_segment_translation_is_the_one_character_reading() -> None:
    # Runs of plain characters are escaped at once and a glob's segments without a bracket or an escape are not
    # translated to be validated: the same regexes and the same refusals as one character at a time.
    rng = random.Random(29)
    alphabet = "aZ9.-_+*?\\[]!^{}()$|~ é/#"
    segments = ["a.b", "*.tf", "Dockerfile.*", "[!a]x", "\\*y", "x\\", "[z-a]", "[]]", "a[b", "**", "é*.[0-9]"]
    segments += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9))) for _ in range(3_000)]
    for segment in segments:
        try:
            expected: str | type[GlobError] = _one_char_at_a_time(segment)
        except GlobError:
            expected = GlobError
        if "[" not in segment and "\\" not in segment:
            assert expected is not GlobError, segment  # why compile_glob need not translate such a segment
        if expected is GlobError:
            with pytest.raises(GlobError):
                segment_regex(segment)
        else:
            assert segment_regex(segment) == expected, segment
