"""Which sections of a patch can hold a dependency file: the gate reads only those a second time.

The gate has parsed the whole patch already (and refused a malformed one); the delta from the patch then
needs only the sections whose `diff --git` line names a file a format or a fact reads, and gitlinks of any
name. A regular file is mapped and the other sections are skipped at C speed (`section_lines`); a stream
is read line by line and filtered (`candidates`): both yield the same lines with the same numbers.
"""

from __future__ import annotations

import io
import mmap
import os
import re
import stat
from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from gatekeeper.diff import HashingReader, open_patch
from gatekeeper.diff.lines import MAX_KEPT, read_lines
from gatekeeper.lazy_pattern import alternatives, lazy

__all__ = ["CANDIDATE", "candidates", "mapped", "may_hold_dependencies", "read_mapped", "section_lines"]

# Every format's file name shares one of these (ASCII, so git never octal-escapes them in a header):
# a section whose `diff --git` line has none cannot be a dependency file, so its lines are not kept.
CANDIDATE = lazy(
    rb"(package|lock|shrinkwrap|require|constraint|go\.(mod|sum)|cargo|composer|pom\.xml|extensions\.xml|toml|proj|props|workflows|action\.y"
    rb"|docker|containerfile|chart\.|\.tf|compose|nvmrc|-version|bazelversion|rust-toolchain|gradle|wrapper\.properties|mvnw|gemspec"
    rb"|\.resolved|mix\.exs|rebar\.config|config/software/|vendor\.(conf|sh)|dagger\.json|deno\.json|import_map\.json|devcontainer|dotnet-tools|global\.json|module\.bazel|workspace|\.bzl|kustomization|makefile|\.mk|\.sbt|project/|tox\.ini|setup\.(py|cfg)|deps\.edn|\.meteor/"
    # and the files content facts are read from (facts.wants_facts): registry configs, YAML
    rb"|npmrc|yarnrc|bunfig|pip\.(conf|ini)|gemfile|pipfile|nuget|settings\.xml|pypirc|\.ya?ml)", re.IGNORECASE)


# The same test over a whole patch at C speed: a patch none of whose sections can hold a dependency
# file or a gitlink is not read line by line at all. The header lines are gathered and lowered first:
# one case-sensitive search over them is ten times faster than a case-blind search per line, and a `find` of each
# of the texts the pattern matches (the words above, lowered) faster again than the search.
_CANDIDATE_LOWER = lazy(CANDIDATE.pattern)
_CANDIDATE_WORDS = alternatives(CANDIDATE.pattern)


def may_hold_dependencies(path: Path) -> bool:
    """False only when the patch file certainly shows no dependency file, registry config, YAML or gitlink."""
    with open_patch(path) as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return True
        if info.st_size == 0:
            return False
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
            if view.find(b"Subproject commit ") >= 0:
                return True
            return _CANDIDATE_LOWER.search(_joined_headers(view, _header_starts(view))[0]) is not None


def read_mapped(path: Path) -> bool:
    """Whether `mapped` takes the patch file (a regular file, not empty, ending in a line break): `patch_delta`
    (parse_all=False) then reads it through `section_lines`, whose one pass over the headers skips a patch without
    candidates as fast as `may_hold_dependencies` would. (Both passes cost a 10,000-file patch ~15-25 ms.)"""
    with open_patch(path) as handle:
        info = os.fstat(handle.fileno())
        regular = stat.S_ISREG(info.st_mode) and info.st_size > 0
        return regular and os.pread(handle.fileno(), 1, info.st_size - 1) == b"\n"


def _header_starts(view: mmap.mmap) -> list[int]:
    """The offset of every line that starts with `diff --git ` (memchr-fast finds, no regex over the patch)."""
    starts = [0] if view[:11] == b"diff --git " else []
    at = view.find(b"\ndiff --git ")
    while at >= 0:
        starts.append(at + 1)
        at = view.find(b"\ndiff --git ", at + 1)
    return starts


def _candidate_headers(view: mmap.mmap, starts: list[int]) -> set[int]:
    """Indexes into `starts` of the headers `CANDIDATE` matches, as `candidates` tests them (each line cut
    at MAX_KEPT): one case-sensitive search over the lowered headers, no line of which a match can cross."""
    joined, ends = _joined_headers(view, starts)
    if _CANDIDATE_WORDS is None:  # the pattern is no longer a list of words
        return {bisect_right(ends, match.start()) for match in _CANDIDATE_LOWER.finditer(joined)}
    found: set[int] = set()
    for word in _CANDIDATE_WORDS:
        at = joined.find(word)
        while at >= 0:
            line = bisect_right(ends, at)
            found.add(line)
            at = joined.find(word, ends[line])  # in a later line: this one is a candidate
    return found


def _joined_headers(view: mmap.mmap, starts: list[int]) -> tuple[bytes, list[int]]:
    """The header lines at `starts`, each cut at MAX_KEPT, lowered and joined by line breaks; and where each ends
    (the offset past its line break)."""
    ends, lines, size = [], [], 0
    for start in starts:
        end = view.find(b"\n", start, start + MAX_KEPT)
        lines.append(view[start:end if end >= 0 else min(start + MAX_KEPT, len(view))])
        size += len(lines[-1]) + 1
        ends.append(size)
    return b"\n".join(lines).lower(), ends


def section_lines(view: mmap.mmap, name: str) -> Iterator[tuple[int, bytes, bool]]:
    """What `candidates` yields, from a mapped patch: only the candidate sections (and what precedes the first
    header) are split into lines; the others are skipped at C speed, except a gitlink of another name, which
    `candidates` keeps too. The same lines, with the same numbers, as `candidates` over the whole patch."""
    starts = _header_starts(view)
    keep = _candidate_headers(view, starts)
    bounds = [*starts, len(view)]
    ranges = [(0, bounds[0])] if bounds[0] > 0 else []
    # No section of a patch without these bytes holds a gitlink: one search instead of three per section.
    gitlinks = view.find(b"Subproject commit ") >= 0
    for index, start in enumerate(starts):
        end = bounds[index + 1]
        if index in keep or (gitlinks and _holds_gitlink(view, start, end)):
            ranges.append((start, end))
    counted, lines_before = 0, 0
    for start, end in ranges:
        lines_before += view[counted:start].count(b"\n")
        counted = start
        for number, line, cut in read_lines(HashingReader(io.BytesIO(view[start:end])), name):
            yield lines_before + number, line, cut


def mapped(handle: BinaryIO) -> mmap.mmap | None:
    """The patch mapped read-only when it is a regular file ending in a newline (else None: it is read as a
    stream, which also reports a missing final newline)."""
    try:
        info = os.fstat(handle.fileno())
    except (AttributeError, OSError, ValueError):  # a stream without a file descriptor
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        return None
    view = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    if view[-1:] != b"\n":
        view.close()
        return None
    return view


def _holds_gitlink(view: mmap.mmap, start: int, end: int) -> bool:
    """Whether `candidates` would keep the section at [start, end) of another name: a line up to and including
    the one after its first `@@ ` line starts a gitlink pointer."""
    hunk = view.find(b"\n@@ ", start, end)
    if hunk >= 0:
        after = view.find(b"\n", hunk + 1, end)  # the end of the `@@ ` line
        if after >= 0:
            following = view.find(b"\n", after + 1, end)
            end = following + 1 if following >= 0 else end
    return any(view.find(marker, start, end) >= 0 for marker in (b"\n-Subproject commit ", b"\n+Subproject commit "))


_GITLINK_LINES = (b"-Subproject commit ", b"+Subproject commit ")


def candidates(lines: Iterator[tuple[int, bytes, bool]]) -> Iterator[tuple[int, bytes, bool]]:
    """Only the sections that can hold a dependency file (or a gitlink, of any name): the parser never
    sees the others, so a 10,000-file patch of source code costs one read, not a second parse. A
    section is dropped whole, so what the parser sees is still a well-formed patch."""
    held: list[tuple[int, bytes, bool]] | None = None  # a non-candidate section not yet known to be a gitlink
    dropping = False
    for item in lines:
        line = item[1]
        if line.startswith(b"diff --git "):
            dropping = False
            held = None if CANDIDATE.search(line) else [item]
            if held is None:
                yield item
            continue
        if dropping:
            continue
        if held is None:
            yield item
            continue
        held.append(item)
        if line.startswith(_GITLINK_LINES):
            yield from held
            held = None
        elif len(held) > 1 and held[-2][1].startswith(b"@@ "):  # its first hunk line is no gitlink pointer
            held, dropping = None, True
