"""One `diff --git` section while it is read, and the FileChange it amounts to once complete."""

from __future__ import annotations

from dataclasses import dataclass, field

from gatekeeper.diff.binary import inflate_literal
from gatekeeper.diff.gitnames import git_header_name
from gatekeeper.diff.paths import QuoteError, decode, header_candidates, needs_quoting, unquote, unsafe_reason
from gatekeeper.errors import PatchError, where
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import FileChange, Status

MODE = lazy(rb"[0-7]{6}")
# The file type is in the mode's first two octal digits: regular file, symlink, gitlink.
FILE_TYPES = {b"10": "file", b"12": "symlink", b"16": "submodule"}
SYMLINK = b"120000"
GITLINK = b"160000"
# The only modes git writes in a patch (tree entries are normalised to these when read).
REAL_MODES = frozenset({b"100644", b"100755", SYMLINK, GITLINK})
# Keep at most this much base85 text of a symlink's binary patch: a link target is at most a few KiB.
LINK_DATA_CAP = 1 << 14
# A longer target is no link a system can make (PATH_MAX), and a content line that long may have
# been cut by the reader: such a target counts as unknown, never as its first bytes.
LINK_TARGET_MAX = 4096


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
    nul: bool = False  # a NUL byte in an added or context line: the new side holds binary content (red team 31)
    first_plus: bytes | None = None  # a symlink's new target is its only added line
    first_minus: bytes | None = None
    rank: int = 0  # the place of the last header line read, in the order git writes them
    context: int = 0  # context lines in the hunks
    markers: int = 0  # `\ No newline at end of file` lines
    new_start: int = 0  # the first hunk's new start line
    link_blocks: list[tuple[bytes, list[bytes]]] = field(default_factory=list)  # a symlink's binary blocks
    link_data: int = 0  # base85 bytes seen in link_blocks (kept only up to a cap)


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
    new = s.plus
    if (new is not None and s.minus == new and s.header == b"a/" + new + b" b/" + new and s.new_file_mode is None
            and s.deleted_mode is None and s.rename_from is None and s.rename_to is None and s.copy_from is None
            and s.copy_to is None and b" " not in new and not needs_quoting(new)):
        # Nearly every section: the same name on both sides, written in the header as git writes it, nothing git would
        # quote. The general reading below answers (new, new, None) for it, after its checks' calls (~3 µs a file;
        # tests/test_diff_sides.py).
        return new, new, None
    return _resolve_named(s, name)


def _resolve_named(s: Section, name: str) -> tuple[bytes, bytes, Status | None]:
    problem = _header_form_problem(s.header)
    if problem:
        raise _fail(f"the 'diff --git' header is not as git writes it: {problem}", name, s.line, _HEADER_HINT)
    old, new, status = _named_paths(s, name)
    if old is not None and new is not None:
        # git takes a new or deleted file's name from the header and checks ---/+++ against it;
        # we ask the same of every section that is not a rename or copy.
        if status is None and not _header_agrees(s.header, new):
            raise _fail(
                "the names in the 'diff --git' header disagree with the section's other lines (as git reads them)",
                name,
                s.line,
                _HEADER_HINT,
            )
        if status is not None and not header_candidates(s.header, (old, new)):
            raise _fail("the names in the 'diff --git' header disagree with the section's other lines", name, s.line)
        return old, new, status
    same = {a for a, _ in header_candidates(s.header)}
    if len(same) > 1:
        raise _fail(
            "the 'diff --git' header is ambiguous (names with spaces) and no other line names the file",
            name,
            s.line,
        )
    gits = git_header_name(s.header)
    if gits is None or same != {gits}:
        what = "git reads no name" if gits is None else f"git reads {decode(gits)!r}"
        raise _fail(
            f"cannot read the file names from the 'diff --git' header as git does ({what})", name, s.line, _HEADER_HINT
        )
    return gits, gits, None


_HEADER_HINT = "git reads the header's names differently; take the patch again with `git diff --cached --binary`"


def _header_agrees(header: bytes, name: bytes) -> bool:
    """Whether the `diff --git` header of a section whose ---/+++ lines name `name` agrees with them as git reads it:
    git reads `name` from it, or the header is the one git writes for `name` and git reads no name from it. The
    second is a folder name ending in a space (`x /y`): git's scan gives up at a separator followed by '/', takes
    no name from the header and checks nothing against it (apply.c, gitdiff_verify_name with no default name), so
    the ---/+++ lines alone name the file, as here (git applies the patch it wrote)."""
    if _git_reads_header_as(header, name):
        return True
    return header == b"a/" + name + b" b/" + name and git_header_name(header) is None


def _git_reads_header_as(header: bytes, name: bytes) -> bool:
    """Whether git reads `name` from the `diff --git` header (`git_header_name`). The header git writes for a name
    without a space, tab or double quote, `a/NAME b/NAME`, is answered without git's scan: its one separator is the
    space before `b/`, and both halves are NAME (the same answer: tests/test_diff_gitnames.py); a patch's sections are
    nearly all of that form (~10 % of parsing a 10,000-file patch went to the scan)."""
    if b" " not in name and b"\t" not in name and b'"' not in name and header == b"a/" + name + b" b/" + name:
        return True
    return git_header_name(header) == name


def _header_form_problem(header: bytes) -> str | None:
    """Why the header's two names are not written the way git writes them (quoted exactly when needed), or None."""
    if header.startswith(b'"'):
        try:
            _, end = unquote(header)
        except QuoteError as exc:
            return str(exc)
        if header[end : end + 1] != b" ":
            return "the first quoted name must be followed by one space"
        second = header[end + 1 :]
        first_plain = b""
    else:
        quote = header.find(b'"')
        if quote < 0:
            return "an unquoted name holds a backslash or a control character" if needs_quoting(header) else None
        if header[quote - 1 : quote] != b" ":
            return "a double quote inside an unquoted name"
        first_plain, second = header[: quote - 1], header[quote:]
    if needs_quoting(first_plain):
        return "an unquoted name holds a quote, a backslash or a control character"
    if second.startswith(b'"'):
        try:
            _, end = unquote(second)
        except QuoteError as exc:
            return str(exc)
        return None if end == len(second) else "text after the second quoted name"
    return "an unquoted name holds a quote, a backslash or a control character" if needs_quoting(second) else None


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
    if s.index_mode is not None and (s.old_mode or s.new_file_mode or s.deleted_mode):
        # git writes the mode on the `index` line only when it did not change; git apply would
        # take it as the old mode, over the `old mode` line.
        raise _fail("an 'index' line with a mode beside mode lines (git never writes both)", name, s.line)
    if content and not s.has_index:
        # git writes an `index` line for every content change; without it, nothing states the
        # file's type (a hunk could retarget a symlink the patch never calls one).
        raise _fail("a content change without an 'index' line", name, s.line)
    if content and s.index_mode is None and s.old_mode is None and s.new_file_mode is None and s.deleted_mode is None:
        raise _fail("a content change that states no file mode (the 'index' line carries none)", name, s.line)
    if s.new_file_mode is not None:
        status, old_mode, new_mode = "added", None, s.new_file_mode
    elif s.deleted_mode is not None:
        status, old_mode, new_mode = "deleted", s.deleted_mode, None
    else:
        old_mode = s.old_mode or s.index_mode
        new_mode = s.new_mode or s.index_mode
        if old_mode != new_mode and _file_type(old_mode) != _file_type(new_mode):  # one mode: one type
            # git writes a type change as a deletion and an addition, and refuses to apply one
            # section that changes a file's type (the new link's target would be the old content).
            raise _fail("a file type change inside one section (git refuses to apply it)", name, s.line)
        if status is None:
            if s.old_mode is not None and s.old_mode != s.new_mode and not content:
                status = "mode_changed"
            elif content:
                status = "modified"
            else:
                raise _fail("a section that changes nothing (no mode, rename, copy or content change)", name, s.line)
    target = _link_target(s, forward=True) if new_mode == SYMLINK else None
    old_target = _link_target(s, forward=False) if old_mode == SYMLINK else None
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
        shows_nul=s.nul,
        old_mode=None if old_mode is None else old_mode.decode("ascii"),
        new_mode=None if new_mode is None else new_mode.decode("ascii"),
        similarity=s.similarity,
        symlink_target=None if target is None else decode(target),
        old_symlink_target=None if old_target is None else decode(old_target),
        symlink_unknown=new_mode == SYMLINK and target is None,
        submodule=GITLINK in (old_mode, new_mode),
        unsafe=unsafe,
        line=s.line,
    )


def _link_target(s: Section, forward: bool) -> bytes | None:
    """A symlink's target (new side when `forward`, else old side) when the patch shows all of it, else None."""
    if s.binary:
        # Forward block first (old -> new content), then the reverse one (new -> old).
        index = 0 if forward else 1
        if len(s.link_blocks) <= index or s.link_data > LINK_DATA_CAP:
            return None
        header, lines = s.link_blocks[index]
        return inflate_literal(header, lines, LINK_TARGET_MAX)
    # The whole content of a link is one line without a newline: one hunk, no context, a single
    # line on the side asked for, and a `\ No newline` marker after every line of the hunk.
    mine, other = (s.additions, s.deletions) if forward else (s.deletions, s.additions)
    if s.hunks != 1 or s.context or mine != 1 or other > 1 or s.markers != mine + other:
        return None
    if forward and s.new_start != 1:
        return None
    target = s.first_plus if forward else s.first_minus
    return target if target is not None and len(target) <= LINK_TARGET_MAX else None


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
        shows_nul=added.shows_nul,
        old_mode=deleted.old_mode,
        new_mode=added.new_mode,
        symlink_target=added.symlink_target,
        old_symlink_target=deleted.old_symlink_target,
        symlink_unknown=added.symlink_unknown,
        submodule=deleted.submodule or added.submodule,
        unsafe=deleted.unsafe or added.unsafe,
        line=deleted.line,
    )
