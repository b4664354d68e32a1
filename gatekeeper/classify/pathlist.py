"""Reading a list of paths (one per line) for `gatekeeper classify --paths`."""

from __future__ import annotations

import re
from typing import BinaryIO

from gatekeeper.model import FileChange

# Anything unsafe_reason could object to (absolute, empty, '.' or '..' components, control
# characters, a '.git' component however disguised) makes this match; most paths skip the full check.
_MAYBE_UNSAFE = re.compile(
    "^/|//|/$|(?:^|/)\\.\\.?(?:/|$)|[\x00-\x1f\x7f-\x9f]|git|[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]",
    re.IGNORECASE,
)


def read_paths(stream: BinaryIO) -> list[FileChange]:
    """One FileChange (status "modified") per non-empty line; unsafe paths are marked, not refused.

    Lines end with LF or CRLF; a leading "./" is dropped; bytes that are not UTF-8 are kept as
    surrogate escapes, as the patch parser keeps them.
    """
    from gatekeeper.diff import unsafe_reason

    changes = []
    text = stream.read().decode("utf-8", "surrogateescape")
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line or line.isspace():
            continue
        while line.startswith("./"):
            line = line[2:]
        unsafe = unsafe_reason(line) if _MAYBE_UNSAFE.search(line) else None
        changes.append(FileChange(path=line, old_path=None, status="modified", unsafe=unsafe, line=number))
    return changes
