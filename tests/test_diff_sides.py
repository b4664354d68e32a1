"""The `---`/`+++` name reader's fast path (parser._side) answers as the general reading, on generated names.

`_side` reads a plain name (nothing git would quote, no doubled slash) without side_name and _as_git_reads; every
other name takes the general reading. The reference below is that general reading alone: side_name, the prefix, then
git's reading (`_as_git_reads`): the same value or the same refusal for every name.
"""

from __future__ import annotations

import itertools

from tables import each_case

from gatekeeper.diff import parser
from gatekeeper.diff.paths import QuoteError, side_name, strip_prefix
from gatekeeper.errors import PatchError

_PREFIXES = [b"", b"a/", b"b/", b"/", b"x/", b"a//", b"\"a/", b"c/d/"]
_BODIES = [b"f", b"src/pkg0/file1.go", b"we ird", b"dir/", b"a\"b", b"back\\slash", b"tab\there", b"ctl\x01x",
           b"del\x7f", "caf\u00e9.yml".encode(), b"x//y", b"cr\r", b"dev/null", b"", b"/", b".github/workflows/ci.yml"]
_SUFFIXES = [b"", b"\t", b"\tjunk", b"\"", b" "]
_WHOLE = [b"/dev/null", b"/dev/null\t", b"\"a/b c\"", b"\"a/\\101\"", b"\"a/x\"\t", b"\"unterminated", b"\"a/x\" y",
          b"a/\"q\"", b"\"\"", b"a/x\t\t"]
NAMES = [p + b + s for p, b, s in itertools.product(_PREFIXES, _BODIES, _SUFFIXES)] + _WHOLE


def _reference(text: bytes) -> bytes | None | str:
    """The general reading: the name, or the refusal's message."""
    fail = parser._Fail("p.diff")
    try:
        try:
            name = side_name(text)
        except QuoteError as exc:
            raise fail(str(exc), 7) from None
        if name is None:
            return None
        stripped = strip_prefix(name)
        if stripped is None:
            raise fail("a ---/+++ name has no 'a/' or 'b/' prefix", 7,
                       "make the patch with git's default prefixes (not --no-prefix)")
        parser._as_git_reads(text, stripped, 1, 7, fail)
        return stripped
    except PatchError as exc:
        return str(exc)


def _read(text: bytes) -> bytes | None | str:
    try:
        return parser._side(text, 7, parser._Fail("p.diff"))
    except PatchError as exc:
        return str(exc)


def test_the_names_cover_both_paths() -> None:
    plain = [n for n in NAMES if b"//" not in n and not parser.needs_quoting(n)]
    assert 60 < len(plain) < len(NAMES) - 300
    assert {type(_reference(n)) for n in plain} == {bytes, str, type(None)}  # read, refused (no prefix), /dev/null


@each_case("text", NAMES)
def test_a_side_name_reads_as_the_general_reading(text: bytes) -> None:
    assert _read(text) == _reference(text)
