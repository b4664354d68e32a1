"""Where a lockfile fetches each locked package from: what can move under an unchanged version.

The delta compares names and versions. A lockfile also says where the installer downloads each entry (npm's
`resolved`, yarn's `resolved`/`resolution`, pnpm's `resolution` tarball/repository/commit, bun's registry or
URL, Cargo's `source`, Poetry's and uv's `source` and file URLs, Composer's `dist`/`source` URL and reference,
Pipfile.lock's `index`, a Gemfile.lock section's `remote` and git `revision`). `npm ci` fetches the `resolved` URL
and checks the `integrity` beside it: an entry whose URL and checksum are swapped to another tarball at the same
version installs other code under the old label, and rode on any other change of the same file (one new transitive
entry "explained" the lockfile). A locked entry whose location moved while its version did not is reported
(overrides.py makes it a partial problem, which the `deps` policy reviews).

A checksum alone (npm's `integrity`, yarn's `checksum`, Cargo's `checksum`, pip hashes, NuGet's `contentHash`)
is not compared: from an unchanged location the installer fetches the registry's own immutable artifact and
checks it against the checksum, so a moved checksum alone can only fail the install, never swap the code
(and npm's sha1 -> sha512 rewrites, or a wheel's hash added for a new platform, are everyday changes:
measured, comparing checksums too reviewed 34 of 907 real bot bumps that touch a lockfile, new locations alone 6).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from gatekeeper.deps.loaders import MAX_ENTRIES, listing, load_json, load_toml, load_yaml, mapping, string, text
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.npm import pnpm_key, yarn_name
from gatekeeper.lazy_pattern import lazy

Entries = Iterator[tuple[str, str, Any]]  # (the entry's place or name, its version, what says where it comes from)
_SHOWN = 5
_TRAILING_COMMA = lazy(r'("(?:\\.|[^"\\])*")|,(\s*[}\]])')


# What a locked entry requires (red team 12): a registry's metadata of one version never changes, so an entry whose
# version stayed and whose requirements grew had a dependency injected (`evil` under an unchanged `chalk`, which
# `npm ci` installs with its install script). Compared under an unchanged version only: a bump brings its own.
_REQUIRES = "requires"
_NPM_REQUIRES = ("dependencies", "optionalDependencies", "peerDependencies")


def _npm_lock(data: bytes) -> Entries:
    doc = mapping(load_json(data), "lockfile")
    for key, entry in mapping(doc.get("packages"), "packages").items():
        if isinstance(entry, dict) and "node_modules/" in f"/{key}":
            # Without `resolved`, npm fetches `name@version` from the registry (an alias names another package).
            name = string(entry.get("name"))
            alias = name if name != key.rpartition("node_modules/")[2] else None
            yield key, string(entry.get("version")), {"resolved": _location(entry.get("resolved")), "name": alias,
                                                      _REQUIRES: {k: entry.get(k) for k in _NPM_REQUIRES}}
    stack = [("", mapping(doc.get("dependencies"), "dependencies"))]  # lockfileVersion 1 (and 2's copy)
    while stack:
        prefix, deps = stack.pop()
        for name, entry in deps.items():
            if isinstance(entry, dict):
                place = f"{prefix}{name}"
                yield place, string(entry.get("version")), {"resolved": _location(entry.get("resolved")),
                                                            _REQUIRES: entry.get("requires")}
                if isinstance(entry.get("dependencies"), dict):
                    stack.append((f"{place} > ", entry["dependencies"]))


_YARN_FIELDS = ("resolved", "resolution")
# Red team 15: yarn (both dialects), pnpm and bun install what an entry's requirement lists say, as npm does; a
# project's own packages (a workspace, a link or a folder) have the requirements its package.json gives them.
_LOCAL = ("@workspace:", "@link:", "@portal:", "@file:", "@root:")


def _yarn_lock(data: bytes) -> Entries:
    header: str | None = None
    fields: dict[str, str] = {}
    requires: list[str] = []
    block = ""
    for line in [*text(data).splitlines(), "end"]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            if header is not None and not header.startswith("__metadata"):
                local = any(mark in header for mark in _LOCAL)
                yield (yarn_name(header), fields.get("version", ""),
                       {**{key: _location(fields.get(key)) for key in _YARN_FIELDS},
                        _REQUIRES: None if local else sorted(requires)})
            header, fields, requires, block = line.strip(), {}, [], ""
        elif line.startswith("  ") and not line.startswith("   "):
            key, _, value = line.strip().partition(" ")
            block = key.rstrip(":")
            if block in (*_YARN_FIELDS, "version"):
                fields[block] = value.strip().strip('"')
        elif block in _NPM_REQUIRES:
            requires.append(f"{block} {' '.join(line.split())}")


def _pnpm_lock(data: bytes) -> Entries:
    doc = mapping(load_yaml(data), "pnpm-lock.yaml")
    for section in ("packages", "snapshots"):  # v9 keeps what an entry requires in `snapshots`
        for key, entry in mapping(doc.get(section), section).items():
            if isinstance(entry, dict):
                name, version = pnpm_key(str(key)) or (str(key), "")
                resolution = entry.get("resolution")
                yield name, version, {"resolution": {k: v for k, v in resolution.items() if k != "integrity"}
                                      if isinstance(resolution, dict) else resolution,
                                      _REQUIRES: _pnpm_requires(entry)}


def _pnpm_requires(entry: dict[str, Any]) -> list[str]:
    """What a pnpm entry requires, by name: pnpm writes the version it resolved (which a bump of that dependency
    moves under an unchanged parent) and a peer range its overrides rewrite, so only an alias's package
    (`npm:evil@1.0.0`, `evil@1.0.0`) and a local or URL requirement are kept beside the name."""
    out = []
    for field in _NPM_REQUIRES:
        requires = entry.get(field)
        for name, value in (requires.items() if isinstance(requires, dict) else ()):
            value = str(value).removeprefix("npm:")
            alias = pnpm_key(value) if not value[:1].isdigit() and ":" not in value else None
            kept = "" if field == "peerDependencies" else value if ":" in value else alias[0] if alias else ""
            out.append(f"{field} {name} {kept}".rstrip())
    return sorted(out)


def _bun_lock(data: bytes) -> Entries:
    # An entry is [ident, registry or url, {dependencies}, integrity]; bun.lock allows trailing commas (as npm.py).
    doc = mapping(load_json(_TRAILING_COMMA.sub(lambda m: m.group(1) or m.group(2), text(data))), "bun.lock")
    for key, entry in mapping(doc.get("packages"), "packages").items():
        if isinstance(entry, list) and entry:
            package, _, version = string(entry[0]).rpartition("@")  # the package fetched: an alias names another
            meta = entry[2] if len(entry) > 2 and isinstance(entry[2], dict) else {}
            local = any(mark in string(entry[0]) for mark in _LOCAL)
            yield key, version, {"source": entry[1] if len(entry) > 1 else None, "package": package,
                                 _REQUIRES: None if local else {k: meta.get(k) for k in _NPM_REQUIRES}}


def _toml_packages(fields: tuple[str, ...], requires: bool = True) -> Callable[[bytes], Entries]:
    """Cargo.lock, poetry.lock, uv.lock: `[[package]]` tables with `name` and `version`."""

    def read(data: bytes) -> Entries:
        for entry in listing(load_toml(data).get("package"), "package"):
            if isinstance(entry, dict):
                yield (string(entry.get("name")), string(entry.get("version")),
                       {**{field: _without_hashes(entry.get(field)) for field in fields},
                        _REQUIRES: _names(entry.get("dependencies")) if requires else None})
    return read


def _names(requires: Any) -> list[str]:
    """The names a Cargo, Poetry or uv lock entry requires: Cargo adds a version (`syn 2.0.48`) and uv a version or
    source to a requirement only while the lockfile holds several of that name, so only the name is its own."""
    items = requires.items() if isinstance(requires, dict) else requires if isinstance(requires, list) else ()
    return sorted({string(i[0] if isinstance(requires, dict) else i.get("name") if isinstance(i, dict) else i).split(
        " ")[0] for i in items})


def _composer_lock(data: bytes) -> Entries:
    doc = mapping(load_json(data), "composer.lock")
    for section in ("packages", "packages-dev"):
        for entry in listing(doc.get(section), section):
            if isinstance(entry, dict):
                yield (string(entry.get("name")), string(entry.get("version")),
                       {"dist": _without_hashes(entry.get("dist")), "source": entry.get("source"),
                        _REQUIRES: entry.get("require")})


def _pipfile_lock(data: bytes) -> Entries:
    doc = mapping(load_json(data), "Pipfile.lock")
    # An entry without `index` comes from the first source: pipenv writes the name only for some entries.
    # An entry names its source; the source's URL is where it comes from (red team 10: the URL swapped under the
    # same name moved every entry).
    sources = listing(mapping(doc.get("_meta"), "_meta").get("sources"), "sources")
    urls = {string(s.get("name")): string(s.get("url")) for s in sources if isinstance(s, dict)}
    first = string(sources[0].get("name")) if sources and isinstance(sources[0], dict) else ""
    for section in ("default", "develop"):
        for name, entry in mapping(doc.get(section), section).items():
            if isinstance(entry, dict):
                index = entry.get("index") or first
                yield f"{section}/{name}", string(entry.get("version")), {"index": index,
                                                                          "url": urls.get(string(index))}


# A Gemfile.lock section's source lines (Bundler's lockfile: `GIT` with `remote:`, `revision:` and the `branch:`,
# `tag:` or `ref:` it follows; `PATH`, `GEM` and `PLUGIN SOURCE` with `remote:`): where each gem of its `specs:` comes
# from. A git gem moved to another commit under an unchanged version is other code under the old label, as a Cargo.lock
# `source = "git+…#<commit>"` moved is.
_GEM_SOURCE = lazy(r"^ {2}(remote|revision|branch|tag|ref|glob|submodules): (.*)$")
_GEM_SPEC = lazy(r"^ {4}([A-Za-z0-9_.\-]+) \(([^)]+)\)$")


def _gemfile_lock(data: bytes) -> Entries:
    section = ""
    source: dict[str, str] = {}
    for line in text(data).splitlines():
        if line and not line.startswith(" "):
            section, source = line.strip(), {}
        elif section in ("GIT", "PATH", "GEM", "PLUGIN SOURCE"):
            if (field := _GEM_SOURCE.match(line)) is not None:
                source[field.group(1)] = field.group(2).strip()
            elif (spec := _GEM_SPEC.match(line)) is not None:
                yield f"{section} {spec.group(1)}", spec.group(2), {**source, _REQUIRES: None}


_HASH_KEYS = frozenset({"hash", "hashes", "shasum", "checksum", "integrity", "size", "upload-time"})


def _without_hashes(value: Any) -> Any:
    """`value` without its checksum fields, at any depth (uv's `sdist`/`wheels`, Composer's `dist`)."""
    if isinstance(value, dict):
        return {k: _without_hashes(v) for k, v in value.items() if k not in _HASH_KEYS}
    if isinstance(value, list):
        return [_without_hashes(item) for item in value]
    return value


def _location(value: Any) -> Any:
    """A download URL without its `#sha1` fragment (yarn classic writes the checksum there)."""
    return value.partition("#")[0] if isinstance(value, str) else value


READERS: dict[str, Callable[[bytes], Entries]] = {
    "package-lock.json": _npm_lock, "npm-shrinkwrap.json": _npm_lock, "yarn.lock": _yarn_lock,
    "pnpm-lock.yaml": _pnpm_lock, "bun.lock": _bun_lock,
    # (a Cargo.lock entry lists only the optional dependencies the workspace's features turn on: they grow under an
    # unchanged version when a bump turns a feature on, 11 of 592 bot commits of the mirrors)
    "Cargo.lock": _toml_packages(("source",), requires=False), "poetry.lock": _toml_packages(("source",)),
    "uv.lock": _toml_packages(("source", "sdist", "wheels")), "composer.lock": _composer_lock,
    "Pipfile.lock": _pipfile_lock, "Gemfile.lock": _gemfile_lock,
}
Leaf = tuple[str, str]  # (the field's path in the entry, its value as JSON)
_HOST = lazy(r"(?i)\b([a-z][a-z0-9+.-]*)://([^/?#\s\"'\\]*)")
# A release's file name up to its version: the rest (a wheel's tags, the archive type) and the spelling of the
# name before it (`PyYAML-` / `pyyaml-`, `typing-extensions-` / `typing_extensions-`) vary between releases.
# From a word's start only (the first match is the same; from each character of a long word it read to the word's
# end: 16 KiB 1.9 CPU-s).
_FILE = lazy(r"(?<![^/\s\"'@:=])([^/\s\"'@:=]*)\0[^/\s\"'?#]*")
# Content addresses (a commit, a hash, an index's `/a0/b1/<hash>/` folders) differ between releases of one package.
_HASHED = lazy(r"(?:/[0-9a-f]{2}/[0-9a-f]{2}/)?(?<![0-9A-Za-z])[0-9a-fA-F]{16,}(?![0-9A-Za-z])")


def _sources(read: Callable[[bytes], Entries], data: bytes, unchanged: set[tuple[str, str, str]] | None = None
             ) -> tuple[dict[str, dict[str, list[Any]]], set[tuple[str, str, str]]]:
    """Each entry's sources (by place, then version; `_leaves_of` makes them leaves, only where they are compared);
    every entry's (place, version, repr of its source). One found in `unchanged` (the other side's: `repr` tells 1
    from true and 1.0) is left out."""
    out: dict[str, dict[str, list[Any]]] = {}
    entries: set[tuple[str, str, str]] = set()
    for count, (where, version, source) in enumerate(read(data)):
        if count >= MAX_ENTRIES:
            raise ManifestError(f"more than {MAX_ENTRIES} entries")
        try:  # a source too deep for repr is not compared: its leaves are collected (iteratively)
            key: tuple[str, str, str] | None = (where, version, repr(source))
        except RecursionError:
            key = None
        if key is not None and unchanged is not None and key in unchanged:
            continue
        entries.update([key] if key is not None else [])
        out.setdefault(where, {}).setdefault(version, []).append(source)
    return out, entries


def _leaves_of(sources: list[Any]) -> set[Leaf]:
    """The locations of one place and version as leaves (list order ignored)."""
    into: set[Leaf] = set()
    for source in sources:
        _leaves(source, "", into)
    return into


def _leaves(value: Any, path: str, into: set[Leaf]) -> None:
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}") for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, where) for v in item)
        elif item is not None:
            into.add((where, json.dumps(item, default=str)))


# Yarn writes the npm registry under either name (registry.yarnpkg.com is the same registry): one host.
_SAME_REGISTRY = lazy(r"(?i)//registry\.yarnpkg\.com(?=[/\"'])")
_CHECKSUM_FRAGMENT = lazy(r"#[0-9a-fA-F]{16,}\b")  # yarn classic's `#sha1` after a tarball URL


def _same(leaf: Leaf) -> Leaf:
    return leaf[0], _SAME_REGISTRY.sub("//registry.npmjs.org", leaf[1])


def template(leaf: Leaf, version: str) -> Leaf:
    """A location with its release taken out: the version, content addresses, a file name's spelling past its
    package name. What stays is where it comes from and which package it is."""
    field, value = _same(leaf)
    value = _CHECKSUM_FRAGMENT.sub("", value)
    value = value.replace(version, "\0") if len(version) >= 3 else value
    value = _FILE.sub(lambda m: m.group(1).lower().replace("-", "_").replace(".", "_") + "{v}", value)
    return field, _HASHED.sub("*", value.replace("\0", "{v}"))


def hosts(leaves: set[Leaf]) -> set[str]:
    return {f"{m.group(1).lower()}://{m.group(2).lower()}" for leaf in leaves for m in _HOST.finditer(_same(leaf)[1])}


def _hosts_found(wanted: set[str], sources: dict[str, dict[str, list[Any]]]) -> set[str]:
    """The hosts of `wanted` that some source names (every base host a head entry could be checked against)."""
    found: set[str] = set()
    for versions in sources.values():
        for entries in versions.values():
            if found >= wanted:
                return found
            found |= hosts(_leaves_of(entries)) & wanted
    return found


def moved_sources(name: str, base: bytes, head: bytes) -> list[str]:
    """The locked entries of lockfile `name` fetched from somewhere their base entries were not (at most a few
    named, then how many more); empty for a file that is no such lockfile.

    - Under an unchanged version, a location the base entry did not name.
    - Beside a version move, a location that is not one of the base entries' with its release taken out (a
      bump to another host, or to another package's tarball on the same registry, is not a bump).
    - Any entry, new ones too, fetched from a host the base lockfile fetched nothing from."""
    read = READERS.get(name)
    if read is None:
        return []
    base_sources, unchanged = _sources(read, base)
    after = {where: {version: _leaves_of(sources) for version, sources in versions.items()}
             for where, versions in _sources(read, head, unchanged)[0].items()}
    # The base's leaves only where a head entry is compared with them, and its hosts only until every host the
    # compared head entries name is found: a 2,000-entry lockfile with one bump reads one entry's leaves, not 2,000.
    before = {where: {version: _leaves_of(sources) for version, sources in base_sources.get(where, {}).items()}
              for where in after}
    named = hosts({leaf for versions in after.values() for leaves in versions.values() for leaf in leaves})
    known_hosts = _hosts_found(named, base_sources)
    moved: list[str] = []
    for where, versions in sorted(after.items()):
        old = before[where]
        templates = {template(leaf, version) for version, leaves in old.items() for leaf in leaves}
        for version, leaves in sorted(versions.items()):
            # Only a location the base did not have moves code: one dropped (a platform's wheel, a bundled package's
            # `resolved`) leaves the installer the remaining ones, or the registry's own artifact of that version.
            if version in old:
                new = {_same(leaf) for leaf in leaves} - {_same(leaf) for leaf in old[version]}
            else:
                new = {leaf for leaf in leaves if old and not leaf[0].startswith(f".{_REQUIRES}")
                       and template(leaf, version) not in templates}
            if new or hosts(leaves) - known_hosts:
                what = "requirements" if all(leaf[0].startswith(f".{_REQUIRES}") for leaf in new) and new else \
                    "download location"
                moved.append(f"the {what} of {where}@{version}")
    shown = moved[:_SHOWN]
    if len(moved) > _SHOWN:
        shown.append(f"{len(moved) - _SHOWN} more locked sources")
    return shown
