"""Paths as git writes them in a patch: C-style quoting, `a/` `b/` prefixes, and path safety.

Git quotes a name (in double quotes, with C escapes and octal bytes) when it holds a control
character, a quote or a backslash, and, with `core.quotepath` on (the default), any byte >= 0x80.
Names are kept as bytes until the end and decoded with `surrogateescape`, so that non-UTF-8 bytes
survive losslessly.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

_ESCAPES = {
    ord("a"): 7,
    ord("b"): 8,
    ord("t"): 9,
    ord("n"): 10,
    ord("v"): 11,
    ord("f"): 12,
    ord("r"): 13,
    ord('"'): ord('"'),
    ord("\\"): ord("\\"),
}
_OCTAL = b"01234567"
DEV_NULL = b"/dev/null"


class QuoteError(ValueError):
    """A quoted name is malformed (the caller turns it into a PatchError with the line)."""


def unquote(text: bytes, start: int = 0) -> tuple[bytes, int]:
    """Decode the C-quoted name starting at `text[start]` (a `"`); return it and the index after the closing quote."""
    if text[start : start + 1] != b'"':
        raise QuoteError("a quoted name must start with '\"'")
    out = bytearray()
    i = start + 1
    end = len(text)
    while i < end:
        byte = text[i]
        if byte == 0x22:  # closing quote
            return bytes(out), i + 1
        if byte != 0x5C:  # not a backslash
            out.append(byte)
            i += 1
            continue
        if i + 1 >= end:
            break
        code = text[i + 1]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            i += 2
        elif code in _OCTAL[:4] and i + 3 < end and text[i + 2] in _OCTAL and text[i + 3] in _OCTAL:
            out.append(int(text[i + 1 : i + 4], 8))
            i += 4
        else:
            raise QuoteError(f"unknown escape '\\{chr(code)}' in a quoted name")
    raise QuoteError("a quoted name has no closing quote")


def plain_or_quoted(text: bytes) -> bytes:
    """A whole-line name (`rename from X`, `--- a/X`): unquote it when quoted, else take it as is."""
    if text.startswith(b'"'):
        name, end = unquote(text)
        if end != len(text):
            raise QuoteError("unexpected text after a quoted name")
        return name
    return text


def side_name(text: bytes) -> bytes | None:
    """The name on a `---`/`+++` line, with its one-component prefix; None for /dev/null.

    Git ends an unquoted name that holds a space with a tab (for GNU patch); a tab never occurs
    inside an unquoted name, so the first tab ends it.
    """
    if text.startswith(b'"'):
        name, end = unquote(text)
        if text[end:] not in (b"", b"\t"):
            raise QuoteError("unexpected text after a quoted name")
    else:
        name, _, tail = text.partition(b"\t")
        if tail:
            raise QuoteError("unexpected text after the name's tab (git writes nothing there)")
    if name == DEV_NULL:
        return None
    return name


_NEEDS_QUOTES = lazy(rb'["\\\x00-\x1f\x7f]')


def needs_quoting(name: bytes) -> bool:
    """True when git would write `name` quoted: it holds a double quote, a backslash or a control byte."""
    return _NEEDS_QUOTES.search(name) is not None


def strip_prefix(name: bytes) -> bytes | None:
    """Drop the one-component prefix (`a/`, `b/`, `c/`, `i/`, ...), as `git apply -p1` does; None when absent."""
    slash = name.find(b"/")
    if slash <= 0 or slash == len(name) - 1:
        return None
    return name[slash + 1 :]


def header_candidates(rest: bytes, want: tuple[bytes, bytes] | None = None) -> list[tuple[bytes, bytes]]:
    """The readings of the `diff --git` header's two names (prefixes stripped) that matter.

    Quoted names are unambiguous; unquoted names holding spaces can be split at several spaces.
    With `want`, the readings equal to it (so the caller checks the header against the section's
    other lines); without, the readings whose two names are the same file. Splits are compared
    by position, never copied: a header with 60,000 spaces costs no more than its length.
    """
    out: list[tuple[bytes, bytes]] = []

    def keep(first: bytes, second: bytes) -> None:
        old, new = strip_prefix(first), strip_prefix(second)
        if old is not None and new is not None and ((old, new) == want if want is not None else old == new):
            out.append((old, new))

    if rest.startswith(b'"'):
        try:
            first, end = unquote(rest)
            if rest[end : end + 1] == b" ":
                keep(first, plain_or_quoted(rest[end + 1 :]))
        except QuoteError:
            pass
        return out
    if rest.endswith(b'"'):
        at = rest.find(b' "')
        while at >= 0:
            try:
                second, end = unquote(rest, at + 1)
                if end == len(rest):
                    keep(rest[:at], second)
            except QuoteError:
                pass
            at = rest.find(b' "', at + 1)
    _unquoted_splits(rest, want, out)
    return out


def _unquoted_splits(rest: bytes, want: tuple[bytes, bytes] | None, out: list[tuple[bytes, bytes]]) -> None:
    # A split at space `at` reads rest[:at] and rest[at+1:], each minus its first component
    # (as strip_prefix): the first name runs from after the first slash to `at`, the second from
    # after the first slash past `at` to the end. At most one space splits the header into names of
    # equal lengths (the first grows and the second does not as `at` moves right), so that space is
    # found by bisection (or, for `want`, by the first name's length), never by a try at every space.
    size = len(rest)
    first_slash = rest.find(b"/")
    if first_slash <= 0:
        return
    if want is None:
        at = _equal_split(rest, first_slash)
    else:
        at = first_slash + 1 + len(want[0])
        if rest[at : at + 1] != b" ":
            return
    next_slash = rest.find(b"/", at + 1) if at >= 0 else -1
    if not (next_slash >= 0 and first_slash < at - 1 and at + 1 < next_slash < size - 1):
        return
    old, new = rest[first_slash + 1 : at], rest[next_slash + 1 :]
    if want is None and old == new:
        out.append((new, new))
    elif want is not None and (old, new) == want:
        out.append(want)


def _equal_split(rest: bytes, first_slash: int) -> int:
    """The space after which the two names (each past its first slash) are of equal length, or -1. A space with no
    slash after it splits no second name; neither does any later space."""
    size = len(rest)

    def past(position: int) -> bool:  # the first space from `position` is at or past the equal split (or none is)
        at = rest.find(b" ", position)
        if at < 0:
            return True
        next_slash = rest.find(b"/", at + 1)
        return next_slash < 0 or at - first_slash >= size - next_slash

    low, high = 0, size
    while low < high:
        middle = (low + high) // 2
        if past(middle):
            high = middle
        else:
            low = middle + 1
    at = rest.find(b" ", low)
    next_slash = rest.find(b"/", at + 1) if at >= 0 else -1
    return at if next_slash >= 0 and at - first_slash == size - next_slash else -1


def decode(name: bytes) -> str:
    """Bytes to str, keeping non-UTF-8 bytes as surrogate escapes (lossless)."""
    return name.decode("utf-8", "surrogateescape")


# Characters HFS+ ignores when comparing names, so ".g\u200cit" is ".git" there (as git itself checks).
HFS_IGNORED = lazy("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")
_CONTROL = lazy("[\x00-\x1f\x7f-\x9f]")
# Cheap pre-filter: a component can only mean `.git` if the path holds "git" once HFS-ignored characters are gone.
_MAYBE_GIT = lazy("git", re.IGNORECASE)


def _is_dotgit(part: str) -> bool:
    folded = HFS_IGNORED.sub("", part).lower()
    # NTFS drops trailing dots and spaces, and knows `.git` by its short name too.
    return folded.rstrip(". ") == ".git" or folded == "git~1"


def unsafe_reason(path: str) -> str | None:
    """Why `path` must not be written by a patch (absolute, `..`, inside .git/, control characters), or None."""
    if not path:
        return "empty path"
    if path[0] == "/":
        return "absolute path"
    control = _CONTROL.search(path)
    if control:
        return f"control character {control.group()!r} in path"
    parts = path.split("/")
    # HFS_IGNORED holds no ASCII character: an ASCII path (nearly every one) has nothing to drop.
    maybe_git = _MAYBE_GIT.search(path if path.isascii() else HFS_IGNORED.sub("", path)) is not None
    for part in parts:
        if part == "":
            return "empty path component"
        if part == "..":
            return "'..' path component"
        if part == ".":
            return "'.' path component"
        if maybe_git and _is_dotgit(part):
            return "path inside .git/"
    return None
