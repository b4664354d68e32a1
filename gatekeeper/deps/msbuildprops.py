"""MSBuild properties a project takes from the `Directory.Build.props` above it (`--tree` only).

MSBuild imports the nearest `Directory.Build.props` found walking up from a project's folder, before the
project's own items: `<PackageReference Include="Microsoft.NET.Test.Sdk" Version="$(MicrosoftNetTestSdkVersion)" />`
takes its version from there (bitwarden/server). So a project file (and a `Directory.Packages.props`) is read
with that file's properties, at each side; and when a touched `Directory.Build.props` moves a property, the
untouched project files below it that use `$(Name)` are read at both sides, their moves reported under the
props file whose edit made them. Only the nearest file's properties are resolved; a property moved in another
touched MSBuild file (a Directory.Build.targets above the project, an outer props file the nearest one or the
project may `<Import>`) and used by an untouched project is a `partial` problem of that file: the import is not
followed, so the move is reviewed by hand rather than read as no move; the project's moves as that import would
give them are named beside the problem (round 48: orleans' chained props files). Bounded as mavenprops is.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping

from gatekeeper.deps.delta import diff
from gatekeeper.deps.loaders import MAX_BYTES, load_xml
from gatekeeper.deps.model import Change, Dependency, ManifestError, Problem
from gatekeeper.deps.nuget import parse_msbuild, properties_of
from gatekeeper.gitobjects import GitObjects, GitObjectsError

PROPS = "Directory.Build.props"
_PROJECTS = (".csproj", ".fsproj", ".vbproj")
_MAX_PROJECTS = 2000
_ABOVE = ("Directory.Build.targets", "Directory.Packages.props")  # also imported into every project below


def _nearest(tree: Mapping[str, object], path: str) -> str | None:
    """The `Directory.Build.props` MSBuild imports for the project at `path`; None for a props file itself."""
    if posixpath.basename(path) == PROPS:
        return None
    folder = posixpath.dirname(path)
    while True:
        candidate = posixpath.join(folder, PROPS) if folder else PROPS
        if candidate in tree:
            return candidate
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _read(git: GitObjects, commit: str, path: str) -> bytes | None:
    try:
        return git.read(commit, path, MAX_BYTES + 1)
    except GitObjectsError:
        return None


def inherited(git: GitObjects, commit: str, path: str) -> dict[str, str]:
    """The properties of the `Directory.Build.props` the project at `path` imports in `commit`'s tree."""
    props = _nearest(git.tree(commit), path)
    data = _read(git, commit, props) if props is not None else None
    if data is None:
        return {}
    try:
        return properties_of(load_xml(data))
    except ManifestError as exc:
        raise ManifestError(f"its {props} cannot be read ({exc})") from None


def project_parser(git: GitObjects, commit: str) -> Callable[[str, bytes], list[Dependency]]:
    """An MSBuild parser that resolves `$(Name)` with the imported `Directory.Build.props` of `commit`."""

    def parse(path: str, data: bytes) -> list[Dependency]:
        return parse_msbuild(path, data, inherited(git, commit, path))

    return parse


def _moved(old: bytes | None, new: bytes | None) -> set[str]:
    try:
        was = properties_of(load_xml(old)) if old is not None else {}
        now = properties_of(load_xml(new)) if new is not None else {}
    except ManifestError:
        return set()  # the file's own reading already reports it
    return {name for name in was.keys() | now.keys() if was.get(name) != now.get(name)}


def _reaches(git: GitObjects, commits: tuple[str, str], tree: Mapping[str, object], owner: str, path: str) -> bool:
    """Whether the properties of `owner` (not the project's nearest props file) may reach the project at `path`
    by an import the delta does not follow: a Directory.Build.targets or Directory.Packages.props above it
    (MSBuild evaluates every property, a targets file's too, before any item), or an `<Import` in the
    project or in its nearest props file at either side (`GetPathOfFileAbove` chains props files)."""
    folder = posixpath.dirname(owner)
    if posixpath.basename(owner) in _ABOVE and (not folder or path.startswith(folder + "/")):
        return True
    nearest = _nearest(tree, path)
    return any(b"<import" in (_read(git, commit, file) or b"").lower()
               for commit in commits for file in (path, nearest) if file is not None)


def _through(git: GitObjects, commits: tuple[str, str], path: str, data: bytes, owner: str,
             sides: tuple[bytes | None, bytes | None]) -> list[Change]:
    """The moves of the project at `path` read with an outer props file's properties (`sides`) under those of its
    nearest Directory.Build.props, which a chained import evaluates later (orleans' `src/Directory.Build.props`
    imports the root one): what the import would give it, named beside the `partial` problem that says the import
    is not followed (round 48), reported under `owner`, the props file whose edit made them; none when a side
    cannot be read."""
    try:
        found = [parse_msbuild(path, data, {**(properties_of(load_xml(side)) if side is not None else {}),
                                            **inherited(git, commit, path)})
                 for commit, side in zip(commits, sides, strict=True)]
    except (ManifestError, RecursionError):
        return []
    return diff(found[0], found[1], owner)


def project_moves(git: GitObjects, base: str, head: str,
                  touched: dict[str, tuple[bytes | None, bytes | None]]) -> tuple[list[Change], list[Problem]]:
    """Package moves of untouched projects whose `Directory.Build.props` (touched: path → both sides) moved a
    property they use, reported under that props file; a project a moved property of another touched MSBuild
    file may reach through an import is a `partial` problem of that file (fail closed)."""
    moved = {p: names for p, (old, new) in touched.items() if (names := _moved(old, new))}
    if not moved:
        return [], []
    tree = git.tree(head)
    projects = sorted(p for p, e in tree.items() if p not in touched and not e.is_gitlink and not e.is_symlink
                      and (p.endswith(_PROJECTS) or posixpath.basename(p) == "Directory.Packages.props"))
    changes: dict[tuple[object, ...], Change] = {}
    problems: list[Problem] = []
    budget = MAX_BYTES
    for count, path in enumerate(projects):
        if count >= _MAX_PROJECTS or budget <= 0:
            problems += [Problem(p, "partial", f"properties moved ({', '.join(sorted(n))[:200]}) and more projects "
                                 "use them than are read: review them by hand") for p, n in moved.items()]
            break
        data = _read(git, head, path)
        if data is None:
            continue
        budget -= len(data)
        users = [p for p, names in moved.items() if any(f"$({n})".encode() in data for n in names)]
        owner = _nearest(tree, path)
        if owner in moved and owner not in users and b"$(" in data:
            users.append(owner)  # a property it uses may name a moved one (`<JsonPackage>$(Base)</JsonPackage>`)
        if not users:
            continue
        for p in users:
            if p != owner and _reaches(git, (base, head), tree, p, path):
                problems.append(Problem(p, "partial", f"a property it moved is used by {path}, which may import it: "
                                        "review it by hand"))
                for change in _through(git, (base, head), path, data, p, touched[p]):  # named beside that problem
                    changes.setdefault((change.name, change.scope, change.from_version, change.to_version), change)
        if owner not in users:
            continue
        try:
            sides = [parse_msbuild(path, data, inherited(git, commit, path)) for commit in (base, head)]
        except (ManifestError, RecursionError) as exc:
            problems.append(Problem(owner, "partial", f"a property it moved is used by {path}, which cannot be "
                                    f"read ({exc}): review it by hand"))
            continue
        for change in diff(sides[0], sides[1], owner):
            changes.setdefault((change.name, change.scope, change.from_version, change.to_version), change)
    return list(changes.values()), problems
