"""The files a `--tree` change touches: `git diff-tree -M` of the merge base and HEAD, as a pull request's "files
changed" shows them (TreeContext.changes)."""

from __future__ import annotations

import os

from gatekeeper.diff import unsafe_reason
from gatekeeper.gitobjects import GitObjects
from gatekeeper.model import FileChange

_STATUS = {"A": "added", "M": "modified", "D": "deleted", "R": "renamed", "C": "copied", "T": "type_changed"}
_NO_MODE = "000000"


def tree_changes(objects: GitObjects, old_commit: str, head_commit: str) -> list[FileChange]:
    """Every file the change touches (merge base → HEAD), renames paired, with line counts."""
    fields = objects.diff_tree(old_commit, head_commit).split(b"\0")
    raw: list[tuple[str, str, str, str, str, str | None, str]] = []
    counts: list[tuple[int, int, bool]] = []
    i = 0
    while i < len(fields) and fields[i]:
        record = fields[i].decode("ascii", "replace")
        if record.startswith(":"):
            old_mode, new_mode, old_oid, new_oid, status = record[1:].split(" ")
            if status[:1] in ("R", "C"):
                source, target = os.fsdecode(fields[i + 1]), os.fsdecode(fields[i + 2])
                raw.append((old_mode, new_mode, old_oid, new_oid, status, source, target))
                i += 3
            else:
                raw.append((old_mode, new_mode, old_oid, new_oid, status, None, os.fsdecode(fields[i + 1])))
                i += 2
            continue
        ins, dels, name = record.split("\t", 2)
        counts.append((int(ins) if ins != "-" else 0, int(dels) if dels != "-" else 0, ins == "-"))
        i += 1 if name else 3  # a rename's numstat names both paths in the next two fields
    out = []
    for index, (old_mode, new_mode, old_oid, new_oid, status, old, new) in enumerate(raw):
        plus, minus, binary = counts[index] if index < len(counts) else (0, 0, False)
        kind = _STATUS.get(status[:1], "modified")
        if kind == "modified" and old_mode != new_mode:
            kind = "mode_changed" if old_oid == new_oid else kind
        out.append(FileChange(
            path=new, old_path=old, status=kind,  # type: ignore[arg-type]
            additions=plus, deletions=minus, binary=binary,
            old_mode=None if old_mode == _NO_MODE else old_mode,
            new_mode=None if new_mode == _NO_MODE else new_mode,
            similarity=int(status[1:]) if status[1:].isdigit() else None,
            symlink_target=_link(objects, new_mode, new_oid),
            old_symlink_target=_link(objects, old_mode, old_oid),
            submodule="160000" in (old_mode, new_mode),
            unsafe=unsafe_reason(new) or (unsafe_reason(old) if old else None),
        ))
    return out


def _link(objects: GitObjects, mode: str, oid: str) -> str | None:
    """What a symlink says (None for any other mode)."""
    if mode != "120000":
        return None
    return os.fsdecode(objects.blob(oid, 4096))
