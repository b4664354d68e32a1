"""One `diff --git` section while it is read, and the FileChange it amounts to once complete."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gatekeeper.diff.paths import decode, header_candidates, unsafe_reason
from gatekeeper.errors import PatchError, where
from gatekeeper.model import FileChange, Status

MODE = re.compile(rb"[0-7]{6}")
# The file type is in the mode's first two octal digits: regular file, symlink, gitlink.
FILE_TYPES = {b"10": "file", b"12": "symlink", b"16": "submodule"}
SYMLINK = b"120000"
GITLINK = b"160000"


@dataclass(slots=True)
class Section:
    """The lines of one section seen so far (mutable while the parser reads it)."""

    line: int
    header: bytes  # the text after `diff --git `
    old_mode: bytes | None = None
    new_mode: bytes | None = None
    deleted_mode: bytes | None = None
    new_file_mode: bytes | None = None
    index_mode: bytes | None = None
    has_index: bool = False  # an `index` line without a mode leaves index_mode None
    rename_from: bytes | None = None
    rename_to: bytes | None = None
    copy_from: bytes | None = None
    copy_to: bytes | None = None
    similarity: int | None = None
    has_sides: bool = False  # saw `---` / `+++`
    minus: bytes | None = None  # the `---` name (prefix stripped); None for /dev/null
    plus: bytes | None = None
    hunks: int = 0
    additions: int = 0
    deletions: int = 0
    binary: bool = False
    first_plus: bytes | None = None  # a symlink's new target is its only added line
    first_minus: bytes | None = None


def _fail(what: str, name: str, line: int, hint: str | None = None) -> PatchError:
    return PatchError(
        what, where=where(name, line), hint=hint or "take the patch again with `git diff --cached --binary`"
    )


def _named_paths(s: Section, name: str) -> tuple[bytes | None, bytes | None, Status | None]:
    """(old, new, status) from rename/copy lines and `---`/`+++`; None where those lines are silent."""
    renamed = s.rename_from is not None or s.rename_to is not None
    copied = s.copy_from is not None or s.copy_to is not None
    if renamed and copied:
        raise _fail("a section cannot both rename and copy", name, s.line)
    if renamed or copied:
        old, new = (s.rename_from, s.rename_to) if renamed else (s.copy_from, s.copy_to)
        kind = "rename" if renamed else "copy"
        if old is None or new is None:
            raise _fail(f"'{kind} from' and '{kind} to' must come together", name, s.line)
        if s.new_file_mode is not None or s.deleted_mode is not None:
            raise _fail(f"a {kind} cannot also be a new or deleted file", name, s.line)
        if s.has_sides and (s.minus != old or s.plus != new):
            raise _fail(f"the ---/+++ names disagree with the '{kind} from/to' lines", name, s.line)
        return old, new, "renamed" if renamed else "copied"
    if not s.has_sides:
        return None, None, None
    if s.minus is None and s.plus is None:
        raise _fail("both sides are /dev/null", name, s.line)
    if s.minus is not None and s.plus is not None and s.minus != s.plus:
        raise _fail("the --- and +++ names differ without a 'rename from/to' or 'copy from/to'", name, s.line)
    if (s.minus is None) != (s.new_file_mode is not None):
        raise _fail("'--- /dev/null' and 'new file mode' must come together", name, s.line)
    if (s.plus is None) != (s.deleted_mode is not None):
        raise _fail("'+++ /dev/null' and 'deleted file mode' must come together", name, s.line)
    path = s.plus if s.plus is not None else s.minus
    return path, path, None


def _resolve_names(s: Section, name: str) -> tuple[bytes, bytes, Status | None]:
    old, new, status = _named_paths(s, name)
    if old is not None and new is not None:
        if not header_candidates(s.header, (old, new)):
            raise _fail("the names in the 'diff --git' header disagree with the section's other lines", name, s.line)
        return old, new, status
    same = {a for a, _ in header_candidates(s.header)}
    if not same:
        raise _fail("cannot read the file names from the 'diff --git' header", name, s.line)
    if len(same) > 1:
        raise _fail(
            "the 'diff --git' header is ambiguous (names with spaces) and no other line names the file",
            name,
            s.line,
        )
    path = same.pop()
    return path, path, None


def _file_type(mode: bytes | None) -> str | None:
    return None if mode is None else FILE_TYPES.get(mode[:2])


def finish(s: Section, name: str) -> FileChange:
    """Turn a complete section into a FileChange (raises PatchError when its lines contradict each other)."""
    old, new, status = _resolve_names(s, name)
    if s.new_file_mode is not None and s.deleted_mode is not None:
        raise _fail("a file cannot be both new and deleted", name, s.line)
    if (s.old_mode is None) != (s.new_mode is None):
        raise _fail("'old mode' and 'new mode' must come together", name, s.line)
    if (s.new_file_mode is not None or s.deleted_mode is not None) and s.old_mode is not None:
        raise _fail("a new or deleted file has no 'old mode'/'new mode' lines", name, s.line)
    content = s.hunks > 0 or s.binary
    if s.new_file_mode is not None:
        status, old_mode, new_mode = "added", None, s.new_file_mode
    elif s.deleted_mode is not None:
        status, old_mode, new_mode = "deleted", s.deleted_mode, None
    else:
        old_mode = s.old_mode or s.index_mode
        new_mode = s.new_mode or s.index_mode
        if status is None:
            if _file_type(old_mode) != _file_type(new_mode):
                status = "type_changed"
            elif s.old_mode is not None and s.old_mode != s.new_mode and not content:
                status = "mode_changed"
            elif content:
                status = "modified"
            else:
                raise _fail("a section that changes nothing (no mode, rename, copy or content change)", name, s.line)
    for mode in (old_mode, new_mode):
        if mode is not None and _file_type(mode) is None:
            raise _fail(f"unknown file mode {decode(mode)}", name, s.line)
    path = decode(new)
    old_path = decode(old) if status in ("renamed", "copied") else None
    unsafe = unsafe_reason(path)
    if unsafe is None and old_path is not None:
        unsafe = unsafe_reason(old_path)
    return FileChange(
        path=path,
        old_path=old_path,
        status=status,
        additions=s.additions,
        deletions=s.deletions,
        binary=s.binary,
        old_mode=None if old_mode is None else old_mode.decode("ascii"),
        new_mode=None if new_mode is None else new_mode.decode("ascii"),
        similarity=s.similarity,
        symlink_target=decode(s.first_plus) if new_mode == SYMLINK and s.first_plus is not None else None,
        old_symlink_target=decode(s.first_minus) if old_mode == SYMLINK and s.first_minus is not None else None,
        submodule=GITLINK in (old_mode, new_mode),
        unsafe=unsafe,
        line=s.line,
    )


def merge_type_change(deleted: FileChange, added: FileChange) -> FileChange | None:
    """Git writes a file <-> symlink (or gitlink) change as a deletion then an addition of the same path: one change."""
    if added.status != "added" or added.path != deleted.path:
        return None
    if (deleted.old_mode or "")[:2] == (added.new_mode or "")[:2]:
        return None
    return FileChange(
        path=added.path,
        old_path=None,
        status="type_changed",
        additions=deleted.additions + added.additions,
        deletions=deleted.deletions + added.deletions,
        binary=deleted.binary or added.binary,
        old_mode=deleted.old_mode,
        new_mode=added.new_mode,
        symlink_target=added.symlink_target,
        old_symlink_target=deleted.old_symlink_target,
        submodule=deleted.submodule or added.submodule,
        unsafe=deleted.unsafe or added.unsafe,
        line=deleted.line,
    )
