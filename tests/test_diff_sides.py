"""The diff parser's fast paths answer as the general reading, on generated names and sections.

`_side` reads a plain name (nothing git would quote, no doubled slash) without side_name and _as_git_reads; every
other name takes the general reading. The reference below is that general reading alone: side_name, the prefix, then
git's reading (`_as_git_reads`): the same value or the same refusal for every name. `section._resolve_names` reads a
section naming one file on both sides, written in its header as git writes it, without the general checks' calls.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from tables import each_case

from gatekeeper.diff import parser
from gatekeeper.diff.paths import QuoteError, side_name, strip_prefix
from gatekeeper.diff.section import Section, _resolve_named, _resolve_names
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


_NAMES = [b"f", b"src/pkg0/file1.go", b"we ird", b"a\"b", b"back\\slash", b"tab\there", b"ctl\x01x", b"x /y", b"b/f",
          "caf\u00e9".encode()]
_FIELDS = ["new_file_mode", "deleted_mode", "rename_from", "rename_to", "copy_from", "copy_to"]


def _sections() -> list[Section]:
    """Sections as the parser leaves them: the header written for the name or another, ---/+++ names alike or not (or
    /dev/null), and each field that makes a section other than a plain change set or not."""
    out = []
    for new, other in itertools.product(_NAMES, [None, b"f", b"g"]):
        minus = new if other is None else other
        quoted = b"\"a/" + new + b"\" \"b/" + new + b"\""
        for header in (b"a/" + new + b" b/" + new, b"a/" + new + b" b/" + minus, quoted, b"a/" + new + b"  b/" + new,
                       b"a/" + new + b" b/" + new + b" "):
            for sides in ((minus, new), (None, new), (new, None), (None, None)):
                for field in [None, *_FIELDS]:
                    section = Section(line=3, header=header, has_sides=True, minus=sides[0], plus=sides[1])
                    if field is not None:
                        setattr(section, field, b"100644" if field.endswith("mode") else new)
                    out.append(section)
    return out


SECTIONS = _sections()


def _resolved(read: Callable[[Section, str], object], section: Section) -> object:
    try:
        return read(section, "p.diff")
    except PatchError as exc:
        return str(exc)


def test_the_sections_cover_the_fast_reading_and_the_general_one() -> None:
    fast = [s for s in SECTIONS if _resolved(_resolve_names, s) == (s.plus, s.plus, None)]
    assert 40 < len(fast) < len(SECTIONS) - 1000


@each_case("section", SECTIONS, ids=lambda s: repr((s.header, s.minus, s.plus)))
def test_a_sections_names_resolve_as_the_general_reading(section: Section) -> None:
    assert _resolved(_resolve_names, section) == _resolved(_resolve_named, section)
