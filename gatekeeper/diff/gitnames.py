"""The names git itself reads from a patch's lines, reimplemented from git 2.39's apply.c.

`git apply` takes a file's name from `---`/`+++` lines, from `rename`/`copy` lines, and, when a
section has none of those (binary, mode-only and empty-file sections), from the `diff --git`
line alone (`git_header_name`). Our own reading is stricter; the parser compares it with these
functions and refuses every line where the two differ, so a crafted name can never make us
classify one file while git writes another.

Each function sees one line without its newline. Where git's reading would run on into the
next lines (an unclosed quote) or stop at a NUL byte, the result is None: the caller refuses.
"""

from __future__ import annotations

from gatekeeper.diff.paths import QuoteError, unquote

# git's isspace (ctype.c): HT, LF, CR and SP; not VT or FF.
_GIT_SPACE = frozenset(b" \t\n\r")


def _unquoted(line: bytes, start: int) -> tuple[bytes, int] | None:
    """git's unquote_c_style from `line[start]`; None when it fails or the name holds a NUL (git would cut it)."""
    try:
        name, end = unquote(line, start)
    except QuoteError:
        return None
    return None if b"\0" in name else (name, end)


def _after_prefix(text: bytes, start: int = 0, end: int | None = None) -> int | None:
    """skip_tree_prefix with -p1: the index after the first '/' of text[start:end]; None when it is first or absent."""
    slash = text.find(b"/", start, len(text) if end is None else end)
    if slash <= start:
        return None
    return slash + 1


def git_header_name(rest: bytes) -> bytes | None:
    """The default name git reads from `diff --git <rest>` (both names the same file), or None."""
    # git's line still ends with its newline, and one comparison below counts it.
    line = rest + b"\n"
    size = len(line)
    if line[:1] == b'"':
        first_read = _unquoted(line, 0)
        if first_read is None:
            return None
        quoted, after = first_read
        cut = _after_prefix(quoted)
        if cut is None:
            return None
        first = quoted[cut:]
        while after < size and line[after] in _GIT_SPACE:
            after += 1
        if after >= size:
            return None
        if line[after] == 0x22:  # a quoted second name; text after its closing quote is ignored
            second_read = _unquoted(line, after)
            if second_read is None:
                return None
            cut = _after_prefix(second_read[0])
            return first if cut is not None and second_read[0][cut:] == first else None
        cut = _after_prefix(line, after, size)
        return first if cut is not None and line[cut:] == first else None

    name_at = _after_prefix(line, 0, size)
    if name_at is None:
        return None
    quote = line.find(b'"', name_at)
    if quote >= 0:
        # An unquoted first name: the first double quote must open the second name.
        second_read = _unquoted(line, quote)
        if second_read is None:
            return None
        cut = _after_prefix(second_read[0])
        if cut is None:
            return None
        second = second_read[0][cut:]
        length = len(second)
        if (
            length < quote - name_at
            and line[name_at : name_at + length] == second
            and line[name_at + length] in (_GIT_SPACE)
        ):
            return second
        return None
    return _same_name_twice(rest[name_at:])


def _same_name_twice(body: bytes) -> bytes | None:
    # git tries each SP or HT in turn as the separator and gives up at the first one not
    # followed by a prefixed name; a name shows up only when both halves are the same.
    # `slash` is cached while it lies past the separator, so the scan stays linear.
    size = len(body)
    slash = -1
    at = 0
    while True:
        space, tab = body.find(b" ", at), body.find(b"\t", at)
        at = space if tab < 0 else tab if space < 0 else min(space, tab)
        if at < 0:
            return None
        if at + 1 == size:
            return None
        if slash <= at:
            slash = body.find(b"/", at + 1)
        if slash < 0 or slash == at + 1:
            return None
        if size - slash - 1 == at and body[:at] == body[slash + 1 :]:
            return body[:at]
        at += 1


def squash_slash(name: bytes) -> bytes:
    while b"//" in name:
        name = name.replace(b"//", b"/")
    return name


def git_find_name(text: bytes, strip: int, tab_ends: bool) -> bytes | None:
    """The name git's find_name reads from a `---`/`+++` (strip 1, tab ends) or rename/copy line (strip 0), or None."""
    if text[:1] == b'"':
        read = _unquoted(text + b"\n", 0)
        if read is not None:
            name = read[0]  # text after the closing quote is ignored
            for _ in range(strip):
                slash = name.find(b"/")
                if slash < 0:
                    break
                name = name[slash + 1 :]
            else:
                return squash_slash(name)
        # git falls back to reading the quoted text as a plain name
    # find_name_common: CR always ends a name, HT only on ---/+++ lines; the name starts after `strip` slashes.
    end = text.find(b"\r")
    if tab_ends:
        tab = text.find(b"\t", 0, end if end >= 0 else len(text))
        end = tab if tab >= 0 else end
    if end < 0:
        end = len(text)
    start = 0
    for _ in range(strip):
        slash = text.find(b"/", start, end)
        if slash < 0:
            return None
        start = slash + 1
    if start >= end:
        return None
    return squash_slash(text[start:end])
