"""Maven properties across POMs (`--tree` only): a module inherits its parent POM's `<properties>`.

A bot's bump of `<feign.version>` in `logbook-parent/pom.xml` moves feign-core in `logbook-openfeign/pom.xml`,
a file the commit does not touch. Read alone, the parent shows no dependency moved and the module is not
read at all. Here a POM is read with the properties of its parents in the same tree (`<relativePath>`,
default `../pom.xml`, and only while the parent's coordinates are the ones `<parent>` names), and the
untouched POMs that use a property a touched POM moved are read at both sides: their moves are reported
under the touched POM, the file whose edit made them. Bounded: a parent chain of at most `_MAX_DEPTH`
POMs, at most `_MAX_POMS` untouched POMs and `MAX_BYTES` of them read; past that, a `partial` problem.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from collections.abc import Callable

from gatekeeper.deps.delta import diff
from gatekeeper.deps.jvm import parse_pom, pom_properties
from gatekeeper.deps.loaders import MAX_BYTES, load_xml, xml_child, xml_text
from gatekeeper.deps.model import Change, Dependency, ManifestError, Problem
from gatekeeper.gitobjects import GitObjects, GitObjectsError

_MAX_DEPTH = 8
_MAX_POMS = 400


def properties(root: ET.Element) -> dict[str, str]:
    """The project's own `<properties>`, its profiles' joined in (jvm.pom_properties)."""
    return pom_properties(root)


def _parent_path(path: str, root: ET.Element) -> str | None:
    """The path, in the same tree, of the parent POM `root` names; None when it names none there."""
    parent = xml_child(root, "parent")
    if parent is None:
        return None
    relative = xml_child(parent, "relativePath")
    if relative is not None and not (relative.text or "").strip():
        return None  # `<relativePath/>`: the parent comes from a repository, not from this tree
    rel = (relative.text or "").strip() if relative is not None else "../pom.xml"
    target = posixpath.normpath(posixpath.join(posixpath.dirname(path), rel))
    if target == ".." or target.startswith(("../", "/")) or "\n" in target:
        return None  # outside the repository: nothing of this tree
    # a folder's POM (`<relativePath>../..</relativePath>`, the root's when it normalizes to `.`): the tree's own path
    return target if target.endswith(".xml") else posixpath.normpath(posixpath.join(target, "pom.xml"))


def _read(git: GitObjects, commit: str, path: str) -> bytes | None:
    try:
        return git.read(commit, path, MAX_BYTES + 1)
    except GitObjectsError:
        return None


def ancestors(git: GitObjects, commit: str, path: str, root: ET.Element) -> list[tuple[str, ET.Element]]:
    """The parent POMs of the POM at `path` in `commit`'s tree, nearest first; a chain longer than
    `_MAX_DEPTH` is a ManifestError (its farther properties would silently stay unresolved)."""
    out: list[tuple[str, ET.Element]] = []
    seen = {path}
    for _ in range(_MAX_DEPTH):
        parent_path = _parent_path(path, root)
        parent = xml_child(root, "parent")
        if parent_path is None or parent is None or parent_path in seen:
            return out
        data = _read(git, commit, parent_path)
        if data is None:
            return out
        try:
            parent_root = load_xml(data)
        except ManifestError as exc:
            raise ManifestError(f"its parent POM {parent_path} cannot be read ({exc})") from None
        if xml_text(parent_root, "artifactId") != xml_text(parent, "artifactId"):
            return out  # another project's POM sits there: Maven would take the parent from a repository
        out.append((parent_path, parent_root))
        seen.add(parent_path)
        path, root = parent_path, parent_root
    raise ManifestError(f"a parent chain longer than {_MAX_DEPTH} POMs in this tree (not followed)")


def inherited(git: GitObjects, commit: str, path: str, root: ET.Element) -> dict[str, str]:
    """The properties the parents of the POM at `path` define in `commit`'s tree, the nearest one's first."""
    out: dict[str, str] = {}
    for _, parent_root in ancestors(git, commit, path, root):
        for name, value in properties(parent_root).items():
            out.setdefault(name, value)
    return out


def named_parents(git: GitObjects, commits: tuple[str, str], candidates: set[str]) -> set[str]:
    """Those of `candidates` (changed .xml files no format names) a POM of either tree takes as its parent:
    `<relativePath>` may name a file of any name (`../build/base.xml`), whose properties then move the
    module's dependencies as a parent pom.xml's do. Past the bounds every candidate counts (fail closed)."""
    if not candidates:
        return set()
    found: set[str] = set()
    budget = MAX_BYTES
    for commit in commits:
        poms = sorted(p for p, e in git.tree(commit).items() if posixpath.basename(p) == "pom.xml"
                      and not e.is_gitlink and not e.is_symlink)
        if len(poms) > _MAX_POMS:
            return set(candidates)
        for path in poms:
            for _ in range(_MAX_DEPTH):
                data = _read(git, commit, path)
                if data is None or b"relativePath" not in data:
                    break
                budget -= len(data)
                if budget <= 0:
                    return set(candidates)
                try:
                    target = _parent_path(path, load_xml(data))
                except ManifestError:
                    break  # the file's own reading reports it
                if target is None or posixpath.basename(target) == "pom.xml":
                    break
                if target in candidates:
                    found.add(target)
                path = target
    return found


def pom_parser(git: GitObjects, commit: str) -> Callable[[str, bytes], list[Dependency]]:
    """A pom.xml parser that resolves `${name}` with the properties of the POM's parents in `commit`."""

    def parse(path: str, data: bytes) -> list[Dependency]:
        return parse_pom(path, data, inherited(git, commit, path, load_xml(data)))

    return parse


def _moved(old: bytes | None, new: bytes | None) -> set[str]:
    """The names of the properties whose values differ between two sides of one POM."""
    try:
        was = properties(load_xml(old)) if old is not None else {}
        now = properties(load_xml(new)) if new is not None else {}
    except ManifestError:
        return set()  # the file's own reading already reports it
    return {name for name in was.keys() | now.keys() if was.get(name) != now.get(name)}


def module_moves(git: GitObjects, base: str, head: str,
                 touched: dict[str, tuple[bytes | None, bytes | None]]) -> tuple[list[Change], list[Problem]]:
    """Dependencies of untouched POMs that moved because a touched POM (`touched`: path → both sides'
    content) changed a property they use, reported under that touched POM."""
    moved = {path: names for path, (old, new) in touched.items() if (names := _moved(old, new))}
    if not moved:
        return [], []
    poms = [p for p, e in git.tree(head).items() if posixpath.basename(p) == "pom.xml" and p not in touched
            and not e.is_gitlink and not e.is_symlink]
    changes: dict[tuple[object, ...], Change] = {}
    problems: list[Problem] = []
    budget = MAX_BYTES
    for count, path in enumerate(sorted(poms)):
        if count >= _MAX_POMS or budget <= 0:
            problems += [Problem(p, "partial", f"properties moved ({', '.join(sorted(n))[:200]}) and the "
                                 f"repository has more POMs than are read for their uses: review them by hand")
                         for p, n in moved.items()]
            break
        data = _read(git, head, path)
        if data is None:
            continue
        budget -= len(data)
        if b"${" not in data:
            continue
        owner = next((p for p, names in moved.items() if any(f"${{{n}}}".encode() in data for n in names)), None)
        try:
            root = load_xml(data)
            # a property may name another (`<lib.name>${base.name}</lib.name>` in an untouched parent):
            # any module under a POM that moved one is re-read, not only the modules naming a moved one
            chain = [p for commit in (head, base) for p, _ in ancestors(git, commit, path, root) if p in moved]
            owner = owner or next(iter(chain), None)
            if owner is None:
                continue
            sides = [parse_pom(path, data, inherited(git, commit, path, root)) for commit in (base, head)]
        except (ManifestError, RecursionError) as exc:
            problems.append(Problem(owner or next(iter(moved)), "partial", f"a property it moved may be used by "
                                    f"{path}, which cannot be read ({exc}): review it by hand"))
            continue
        for change in diff(sides[0], sides[1], owner):
            changes.setdefault((change.name, change.scope, change.from_version, change.to_version), change)
    return list(changes.values()), problems
