"""The UTF-8 table the suite writes for hypothesis is the one hypothesis builds, and hypothesis reads it."""

from __future__ import annotations

import sys

from hypothesis.internal import charmap
from hypothesis_tables import CODEC, codec_intervals, seed_utf8_table
from tables import each_case


def _one_by_one(codec: str, first: int, last: int) -> tuple[list[list[int]], list[list[int]]]:
    """Hypothesis' own definition (charmap.intervals_from_codec): each code point encoded alone, runs merged."""
    encodable: list[list[int]] = []
    lossy: list[list[int]] = []
    for i in range(first, last + 1):
        try:
            encoded = chr(i).encode(codec)
        except UnicodeEncodeError:
            continue
        if encodable and encodable[-1][1] == i - 1:
            encodable[-1][1] = i
        else:
            encodable.append([i, i])
        if encoded.decode(codec) != chr(i):
            lossy.append([i, i])
    return encodable, lossy


@each_case(("codec", "first", "last"), [
    (CODEC, 0, 0x3000),
    (CODEC, 0xD000, 0xE800),  # the surrogates UTF-8 refuses, and their edges
    (CODEC, 0x10F000, sys.maxunicode),
    ("ascii", 0, 0x200),
    ("latin-1", 0, 0x200),
    ("cp1252", 0, 0x2200),  # holes in the middle of the table, not at an end
])
def test_the_bulk_table_is_the_one_by_one_table(codec: str, first: int, last: int) -> None:
    assert codec_intervals(codec, first, last) == _one_by_one(codec, first, last)


def test_hypothesis_reads_the_seeded_table() -> None:
    path = seed_utf8_table()  # the session already wrote it (tests/conftest.py); here it is found
    assert path.exists()
    encodable, lossy = charmap.intervals_from_codec.__wrapped__(CODEC)  # reads the file: no cache in between
    assert encodable.intervals == ((0, 0xD7FF), (0xE000, sys.maxunicode))
    assert lossy.intervals == ()
