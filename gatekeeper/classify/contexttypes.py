"""What tiers 2 and 3 read from (context.py): the `Context` a `TreeContext` (treecontext.py, the commits) and a
`PatchContext` (patchcontext.py, the patch alone) each are, and `Shown`, the content of one side of a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from gatekeeper.classify.markers import MarkerIndex
from gatekeeper.model import FileChange


@dataclass(frozen=True, slots=True)
class Shown:
    """Content of one side of a change: its path, the bytes seen, and whether they are all of the file's head."""

    path: str
    data: bytes
    complete: bool  # False: a patch's hunks, which may leave out the lines that decide


class Context(Protocol):
    """Where tiers 2 and 3 read from."""

    kind: str  # "tree" or "patch"
    markers: MarkerIndex
    programs: bool  # search source files for IaC-library imports (see may_hold_program)

    def content(self, change: FileChange, every_type: bool = False) -> list[Shown]:
        """The first bytes of each side of `change` that exists and is a candidate (see sniff.is_candidate),
        or of any type with `every_type`."""
        ...

    def head_blob(self, path: str, limit: int) -> tuple[str, bytes] | None:
        """(mode, up to `limit` first bytes) of the regular file at `path` in HEAD's tree; None when it is not one
        there or not known (a patch alone)."""
        ...

    def link_targets(self) -> dict[str, tuple[str, ...]] | None:
        """The symlinks of the trees by the repository path each points to: {target: every link to it};
        None when the trees hold more symlinks than are read (then every file counts as reached)."""
        ...

    def task_script(self, change: FileChange) -> str | None:
        """Evidence that a CI task definition near `change` runs it by path (tasks.py), or None."""
        ...

    def ci_include(self, change: FileChange) -> str | None:
        """Evidence that a GitLab pipeline includes a side of `change` or a Zuul job runs it (zuuljobs.py), or None."""
        ...

    def terraform_ref(self, change: FileChange) -> str | None:
        """Evidence that a Terraform module reads a side of `change` by path (tfrefs.py), or None."""
        ...

    def kustomize_reference(self, change: FileChange) -> str | None:
        """Evidence that a kustomization names a side of `change` by its path (kustomizerefs.py), or None."""
        ...

    def local_action(self, change: FileChange) -> str | None:
        """Evidence that a workflow runs the local action whose folder holds a side of `change`, or None."""
        ...

    def requirements_include(self, change: FileChange) -> str | None:
        """Evidence that a requirements file includes a side of `change` (`-r`/`-c`), or None."""
        ...

    def manifest_include(self, change: FileChange) -> str | None:
        """Evidence that a manifest or build program reads a side of `change` by path (manifestreads.py), or None."""
        ...

    def ci_run(self, change: FileChange) -> tuple[str, str] | None:
        """(rule, evidence) when a CI definition runs a side of `change` by path, names it as a Compose file, or a Heat
        template ships it."""
        ...

    def godot_addon(self, change: FileChange) -> str | None:
        """Evidence that a side of `change` is a plugin vendored into a Godot project's addons/ (godotaddons.py)."""
        ...

    def inline_metadata(self, change: FileChange) -> str | None:
        """Evidence that a side of `change` is a Python script with PEP 723 inline metadata (inlinemeta.py), or None."""
        ...

    def may_hold_program(self, change: FileChange) -> bool:
        """Whether a source file the path tier left in src could import an IaC library, so that it is worth
        reading: the patch's bytes name one (patch), a dependency manifest above it names one (tree)."""
        ...

    def checkout_rewrites(self, changes: Sequence[FileChange]) -> dict[str, str]:
        """{path: evidence} for the changed files an attribute of HEAD or BASE makes a checkout write otherwise than
        their blobs (checkoutattrs.py); a patch shows no attributes but its own (sniff reads those)."""
        ...
