"""The patch state machine: lines in, FileChanges out, one section at a time (never the whole patch)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from gatekeeper.diff.binary import block_header, data_line_problem
from gatekeeper.diff.gitnames import git_find_name, squash_slash
from gatekeeper.diff.paths import DEV_NULL, QuoteError, needs_quoting, plain_or_quoted, side_name, strip_prefix
from gatekeeper.diff.section import LINK_DATA_CAP, MODE, REAL_MODES, SYMLINK, Section, finish, merge_type_change
from gatekeeper.errors import PatchError, where
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import FileChange

_HUNK = lazy(rb"@@ -(\d{1,18})(?:,(\d{1,18}))? \+(\d{1,18})(?:,(\d{1,18}))? @@")
_INDEX = lazy(rb"index [0-9a-f]{4,64}\.\.[0-9a-f]{4,64}(?: ([0-7]{6}))?")
_PERCENT = lazy(rb"(\d{1,3})%")
_RETAKE = "take the patch again with `git diff --cached --binary`"

# States: what the next line may be.
BETWEEN, HEADER, PLUS, HUNK_START, HUNK, AFTER_HUNK, BIN_START, BIN_DATA, BIN_AFTER, DONE = range(10)

_MODE_LINES = {
    b"old mode ": ("old_mode", 1),
    b"new mode ": ("new_mode", 2),
    b"deleted file mode ": ("deleted_mode", 1),
    b"new file mode ": ("new_file_mode", 1),
}
_NAME_LINES = {
    b"rename from ": ("rename_from", 4),
    b"rename to ": ("rename_to", 5),
    b"copy from ": ("copy_from", 4),
    b"copy to ": ("copy_to", 5),
}
# git reads some header lines differently depending on what came before (`--- /dev/null` before
# `new file mode` is a file named `dev/null`), so only the order git writes is accepted: each
# kind of line has its place (the number), and a section's header lines must climb.
_SIMILARITY, _INDEX_RANK, _SIDES = 3, 6, 7


class _Fail:
    """Builds PatchErrors that name the patch file and line."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, what: str, line: int, hint: str = _RETAKE) -> PatchError:
        return PatchError(what, where=where(self.name, line), hint=hint)


def parse_lines(lines: Iterable[tuple[int, bytes, bool]], name: str) -> Iterator[FileChange]:
    """Parse numbered patch lines into FileChanges, in patch order; raises PatchError on malformed input."""
    fail = _Fail(name)
    seen: set[str] = set()
    pending: FileChange | None = None  # a deletion that may pair with the next addition (type change)
    section = Section(line=0, header=b"")  # replaced at the first `diff --git`; states guard its use
    state = BETWEEN
    old_left = new_left = 0
    marker_ok = False  # a `\ No newline at end of file` may follow the previous line
    blocks = 0
    data_lines = 0
    number = 0

    def emit(change: FileChange) -> Iterator[FileChange]:
        nonlocal pending
        if pending is not None:
            merged = merge_type_change(pending, change)
            held, pending = pending, None
            if merged is not None:
                yield checked(merged)
                return
            yield checked(held)
        if change.status == "deleted":
            pending = change
        else:
            yield checked(change)

    def checked(change: FileChange) -> FileChange:
        if change.status != "renamed" or not change.old_path:  # nearly every change: one name to test
            if change.path in seen:
                raise fail(f"the patch changes {change.path!r} a second time", change.line)
            seen.add(change.path)
            return change
        for key in (change.path, change.old_path):
            if key in seen:
                raise fail(f"the patch changes {key!r} a second time", change.line)
            seen.add(key)
        return change

    for number, line, cut in lines:
        if state == HUNK:
            head = line[:1]
            if head == b"+":
                if not new_left:
                    raise fail("more added lines than the hunk header counts", number)
                new_left -= 1
                section.additions += 1
                if b"\0" in line:
                    section.nul = True
                if section.first_plus is None:
                    section.first_plus = line[1:]
            elif head == b"-":
                if not old_left:
                    raise fail("more removed lines than the hunk header counts", number)
                old_left -= 1
                section.deletions += 1
                if section.first_minus is None:
                    section.first_minus = line[1:]
            elif head == b" " or not line:  # an empty line is an empty context line (diff.suppressBlankEmpty)
                if not old_left or not new_left:
                    raise fail("more context lines than the hunk header counts", number)
                old_left -= 1
                new_left -= 1
                section.context += 1
                if b"\0" in line:
                    section.nul = True
            elif head == b"\\" and marker_ok:
                marker_ok = False
                section.markers += 1
                continue
            else:
                raise fail(
                    f"the hunk ends early: {old_left} old and {new_left} new lines are still missing",
                    number,
                    "the patch is truncated or its hunk counts do not add up; " + _RETAKE,
                )
            marker_ok = True
            if not old_left and not new_left:
                state = AFTER_HUNK
            continue

        if cut:
            raise fail("line too long for a patch header line", number)

        if b"\0" in line and state != BIN_DATA:
            raise fail("a NUL byte in a patch header line", number, "git never writes one; " + _RETAKE)
        if line.startswith(b"diff --git "):
            if state in (HEADER, AFTER_HUNK, BIN_AFTER, DONE):
                change = _finish(section, fail)
                if pending is None and change.status != "deleted":  # nothing to pair: emit's answer, without it
                    yield checked(change)
                else:
                    yield from emit(change)
            elif state != BETWEEN:
                raise _early_end(state, number, fail, old_left, new_left)
            section = Section(line=number, header=line[11:])
            state = HEADER
            continue
        if line.startswith((b"diff --cc ", b"diff --combined ")):
            raise fail("combined (merge) diffs are not supported", number, "diff the merge result against one parent")

        if state == HEADER:
            _header_line(section, line, number, fail)
            if line.startswith(b"--- "):
                state = PLUS
            elif line == b"GIT binary patch":
                state, blocks = BIN_START, 0
            elif line.startswith(b"Binary files ") and line.endswith(b" differ"):
                state = DONE
        elif state == PLUS:
            if not line.startswith(b"+++ "):
                raise fail("a '---' line must be followed by a '+++' line", number)
            section.plus = _side(line[4:], number, fail)
            state = HUNK_START
        elif state in (HUNK_START, AFTER_HUNK) and line.startswith(b"@@ "):
            old_left, new_left, new_start = _hunk_counts(line, number, fail)
            if not section.hunks:
                section.new_start = new_start
            section.hunks += 1
            state, marker_ok = HUNK, False
        elif state == AFTER_HUNK and line[:1] == b"\\" and marker_ok:
            marker_ok = False
            section.markers += 1
        elif state == AFTER_HUNK and line[:1] in (b"+", b"-", b" "):
            raise fail(
                "the hunk has more lines than its header counts", number, "the hunk counts do not add up; " + _RETAKE
            )
        elif state in (BIN_START, BIN_AFTER) and block_header(line):
            state, blocks, data_lines = BIN_DATA, blocks + 1, 0
            if SYMLINK in (
                section.new_file_mode,
                section.new_mode,
                section.deleted_mode,
                section.old_mode,
                section.index_mode,
            ):
                section.link_blocks.append((line, []))  # a symlink's target is its content: keep it to read
        elif state == BIN_DATA:
            if not line:
                if not data_lines:
                    raise fail("a binary block holds no data", number)
                state = DONE if blocks == 2 else BIN_AFTER
            else:
                problem = data_line_problem(line)
                if problem:
                    raise fail(problem, number)
                data_lines += 1
                if section.link_blocks:
                    section.link_data += len(line)
                    if section.link_data <= LINK_DATA_CAP:
                        section.link_blocks[-1][1].append(line)
        elif state == BETWEEN:
            raise fail(
                "not a git patch: expected a 'diff --git' line",
                number,
                "gatekeeper reads patches made by `git diff --cached --binary`",
            )
        else:
            raise _unexpected(state, line, number, fail)

    if state in (HEADER, AFTER_HUNK, BIN_AFTER, DONE):
        yield from emit(_finish(section, fail))
    elif state != BETWEEN:
        raise _early_end(state, number + 1, fail, old_left, new_left, eof=True)
    if pending is not None:
        yield checked(pending)


def _finish(section: Section, fail: _Fail) -> FileChange:
    return finish(section, fail.name)


def _side(text: bytes, number: int, fail: _Fail) -> bytes | None:
    if b"//" not in text and not needs_quoting(text):
        # Nearly every line's name: nothing git would quote (so no quote and no tab either) and no doubled slash. Then
        # side_name reads the text itself and _as_git_reads returns at once: the general reading below, without its
        # calls (~10 ms of a 10,000-file patch; tests/test_diff_sides.py).
        if text == DEV_NULL:
            return None
        stripped = strip_prefix(text)
        if stripped is None:
            raise _no_prefix(number, fail)
        return stripped
    try:
        name = side_name(text)
    except QuoteError as exc:
        raise fail(str(exc), number) from None
    if name is None:
        return None
    stripped = strip_prefix(name)
    if stripped is None:
        raise _no_prefix(number, fail)
    _as_git_reads(text, stripped, 1, number, fail)
    return stripped


def _no_prefix(number: int, fail: _Fail) -> PatchError:
    return fail("a ---/+++ name has no 'a/' or 'b/' prefix", number,
                "make the patch with git's default prefixes (not --no-prefix)")


def _as_git_reads(text: bytes, ours: bytes, strip: int, number: int, fail: _Fail) -> None:
    """Refuse a name git would write otherwise (unquoted with a quote, backslash or control byte) or read otherwise."""
    side = strip == 1  # a ---/+++ name: a tab ends it
    quoted = text[:1] == b'"'
    if not quoted and needs_quoting(text.split(b"\t", 1)[0] if side else text):
        raise fail(
            "an unquoted name holds a quote, a backslash or a control character (git quotes such names)",
            number,
            "git reads such a name differently from what it shows; " + _RETAKE,
        )
    if not quoted and b"//" not in text:
        return  # no CR, no quote, no doubled slash: git's find_name reads exactly what we read (tested)
    gits = git_find_name(text, strip, side)
    # git squashes `//` to `/`; a name holding `//` is marked unsafe (an empty component) and denied anyway.
    if gits != squash_slash(ours):
        shown = "no name" if gits is None else repr(gits.decode("utf-8", "surrogateescape"))
        raise fail(
            f"git reads {shown} from this line, not {ours.decode('utf-8', 'surrogateescape')!r}",
            number,
            "the name is written in a form git reads differently; " + _RETAKE,
        )


def _header_line(s: Section, line: bytes, number: int, fail: _Fail) -> None:
    if line.startswith(b"index "):
        match = _INDEX.fullmatch(line)
        if not match:
            raise fail("malformed 'index' line", number)
        _in_order(s, _INDEX_RANK, number, fail)
        _set_once(s, "index_mode", _real_mode(match.group(1), number, fail), b"index", number, fail)
        return
    if line.startswith(b"--- "):
        _in_order(s, _SIDES, number, fail)
        s.has_sides = True
        s.minus = _side(line[4:], number, fail)
        return
    for prefix, (field, rank) in _MODE_LINES.items():
        if line.startswith(prefix):
            value = line[len(prefix) :]
            if not MODE.fullmatch(value):
                raise fail(f"not a file mode: {value[:20]!r}", number)
            _in_order(s, rank, number, fail)
            _set_once(s, field, _real_mode(value, number, fail), prefix, number, fail)
            return
    for prefix, (field, rank) in _NAME_LINES.items():
        if line.startswith(prefix):
            text = line[len(prefix) :]
            try:
                value = plain_or_quoted(text)
            except QuoteError as exc:
                raise fail(str(exc), number) from None
            _as_git_reads(text, value, 0, number, fail)
            _in_order(s, rank, number, fail)
            _set_once(s, field, value, prefix, number, fail)
            return
    if line.startswith((b"similarity index ", b"dissimilarity index ")):
        match = _PERCENT.fullmatch(line.split(b" ", 2)[2])
        if not match or int(match.group(1)) > 100:
            raise fail("a similarity index must be a percentage", number)
        _in_order(s, _SIMILARITY, number, fail)
        if line.startswith(b"s"):
            _set_once(s, "similarity", int(match.group(1)), b"similarity index", number, fail)
    elif line == b"GIT binary patch" or (line.startswith(b"Binary files ") and line.endswith(b" differ")):
        _in_order(s, _SIDES, number, fail)
        s.binary = True
    else:
        raise fail(f"unexpected line in the header of the file change at line {s.line}", number)


def _in_order(s: Section, rank: int, number: int, fail: _Fail) -> None:
    if rank <= s.rank:
        raise fail(
            "header lines out of the order git writes them (modes, similarity, rename/copy, index, ---/+++)",
            number,
            "git reads some lines differently in another order; " + _RETAKE,
        )
    s.rank = rank


def _real_mode(value: bytes | None, number: int, fail: _Fail) -> bytes | None:
    # git reads any 12xxxx as a symlink, 16xxxx (and any unknown type) as a gitlink and 1007xx as
    # executable, but writes only these four: anything else is hand-made, and refused.
    if value is not None and value not in REAL_MODES:
        raise fail(
            f"file mode {value.decode('ascii')} is not one git writes (100644, 100755, 120000, 160000)",
            number,
            "git would read it as another file type or permission; " + _RETAKE,
        )
    return value


def _set_once(s: Section, field: str, value: object, label: bytes, number: int, fail: _Fail) -> None:
    if getattr(s, field) is not None or (field == "index_mode" and s.has_index):
        raise fail(f"a second '{label.decode().strip()}' line in one file's header", number)
    if field == "index_mode":
        s.has_index = True
    setattr(s, field, value)


def _hunk_counts(line: bytes, number: int, fail: _Fail) -> tuple[int, int, int]:
    match = _HUNK.match(line)
    if not match:
        raise fail("malformed hunk header", number)
    _, old_count, new_start, new_count = match.groups()  # one call, not one a group
    old = int(old_count) if old_count is not None else 1
    new = int(new_count) if new_count is not None else 1
    if not old and not new:
        raise fail("a hunk header that counts no lines", number)
    return old, new, int(new_start)


def _early_end(state: int, number: int, fail: _Fail, old_left: int, new_left: int, eof: bool = False) -> PatchError:
    end = "the patch ends" if eof else "the next file starts"
    if state == PLUS:
        what = f"{end} after a '---' line (no '+++' line)"
    elif state == HUNK_START:
        what = f"{end} before the first hunk"
    elif state == HUNK:
        what = f"{end} inside a hunk: {old_left} old and {new_left} new lines are missing"
    else:
        what = f"{end} inside a binary patch (cut short)"
    return fail(what, number, "the patch is truncated or its hunk counts do not add up; " + _RETAKE)


def _unexpected(state: int, line: bytes, number: int, fail: _Fail) -> PatchError:
    expected = {
        HUNK_START: "a hunk header ('@@ -a,b +c,d @@')",
        AFTER_HUNK: "a hunk header or the next 'diff --git'",
        BIN_START: "'literal N' or 'delta N'",
        BIN_AFTER: "'literal N', 'delta N' or the next 'diff --git'",
        DONE: "the next 'diff --git'",
    }.get(state, "a patch line")
    return fail(f"expected {expected}, found {line[:40]!r}", number)
