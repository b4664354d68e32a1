"""Which dependency files two commits' trees differ in, and their blobs: what `--tree` reads.

`git diff-tree` between the commits lists only the paths a registered format reads (identical subtrees
are never opened), so the work is proportional to the change, never to the repository; a reader that has listed
both trees already (the gate's tree context) compares the listings instead, with no process.
"""

from __future__ import annotations

import os
from collections.abc import Container
from dataclasses import dataclass

from gatekeeper.deps.loaders import MAX_BYTES
from gatekeeper.deps.model import Problem
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.submodule import pointer
from gatekeeper.gitobjects import GITLINK_MODE, GitObjects, GitObjectsError, TreeEntry

_ABSENT = "000000"  # the mode git gives the side of a change that has no file


@dataclass(frozen=True, slots=True)
class Touched:
    path: str
    old_mode: str
    new_mode: str
    old_oid: str
    new_oid: str


def touched_files(git: GitObjects, base: str, head: str, also: Container[str] = frozenset()) -> list[Touched]:
    """The dependency files that differ between two commits, as `git diff-tree -r --no-renames` lists them
    (GitObjects.changed: proportional to the change, identical subtrees are never opened), with both sides' modes and
    blob ids; from both trees' listings
    when `git` holds them already (the gate's TreeContext listed them): the same files, in the same order. `also`:
    paths of no dependency file's name that are read as one (a file a manifest reads: sources.tree_delta)."""
    old, new = git.listed(base), git.listed(head)
    if old is not None and new is not None:
        return _compared(old, new, also)
    out = []
    for path, before, after in git.changed(base, head):  # git diff-tree -r --no-renames, read through the batch
        zero = "0" * len((before or after).oid)  # type: ignore[union-attr]  # one side always holds an entry
        old_mode, old_oid = (before.mode, before.oid) if before is not None else (_ABSENT, zero)
        new_mode, new_oid = (after.mode, after.oid) if after is not None else (_ABSENT, zero)
        if _reads(path, old_mode, new_mode) or path in also:
            out.append(Touched(path, old_mode, new_mode, old_oid, new_oid))
    return out


def _compared(old: dict[str, TreeEntry], new: dict[str, TreeEntry], also: Container[str]) -> list[Touched]:
    """What `git diff-tree -r --no-renames` of the two trees lists, filtered as touched_files filters it: every path
    whose mode or blob differs, or that one side lacks (mode 000000, a zero id), ordered by the path's bytes (git's
    order of a recursive listing: a folder's entries sort as `name/`, so a file `a` comes before `a/x`)."""
    out: list[Touched] = []
    for path, entry in new.items():
        before = old.get(path)
        if before is None:
            if _reads(path, _ABSENT, entry.mode) or path in also:
                out.append(Touched(path, _ABSENT, entry.mode, "0" * len(entry.oid), entry.oid))
        elif (before.oid != entry.oid or before.mode != entry.mode) and (
                _reads(path, before.mode, entry.mode) or path in also):
            out.append(Touched(path, before.mode, entry.mode, before.oid, entry.oid))
    for path, entry in old.items():
        if path not in new and (_reads(path, entry.mode, _ABSENT) or path in also):
            out.append(Touched(path, entry.mode, _ABSENT, entry.oid, "0" * len(entry.oid)))
    out.sort(key=lambda touched: os.fsencode(touched.path))
    return out


def _reads(path: str, old_mode: str, new_mode: str) -> bool:
    """Whether touched_files keeps a changed path: a gitlink, a file of a registered format, or an .xml file."""
    return GITLINK_MODE in (old_mode, new_mode) or format_for(path) is not None or path.endswith(".xml")


def side_blob(git: GitObjects, mode: str, oid: str, path: str, side: str, problems: list[Problem]) -> bytes | None:
    if mode == "000000":
        return None
    if mode == GITLINK_MODE:
        return pointer(oid)
    if mode not in ("100644", "100755"):  # a symlink's target is no manifest
        problems.append(Problem(path, "unparsable", f"{side}: a symlink, not read"))
        return None
    return git.blob(oid, MAX_BYTES + 1)


def sibling_blob(git: GitObjects, commit: str, path: str) -> bytes | None:
    """An unchanged sibling manifest at `commit`, or None (absent, or a name the batch protocol cannot carry)."""
    if "\n" in path or "\r" in path:
        return None
    try:
        return git.blob(f"{commit}:{path}", MAX_BYTES + 1)
    except GitObjectsError:
        return None
