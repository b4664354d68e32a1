"""An executable's bytes the patch does not show: read from HEAD's blob with `--tree`, else the file needs context.

A mode change, a rename at full similarity or a text hunk past its NUL bytes can make a compiled program executable
without a binary patch (red team 31, attack 25); these are the two judgements `context.refine` applies last.
"""

from __future__ import annotations

from dataclasses import replace

from gatekeeper.classify.contexttypes import Context
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.model import ClassifiedFile

NEEDS_CONTEXT = "needs-context"  # as context.py's and autorun.py's
MAX_NUL_READ = 32 << 20  # how much of an executable's blob is read for a NUL (holds_nul)


def binary_unshown(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """Tree only: a file executable after the change whose patch shows no binary content (a mode change, a rename at
    full similarity, a text hunk past its NUL bytes) is `binary` when HEAD's blob holds a NUL (holds_nul): `chmod +x`
    of a committed compiled program, or its bytes written as text lines, ships a binary executable, which the size
    policy refuses (red team 31). A copy or rename at full similarity states no mode (attack 25): HEAD's tree gives
    it, and the change takes it (both sides; a differing one has its mode lines)."""
    change = item.change
    if "binary" in item.tags or change.new_mode != "100755" and (change.new_mode is not None
                                                                  or change.status not in ("copied", "renamed")):
        return item
    head = context.head_blob(change.path, FULL_READ + 1)
    mode = change.new_mode or (head[0] if head and change.status in ("copied", "renamed") else None)
    if head is None or mode != "100755" or not holds_nul(context, change.path, head[1]):
        return item
    if change.new_mode is None:
        change = replace(change, old_mode=mode, new_mode=mode)
    return replace(item, change=change, tags=tuple(sorted({*item.tags, "binary"})))


def executable_unshown(item: ClassifiedFile) -> ClassifiedFile:
    """Patch only: a file the change makes executable (100755 from another regular mode) keeps bytes the patch does not
    show, which may be a compiled program under any name (`chmod +x tools/run.py`): needs-context, so that a gate
    without the commits sends it to a human (the docs review of stop 49); `--tree` reads HEAD's blob instead
    (binary_unshown). A binary patch shows its bytes: tagged `binary`, which the size policy judges."""
    change = item.change
    if "binary" in item.tags or change.new_mode != "100755" or change.old_mode not in ("100644", "100664"):
        return item
    return replace(item, tags=tuple(sorted({*item.tags, NEEDS_CONTEXT})))


def holds_nul(context: Context, path: str, data: bytes) -> bool:
    """A NUL anywhere in HEAD's blob, not only in git's first 8,000 bytes: a script carrying a compiled program past
    them ships one (attack 25). Past FULL_READ read on to MAX_NUL_READ; a longer blob counts as holding one."""
    if b"\0" in data or len(data) <= FULL_READ:
        return b"\0" in data
    rest = context.head_blob(path, MAX_NUL_READ + 1)
    return rest is None or b"\0" in rest[1] or len(rest[1]) > MAX_NUL_READ
