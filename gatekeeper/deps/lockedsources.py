"""Where a lockfile fetches each locked package from, and the checksum it trusts: what moves under an unchanged version.

The delta compares names and versions. A lockfile also says where the installer downloads each entry (npm's
`resolved`, yarn's `resolved`/`resolution`, pnpm's `resolution`, Cargo's `source`, Poetry's and uv's `source`
and file hashes, Composer's `dist`/`source`, Pipfile.lock's `hashes`/`index`, NuGet's `contentHash`) and which
checksum it accepts. `npm ci` fetches the `resolved` URL and checks the `integrity` beside it: an entry whose
URL and checksum are swapped to another tarball at the same version installs other code under the old label,
and rode on any other change of the same file (one new transitive entry "explained" the lockfile). A locked
entry whose source or checksum moved while its version did not is reported (overrides.py makes it a partial
problem, which the `deps` policy reviews).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from gatekeeper.deps.hunks import CHANGED, HUNK, sides
from gatekeeper.deps.loaders import MAX_ENTRIES, listing, load_json, load_toml, load_yaml, mapping, string, text
from gatekeeper.deps.model import ManifestError
from gatekeeper.lazy_pattern import lazy

Entries = Iterator[tuple[str, Any]]  # (the entry's place and version, what says where it comes from)
_SHOWN = 5
_TRAILING_COMMA = lazy(r'("(?:\\.|[^"\\])*")|,(\s*[}\]])')


def _npm_lock(data: bytes) -> Entries:
    doc = mapping(load_json(data), "lockfile")
    for key, entry in mapping(doc.get("packages"), "packages").items():
        if isinstance(entry, dict) and "node_modules/" in f"/{key}":
            yield f"{key}@{string(entry.get('version'))}", [entry.get("resolved"), entry.get("integrity")]
    stack = [("", mapping(doc.get("dependencies"), "dependencies"))]  # lockfileVersion 1 (and 2's copy)
    while stack:
        prefix, deps = stack.pop()
        for name, entry in deps.items():
            if isinstance(entry, dict):
                place = f"{prefix}{name}"
                yield f"{place}@{string(entry.get('version'))}", [entry.get("resolved"), entry.get("integrity")]
                if isinstance(entry.get("dependencies"), dict):
                    stack.append((f"{place} > ", entry["dependencies"]))


_YARN_FIELDS = ("resolved", "integrity", "checksum", "resolution")


def _yarn_lock(data: bytes) -> Entries:
    header: str | None = None
    fields: dict[str, str] = {}
    for line in text(data).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            if header is not None:
                yield f"{header}@{fields.get('version', '')}", [fields.get(key) for key in _YARN_FIELDS]
            header, fields = line.strip(), {}
        elif line.startswith("  ") and not line.startswith("   "):
            key, _, value = line.strip().partition(" ")
            if key.rstrip(":") in (*_YARN_FIELDS, "version"):
                fields[key.rstrip(":")] = value.strip().strip('"')
    if header is not None:
        yield f"{header}@{fields.get('version', '')}", [fields.get(key) for key in _YARN_FIELDS]


def _pnpm_lock(data: bytes) -> Entries:
    doc = mapping(load_yaml(data), "pnpm-lock.yaml")
    for key, entry in mapping(doc.get("packages"), "packages").items():
        if isinstance(entry, dict):
            yield str(key), entry.get("resolution")


def _bun_lock(data: bytes) -> Entries:
    # An entry is [ident, registry or url, {dependencies}, integrity]; bun.lock allows trailing commas (as npm.py).
    doc = mapping(load_json(_TRAILING_COMMA.sub(lambda m: m.group(1) or m.group(2), text(data))), "bun.lock")
    for key, entry in mapping(doc.get("packages"), "packages").items():
        if isinstance(entry, list) and entry:
            yield f"{key}@{entry[0]}", [item for item in entry[1:] if isinstance(item, str)]


def _toml_packages(fields: tuple[str, ...]) -> Callable[[bytes], Entries]:
    """Cargo.lock, poetry.lock, uv.lock: `[[package]]` tables with `name` and `version`."""

    def read(data: bytes) -> Entries:
        for entry in listing(load_toml(data).get("package"), "package"):
            if isinstance(entry, dict):
                yield (f"{string(entry.get('name'))}@{string(entry.get('version'))}",
                       [entry.get(field) for field in fields])
    return read


def _composer_lock(data: bytes) -> Entries:
    doc = mapping(load_json(data), "composer.lock")
    for section in ("packages", "packages-dev"):
        for entry in listing(doc.get(section), section):
            if isinstance(entry, dict):
                yield f"{string(entry.get('name'))}@{string(entry.get('version'))}", [entry.get("dist"),
                                                                                       entry.get("source")]


def _pipfile_lock(data: bytes) -> Entries:
    doc = mapping(load_json(data), "Pipfile.lock")
    for section in ("default", "develop"):
        for name, entry in mapping(doc.get(section), section).items():
            if isinstance(entry, dict):
                yield f"{section}/{name}@{string(entry.get('version'))}", [entry.get("hashes"), entry.get("index")]


def _nuget_lock(data: bytes) -> Entries:
    doc = mapping(load_json(data), "packages.lock.json")
    for framework, deps in mapping(doc.get("dependencies"), "dependencies").items():
        for name, entry in mapping(deps, framework).items():
            if isinstance(entry, dict):
                yield f"{framework}/{name}@{string(entry.get('resolved'))}", entry.get("contentHash")


READERS: dict[str, Callable[[bytes], Entries]] = {
    "package-lock.json": _npm_lock, "npm-shrinkwrap.json": _npm_lock, "yarn.lock": _yarn_lock,
    "pnpm-lock.yaml": _pnpm_lock, "bun.lock": _bun_lock,
    "Cargo.lock": _toml_packages(("source", "checksum")), "poetry.lock": _toml_packages(("source", "files")),
    "uv.lock": _toml_packages(("source", "sdist", "wheels")), "composer.lock": _composer_lock,
    "Pipfile.lock": _pipfile_lock, "packages.lock.json": _nuget_lock,
}


def _sources(read: Callable[[bytes], Entries], data: bytes) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for count, (key, source) in enumerate(read(data)):
        if count >= MAX_ENTRIES:
            raise ManifestError(f"more than {MAX_ENTRIES} entries")
        out.setdefault(key, []).append(json.dumps(source, sort_keys=True, default=str))
    return {key: sorted(value) for key, value in out.items()}


def moved_sources(name: str, base: bytes, head: bytes) -> list[str]:
    """The locked entries of lockfile `name` whose source or checksum moved under an unchanged version
    (at most a few named, then how many more); empty for a file that is no such lockfile."""
    read = READERS.get(name)
    if read is None:
        return []
    before, after = _sources(read, base), _sources(read, head)
    moved = sorted(key for key in before.keys() & after.keys() if before[key] != after[key])
    shown = [f"the locked source or checksum of {key}" for key in moved[:_SHOWN]]
    if len(moved) > _SHOWN:
        shown.append(f"{len(moved) - _SHOWN} more locked sources")
    return shown


@dataclass(frozen=True, slots=True)
class _Shape:
    """How a lockfile's hunk lines show its entries: where one starts, its version line, its source lines."""

    entry: re.Pattern[str]
    version: re.Pattern[str] | None  # None: the entry's first line holds its version (pnpm's `name@1.2.3:`)
    source: re.Pattern[str]


_NPM_SHAPE = _Shape(re.compile(r'^\s*"[^"]*":\s*\{\s*$'), re.compile(r'^\s*"version"\s*:'),
                    re.compile(r'"(?:resolved|integrity)"\s*:'))
_TOML_SHAPE = _Shape(re.compile(r"^\[\[package\]\]"), re.compile(r"^version\s*="),
                     re.compile(r"(?:^|[\s{,\[])(?:source|checksum|url|hash|reference|registry|git|path|type)\s*="))
HUNK_SHAPES: dict[str, _Shape] = {
    "package-lock.json": _NPM_SHAPE, "npm-shrinkwrap.json": _NPM_SHAPE,
    "yarn.lock": _Shape(re.compile(r"^\S"), re.compile(r"^\s+version:?\s"),
                        re.compile(r"^\s+(?:resolved|integrity|checksum|resolution):?\s")),
    "pnpm-lock.yaml": _Shape(re.compile(r"^ {2}\S"), None, re.compile(r"^\s+resolution\s*:")),
    "Cargo.lock": _TOML_SHAPE, "poetry.lock": _TOML_SHAPE, "uv.lock": _TOML_SHAPE,
    "composer.lock": _Shape(re.compile(r"^\s*\{\s*$"), re.compile(r'^\s*"version"\s*:'),
                            re.compile(r'"(?:url|reference|shasum|type)"\s*:')),
    "Pipfile.lock": _Shape(re.compile(r'^ {8}"[^"]+":\s*\{\s*$'), re.compile(r'^ {12}"version"\s*:'),
                           re.compile(r'^ {12}"(?:hashes|index)"\s*:|^ {16}"sha256:')),
}


def hunk_moves(name: str, raw: list[str]) -> str | None:
    """From a patch's hunk lines of lockfile `name` (with their ' ', '-', '+'): the first changed source or
    checksum line whose entry's version the hunks do not change, or that no entry line in its hunk owns;
    None when there is none. What --tree reads whole (moved_sources), as far as hunks can show it."""
    shape = HUNK_SHAPES.get(name)
    if shape is None:
        return None
    for side in sides(raw):
        moved: str | None = None
        owned = version_moved = False
        for raw_line in [*text(side).splitlines(), HUNK]:
            changed = raw_line.startswith(CHANGED)
            line = raw_line.lstrip(CHANGED)
            if raw_line == HUNK or shape.entry.match(line):
                if moved is not None and not version_moved:
                    return moved
                moved = None
                owned = raw_line != HUNK
                version_moved = changed and shape.version is None
            elif shape.version is not None and shape.version.match(line):
                version_moved = version_moved or changed
            elif changed and shape.source.search(line):
                if not owned:
                    return line.strip()[:80]
                moved = moved or line.strip()[:80]
    return None
