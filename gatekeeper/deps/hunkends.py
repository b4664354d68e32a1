"""Whether a hunk's last line is its file's last line, from the hunk alone.

git writes the same number of context lines (`-U`, 3 by default) before and after a hunk's changes, and fewer only
where the file stops them: at its start (leading) or its end (trailing). But a patch need not be git's, and `git
apply` holds a hunk to the file's end only when it has no trailing context at all (apply.c: `match_end = !trailing`;
git's t/t4113-apply-ending.sh: `@@ -1,2 +1,3 @@ a b +c` does not apply to a file that goes on after `b`): one line
of trailing context under three leading ones applies anywhere that line matches (attack 16: a kustomize entry's
`newName:` below the hunk, unseen, renamed the image the gate named). So a hunk ends its file when it has leading
context and none after its last change, or when its last line is git's `\\ No newline at end of file` (the line before
it has no newline: only a file's last line can match it; a marker inside the hunk, followed by more lines, joins two
lines and says nothing of the end). Either way, its sides are `FileEnd`: a reader whose entry is closed by the line
after it (kustomize's `images:` entry, whose `newName:` could follow) may take the file's end for that line.
"""

from __future__ import annotations


class FileEnd(list[tuple[str, bool]]):
    """One side of a hunk (edits.Side: (line, changed)) whose last line is the file's last line."""


def ends_file(old: list[tuple[str, bool]], new: list[tuple[str, bool]], marked: bool) -> bool:
    """Whether the hunk whose sides are `old` and `new` reaches the end of its file (`marked`: git's no-newline
    marker is its last line). Leading context: the context lines before the first changed line of either side;
    trailing: after the last one."""
    if marked:
        return True
    firsts = [next(i for i, (_, changed) in enumerate(side) if changed) for side in (old, new)
              if any(changed for _, changed in side)]
    lasts = [len(side) - 1 - max(i for i, (_, changed) in enumerate(side) if changed) for side in (old, new)
             if any(changed for _, changed in side)]
    return bool(firsts) and min(lasts) == 0 < min(firsts)


def whole_file(raw: list[str], first: bool) -> bool:
    """Whether a modified file's hunk lines (`raw`: prefixed lines, `@@` per hunk, `\\` for git's no-newline marker)
    are its whole text on both sides: one hunk from the first line of both sides (`first`: `@@ -1,… +1,… @@`), which
    `git apply` holds to the file's start, that reaches its end (ends_file). Such a patch shows both files whole, as it
    shows an added one, so their readers read them whole (round 51: hmcts/sds-flux-config rewrote a 5-line
    kustomization.yaml in one hunk, a `partial` problem before)."""
    if not first or raw.count("@@") != 1 or raw[:1] != ["@@"]:
        return False
    old: list[tuple[str, bool]] = []
    new: list[tuple[str, bool]] = []
    for line in raw[1:]:
        mark, body = line[:1], line[1:]
        if mark in (" ", "-"):
            old.append((body, mark == "-"))
        if mark in (" ", "+"):
            new.append((body, mark == "+"))
    return ends_file(old, new, raw[-1] == "\\")
