"""Whether a hunk's last line is its file's last line, from the hunk alone.

git writes the same number of context lines (`-U`, 3 by default) before and after a hunk's changes, and fewer only
where the file stops them: at its start (leading) or its end (trailing). So a hunk with fewer context lines after its
last change than before its first one ends where the file ends; `git apply` holds a patch to that, applying such a
hunk only at the file's end (git's t/t4113-apply-ending.sh: `@@ -1,2 +1,3 @@ a b +c` does not apply to a file that
goes on after `b`). A hunk git marks `\\ No newline at end of file` ends the file too. Either way, its sides are
`FileEnd`: a reader whose entry is closed by the line after it (kustomize's `images:` entry, whose `newName:` could
follow) may take the file's end for that line.
"""

from __future__ import annotations


class FileEnd(list[tuple[str, bool]]):
    """One side of a hunk (edits.Side: (line, changed)) whose last line is the file's last line."""


def ends_file(old: list[tuple[str, bool]], new: list[tuple[str, bool]], marked: bool) -> bool:
    """Whether the hunk whose sides are `old` and `new` reaches the end of its file (`marked`: git's no-newline
    marker is among its lines). Leading context: the context lines before the first changed line of either side;
    trailing: after the last one."""
    if marked:
        return True
    firsts = [next(i for i, (_, changed) in enumerate(side) if changed) for side in (old, new)
              if any(changed for _, changed in side)]
    lasts = [len(side) - 1 - max(i for i, (_, changed) in enumerate(side) if changed) for side in (old, new)
             if any(changed for _, changed in side)]
    return bool(firsts) and min(lasts) < min(firsts)
