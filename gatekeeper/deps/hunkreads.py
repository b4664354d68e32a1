"""One hunk's changed lines read all or none (edits.read).

A manifest's hunk whose changed lines are each a dependency line the hunk ties to its owner is read; a hunk with
one changed line that cannot be read safely (a script line, a hook's new option, an unpinned extra) names nothing
of its own, whatever its other lines say: a line's meaning may hang on the refused one beside it (a header, a
table's opening). That hunk is a `partial` problem, and the other hunks of the file are still read: a patch git
writes never shows a line of one hunk in another, and each reader reads a changed line from its own hunk's lines
only (the text after `@@` is read by none). So a pre-commit file bumping five hook repositories and adding
`require_serial: true` to a local hook names the five beside the problem — the `deps` policy reviews it
(deps.unreadable) — instead of naming none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gatekeeper.deps.model import PartlyShown
from gatekeeper.lazy_pattern import lazy

Side = list[tuple[str, bool]]  # one side of a hunk: (line, changed); edits.py and its line readers use it
Reader = Callable[[Side, int], "Sequence[tuple[str, ...]]"]
Read = tuple[int, int, "Sequence[tuple[str, ...]]", str]  # side (0 base, 1 head), line index, pairs, what is unshown

BLANK = lazy(r"^\s*+,?\s*+$")  # possessive: the runs around the comma were split every way (16 KiB: 1.1 CPU-s)


def hunk_pairs(reader: Reader, old: Side, new: Side) -> list[Read]:
    """The pairs of every changed, non-blank line of one hunk, base side first, each with the PartlyShown message
    of a line read only as far as the hunk shows it (else ""); the reader's ManifestError for any line is the
    hunk's: raised, so none of its lines is named."""
    out: list[Read] = []
    for which, side in ((0, old), (1, new)):
        for index, (line, changed) in enumerate(side):
            if not changed or BLANK.match(line):
                continue
            try:
                out.append((which, index, reader(side, index), ""))
            except PartlyShown as exc:
                out.append((which, index, exc.pairs, str(exc)))
    return out
