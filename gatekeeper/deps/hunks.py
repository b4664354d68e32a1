"""Readers for the hunk lines of structured lockfiles (a patch alone shows only those).

A lockfile entry's name and version sit on neighbouring lines, so git's three context lines almost
always show both: `"node_modules/x": {` + `"version": "1.2.3"` (package-lock), `name = "x"` +
`version = "1.2.3"` (Cargo.lock, poetry.lock, uv.lock), `"name": "vendor/x"` + `"version": "v1.2.3"`
(composer.lock), `"x": {` … `"version": "==1.2.3"` within one entry (Pipfile.lock); a pnpm-lock.yaml
package key holds both. A name is never paired with a version of another hunk (`sides`).
What they find is marked `partial`, and its direct/transitive standing is unknown (counted as direct:
fail closed).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

# The root entry `"": {` is named too (as ""): its version is the project's own, not a dependency's; so is a local
# package's, keyed by its folder (a workspace member `packages/ui`, a `file:` link's target `../deps/phoenix`): a
# path that is no `node_modules/` one and no scoped name.
_NPM_KEY = lazy(r'^\s*"((?:[^"]*/)?node_modules/(?P<name>(?:@[^"/]+/)?[^"/]+)'
                r'|(?!@)(?![^"]*node_modules/)(?=[^"]*/)[^"]*+|)":\s*\{\s*$')
_NPM_LEGACY = lazy(r'^\s*"(?P<name>(?:@[^"/]+/)?[^"/]+)":\s*\{\s*$')  # `"dependencies"` v1-form entries
# the lockfile's own, at two spaces (or one tab: npm keeps package.json's indentation, nextcloud's tabs), is not one
_NPM_VERSION = lazy(r'^(?:\s{6,}|\t{3,})"version":\s*"([^"]+)"')
# pnpm-lock.yaml `packages:`/`snapshots:` keys carry both: `  '@babel/core@7.23.0':`, `  /ms@2.1.3(peer):`.
_PNPM_KEY = lazy(r"""^ {2}'?/?((?:@[^@\s'"/]+/)?[^@\s'"/(]+)@([0-9][^(:'"\s]*)(?:\([^'"\s]*\))?'?:"""
                 r"""(?:\s*\{.*\})?\s*$""")  # a snapshot's `{}` or a flow value on the key's line
# The same key as a YAML complex key, which pnpm writes for a key over 1,024 characters (a long peer suffix): the whole
# quoted key on its `? ` line, its value after a `: ` line below.
_PNPM_COMPLEX_KEY = lazy(r"""^ {2}\? '/?((?:@[^@\s'"/]+/)?[^@\s'"/(]+)@([0-9][^(:'"\s]*)(?:\([^'"\s]*\))?'\s*$""")
# pnpm lockfile v5's key (`  /ip/1.1.9:`, `  /@types/react/18.0.28:`, peers after `_`:
# `/styled-jsx/5.0.7_react@18.2.0:`), read as npm.pnpm_key reads it in the whole file.
_PNPM_V5_KEY = lazy(r"""^ {2}/((?:@[^@\s'"/]+/)?[^@\s'"/(]+)/(\d[^/_:'"\s]*)(?:_[^/:'"\s]+)?:\s*$""")
# A changed top-level key of another form that may name a package: double-quoted, a v5 key the pattern above does not
# read, a YAML complex key `? name@1`.
_PNPM_LOOSE = lazy(r"""^ {2}(?:\?|["']?/|\S*@\d|")""")
_TOML_NAME = lazy(r'^name\s*=\s*"(?P<name>[^"]+)"\s*$')
_TOML_VERSION = lazy(r'^version\s*=\s*"([^"]+)"\s*$')
# What the patterns above may miss in a changed line: a key naming a package or a version in any form.
_NPM_LOOSE = lazy(r'node_modules/|"version"\s*:')
_NPM_OWN = lazy(r'^(?: {2}|\t)"version":\s*"[^"]*",?\s*$')  # the lockfile's own, outside `packages`
_TOML_LOOSE = lazy(r'^\s*["\']?(?:name|version)["\']?\s*=')
# A TOML lockfile's own format version (Cargo.lock's `version = 4`, uv.lock's `version = 1`): an integer, where every
# entry's version is a string, so it names no dependency (round 51: bandwhich's lock moved 3 -> 4 beside a bump)
_TOML_OWN = lazy(r"^version\s*=\s*\d{1,3}\s*$")
_JSON_VERSION_LOOSE = lazy(r'"version"\s*:')


HUNK = "@@"  # the line that separates hunks in the sides `sides` makes
CHANGED = "\0"  # leads a line the hunk changes (a `-` or `+` line) in the sides `sides` makes


def sides(raw: list[str]) -> tuple[bytes, bytes]:
    """The base and head lines of raw hunk lines (with their ' ', '-', '+' prefix), each hunk's lines
    after a `@@` line (what a reader sees of one hunk never runs on into the next), changed lines
    marked with CHANGED."""
    old: list[str] = []
    new: list[str] = []
    for line in raw:
        if line.startswith(HUNK):
            old.append(HUNK)
            new.append(HUNK)
            continue
        mark, body = line[:1], line[1:]
        if mark in (" ", "-"):
            old.append(body if mark == " " else CHANGED + body)
        if mark in (" ", "+"):
            new.append(body if mark == " " else CHANGED + body)
    return "\n".join(old).encode(), "\n".join(new).encode()


def _pairs(ecosystem: str, path: str, data: bytes, name_of: re.Pattern[str], version_of: re.Pattern[str],
           ends: Callable[[str], bool], legacy: re.Pattern[str] | None = None,
           loose: re.Pattern[str] | None = None, own: re.Pattern[str] | None = None,
           v1: bool = False) -> list[Dependency]:
    """(name, version) pairs: a name line, then its entry's version line before the entry `ends`.
    A changed version line whose name the hunk does not show fails closed (ManifestError): with
    `-U0`, or a long entry, a bump would otherwise be no change at all. A `legacy` entry (package-lock
    v2's copy of each entry in v1 form) yields nothing, but when it changes, its new pair must be one
    the real entries show too: else (a v1 lockfile) it fails closed. A changed line that `loose` finds a
    name or version in, in a form the patterns do not read (a one-line entry, another indentation), fails
    closed too: the format allows it and the whole file would read it; only the lockfile's `own` version
    line, outside any entry, is no dependency."""
    out: list[Dependency] = []
    echoes: list[tuple[str, str]] = []
    entries: list[tuple[str, str]] = []  # every `legacy` pair shown, changed or not: a v1 lockfile's entries
    name: str | None = None
    echo: str | None = None
    keyed = False  # a real entry's key shows: the lockfile has the section `legacy` entries echo
    for raw in text(data).splitlines():
        if raw == HUNK:
            name = None
            continue
        changed = raw.startswith(CHANGED)
        line = raw.lstrip(CHANGED)
        if m := name_of.match(line):
            name, echo, keyed = m.group("name") or "", None, True
        elif legacy is not None and (m := legacy.match(line)):
            name, echo = "", m.group("name")
        elif v := version_of.match(line):
            if name is None and changed:
                raise ManifestError("a changed version line whose package the hunk does not show")
            if name:
                out.append(Dependency(ecosystem, name, v.group(1), path, None, None))
            elif echo is not None:
                entries.append((echo, v.group(1)))
                if changed:
                    echoes.append((echo, v.group(1)))
            name = echo = None
        elif changed and loose is not None and loose.search(line) is not None and (
                name is not None or echo is not None or own is None or own.match(line) is None):
            raise ManifestError(f"a changed line names a package or version in a form not read from hunks: "
                                f"{line.strip()[:80]!r}")
        elif ends(line):
            name = echo = None
    if v1 and not keyed:
        # No hunk shows a `node_modules/` key: a v1 lockfile, whose entries are the `dependencies` tree (nested
        # copies named by their package, as its whole-file reader names them). The same hunks may be a v2
        # lockfile's legacy copy edited alone: npm 6 installs from it, so its move is reported as what it is.
        return [Dependency(ecosystem, n, v, path, None, None) for n, v in entries]
    shown = {(d.name, d.version) for d in out}
    if any(pair not in shown for pair in echoes):
        raise ManifestError("an entry outside `packages` changed beside `packages` entries the hunks do not "
                            "show: its hunks are not read")
    return out


def package_lock_hunks(ecosystem: str, path: str, data: bytes) -> list[Dependency]:
    return _pairs(ecosystem, path, data, _NPM_KEY, _NPM_VERSION, lambda line: line.strip().startswith("}"),
                  _NPM_LEGACY, _NPM_LOOSE, _NPM_OWN, v1=True)


def toml_lock_hunks(ecosystem: str, path: str, data: bytes) -> list[Dependency]:
    return _pairs(ecosystem, path, data, _TOML_NAME, _TOML_VERSION, lambda line: line.startswith("[["),
                  loose=_TOML_LOOSE, own=_TOML_OWN)


# A Cargo.lock dependency edge that names its version (`    "syn 3.0.3",`, written so where two versions of a crate are
# locked), with its source where two sources lock one version (`"rand 0.8.5 (registry+…)"`).
_CARGO_EDGE = lazy(r'^\s+"([A-Za-z0-9_-]+) ([^"\s(]+)(?: \([^"]*\))?",?\s*$')
_CARGO_BARE_EDGE = lazy(r'^\s+"([A-Za-z0-9_-]+)",?\s*$')


def cargo_edge_moves(raw: list[str]) -> str | None:
    """From a patch's hunk lines of a Cargo.lock: the first changed versioned dependency edge that no entry the hunks
    change on its side explains — neither the entry that lists it (a new release depends on other versions) nor its
    crate at that version (a copy written or dropped) — nor is the same edge without its version on the other side
    of its hunk (`"windows-sys",` → `"windows-sys 0.52.0",`: a second version was locked, every edge now spells one
    out): a package that kept its version moved onto (or off) a copy the lockfile held before and after (a workspace
    member's `"syn 2.0.119"` → `"syn 3.0.3"`), which the entries the hunks show do not name. An edge whose entry the
    hunk does not show is unexplained. None when every edge is explained, or the entries cannot be read (the hunk
    reader reports that)."""
    old, new = sides(raw)
    try:
        shown = [{(d.name, d.version) for d in toml_lock_hunks("cargo", "", side)} for side in (old, new)]
    except ManifestError:
        return None
    bare: list[set[tuple[int, str]]] = [set(), set()]  # (hunk, crate) of the changed edges without a version
    for which, side in ((0, old), (1, new)):
        number = 0
        for line in text(side).split("\n"):
            number += line == HUNK
            if line.startswith(CHANGED) and (m := _CARGO_BARE_EDGE.match(line.lstrip(CHANGED))) is not None:
                bare[which].add((number, m.group(1)))
    for which, side in ((0, old), (1, new)):
        moved = shown[which] - shown[1 - which]
        name = version = None
        number = 0
        for raw_line in text(side).split("\n"):
            line = raw_line.lstrip(CHANGED)
            number += raw_line == HUNK
            if raw_line == HUNK or line.startswith("[["):
                name = version = None
            elif (m := _TOML_NAME.match(line)) is not None:
                name, version = m.group("name"), None
            elif (v := _TOML_VERSION.match(line)) is not None:
                version = v.group(1)
            elif raw_line.startswith(CHANGED) and (m := _CARGO_EDGE.match(line)) is not None:
                if (name, version) not in moved and (m.group(1), m.group(2)) not in moved \
                        and (number, m.group(1)) not in bare[1 - which]:
                    return line.strip()
    return None


# An importer's dependency (lockfile v6 and v9 `importers:`, eight spaces; a v6 lockfile of one project, four): its
# name key, then `specifier:` and `version:` lines. A bump onto a version the lockfile already held (unovue/radix-vue's
# Dependabot "bump vite from 4.5.3 to 5.4.14": the importer's `version: 4.5.3(…)` → `5.4.14(…)`, both copies kept for
# other packages) changes no package key: only this line says it moved.
_PNPM_IMPORTED = lazy(r"^(?P<indent> {4}| {8})version: '?(?P<version>[^'\s(]+)")
_PNPM_SPECIFIER = lazy(r"^(?P<indent> {4}| {8})specifier: ")
_PNPM_IMPORTER_NAME = lazy(r"""^(?P<indent> {2}| {6})(?P<q>'?)(?P<name>(?:@[^@\s'/]+/)?[^@\s'/:]+)(?P=q):\s*$""")


def _imported(lines: list[str], index: int) -> tuple[str, str] | None:
    """The importer entry whose changed `version:` line is `index`: (name, version) for a registry version; None for
    a line of no importer's shape, or a link, a file or an alias (a package key of its own says those). A changed
    eight-space `version:` line whose name and specifier the hunk does not show is refused."""
    line = lines[index].lstrip(CHANGED)
    if (m := _PNPM_IMPORTED.match(line)) is None:
        return None
    indent = m.group("indent")
    spec = _PNPM_SPECIFIER.match(lines[index - 1].lstrip(CHANGED)) if index > 0 else None
    name = _PNPM_IMPORTER_NAME.match(lines[index - 2].lstrip(CHANGED)) if index > 1 else None
    if spec is None or spec.group("indent") != indent or name is None or len(name.group("indent")) + 2 != len(indent):
        if len(indent) == 8:
            raise ManifestError(f"an importer's version whose package the hunk does not show: {line[:80]!r}")
        return None  # four spaces: a v5/v6 package's own `version:` (a tarball's), no importer's
    version = m.group("version")
    return (name.group("name"), version) if version[:1].isdigit() and "@" not in version else None


def pnpm_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    found: set[tuple[str, str]] = set()
    lines = text(data).splitlines()
    for index, raw in enumerate(lines):
        line = raw.lstrip(CHANGED)
        if m := _PNPM_KEY.match(line) or _PNPM_COMPLEX_KEY.match(line) or _PNPM_V5_KEY.match(line):
            found.add((m.group(1), m.group(2)))
        elif raw.startswith(CHANGED) and _PNPM_LOOSE.match(line):
            raise ManifestError(f"a changed key that may name a package in a form not read from hunks: {line[:80]!r}")
        elif raw.startswith(CHANGED) and (entry := _imported(lines, index)) is not None:
            found.add(entry)
    return [Dependency("npm", name, version, path, None, None) for name, version in sorted(found)]


# composer.lock: `"name": "vendor/pkg",` opens a package object and `"version": "v1.2.3",` follows it.
_COMPOSER_NAME = lazy(r'^\s*"name":\s*"(?P<name>[^"/]+/[^"]+)",?\s*$')
_COMPOSER_VERSION = lazy(r'^\s*"version":\s*"v?([^"]+)",?\s*$')


def composer_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    # the version line follows the name line directly: any other line ends the pairing
    return _pairs("composer", path, data, _COMPOSER_NAME, _COMPOSER_VERSION, lambda line: True,
                  loose=_JSON_VERSION_LOOSE)


# Pipfile.lock: `        "name": {` (eight spaces: an entry of `default` or `develop`), its hashes, index and
# markers, then `            "version": "==1.2.3"`; the entry ends at `        },`.
_PIPFILE_KEY = lazy(r'^ {8}"(?P<name>[^"]+)":\s*\{\s*$')
_PIPFILE_VERSION = lazy(r'^ {12}"version":\s*"==([^"]+)"')
_PIPFILE_END = lazy(r"^ {0,8}\}")


def pipfile_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    return _pairs("pip", path, data, _PIPFILE_KEY, _PIPFILE_VERSION, lambda line: _PIPFILE_END.match(line) is not None,
                  loose=_JSON_VERSION_LOOSE)


# .config/dotnet-tools.json: `    "dotnet-ef": {` (four spaces: an entry of `tools`), then `      "version": "8.0.1",`
# (its commands and rollForward around it); the entry ends at `    },`.
_TOOL_KEY = lazy(r'^ {4}"(?P<name>[^"]+)":\s*\{\s*$')
_TOOL_VERSION = lazy(r'^ {6}"version":\s*"([^"]+)"')
_TOOL_END = lazy(r"^ {0,4}\}")


def dotnet_tools_hunks(path: str, data: bytes) -> list[Dependency]:
    return _pairs("nuget", path, data, _TOOL_KEY, _TOOL_VERSION, lambda line: _TOOL_END.match(line) is not None,
                  loose=_JSON_VERSION_LOOSE)


# Codecs a PEP 263 declaration may name that read ASCII bytes as a line break (`+AAo-`, `\\n`): pip decodes a
# requirements file by the declaration in its first two lines (pypi.requirements_text).
_SPLITTING_CODECS = ("utf-7", "unicode_escape", "raw_unicode_escape")


def codec_may_split(raw: list[str]) -> bool:
    """Whether a line the hunks of a requirements file add or remove is more than one line under a codec a
    `coding:` declaration may name: the patch shows no declaration in lines it leaves out, and pip obeys one there
    (red team 17: `# pinned +AAo-evil==1.0` beside a bump, under a base's `coding: utf-7`, was the bump alone)."""
    for line in raw:
        if line[:1] not in ("+", "-") or ("+" not in line[1:] and "\\" not in line):
            continue
        for codec in _SPLITTING_CODECS:
            try:
                with warnings.catch_warnings():  # an invalid escape (`\\p`) is a warning of unicode_escape's
                    warnings.simplefilter("ignore")
                    decoded = line[1:].rstrip("\r\n").encode("utf-8", "replace").decode(codec)
            except (UnicodeError, ValueError):
                continue  # pip stops on it (a problem with the commits)
            if len(decoded.splitlines()) > 1:
                return True
    return False
