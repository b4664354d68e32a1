"""The `patch` context: markers among the paths a patch names, content from the lines it shows.

A new file's hunk is its whole content and a deleted file's is its whole old content (complete);
a modified file shows only hunks (incomplete). The patch is read a second time, section by section
(sections are found by the `diff --git` line number the parser recorded), and only for candidates.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from gatekeeper.classify.context import Shown
from gatekeeper.classify.contextrules import ContextRules
from gatekeeper.classify.markers import MarkerIndex
from gatekeeper.classify.sniff import LONG_WINDOW, is_candidate
from gatekeeper.model import FileChange


class PatchContext:
    """Markers and content as far as one patch shows them."""

    kind = "patch"

    def __init__(self, patch: Path | None, changes: Iterable[FileChange], rules: ContextRules) -> None:
        changes = list(changes)
        paths = [p for c in changes for p in (c.path, c.old_path) if p is not None and c.status != "deleted"]
        # A marker the patch deletes still marks its folder (the base had it).
        paths += [c.old_path or c.path for c in changes if c.status in ("deleted", "renamed")]
        self.markers = MarkerIndex(paths, rules.markers)
        wanted = {c.line for c in changes if c.line and any(is_candidate(p) for p in (c.path, c.old_path) if p)}
        self._sections = _read_sections(patch, wanted) if patch is not None and wanted else {}

    def content(self, change: FileChange) -> list[Shown]:
        """What the patch shows of each side of `change` (new side: '+' and ' ' lines; old: '-' and ' ')."""
        found = self._sections.get(change.line)
        if found is None:
            return []
        old_text, new_text = found
        out = []
        if change.status != "deleted" and is_candidate(change.path):
            out.append(Shown(change.path, new_text, change.status == "added"))
        old = change.old_path or change.path
        if change.status != "added" and is_candidate(old):
            out.append(Shown(old, old_text, change.status == "deleted"))
        return out


def _read_sections(patch: Path, wanted: set[int]) -> dict[int, tuple[bytes, bytes]]:
    """For each wanted `diff --git` line number: (old side text, new side text), each at most LONG_WINDOW."""
    out: dict[int, tuple[bytes, bytes]] = {}
    current: int | None = None
    old: list[bytes] = []
    new: list[bytes] = []
    sizes = [0, 0]
    in_hunk = False

    def close() -> None:
        if current is not None:
            out[current] = (b"".join(old), b"".join(new))

    with open(patch, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if line.startswith(b"diff --git "):
                close()
                current = number if number in wanted else None
                old, new, sizes, in_hunk = [], [], [0, 0], False
                continue
            if current is None:
                continue
            if line.startswith(b"@@"):
                in_hunk = True
                continue
            if not in_hunk or not line:
                continue
            mark, body = line[:1], line[1:]
            if mark in (b" ", b"-") and sizes[0] < LONG_WINDOW:
                old.append(body)
                sizes[0] += len(body)
            if mark in (b" ", b"+") and sizes[1] < LONG_WINDOW:
                new.append(body)
                sizes[1] += len(body)
    close()
    return out
