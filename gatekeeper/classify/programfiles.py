"""Under `--tree`, which source files of a program's language tiers 2 and 3 leave as the path tier named them, told
without `context._refine_one`: the fast path of `context.refine` for the bulk of a large change.

With the commits, every source file of a program's language (`iacprograms.PROGRAM_EXTENSIONS`) could be read for an IaC
library's imports, so each took the slow path (`_refine_one`, ~10 µs a file: 10,000 files of a change cost ~0.1 s).
Without markers, a file that is no configuration type, script, inventory or archive (`refine`'s other tests) is raised
by two readers only: its imports, read where a dependency manifest in or above its folder names an IaC library
(`may_hold_program`), and a Terraform file or Dockerfile above it that names it (`terraform_ref`). Both are asked here,
in the order and of the files `_refine_one` asks them (terraform_ref's bound counts the configurations read in order);
when neither answers, `_refine_one` would return the file unchanged.
"""

from __future__ import annotations

from typing import Protocol

from gatekeeper.model import ClassifiedFile, FileChange


class Readers(Protocol):
    """What of a context (contexttypes.Context) the test asks."""

    kind: str

    def may_hold_program(self, change: FileChange) -> bool: ...

    def terraform_ref(self, change: FileChange) -> str | None: ...


def settled_program(item: ClassifiedFile, catch_all: str, context: Readers) -> bool:
    """Whether `_refine_one` returns `item` unchanged: `item` (not deps, not a rename, its rule not a final one) is a
    source file of a program's language that is no configuration type, script, inventory or archive, the context has
    no markers, and `catch_all` is the path tier's last rule. Only under `--tree` (a patch context's files keep the
    slow path: it tags what the patch does not show); a submodule's gitlink keeps it too (its readers differ)."""
    if context.kind != "tree" or "submodule" in item.tags:
        return False
    if item.bucket not in ("src", "other"):
        return True  # ci is final; an iac file is raised by markers and content only, and there are no candidates
    if item.bucket == "src" and item.rule == catch_all and context.may_hold_program(item.change):
        return False  # its imports are read
    return context.terraform_ref(item.change) is None
