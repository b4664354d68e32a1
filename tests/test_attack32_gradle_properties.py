"""Attack 32: gradle.properties read otherwise than Gradle reads it (gradleprops.py, this stop's new reader).

Gradle loads gradle.properties with java.util.Properties: the last binding of a key wins, keys and values take
backslash escapes (`\\u0056`, `\\V`), only LF, CR and CRLF end a line, a logical line continues past an odd run of
backslashes (a comment line never continues), and a continuation at the end of the file still binds. The reader kept
the first binding, split lines wherever Python's splitlines does (form feed, vertical tab, U+2028), skipped escaped
keys, dropped a continued last line and stopped reading past 10,000 keys: each variant below names a harmless bump
(4.9.0 -> 4.9.1) while Gradle builds with okhttp 3.0.0, and on 00d44cb the gate allowed every one with `--tree`
(exit 0; from the patch a changed version property was already refused). A file Gradle reads with 3.0.0 must be
refused in both modes; a plain bump stays allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.deps.gradleprops import parse_properties
from gatekeeper.deps.model import ManifestError

SCRIPT = 'plugins { id "java" }\ndependencies {\n    implementation "com.squareup.okhttp3:okhttp:${okhttpVersion}"\n}\n'
BASE = {"settings.gradle": 'include "app"\n', "gradle.properties": "org.gradle.jvmargs=-Xmx2g\nokhttpVersion=4.9.0\n",
        "app/build.gradle": SCRIPT}
HEAD = "org.gradle.jvmargs=-Xmx2g\n"
# Each HEAD gradle.properties: the reader saw 4.9.1, Gradle binds okhttpVersion to 3.0.0.
HIDDEN = {
    "twice": HEAD + "okhttpVersion=4.9.1\nokhttpVersion=3.0.0\n",
    "twice-space": HEAD + "okhttpVersion=4.9.1\nokhttpVersion 3.0.0\n",
    "twice-colon": HEAD + "okhttpVersion=4.9.1\nokhttpVersion : 3.0.0\n",
    "escaped-key": HEAD + "okhttpVersion=4.9.1\nokhttp\\Version=3.0.0\n",
    "unicode-key": HEAD + "okhttpVersion=4.9.1\nokhttp\\u0056ersion=\\u0033.0.0\n",
    "form-feed": HEAD + "okhttpVersion=3.0.0\nnote=a\x0cokhttpVersion=4.9.1\n",
    "vertical-tab": HEAD + "okhttpVersion=3.0.0\nnote=a\x0bokhttpVersion=4.9.1\n",
    "line-separator": HEAD + "okhttpVersion=3.0.0\nnote=a\u2028okhttpVersion=4.9.1\n",
    "group-separator": HEAD + "okhttpVersion=3.0.0\nnote=a\x1dokhttpVersion=4.9.1\n",
    "continued-at-end": HEAD + "okhttpVersion=4.9.1\nokhttpVersion=3.0.0\\",
    "continued-key": HEAD + "okhttpVersion=4.9.1\nokhttp\\\n    Version=3.0.0\n",
    "odd-backslashes": HEAD + "okhttpVersion=3.0.0\nnote=a\\\\\\\nokhttpVersion=4.9.1\n",
    "comment-backslash": HEAD + "okhttpVersion=4.9.1\n# pinned \\\nokhttpVersion=3.0.0\n",
    "past-10000-keys": HEAD + "okhttpVersion=4.9.1\n" + "".join(f"k{i}=1\n" for i in range(10_001))
    + "okhttpVersion=3.0.0\n",
}


@each_case("form", sorted(HIDDEN))
def test_a_version_gradle_binds_is_the_one_read(tmp_path: Path, form: str) -> None:
    case = committed(tmp_path, BASE, {"gradle.properties": HIDDEN[form]})
    for tree in (False, True):
        code, named = gated_rules(case, tree, "deps")
        assert code == 3, (tree, named)  # on 00d44cb: exit 0 with --tree (a bump named)


@pytest.mark.parametrize(("form", "rule"), [("bump", None), ("downgrade", "deps.downgrade")])
def test_controls(tmp_path: Path, form: str, rule: str | None) -> None:
    value = "4.9.1" if form == "bump" else "3.0.0"
    case = committed(tmp_path, BASE, {"gradle.properties": HEAD + f"okhttpVersion={value}\n"})
    code, named = gated_rules(case, True, "deps")
    assert (code, sorted(named)) == ((0, []) if rule is None else (3, [rule])), named


@each_case(("text", "want"), [
    ("a=1\na=2\n", {"a": "2"}),
    ("a\\ b=1\n", {"a b": "1"}),
    ("a=\\u0031\\t\\x\n", {"a": "1\tx"}),
    ("a=1\\\n   2\n", {"a": "12"}),
    ("a=1\\\\\nb=2\n", {"a": "1\\", "b": "2"}),
    ("# c \\\na=1\n! d\n", {"a": "1"}),
    ("a=1\rb=2\r\nc=3", {"a": "1", "b": "2", "c": "3"}),
    ("a=x\x0cb=2\n", {"a": "x\x0cb=2"}),
    ("  a   =   1  \n", {"a": "1"}),
    ("a:=1\n", {"a": "=1"}),
    ("a\n", {"a": ""}),
])
def test_java_properties_forms(text: str, want: dict[str, str]) -> None:
    assert parse_properties(text.encode()) == want


@each_case("text", ["a=\\u00zz\n", "a=\\u12", "".join(f"k{i}=1\n" for i in range(10_001))])
def test_what_java_refuses_or_past_the_bound_is_unreadable(text: str) -> None:
    with pytest.raises(ManifestError):
        parse_properties(text.encode())


# Continued lines and escaped keys that move okhttpVersion: (BASE's gradle.properties, HEAD's). These held on 00d44cb
# (refused in both modes: from the patch a changed gradle.properties names nothing, so it is unexplained) and must
# hold with the Java reading (with --tree a downgrade or an unexplained change).
PATCH_PAIRS = {
    # `note` stops continuing: the line below, 4.9.0, binds again over the 5.0.0 above (a downgrade)
    "freed-line": ("okhttpVersion=5.0.0\nnote=a\\\nokhttpVersion=4.9.0\n",
                   "okhttpVersion=5.0.0\nnote=a\nokhttpVersion=4.9.0\n"),
    "freed-by-jvmargs": ("okhttpVersion=5.0.0\norg.gradle.jvmargs=-Xmx2g \\\nokhttpVersion=4.9.0\n",
                         "okhttpVersion=5.0.0\norg.gradle.jvmargs=-Xmx2g\nokhttpVersion=4.9.0\n"),
    # the value on a continued line of its own
    "continued-value": ("okhttpVersion=\\\n    4.9.0\n", "okhttpVersion=\\\n    3.0.0\n"),
    "continued-split-key": ("okhttpV\\\n  ersion=4.9.0\n", "okhttpV\\\n  ersion=3.0.0\n"),
    # an escaped key added below: the last binding wins
    "escaped-key-added": ("okhttpVersion=4.9.0\n", "okhttpVersion=4.9.0\nokhttp\\Version=3.0.0\n"),
    "unicode-key-added": ("okhttpVersion=4.9.0\n", "okhttpVersion=4.9.0\nokhttp\\u0056ersion=3.0.0\n"),
}


@each_case("form", sorted(PATCH_PAIRS))
def test_a_version_moved_by_continuation_or_escape_is_refused(tmp_path: Path, form: str) -> None:
    old, new = PATCH_PAIRS[form]
    case = committed(tmp_path, {**BASE, "gradle.properties": old}, {"gradle.properties": new})
    for tree in (False, True):
        code, named = gated_rules(case, tree, "deps")
        assert code == 3, (tree, named)
