"""A lockfile's hunks read for what lockedsources.py reads whole: a location line moved under an unchanged version,
or beside a bump to somewhere the entry was not (`hunk_moves`, for a patch without the commits)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gatekeeper.deps.hunks import CHANGED, HUNK, sides
from gatekeeper.deps.loaders import text
from gatekeeper.deps.lockedsources import Leaf, hosts, template
from gatekeeper.deps.npm import pnpm_key, yarn_name
from gatekeeper.deps.swift import hunk_revision_moves
from gatekeeper.lazy_pattern import lazy


@dataclass(frozen=True, slots=True)
class _Shape:
    """How a lockfile's hunk lines show its entries: where one starts, its version line, its source lines."""

    entry: re.Pattern[str]
    version: re.Pattern[str] | None  # None: the entry's first line holds its version (pnpm's `name@1.2.3:`)
    source: re.Pattern[str]
    name: re.Pattern[str] | None = None  # the line naming the entry, where its first line does not


# npm's `name` in an entry is an alias: without `resolved`, npm fetches `name@version` (a location too).
_NPM_SHAPE = _Shape(lazy(r'^\s*"[^"]*":\s*\{\s*$'), lazy(r'^\s*"version"\s*:'),
                    lazy(r'"(?:resolved|name)"\s*:'))
_TOML_SHAPE = _Shape(lazy(r"^\[\[package\]\]"), lazy(r"^version\s*="),
                     lazy(r"(?:^|[\s{,\[])(?:source|url|reference|registry|git|path|type)\s*="),
                     lazy(r"^name\s*="))
_GEM_SHAPE = _Shape(lazy(r"^[A-Z]"), lazy(r"^ {4}\S+ \("),
                    lazy(r"^ {2}(?:remote|revision|branch|tag|ref|glob|submodules):"))
HUNK_SHAPES: dict[str, _Shape] = {
    "package-lock.json": _NPM_SHAPE, "npm-shrinkwrap.json": _NPM_SHAPE,
    "yarn.lock": _Shape(lazy(r"^\S"), lazy(r"^\s+version:?\s"),
                        lazy(r"^\s+(?:resolved|resolution):?\s")),
    "pnpm-lock.yaml": _Shape(lazy(r"^ {2}\S"), None,  # (a key, not a package named `which-builtin-type`)
                             lazy(r"(?:^|[\s{,])(?:tarball|repo|commit|directory|path|type)\s*:")),
    "Cargo.lock": _TOML_SHAPE, "poetry.lock": _TOML_SHAPE, "uv.lock": _TOML_SHAPE,
    "composer.lock": _Shape(lazy(r"^\s*\{\s*$"), lazy(r'^\s*"version"\s*:'),
                            lazy(r'"(?:url|reference|type)"\s*:'), lazy(r'^\s*"name"\s*:')),
    # a Gemfile.lock section (`GIT`, `GEM`, …; every top-level line opens one) holds its gems' versions (`    rails
    # (8.1.0)`) under its source lines (`  remote:`, `  revision:`)
    "Gemfile.lock": _GEM_SHAPE,
    "Pipfile.lock": _Shape(lazy(r'^ {8}"[^"]+":\s*\{\s*$'), lazy(r'^ {12}"version"\s*:'),
                           lazy(r'^ {12}"index"\s*:')),
}


def hunk_moves(name: str, raw: list[str]) -> str | None:
    """From a patch's hunk lines of lockfile `name` (with their ' ', '-', '+'): the first changed source or
    location line whose entry's version the hunks do not change, or that no entry line in its hunk owns;
    None when there is none. What --tree reads whole (moved_sources), as far as hunks can show it."""
    if name == "Package.resolved":
        return hunk_revision_moves(raw)
    shape = HUNK_SHAPES.get(name)
    if shape is None:
        return None
    # The head side only: a location line the hunks drop (a bundled package's `resolved`) moves no code, one they
    # write does (as moved_sources compares).
    return _unmoved_version(shape, raw, name) or _bumped_elsewhere(shape, raw, name)


def _unmoved_version(shape: _Shape, raw: list[str], name: str) -> str | None:
    # An entry whose first line the hunks write, under a name no base line of theirs shows, is new: it has no
    # location to move under its version (_bumped_elsewhere checks its host).
    base_names = set(_entries(shape, raw, name, "-"))
    moved: str | None = None
    owned = version_moved = False
    for raw_line in [*text(sides(raw)[1]).splitlines(), HUNK]:
        changed = raw_line.startswith(CHANGED)
        line = raw_line.lstrip(CHANGED)
        if raw_line == HUNK or shape.entry.match(line):
            if moved is not None and not version_moved:
                return moved
            moved = None
            owned = raw_line != HUNK
            version_moved = changed and (shape.version is None or (
                shape.name is None and _entry_name(line, name) not in base_names))
        elif shape.version is not None and shape.version.match(line):
            version_moved = version_moved or changed
        elif changed and shape.source.search(line):
            if not owned:
                return line.strip()[:80]
            moved = moved or line.strip()[:80]
    return None


_VERSION_IN_LINE = lazy(r"(?<![0-9])[0-9]+(?:\.[0-9A-Za-z+_-]+)+")  # from a digit run's start (was 3 CPU-s at 16 KiB)
_Entry = tuple[list[str], list[tuple[str, bool]]]  # (version lines, (source line, changed))
# from the first letter of a run of scheme characters (its group), each run read once (facts._URL's shape)
_URL = lazy(r"(?i)(?<![a-z0-9+.-])[0-9+.-]*+([a-z][a-z0-9+.-]*+://[^\s\"',}\]]+)")


def _entry_name(line: str, name: str) -> str:
    """What an entry's first (or name) line says it is, the same on both sides of a bump: yarn's header names its
    ranges, pnpm's its version."""
    if name == "yarn.lock":
        return yarn_name(line.strip())
    if name == "pnpm-lock.yaml":
        return (pnpm_key(line.strip().rstrip(":").strip("'\"")) or ("", ""))[0]
    return "".join(line.split())


def _entries(shape: _Shape, raw: list[str], name: str, side: str) -> dict[str, list[_Entry]]:
    """The entries one side of the hunks shows (`-`: context and removed lines, `+`: context and added ones), by
    name: a name may have several (nested copies)."""
    out: dict[str, list[_Entry]] = {}
    current: _Entry | None = None
    for raw_line in raw:
        sign, line = raw_line[:1], raw_line[1:]
        if raw_line.startswith(HUNK):
            current = None
        elif sign not in (" ", side):
            continue
        elif shape.entry.match(line) or (shape.name is not None and shape.name.match(line)):
            # An entry a name line names (TOML, Composer) is filed under its name when that line comes.
            key = "" if shape.name is not None and shape.entry.match(line) else _entry_name(line, name)
            current = ([line] if shape.version is None else [], [])
            out.setdefault(key, []).append(current)
        elif current is not None and shape.version is not None and shape.version.match(line):
            current[0].append(line)
        elif current is not None and shape.source.search(line):
            current[1].append((line, sign == side))
    out.pop("", None)
    return out


def _where(line: str, version: str) -> set[Leaf]:
    """A location line's locations with their release taken out: its URLs, else the line."""
    return {template(("", value), version) for value in (_URL.findall(line) or [line.strip().rstrip(",")])}


def _bumped_elsewhere(shape: _Shape, raw: list[str], name: str) -> str | None:
    """The first location line the hunks write beside their entry's version move that is not where the entry was
    (its release taken out, as moved_sources compares). An entry the base side of the hunks does not show is new:
    read from hunks, a new entry counts as direct (a review), wherever it comes from. Where the base side shows the
    entry without a location (fetched from the registry by name), a host no base line of the hunks shows is one."""
    known_hosts = hosts({("", line[1:]) for line in raw if line[:1] in (" ", "-")})
    before = _entries(shape, raw, name, "-")
    for key, entries in _entries(shape, raw, name, "+").items():
        olds = [(_version(versions), sources) for versions, sources in before.get(key, [])]
        was = {leaf for old, sources in olds for line, _ in sources for leaf in _where(line, old)}
        for versions, sources in entries if olds else ():
            new = _version(versions)
            if any(new == old for old, _ in olds):
                continue  # _unmoved_version's
            for line, changed in sources:
                if changed and (not _where(line, new) <= was if was else bool(hosts({("", line)}) - known_hosts)):
                    return line.strip()[:80]
    return None


def _version(lines: list[str]) -> str:
    found = _VERSION_IN_LINE.search(lines[-1]) if lines else None
    return found.group() if found else ""
