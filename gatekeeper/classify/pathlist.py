"""`gatekeeper classify --paths`: a list of paths, one per line, each read as a one-sided change.

A path list can be 100,000 lines long and has no per-file data besides the path, so it is
classified with RuleSet.match directly; `as_changes` gives the same entries as FileChange
objects for callers that want the general pipeline (the tests check both agree).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import BinaryIO

from gatekeeper.classify.change import bulk_allocation, most_sensitive, path_variants, plain_spelling
from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.diff import unsafe_reason
from gatekeeper.model import FileChange, Match


@dataclass(frozen=True, slots=True)
class ListedPath:
    """One line of a path list."""

    path: str
    line: int
    unsafe: str | None  # why no safe patch could hold this path, or None


def read_paths(stream: BinaryIO) -> list[ListedPath]:
    """Every non-empty line; unsafe paths are marked, not refused.

    Lines end with LF or CRLF; a leading "./" is dropped; bytes that are not UTF-8 are kept as
    surrogate escapes, as the patch parser keeps them.
    """
    listed = []
    text = stream.read().decode("utf-8", "surrogateescape")
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line or line.isspace():
            continue
        while line.startswith("./"):
            line = line[2:]
        listed.append(ListedPath(line, number, unsafe_reason(line) if _maybe_unsafe(line) else None))
    return listed


def classify_paths(listed: list[ListedPath], rules: RuleSet) -> list[Match]:
    """The match of every listed path, in order."""
    match = rules.match
    with bulk_allocation():
        return [
            match(entry.path)
            if plain_spelling(entry.path)
            else most_sensitive([match(p) for p in (entry.path, *path_variants(entry.path))])
            for entry in listed
        ]


def as_changes(listed: list[ListedPath]) -> list[FileChange]:
    """The listed paths as FileChange objects (status "modified")."""
    return [FileChange(path=e.path, old_path=None, status="modified", unsafe=e.unsafe, line=e.line) for e in listed]


def _maybe_unsafe(path: str) -> bool:
    # True for anything unsafe_reason could object to (absolute, empty, '.' or '..' components,
    # control or invisible characters, a '.git' component however disguised); most paths are
    # plainly safe and skip the full check.
    return (
        path[0] in "/."
        or "//" in path
        or "/." in path
        or path[-1] in "/."
        or not path.isprintable()
        or "git" in path.lower()
    )
