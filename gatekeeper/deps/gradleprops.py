"""Gradle versions defined in another file of the build (`--tree`): `gradle.properties` and a parent project's `ext`.

Android's template and many builds keep versions out of the scripts that use them: `ext { roomVersion =
'2.1.0-rc01' }` in the root `build.gradle`, used as `"androidx.room:room-runtime:$rootProject.roomVersion"` in
`app/build.gradle`, or `kotlinVersion=1.9.22` in `gradle.properties`, used as `$kotlinVersion`. Gradle hands a
project the `ext` properties of the projects above it and the properties of the build's `gradle.properties`. A
commit that moves only the definition moves the dependencies of scripts it does not touch.

Here a build script is read with the variables of the folders above it in the same tree: each folder's
`gradle.properties` and its `build.gradle(.kts)` (the script's own variables first, then the nearest folder's,
then the next one up), so a touched script names what it uses at both sides; and when a touched script or
`gradle.properties` moves a variable, the untouched build scripts at and below its folder that name it are read at
both sides and their moves reported under the touched file, the file whose edit made them (mavenprops.py's way
for POM properties). Bounded: at most `_MAX_DEPTH` folders up, `_MAX_SCRIPTS` untouched scripts and `MAX_BYTES` of
them read; past that, a `partial` problem. An ancestor's file that cannot be read (too large, not UTF-8, a
symlink) makes the script unreadable at that side (fail closed: nothing named from a guess).

From a patch the users are not shown: a changed `gradle.properties` line whose key or value is a version is a
`partial` problem naming the key (the scripts that use it are not in the patch; `--tree` reads them) — since round 55
a key naming `version` at a version, the line above it shown and not continued onto it, also as a change, `${key}` —
and a changed `ext` line was refused already (gradle.gradle_line). A script a build script applies by a literal path
in the repository (`apply from: 'dependencies.gradle'`, `"$rootDir/gradle/versions.gradle"`; at most `_MAX_APPLIED`,
not their own applies) gives its variables to the applying script's project, after the script's own (round 52, jqwik);
a move in such a script is looked for in every build script of the repository. Not read: `buildSrc`/`build-logic`
constants (`Versions.kt`), a script applied by a URL or a variable's path, included builds' own `gradle.properties`,
Kotlin `extra["name"]` reads anywhere but a plugin's `.version(extra["name"])` (round 49: a settings script is read
with the properties too).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

from gatekeeper.deps.delta import diff
from gatekeeper.deps.gradle import is_script, parse_build_script, script_variables
from gatekeeper.deps.jvm import parse_version_catalog
from gatekeeper.deps.loaders import MAX_BYTES, load_toml, text
from gatekeeper.deps.model import Change, Dependency, ManifestError, PartlyShown, Problem
from gatekeeper.deps.tools import VERSIONISH
from gatekeeper.gitobjects import GitObjects, GitObjectsError
from gatekeeper.lazy_pattern import lazy

PROPERTIES = "gradle.properties"
_SCRIPTS = ("build.gradle", "build.gradle.kts")
# the scripts read with the properties above them: a project's, and the settings script whose plugins block may
# apply plugins at a property (`kotlin("jvm").version(extra["kotlin.version"] as String)`; round 49)
_READ = (*_SCRIPTS, "settings.gradle", "settings.gradle.kts")
_MAX_DEPTH = 16
_MAX_SCRIPTS = 400
_MAX_PROPERTIES = 10_000
_KEY = lazy(r"^\s*(?P<key>[A-Za-z_][\w.-]*)\s*(?:[=:]\s*|\s+)(?P<value>.*?)\s*$")
_COMMENT = lazy(r"^\s*(?:[#!]|$)")
# `apply from: 'dependencies.gradle'` (Groovy, or `apply(from = "…")` in Kotlin) at a line's start: a script in the
# repository, by a literal path from the applying script's folder or from the root (`$rootDir/…`, `${rootDir}/…`,
# `${rootProject.projectDir}/…`); a URL or any other variable is not read
_APPLY = lazy(r"""^[ \t]*apply[ \t]*\(?[ \t]*from[ \t]*(?::|=)[ \t]*(?P<q>['"])"""
              r"""(?P<root>\$\{?(?:rootDir|rootProject\.projectDir)\}?/)?"""
              r"""(?P<path>[\w./-]+\.gradle(?:\.kts)?)(?P=q)[ \t]*\)?[ \t]*$""", re.MULTILINE)
_MAX_APPLIED = 8
_NEWLINE = lazy(r"\r\n|\r|\n")
_BLANK = " \t\f"


def parse_properties(data: bytes) -> dict[str, str]:
    """A Java properties file as java.util.Properties loads it, which is how Gradle reads gradle.properties (attack
    32): lines end at LF, CR or CRLF only; a line ending in an odd run of backslashes continues (a comment line never
    does; a continued last line still binds); the key ends at the first unescaped `=`, `:` or blank; escapes
    (`\\uXXXX`, `\\t`, `\\x` -> `x`) are undone in key and value; the LAST binding of a key wins. ManifestError when
    too large, not UTF-8, a malformed `\\u` escape (Java refuses the file) or more than `_MAX_PROPERTIES` keys (a
    later binding could not be read)."""
    out: dict[str, str] = {}
    for line in _logical_lines(_NEWLINE.split(text(data))):
        key, value = _binding(line)
        out.pop(key, None)
        if len(out) >= _MAX_PROPERTIES:
            raise ManifestError(f"more than {_MAX_PROPERTIES} properties")
        out[key] = value.rstrip(_BLANK)
    return out


def _logical_lines(lines: list[str]) -> list[str]:
    """The logical lines that are neither blank nor comments, continuations joined (leading blanks dropped)."""
    out: list[str] = []
    pending: list[str] = []  # the parts of a continued logical line (joined once: a long chain stays linear)
    for raw in lines:
        line = raw.lstrip(_BLANK)
        if not pending and (not line or line[0] in "#!"):
            continue
        if (len(line) - len(line.rstrip("\\"))) % 2:
            pending.append(line[:-1])
            continue
        out.append("".join(pending) + line)
        pending = []
    if pending:
        out.append("".join(pending))
    return out


def _binding(line: str) -> tuple[str, str]:
    """(key, value) of one logical line, escapes undone."""
    index, escaped = 0, False
    while index < len(line):
        char = line[index]
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "=:" or char in _BLANK:
            break
        index += 1
    key, rest = line[:index], line[index:].lstrip(_BLANK)
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(_BLANK)
    return _unescape(key), _unescape(rest)


def _unescape(value: str) -> str:
    if "\\" not in value:
        return value
    parts: list[str] = []
    index = 0
    while index < len(value):
        char = value[index]
        index += 1
        if char != "\\" or index >= len(value):
            parts.append(char if char != "\\" else "")
            continue
        code, index = value[index], index + 1
        if code == "u":
            digits, index = value[index:index + 4], index + 4
            if len(digits) != 4 or any(c not in "0123456789abcdefABCDEF" for c in digits):
                raise ManifestError("a malformed \\uXXXX escape (Java refuses the file)")
            parts.append(chr(int(digits, 16)))
        else:
            parts.append({"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(code, code))
    return "".join(parts)


def parse_nothing(path: str, data: bytes) -> list[Dependency]:
    """gradle.properties names no dependency itself; its values are read by the scripts that use them."""
    parse_properties(data)  # an unreadable file is a finding of its own
    return []


def properties_line(side: Sequence[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
    """A changed gradle.properties line (edits.py's LineReader): nothing for a setting, ManifestError for a version
    (the build scripts that use it are not in the patch)."""
    line = side[index][0]
    if _COMMENT.match(line) or (m := _KEY.match(line)) is None:
        return []
    key, value = m.group("key"), m.group("value")
    if "version" in key.lower() and VERSIONISH.match(value.removeprefix("v")) and "\\" not in line \
            and index > 0 and not side[index - 1][0].rstrip().endswith("\\"):
        # the line above, shown, does not continue onto it: the key itself, as a script uses it (round 55)
        raise PartlyShown(f"the version property {key!r} moved; the build scripts that use it are not in the patch",
                          [(f"${{{key}}}", value)])
    if "version" in key.lower() or VERSIONISH.match(value.removeprefix("v")):
        raise ManifestError(f"the version property {key!r} moved; the build scripts that use it are not in the "
                            "patch")
    return []


def _read(git: GitObjects, commit: str, path: str) -> bytes | None:
    """A regular file's content at `commit`; None when absent. ManifestError for a symlink (never followed)."""
    entry = git.tree(commit).get(path)
    if entry is None or entry.is_gitlink:
        return None
    if entry.is_symlink:
        raise ManifestError(f"{path} is a symlink (not followed)")
    try:
        return git.blob(entry.oid, MAX_BYTES + 1)
    except GitObjectsError:
        return None


def _variables(name: str, data: bytes) -> dict[str, str]:
    return parse_properties(data) if name == PROPERTIES else script_variables(data)


def applied(folder: str, data: bytes) -> list[str]:
    """The repository paths of the scripts a build script in `folder` applies (`apply from:`), at most _MAX_APPLIED;
    a path out of the repository is not one."""
    out: list[str] = []
    for m in _APPLY.finditer(text(data)):
        path = posixpath.normpath(m["path"] if m["root"] else posixpath.join(folder, m["path"]))
        if not path.startswith(("../", "/")) and path != ".." and path not in out:
            out.append(path)
    return out[:_MAX_APPLIED]


def _applied_variables(git: GitObjects, commit: str, folder: str, data: bytes) -> dict[str, str]:
    """The variables of the scripts a build script in `folder` applies (round 52, jqwik's dependencies.gradle: an
    applied script's `ext` is the applying project's); the first binding of a key wins."""
    out: dict[str, str] = {}
    if b"apply" not in data:
        return out
    for file in applied(folder, data):
        found = _read(git, commit, file)
        if found is None:
            continue  # Gradle fails the build on a missing script: it declares nothing
        try:
            variables = script_variables(found)
        except ManifestError as exc:
            raise ManifestError(f"{file}, a script the build applies, cannot be read ({exc})") from None
        for key, value in variables.items():
            out.setdefault(key, value)
    return out


# The default version catalog (round 53): its `[versions]` keys are the variables `libs.versions.<accessor>` a script
# reads as `${libs.versions.kotlin.get()}` (gradle._CATALOG_REF); Gradle's accessor joins a key's `-`/`_`/`.` parts
# with dots (`kotlin-coroutines` is `libs.versions.kotlin.coroutines`).
CATALOG = "gradle/libs.versions.toml"


def catalog_variables(data: bytes) -> dict[str, str]:
    """`libs.versions.<accessor>` → the version of each plain string `[versions]` key (a rich version names none); none
    for a catalog that does not parse (its own reading reports it)."""
    try:
        versions = load_toml(data).get("versions", {})
    except ManifestError:
        return {}
    if not isinstance(versions, dict):
        return {}
    return {"libs.versions." + re.sub(r"[-_.]", ".", key): value for key, value in versions.items()
            if isinstance(value, str)}


def catalog_parser(git: GitObjects, commit: str) -> Callable[[str, bytes], list[Dependency]]:
    """The catalog's own reader: the catalog takes nothing from other files (its users are script_moves')."""
    return parse_version_catalog


def inherited(git: GitObjects, commit: str, path: str) -> dict[str, str]:
    """The variables the folders above the script at `path` (its own folder's gradle.properties included) give it in
    `commit`'s tree, the nearest first, with those of the scripts each build script applies after its own.
    ManifestError when one of those files cannot be read."""
    out: dict[str, str] = {}
    folder = posixpath.dirname(path)
    own = _read(git, commit, path)
    if own is not None and posixpath.basename(path) in _READ:
        out.update(_applied_variables(git, commit, folder, own))  # the script's own applied scripts
    for _ in range(_MAX_DEPTH + 1):
        for name in (PROPERTIES, *(s for s in _SCRIPTS if folder != posixpath.dirname(path))):
            file = posixpath.join(folder, name) if folder else name
            data = _read(git, commit, file)
            if data is not None:
                try:
                    found = _variables(name, data)
                except ManifestError as exc:
                    raise ManifestError(f"{file}, whose variables it may use, cannot be read ({exc})") from None
                if name != PROPERTIES:
                    found = {**_applied_variables(git, commit, folder, data), **found}
                for key, value in found.items():
                    out.setdefault(key, value)
        if not folder:
            catalog = _read(git, commit, CATALOG)
            for key, value in (catalog_variables(catalog) if catalog is not None else {}).items():
                out.setdefault(key, value)
            return out
        folder = posixpath.dirname(folder)
    raise ManifestError(f"more than {_MAX_DEPTH} folders deep: the variables above it are not read")


def script_parser(git: GitObjects, commit: str) -> Callable[[str, bytes], list[Dependency]]:
    """A build-script parser resolving `$name` / `$rootProject.name` with the variables above it in `commit`; a
    gradle.properties file itself names nothing."""

    def parse(path: str, data: bytes) -> list[Dependency]:
        if posixpath.basename(path) == PROPERTIES:
            return parse_nothing(path, data)
        if posixpath.basename(path) not in _READ or b"$" not in data and b"extra[" not in data and b" by " not in data:
            # an applied script (its project is not known here), or one that uses no variable: nothing above read
            return parse_build_script(path, data)
        return parse_build_script(path, data, inherited(git, commit, path))

    return parse


def _moved(path: str, old: bytes | None, new: bytes | None) -> set[str]:
    name = posixpath.basename(path)
    if path == CATALOG:  # its `[versions]` keys a script reads (`${libs.versions.kotlin.get()}`)
        was, now = (catalog_variables(data) if data is not None else {} for data in (old, new))
        return {key for key in was.keys() | now.keys() if was.get(key) != now.get(key)}
    if name != PROPERTIES and name not in _SCRIPTS and not is_script(name):
        return set()  # a script of another name moves its users when a build applies it (inherited)
    try:
        was = _variables(name, old) if old is not None else {}
        now = _variables(name, new) if new is not None else {}
    except ManifestError:
        return set()  # the file's own reading reports it
    return {key for key in was.keys() | now.keys() if was.get(key) != now.get(key)}


def _under(folder: str, path: str) -> bool:
    return not folder or path.startswith(folder + "/")


def script_moves(git: GitObjects, base: str, head: str,
                 touched: dict[str, tuple[bytes | None, bytes | None]]) -> tuple[list[Change], list[Problem]]:
    """Dependencies of untouched build scripts that moved because a touched gradle.properties or build script
    (`touched`: path → both sides) changed a variable they name, reported under that touched file."""
    moved = {path: names for path, (old, new) in touched.items() if (names := _moved(path, old, new))}
    if not moved:
        return [], []
    # an applied script's users sit under whichever build applies it: any script of the build may be one
    folders = {path: posixpath.dirname(path) if posixpath.basename(path) in (PROPERTIES, *_SCRIPTS) else ""
               for path in moved}
    scripts = sorted(p for p, e in git.tree(head).items() if posixpath.basename(p) in _READ and p not in touched
                     and not e.is_gitlink and not e.is_symlink and any(_under(f, p) for f in folders.values()))
    changes: dict[tuple[object, ...], Change] = {}
    problems: list[Problem] = []
    budget = MAX_BYTES
    for count, path in enumerate(scripts):
        if count >= _MAX_SCRIPTS or budget <= 0:
            problems += [Problem(p, "partial", f"versions moved ({', '.join(sorted(n))[:200]}) and the build has "
                                 "more scripts than are read for their uses: review them by hand")
                         for p, n in moved.items()]
            break
        try:
            data = _read(git, head, path)
        except ManifestError:
            continue  # a symlink: listed out above; a race with the listing reads nothing
        if data is None:
            continue
        budget -= len(data)
        owner = next((p for p, names in moved.items() if _under(folders[p], path)
                      and any(name.encode() in data for name in names)), None)
        if owner is None:
            continue
        try:
            sides = [parse_build_script(path, data, inherited(git, commit, path)) for commit in (base, head)]
        except (ManifestError, RecursionError) as exc:
            problems.append(Problem(owner, "partial", f"a version it moved may be used by {path}, which cannot be "
                                    f"read ({exc}): review it by hand"))
            continue
        for change in diff(sides[0], sides[1], owner):
            changes.setdefault((change.name, change.scope, change.from_version, change.to_version), change)
    return list(changes.values()), problems
