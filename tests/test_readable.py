"""The one escaper for names shown to people (`readable.printable`), and counts with their noun."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from gatekeeper.readable import HIDDEN_CATEGORIES, count, printable

POLICY_DIR = Path(__file__).resolve().parent.parent / "policies"

_ESCAPE = re.compile(r"\\(?:([\\nrt])|x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8}))")
_NAMED = {"\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def _undo(shown: str) -> str:
    """The inverse of printable: proves two different names never print alike."""

    def one(match: re.Match[str]) -> str:
        named, byte, short, long = match.groups()
        if named:
            return _NAMED[named]
        if byte:
            code = int(byte, 16)
            return chr(code) if code < 0x80 else chr(0xDC00 + code)  # \x80-\xff: an undecodable byte
        return chr(int(short or long, 16))

    parts = _ESCAPE.split(shown)
    assert "\\" not in "".join(parts[::5]), f"a bare backslash in {shown!r}"
    return _ESCAPE.sub(one, shown)


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in HIDDEN_CATEGORIES or ord(char) in (0xFFFE, 0xFFFF)


def _assert_safe(text: str) -> None:
    shown = printable(text)
    assert not any(_hidden(char) for char in shown), (text, shown)
    assert _undo(shown) == text


def test_every_hidden_code_point_is_escaped() -> None:
    # C0, DEL, C1, every format character (bidi, zero-width, BOM, tags), separators, surrogates, U+FFFE/U+FFFF.
    hidden = [chr(code) for code in range(0x110000) if _hidden(chr(code))]
    assert {"\x00", "\x1b", "\x7f", "\x85", "\x9b", "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028",
            chr(0xD800), chr(0xDCFF), "\U000e0001", "\ufffe"} <= set(hidden)
    shown = printable("".join(hidden))
    assert not any(_hidden(char) for char in shown)
    assert shown.isascii()
    assert _undo(shown) == "".join(hidden)


def test_the_escapes_people_read() -> None:
    assert printable("x\n\x1b[31m\udcff.txt") == "x\\n\\x1b[31m\\xff.txt"
    assert printable("tab\there\rcr") == "tab\\there\\rcr"
    assert printable("c1 \x85 and \x9b") == "c1 \\u0085 and \\u009b"  # never \x85: that is a raw byte
    assert printable("evil\u202etxt.exe") == "evil\\u202etxt.exe"
    assert printable("a\\x41") == "a\\\\x41"
    assert printable("tag\U000e0041") == "tag\\U000e0041"
    plain = "caf\u00e9 \u65e5\u672c \U0001f600 plain/path.txt"
    assert printable(plain) == plain


def test_two_different_names_never_print_alike() -> None:
    pairs = [("x\udcff", "x\\xff"), ("x\x85", "x\udc85"), ("a\\nb", "a\nb"), ("\\u202e", "\u202e")]
    for one, other in pairs:
        assert printable(one) != printable(other)


@given(st.text())
def test_generated_text_is_escaped_and_reversible(text: str) -> None:
    _assert_safe(text)


@given(st.binary(max_size=64))
def test_generated_path_bytes_are_escaped_and_reversible(raw: bytes) -> None:
    # Paths read from git come as bytes; what is not UTF-8 arrives as surrogate escapes.
    _assert_safe(raw.decode("utf-8", "surrogateescape"))


@given(st.lists(st.sampled_from(["a", "/", "\\", "\n", "\x85", "\udc85", "\u202e", "x", "u", "0", "8", "5"]),
                max_size=12))
def test_generated_lookalikes_stay_apart(chars: list[str]) -> None:
    text = "".join(chars)
    _assert_safe(text)


def test_classify_table_escapes_c1_controls_and_bytes() -> None:
    # The classify table used to leave C1 controls (U+009B is a one-character CSI) and raw bytes as they were.
    from gatekeeper.classify.report import ClassifyRequest, classify_report

    names = b"src/a\xc2\x9b2Jb.py\nsrc/bidi\xe2\x80\xae.py\nsrc/byte\xff.py\n"  # U+009B, U+202E, a non-UTF-8 byte
    request = ClassifyRequest(None, "-", POLICY_DIR, "text", (), None, None)
    text = classify_report(request, io.BytesIO(names))
    assert "src/a\\u009b2Jb.py" in text and "src/bidi\\u202e.py" in text and "src/byte\\xff.py" in text
    assert not any(_hidden(char) for char in text.replace("\n", ""))


def test_count_says_one_or_many() -> None:
    assert count(1, "file") == "1 file"
    assert count(0, "file") == "0 files"
    assert count(2, "dry run") == "2 dry runs"
    assert count(3, "entry", "entries") == "3 entries"
