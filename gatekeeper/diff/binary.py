"""The `GIT binary patch` body: `literal N` / `delta N` blocks of base85 lines, each block ended by a blank line.

Each data line starts with a length character (`A`-`Z` = 1-26 bytes, `a`-`z` = 27-52) followed by
the base85 text of that many bytes, five characters per four bytes. The parser checks that shape
line by line; it does not inflate the data (the patch's sha256 already pins its exact bytes).
"""

from __future__ import annotations

import re

_B85 = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
_BLOCK = re.compile(rb"(literal|delta) (\d{1,18})")


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
