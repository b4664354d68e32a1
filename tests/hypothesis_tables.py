"""Hypothesis' table of the characters UTF-8 encodes, built in one bulk encode instead of its per-character loop.

`st.text()` draws from `st.characters(codec="utf-8")`, and hypothesis builds that codec's table by encoding each of
the 1,114,112 code points in a Python loop (~1.3 CPU-s), then keeps it under .hypothesis/, which a fresh clone (every
CI run) does not have. The same table comes from one encode of every code point with an error handler that records
the runs the codec refuses (~0.15 CPU-s); it is written where and as hypothesis==6.170.17 (pinned in pyproject.toml)
reads it, and a table already there is left alone.
"""

from __future__ import annotations

import codecs
import gzip
import json
import os
import sys
import tempfile
from pathlib import Path

from hypothesis.internal import charmap

CODEC = "utf-8"


def codec_intervals(codec: str, first: int = 0, last: int = sys.maxunicode) -> tuple[list[list[int]], list[list[int]]]:
    """(the code point intervals `codec` encodes, those of them that do not decode back to themselves), as
    hypothesis' `intervals_from_codec` defines them, for code points first..last. Round trips are compared per
    interval, which is exact for a codec that encodes each character on its own (UTF-8: no state, no shifts)."""
    refused: list[tuple[int, int]] = []

    def record(error: UnicodeError) -> tuple[str, int]:
        assert isinstance(error, UnicodeEncodeError)
        refused.append((first + error.start, first + error.end - 1))
        return "", error.end

    handler = f"gatekeeper-tests-record-{id(refused)}"
    codecs.register_error(handler, record)
    text = "".join(map(chr, range(first, last + 1)))
    text.encode(codec, handler)
    encodable: list[list[int]] = []
    start = first
    for low, high in refused:
        if low > start:
            encodable.append([start, low - 1])
        start = high + 1
    if start <= last:
        encodable.append([start, last])
    lossy: list[list[int]] = []
    for low, high in encodable:
        chars = "".join(map(chr, range(low, high + 1)))
        if chars.encode(codec).decode(codec) != chars:
            lossy += [[i, i] for i in range(low, high + 1) if chr(i).encode(codec).decode(codec) != chr(i)]
    return encodable, lossy


def seed_utf8_table() -> Path:
    """Write hypothesis' UTF-8 table unless it is there; the file's path."""
    path = charmap.charmap_file(f"codec-v2-{CODEC}")
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent)
    with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=1) as out:
        out.write(json.dumps(list(codec_intervals(CODEC))).encode())
    os.replace(temporary, path)  # atomic: the other worker reads the whole file or none
    return path
