"""The `GIT binary patch` body: `literal N` / `delta N` blocks of base85 lines, each block ended by a blank line.

Each data line starts with a length character (`A`-`Z` = 1-26 bytes, `a`-`z` = 27-52) followed by
the base85 text of that many bytes, five characters per four bytes. The parser checks that shape
line by line; it inflates only a symlink's data, whose content is the link's target (the patch's
sha256 already pins every other byte).
"""

from __future__ import annotations

import base64
import zlib

from gatekeeper.lazy_pattern import lazy

_B85 = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
_BLOCK = lazy(rb"(literal|delta) (\d{1,18})")


def block_header(line: bytes) -> bool:
    """True for a `literal N` or `delta N` line."""
    return _BLOCK.fullmatch(line) is not None


def data_line_problem(line: bytes) -> str | None:
    """What is wrong with a base85 data line, or None when its shape is right."""
    head = line[0]
    if 0x41 <= head <= 0x5A:
        size = head - 0x41 + 1
    elif 0x61 <= head <= 0x7A:
        size = head - 0x61 + 27
    else:
        return "a binary data line must start with a length letter (A-Z, a-z)"
    if len(line) - 1 != (size + 3) // 4 * 5:
        return f"a binary data line for {size} bytes must hold {(size + 3) // 4 * 5} base85 characters"
    if line[1:].translate(None, _B85):
        return "a binary data line holds characters outside base85"
    return None


def inflate_literal(header: bytes, lines: list[bytes], limit: int) -> bytes | None:
    """The content a `literal N` block holds (base85, then zlib), or None for a delta, more than `limit`
    bytes, or data that does not decode."""
    match = _BLOCK.fullmatch(header)
    if match is None or match.group(1) != b"literal":
        return None  # a delta needs the old content, which the patch does not carry
    size = int(match.group(2))
    if size > limit:
        return None
    packed = bytearray()
    try:
        for line in lines:
            head = line[0]
            count = head - 0x41 + 1 if head <= 0x5A else head - 0x61 + 27
            packed += base64.b85decode(line[1:])[:count]
        inflater = zlib.decompressobj()
        content = inflater.decompress(bytes(packed), size + 1)
    except (ValueError, zlib.error):
        return None
    return content if len(content) == size and inflater.eof else None
