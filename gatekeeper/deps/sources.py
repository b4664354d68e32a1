"""Where BASE and HEAD content comes from: git objects (`--tree BASE..HEAD`) or a patch alone.

Only files a registered format reads are touched, plus a lockfile's sibling manifest when the
lockfile alone cannot say which entries are direct: parsing is proportional to the manifests a
change touches, never to the repository.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from gatekeeper.deps import cargo, hunks, mavenprops
from gatekeeper.deps.claims import with_claims
from gatekeeper.deps.delta import diff, resolve
from gatekeeper.deps.facts import FileFacts, facts_for, wants_facts
from gatekeeper.deps.heldvars import unresolved
from gatekeeper.deps.hunkends import whole_file
from gatekeeper.deps.inheriting import INHERITING
from gatekeeper.deps.loaders import MAX_BYTES
from gatekeeper.deps.lockhunks import hunk_moves
from gatekeeper.deps.model import Change, Dependency, ManifestError, PartialEdits, PartlyRead, Problem, Scope
from gatekeeper.deps.overridepins import override_pins
from gatekeeper.deps.overrides import changed_overrides
from gatekeeper.deps.patchscan import CANDIDATE, candidates, mapped, section_lines
from gatekeeper.deps.pnpmedges import importer_moves
from gatekeeper.deps.registry import SUBMODULE, Format, Parser, format_for
from gatekeeper.deps.renovatecustom import custom_moves
from gatekeeper.deps.residue import changed as residue_changed
from gatekeeper.deps.treeblobs import sibling_blob, side_blob, touched_files
from gatekeeper.diff import HashingReader, open_patch
from gatekeeper.diff.lines import read_lines
from gatekeeper.diff.parser import parse_lines
from gatekeeper.gitobjects import GITLINK_MODE, GitObjects
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import FileChange


@dataclass(frozen=True, slots=True)
class Delta:
    """Every change of the dependency files a change touches, and the files that could not be read."""

    changes: tuple[Change, ...]
    problems: tuple[Problem, ...]
    # patch_delta only: (path, facts) of the files whose facts the patch shows (facts.facts_for)
    facts: tuple[tuple[str, dict[str, object]], ...] = ()


def _parse(parse: Parser, path: str, data: bytes | None, problems: list[Problem], side: str) -> list[Dependency] | None:
    """The file's dependencies; None (and a problem) when it does not parse, so the other side's
    entries are never reported as removed or added because of it."""
    if data is None:
        return []
    try:
        return parse(path, data)
    except PartlyRead as exc:  # a hunk reader's names, beside what its hunks cannot show
        problems.append(Problem(path, "partial", f"{side}: {exc}"))
        return exc.found
    except ManifestError as exc:
        too_large = "larger than" in str(exc)
        problems.append(Problem(path, "too-large" if too_large else "unparsable", f"{side}: {exc}"))
    except RecursionError:
        problems.append(Problem(path, "unparsable", f"{side}: nested too deeply"))
    return None


def _declared(fmt: Format, folder: str, read: dict[str, bytes | None]) -> dict[str, Scope] | None:
    """Names (and scopes) the sibling manifest of a lockfile declares; None when there is none."""
    for name in fmt.manifests:
        path = f"{folder}{name}"
        data = read.get(path)
        sibling = format_for(path)
        if data is None or sibling is None:
            continue
        try:
            deps = sibling.parse(path, data)
        except (ManifestError, RecursionError):
            return None
        scopes: dict[str, Scope] = {}
        for d in deps:  # an npm alias by the package it fetches and by its key, which lockfiles may name it by
            for named in (d.name, d.alias) if d.alias else (d.name,):
                if scopes.get(named) != "runtime":
                    scopes[named] = d.scope or "runtime"
        return scopes
    return None


def tree_delta(git: GitObjects, base_rev: str, head_rev: str, read_as: Mapping[str, str] | None = None) -> Delta:
    """The delta between two commits, read through git objects only (the gate shares its `git`). `read_as`: {path of
    no dependency file's name: a name whose format reads it} (a file a requirements file or a manifest reads,
    classify/manifestreads.read_as)."""
    base, head = git.commit(base_rev), git.commit(head_rev)
    changes: list[Change] = []
    problems: list[Problem] = []
    inheriting: dict[str, dict[str, tuple[bytes | None, bytes | None]]] = {}  # format → path → both sides
    every = touched_files(git, base, head, read_as or frozenset())
    parents = mavenprops.named_parents(git, (base, head), {t.path for t in every if format_for(t.path) is None})
    for touched in every:
        path = touched.path
        gitlinks = (touched.old_mode, touched.new_mode)
        fmt = SUBMODULE if GITLINK_MODE in gitlinks else format_for(path if path not in parents else "pom.xml") or (
            format_for(read_as[path]) if read_as and path in read_as else None)
        if fmt is None:
            continue  # a submodule replaced by a file that holds no dependencies
        sides: list[list[Dependency] | None] = []
        blobs: list[bytes | None] = []
        for commit, mode, oid, side in ((base, touched.old_mode, touched.old_oid, "base"),
                                        (head, touched.new_mode, touched.new_oid, "head")):
            blobs.append(side_blob(git, mode, oid, path, side, problems))
            parse = INHERITING[fmt.name][0](git, commit) if fmt.name in INHERITING else fmt.parse
            deps = _parse(parse, path, blobs[-1], problems, side)
            if deps is not None:
                declared = None
                if fmt.manifests and any(d.direct is None or d.scope is None for d in deps):
                    folder = path[: path.rfind("/") + 1]
                    siblings = {f"{folder}{m}": sibling_blob(git, commit, f"{folder}{m}") for m in fmt.manifests}
                    declared = _declared(fmt, folder, siblings)
                deps = resolve(deps, declared)  # without a manifest's word: fail closed (direct)
            sides.append(deps)
        if sides[0] is not None and sides[1] is not None:
            held, dropped = unresolved(fmt.name, path, blobs, (sides[0], sides[1]))  # heldvars.py: no removal
            problems += held
            found = [c for c in diff(sides[0], sides[1], path) if (c.ecosystem, c.name) not in dropped]
            if fmt.name == "Cargo.lock" and blobs[0] is not None and blobs[1] is not None:
                found += cargo.edge_moves(path, blobs[0], blobs[1], {(c.name, c.to_version) for c in found})
            if fmt.name == "pnpm-lock.yaml" and blobs[0] is not None and blobs[1] is not None:
                found += importer_moves(path, blobs[0], blobs[1], {(c.name, c.to_version) for c in found})
            changes += found
            if fmt.name in INHERITING:
                inheriting.setdefault(fmt.name, {})[path] = (blobs[0], blobs[1])
        if moved := changed_overrides(path, blobs[0], blobs[1]):
            problems.append(Problem(path, "partial", f"{', '.join(moved)} changed: a source or version override "
                                    "the delta does not read (review it by hand)"))
            # still reviewed; the plain versions an npm-family override section pins are named
            changes += diff(override_pins(path, blobs[0]), override_pins(path, blobs[1]), path)
    known = {(c.manifest, c.name, c.scope, c.from_version, c.to_version) for c in changes}
    for name, files in inheriting.items():
        inherited, unread = INHERITING[name][1](git, base, head, files)
        changes += [c for c in inherited if (c.manifest, c.name, c.scope, c.from_version, c.to_version) not in known]
        problems += unread
    custom, unread = custom_moves(git, base, head, {(c.name, c.to_version) for c in changes})  # the repository's word
    changes += custom
    problems += unread
    return Delta(with_claims(git, base, head, changes), tuple(problems))


_AT_START = lazy(rb"^@@ -1(?:,\d+)? \+1(?:,\d+)? @@")  # a hunk from the first line of both sides
_MARKED = frozenset({"msbuild", "pom.xml"})  # XML build files: a leading byte order mark is no text (_unmarked)
# A declaration naming another codec than UTF-8: without the mark a parser reads the file in it (UTF-7 can spell `<`)
_OTHER_CODEC = lazy(r"""^.\ufeff?<\?xml[^>]*\bencoding\s*=\s*["'](?!utf-?8["'])""", re.IGNORECASE)


@dataclass(slots=True)
class _Section:
    start: int
    old: list[str]
    new: list[str]
    size: int = 0
    cut: bool = False
    hunks: bool = False
    raw: list[str] = field(default_factory=list)  # hunk lines with their prefix, `@@` headers kept
    # A hunk line holding a line break git does not split on (a bare CR, U+2028, a form feed...): the
    # readers' splitlines() would see what follows it as a line of its own, an unchanged (context) one.
    broken: bool = False
    first: bool = False  # the first hunk starts at line 1 on both sides (_unmarked)


def _unmarked(section: _Section) -> None:
    """An XML build file whose first line's only edit is a UTF-8 byte order mark dropped or added (`-\ufeff<Project
    …>` `+<Project …>`: an editor's save, Tyrrrz/CliWrap's test project beside a package bump) shows that line as
    context: an XML parser reads the mark as the encoding's signature, nothing more (a mark anywhere else is text;
    in a requirements file it decides the codec, which a declaration below may name otherwise: not here)."""
    was, now = section.raw[1:3] if len(section.raw) > 2 else ("", "")
    if was[:1] == "-" and now[:1] == "+" and was != "-" + now[1:] and not _OTHER_CODEC.search(now) \
            and was[1:].removeprefix("\ufeff") == now[1:].removeprefix("\ufeff"):
        section.raw[1:3] = [" " + now[1:].removeprefix("\ufeff")]
        section.old[0] = section.new[0] = section.raw[1][1:]


def _tap(lines: Iterator[tuple[int, bytes, bool]], sections: dict[int, _Section]) -> Iterator[tuple[int, bytes, bool]]:
    """Pass patch lines on to the parser, keeping the hunk sides of candidate sections."""
    current: _Section | None = None
    header = 0
    for number, line, cut in lines:
        yield number, line, cut
        if line.startswith(b"diff --git "):
            header = number
            current = _Section(number, [], []) if CANDIDATE.search(line) else None
            if current is not None:
                sections[number] = current
            continue
        if current is None:
            if not line.startswith((b"-Subproject commit ", b"+Subproject commit ")):
                continue
            current = sections[header] = _Section(header, [], [], hunks=True)  # a gitlink of any name
        if line.startswith(b"@@ "):
            current.hunks = True
            current.first |= not current.raw and _AT_START.match(line) is not None
            current.raw.append("@@")
            continue
        if not current.hunks or not line:
            continue
        if line[:1] == b"\\":  # `\ No newline at end of file`, kept as `\` for edits.read; the others skip it
            if not current.cut:
                current.raw.append("\\")
            continue
        current.size += 2 * len(line)
        current.cut |= cut or current.size > MAX_BYTES
        if current.cut:
            current.old.clear()
            current.new.clear()
            current.raw.clear()
            continue
        current.raw.append(line.decode("utf-8", "replace"))
        current.broken |= len(current.raw[-1].rstrip("\r\n").splitlines()) > 1
        body = line[1:].decode("utf-8", "replace")
        if line[:1] in (b" ", b"-"):
            current.old.append(body)
        if line[:1] in (b" ", b"+"):
            current.new.append(body)


def patch_delta(path: Path | None, stream: BinaryIO | None = None, *, parse_all: bool = True) -> Delta:
    """The delta a patch alone shows: new and deleted files whole; for a modified file, the dependencies
    its hunks show when its format is line-oriented (changes marked `partial`), else a `partial` problem.

    `parse_all`: check every section of the patch (a malformed one is a PatchError); the gate, which
    parses the whole patch itself, passes False and only the candidate sections are parsed here."""
    return read_patch(path, stream, parse_all=parse_all).delta()


@dataclass(frozen=True, slots=True)
class PatchRead:
    """One pass over a patch: the facts it shows, and its dependency files' sections, which `delta()` reads.

    Apart so that the gate reads the facts (a part of the files it hands the engine first) before it forks the
    engine child, and the delta (lockfiles parsed, `packaging` imported: ~25 ms of the bench's 10,000-file gate)
    while the child works."""

    facts: tuple[tuple[str, dict[str, object]], ...]
    sections: tuple[tuple[FileChange, _Section, Format], ...]

    def delta(self) -> Delta:
        """The Delta of the sections (see patch_delta), with the facts."""
        return _sections_delta(self.sections, self.facts)


def read_patch(path: Path | None, stream: BinaryIO | None = None, *, parse_all: bool = True) -> PatchRead:
    """Scan the patch once (see patch_delta): the facts it shows and the sections of its dependency files."""
    handle = stream if stream is not None else open_patch(path) if path is not None else None
    assert handle is not None
    name = str(path) if path is not None else "<stdin>"
    sections: dict[int, _Section] = {}
    kept: list[tuple[FileChange, _Section, Format]] = []
    facts: list[tuple[str, dict[str, object]]] = []
    view = None if parse_all else mapped(handle)
    if view is not None:
        lines = section_lines(view, name)
    else:
        lines = read_lines(HashingReader(handle), name)
        lines = lines if parse_all else candidates(lines)
    try:
        for change in parse_lines(_tap(lines, sections), name):
            section = sections.pop(change.line, None)
            if section is None or change.unsafe:
                continue
            _facts(change, section, facts)
            fmt = SUBMODULE if change.submodule else format_for(change.path) or format_for(change.old_path)
            if fmt is not None:
                kept.append((change, section, fmt))
    finally:
        if view is not None:
            view.close()
        if stream is None:
            handle.close()
    return PatchRead(tuple(facts), tuple(kept))


def _sections_delta(sections: tuple[tuple[FileChange, _Section, Format], ...],
                    facts: tuple[tuple[str, dict[str, object]], ...]) -> Delta:
    read: list[tuple[Format, str, list[Dependency], list[Dependency], bool]] = []
    shown: dict[str, dict[str, bytes | None]] = {"base": {}, "head": {}}  # files the patch shows whole
    problems: list[Problem] = []
    for change, section, fmt in sections:
        if change.binary or section.cut:
            problems.append(Problem(change.path, "partial", "the patch does not show this file's text"))
            continue
        if change.status in ("renamed", "copied") and not change.submodule:
            # The base of a renamed or copied file is another path (maybe no manifest at all) and the
            # patch shows at most its hunks: whatever its unchanged lines hold is new at this path.
            problems.append(Problem(change.path, "partial", f"the patch {change.status} this file from "
                                    f"{change.old_path} and does not show it whole; run with --tree BASE..HEAD"))
            continue
        if section.first and fmt.name in _MARKED:
            _unmarked(section)
        old_text = "\n".join(section.old).encode() if change.status != "added" else None
        new_text = "\n".join(section.new).encode() if change.status != "deleted" else None
        if change.status == "added":
            shown["head"][change.path] = new_text
        elif change.status == "deleted":
            shown["base"][change.path] = old_text
        partial = not (change.submodule or change.status in ("added", "deleted") or (
            change.status in ("renamed", "copied") and not section.hunks))
        # one hunk holding both sides whole (hunkends.whole_file) of a file no edits reader reads and read alone
        entire = partial and change.status == "modified" and fmt.edits is None and fmt.name not in INHERITING \
            and whole_file(section.raw, section.first)
        if partial and residue_changed(change.path, old_text, new_text, whole=False):
            problems.append(Problem(change.path, "partial", "its hunks change build logic or a download location "
                                    "beside versions: review it by hand"))
            if fmt.name != "wrapper":  # a wrapper's lines are one setting each: its versions are still named
                continue
        if partial and fmt.name == "requirements" and hunks.codec_may_split(section.raw):
            problems.append(Problem(change.path, "partial", "a changed line is more than one line under a codec "
                                    "its first lines (not shown) may declare; run with --tree BASE..HEAD"))
            continue
        if partial and section.broken:
            problems.append(Problem(change.path, "partial", "a hunk line holds a line break git does not "
                                    "split on (a bare CR, U+2028...); run with --tree BASE..HEAD"))
            continue
        if partial and (moved := hunk_moves(change.path.rpartition("/")[2], section.raw)) is not None:
            # Reviewed (deps.unreadable) whatever else is read; the moves the hunks do show are still named.
            problems.append(Problem(change.path, "partial", f"its hunks move a locked entry's download location "
                                    f"(under its version, or elsewhere beside its bump: {moved!r}); run with "
                                    "--tree BASE..HEAD"))
        if partial and fmt.name == "Cargo.lock" and (edge := hunks.cargo_edge_moves(section.raw)) is not None:
            # reviewed whatever else is read: a member's edge moved onto a copy the lockfile already held
            problems.append(Problem(change.path, "partial", f"its hunks move a dependency edge ({edge!r}) to or "
                                    "from a version no entry they change explains; run with --tree BASE..HEAD"))
        if partial and fmt.edits is not None:
            try:
                edited = fmt.edits(change.path, "\n".join(section.raw).encode())
            except PartialEdits as exc:  # what the hunks show is named; what they cannot show is reviewed
                problems.append(Problem(change.path, "partial", f"the patch shows only hunks of this file: {exc}; "
                                        "run with --tree BASE..HEAD"))
                edited = exc.found
            except ManifestError as exc:
                problems.append(Problem(change.path, "partial", f"the patch shows only hunks of this file "
                                        f"and they cannot be read safely ({exc}); run with --tree BASE..HEAD"))
                continue
            read.append((fmt, change.path, edited[0], edited[1], True))
            continue
        if entire and (overridden := changed_overrides(change.path, old_text, new_text)):
            problems.append(Problem(change.path, "partial", f"{', '.join(overridden)} changed: an override"))
        if partial and not entire and not fmt.line_oriented and fmt.hunks is None:
            problems.append(Problem(change.path, "partial",
                                    "the patch shows only hunks of this file; run with --tree BASE..HEAD "
                                    "for its dependency delta"))
            continue
        reader = fmt.hunks if partial and not entire and fmt.hunks is not None else fmt.parse
        if reader is fmt.hunks:  # a hunk reader must not pair a name in one hunk with a version in the next
            old_text, new_text = hunks.sides(section.raw)
        found: list[Problem] = []
        base = _parse(reader, change.old_path or change.path, old_text, found, "base")
        head = _parse(reader, change.path, new_text, found, "head")
        if reader is fmt.hunks or entire:  # hunks that cannot be read safely: what --tree would read
            found = [Problem(p.manifest, "partial", p.msg) for p in found]
        problems += found
        if entire and base is not None and head is not None:
            held, dropped = unresolved(fmt.name, change.path, [old_text, new_text], (base, head))  # as --tree
            problems += held
            base, head = ([d for d in side if (d.ecosystem, d.name) not in dropped] for side in (base, head))
        if base is not None and head is not None:
            read.append((fmt, change.path, base, head, partial and not entire))
    # Resolved after the whole patch is read: a lockfile's section comes before its manifest's
    # (`package-lock.json` sorts before `package.json`); only a manifest the patch shows whole counts.
    changes: list[Change] = []
    for fmt, manifest, base, head, partial in read:
        folder = manifest[: manifest.rfind("/") + 1]
        sides = [resolve(deps, _declared(fmt, folder, shown[side]) if fmt.manifests else None)
                 for deps, side in ((base, "base"), (head, "head"))]
        changes += diff(sides[0], sides[1], manifest, partial=partial)
    return Delta(tuple(changes), tuple(problems), facts)


# Facts whose lines stand alone can be read from hunks; a workflow's or manifest's YAML cannot.
_LINE_FACTS = frozenset({"dockerfile", "registries", "settings"})


def _facts(change: FileChange, section: _Section, out: list[tuple[str, dict[str, object]]]) -> None:
    """The file's facts when the patch shows enough of it: the whole file, or hunks of a line-oriented kind."""
    if change.binary or section.cut or change.submodule or not wants_facts(change.path):
        return
    whole = change.status in ("added", "deleted") or (change.status in ("renamed", "copied") and not section.hunks)
    old = "\n".join(section.old).encode() if change.status != "added" else None
    new = "\n".join(section.new).encode() if change.status != "deleted" else None
    try:
        found = facts_for(change, old, new)
    except RecursionError:
        found = FileFacts("workflow" if change.path.endswith((".yml", ".yaml")) else "dockerfile",
                          errors=("nested too deeply",))
    if found is not None and (whole or found.kind in _LINE_FACTS):
        out.append((change.path, found.to_dict()))
