"""Gitignore-style globs, split into a directory part and a basename part.

A glob without a slash (other than a trailing one) matches at any depth, one with a slash is
anchored at the repository root; `**` spans any number of directories; a trailing `/` means
"everything under a directory of that name". Matching ignores case (see docs/classification.md).

Every glob is split into a pattern for the path's directory and one for its basename; a path
matches when both parts do. The two halves can then be indexed and cached separately.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from gatekeeper.lazy_pattern import lazy

ANY = "**"
_CONTROL = lazy(r"[\x00-\x1f]")
# What `segment_regex` takes as it is: anything but a wildcard, a bracket or an escape.
_PLAIN_RUN = lazy(r"[^*?\\[\\\\]+")
# The index's regexes' flags, combined once: `re.IGNORECASE | re.DOTALL` builds a new RegexFlag each time (~3 us in
# enum's __or__), and a bundle's rules make ~1,400 of these regexes when their index is built (a cold load_rules).
_FLAGS = re.IGNORECASE | re.DOTALL


class GlobError(ValueError):
    """A glob that cannot be compiled; the message says why."""


@dataclass(frozen=True, slots=True)
class Glob:
    """A compiled glob: `dir_segments` must match the path's folders, `base` its file name."""

    pattern: str  # as written in the rules file
    dir_segments: tuple[str, ...]  # lower-cased; "**" = any number of folders
    base: str  # lower-cased single-segment pattern; "**" = any file name


# A pure function of the pattern (a bad one raises, and is not remembered): a bundle's ~1,500 rules compile
# ~2,300 globs each time its rules are read.
@functools.lru_cache(maxsize=8192)
def compile_glob(pattern: str) -> Glob:
    """Normalise a gitignore-style glob into its directory and basename parts (raises GlobError)."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise GlobError("empty glob")
    text = pattern
    if text != text.strip():
        raise GlobError("leading or trailing spaces")
    if text.startswith("!"):
        raise GlobError("negation ('!') is not supported: rules are ordered, put a more specific rule first")
    if _CONTROL.search(text):
        raise GlobError("control character in glob")
    if text.endswith("\\"):
        raise GlobError("trailing backslash")
    dir_only = text.endswith("/")
    text = text.rstrip("/")
    if not text:
        raise GlobError("a glob of only '/' matches nothing")
    anchored = "/" in text
    text = text.lstrip("/")
    segments = text.split("/")
    for seg in segments:
        if seg == "":
            raise GlobError("empty path segment ('//')")
        if seg in (".", ".."):
            raise GlobError(f"'{seg}' segment: globs are relative to the repository root")
        if seg != ANY and "**" in seg:
            raise GlobError(f"'**' must be a whole path segment, not part of '{seg}'")
        if "[" not in seg and "\\" not in seg:
            continue  # only a bracket or an escape can be malformed: nothing to prove of `*` and `?`
        translated = segment_regex(seg)  # validates brackets and escapes
        if "[" in seg:
            # Only a character class can make the regex invalid (a reversed range such as [z-a]); the
            # index compiles its regexes at their first use, so the glob is proven to compile here.
            try:
                re.compile(translated)
            except re.error as exc:
                raise GlobError(f"bad character class in '{seg}': {exc.msg}") from None
    if not anchored:
        segments.insert(0, ANY)
    if dir_only:
        segments.append(ANY)
    collapsed: list[str] = []
    for seg in segments:
        if not (seg == ANY and collapsed and collapsed[-1] == ANY):
            collapsed.append(seg.lower())
    if collapsed[-1] == ANY:
        # "a/**" matches every file below a: the folder is a, or any folder under it.
        return Glob(pattern=pattern, dir_segments=tuple(collapsed), base=ANY)
    return Glob(pattern=pattern, dir_segments=tuple(collapsed[:-1]), base=collapsed[-1])


def is_literal(segment: str) -> bool:
    """True when a segment has no wildcard, class or escape."""
    return "*" not in segment and "?" not in segment and "[" not in segment and "\\" not in segment


def segment_regex(segment: str) -> str:
    """Translate one path segment (no '/') of a glob into a regular expression."""
    if is_literal(segment):  # most segments: the same text as the loop below builds, at C speed
        return re.escape(segment)
    out: list[str] = []
    i, n = 0, len(segment)
    while i < n:
        ch = segment[i]
        if ch == "*":
            while i < n and segment[i] == "*":
                i += 1
            out.append("[^/]*")
            continue
        if ch == "?":
            out.append("[^/]")
        elif ch == "\\":
            if i + 1 >= n:
                raise GlobError("trailing backslash")
            i += 1
            out.append(re.escape(segment[i]))
        elif ch == "[":
            end, klass = _bracket(segment, i)
            out.append(klass)
            i = end
        else:  # a run of plain characters, escaped at once (`re.escape` escapes character by character)
            run = _PLAIN_RUN.match(segment, i)
            end = run.end() if run is not None else i + 1  # `ch` is plain: the run holds it
            out.append(re.escape(segment[i:end]))
            i = end
            continue
        i += 1
    return "".join(out)


def _bracket(segment: str, start: int) -> tuple[int, str]:
    # Returns the index of the closing ']' and the regex class; a class never matches '/'.
    i = start + 1
    negate = i < len(segment) and segment[i] in "!^"
    if negate:
        i += 1
    body: list[str] = []
    first = True
    while i < len(segment):
        ch = segment[i]
        if ch == "]" and not first:
            if not body:
                raise GlobError("empty character class '[]'")
            inner = "".join(body)
            return i, f"[^/{inner}]" if negate else f"(?:(?!/)[{inner}])"
        if ch == "\\":
            if i + 1 >= len(segment):
                raise GlobError("trailing backslash in character class")
            i += 1
            body.append(re.escape(segment[i]))
        elif ch == "-" and body and i + 1 < len(segment) and segment[i + 1] != "]":
            body.append("-")
        else:
            body.append(re.escape(ch) if ch in "^[]\\" else ch)
        first = False
        i += 1
    raise GlobError("unclosed character class '['")


def dir_regex(segments: tuple[str, ...]) -> re.Pattern[str]:
    """A regex over `dirname + "/"` (or "" for the root) for a glob's directory part, compiled at its first use."""
    parts = ["(?:[^/]+/)*" if seg == ANY else segment_regex(seg) + "/" for seg in segments]
    return lazy("".join(parts), _FLAGS)


def base_regex(base: str) -> re.Pattern[str]:
    """A regex over a basename for a glob's basename part, compiled at its first use."""
    return lazy(".*" if base == ANY else segment_regex(base), _FLAGS)


def full_regex(glob: Glob) -> re.Pattern[str]:
    """One regex over the whole path: the slow reference the index is tested against."""
    parts = ["(?:[^/]+/)*" if seg == ANY else segment_regex(seg) + "/" for seg in glob.dir_segments]
    parts.append("[^/]+" if glob.base == ANY else segment_regex(glob.base))
    return re.compile("".join(parts), _FLAGS)
