"""Typed models shared by the parts: a parsed file change and its classification.

Paths are `str`. Bytes that are not UTF-8 are kept losslessly as surrogate escapes
(`bytes.decode("utf-8", "surrogateescape")`); `os.fsencode`-style round trips give the bytes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Status = Literal["added", "modified", "deleted", "renamed", "copied", "mode_changed", "type_changed"]
STATUSES: tuple[str, ...] = ("added", "modified", "deleted", "renamed", "copied", "mode_changed", "type_changed")

Bucket = Literal["ci", "iac", "deps", "src", "other"]
BUCKETS: tuple[str, ...] = ("ci", "iac", "deps", "src", "other")
# Most sensitive first: a change that touches two buckets counts in the first of them.
SENSITIVITY: tuple[str, ...] = ("ci", "iac", "deps", "other", "src")

TAGS: tuple[str, ...] = (
    "guardrail",
    "manifest",
    "lockfile",
    "toolchain",
    "executable",
    "symlink",
    "submodule",
    "binary",
    "needs-context",
)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file's change as a git patch states it."""

    path: str  # the new path; for a deletion, the deleted path
    old_path: str | None  # the source of a rename or copy; None otherwise
    status: Status
    additions: int = 0  # from hunk headers; equals `git diff --numstat`
    deletions: int = 0
    binary: bool = False
    old_mode: str | None = None  # e.g. "100644", "100755", "120000", "160000"
    new_mode: str | None = None
    similarity: int | None = None  # rename/copy similarity index, percent
    symlink_target: str | None = None  # the link's new target when the new side is a symlink
    old_symlink_target: str | None = None  # the link's old target when the old side was a symlink
    symlink_unknown: bool = False  # the new side is a symlink whose target the patch does not show
    submodule: bool = False  # a gitlink (mode 160000) on either side
    unsafe: str | None = None  # why the path is unsafe (absolute, `..`, inside .git/, control chars)
    line: int = 0  # 1-based line of this file's `diff --git` header in the patch


@dataclass(frozen=True, slots=True)
class Match:
    """The rule that decided a path's bucket."""

    bucket: Bucket
    rule: str  # the deciding rule's id
    ecosystem: str | None = None  # for deps rules: "npm", "pip", "go", ...
    tags: frozenset[str] = field(default_factory=frozenset)  # tags every matching tag rule gave


@dataclass(frozen=True, slots=True)
class ClassifiedFile:
    """A file change with its bucket (the more sensitive side wins) and tags."""

    change: FileChange
    bucket: Bucket
    rule: str
    tags: tuple[str, ...] = ()  # sorted
    ecosystem: str | None = None
    tier: str = "path"  # which tier decided: path, marker, content, context (docs/classification.md)
    evidence: str | None = None  # for marker/content/context: the marker's path or the matched line

    def to_dict(self) -> dict[str, object]:
        """The file entry as the packet, `classify --format json` and the policy input show it."""
        c = self.change
        return {
            "path": c.path,
            "old_path": c.old_path,
            "status": c.status,
            "bucket": self.bucket,
            "rule": self.rule,
            "tags": list(self.tags),
            "ecosystem": self.ecosystem,
            "additions": c.additions,
            "deletions": c.deletions,
            "binary": c.binary,
            "old_mode": c.old_mode,
            "new_mode": c.new_mode,
            "symlink_target": c.symlink_target,
            "unsafe": c.unsafe,
        }
