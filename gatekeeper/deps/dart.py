"""Dart and Flutter packages (pub): `pubspec.yaml` and `pubspec.lock`, both YAML."""

from __future__ import annotations

from gatekeeper.deps.hunkreads import Side
from gatekeeper.deps.loaders import load_yaml, mapping, string
from gatekeeper.deps.model import Dependency, ManifestError, PartlyShown, Scope
from gatekeeper.lazy_pattern import lazy

# The sections of a pubspec that declare packages; `dependency_overrides` is an override section
# (overrides.py reviews any change in it), not a declaration.
_SECTIONS: tuple[tuple[str, Scope], ...] = (("dependencies", "runtime"), ("dev_dependencies", "dev"))
_LOCK_KINDS: dict[str, tuple[bool, Scope]] = {
    "direct main": (True, "runtime"), "direct dev": (True, "dev"), "direct overridden": (True, "runtime"),
    "transitive": (False, "runtime"),
}


# pub.dev under its names: a package hosted anywhere else is another package (named `dio@https://host`).
_DEFAULT_HOSTS = frozenset({"", "https://pub.dev", "https://pub.dartlang.org"})


def _hosted(key: str, name: str, url: str) -> str:
    """A hosted package by where it is fetched from: `dio` on pub.dev, `dio_evil@https://pub.dev` for another
    package under the key `dio`, `dio@https://host` on another repository."""
    url = url.rstrip("/")
    return key if name in ("", key) and url in _DEFAULT_HOSTS else f"{name or key}@{url or 'https://pub.dev'}"


def _git(key: str, url: str, path: str = "") -> str:
    """A git package by its repository (and folder in it): a swapped repository is a new dependency, also
    when the ref stays."""
    return f"{key}@git+{url}" + (f"#{path}" if path not in ("", ".") else "")


def _name(key: str, value: object) -> str:
    """The name of a pubspec entry: the key, with its source when that is not pub.dev."""
    if not isinstance(value, dict):
        return key
    if "git" in value:
        git = value["git"]
        git = mapping(git, "git") if isinstance(git, dict) else {"url": git}
        return _git(key, string(git.get("url")), string(git.get("path")))
    if "hosted" in value:
        hosted = value["hosted"]
        if isinstance(hosted, dict):
            return _hosted(key, string(hosted.get("name")), string(hosted.get("url")))
        return _hosted(key, "", string(hosted))
    return key


def _requirement(value: object) -> str:
    """A pubspec requirement as written: `^1.2.0`, `{version: ^1.2.0, hosted: …}`, a git source's ref (or
    the url when no ref), a path (`path:…`), `sdk:flutter`; "" for a bare `name:` (any version)."""
    if not isinstance(value, dict):
        return string(value)
    if "version" in value:
        return string(value["version"])
    git = value.get("git")
    if git is not None:
        git = mapping(git, "git") if isinstance(git, dict) else {"url": git}
        return f"git:{string(git.get('ref')) or string(git.get('url'))}"
    for source in ("path", "sdk"):
        if source in value:
            return f"{source}:{string(value[source])}"
    return ""


def parse_pubspec(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_yaml(data), "pubspec.yaml")
    out: list[Dependency] = []
    for section, scope in _SECTIONS:
        for name, value in mapping(doc.get(section), section).items():
            out.append(Dependency("pub", _name(str(name), value), _requirement(value), path, True, scope))
    return out


def parse_pubspec_lock(path: str, data: bytes) -> list[Dependency]:
    """Every locked package; its `dependency:` field says whether the project declares it and where.
    An unknown or missing field fails closed (direct, runtime)."""
    doc = mapping(load_yaml(data), "pubspec.lock")
    out: list[Dependency] = []
    for name, entry in mapping(doc.get("packages"), "packages").items():
        entry = mapping(entry, f"package {name}")
        direct, scope = _LOCK_KINDS.get(string(entry.get("dependency")), (True, "runtime"))
        source, description = string(entry.get("source")), entry.get("description")
        described = description if isinstance(description, dict) else {}
        version = string(entry.get("version"))
        if source == "hosted":
            key = _hosted(str(name), string(described.get("name")), string(described.get("url")))
        elif source == "git":
            # a git package's `version` is what its own pubspec says at the commit: the commit is the version
            key = _git(str(name), string(described.get("url")), string(described.get("path")))
            version = string(described.get("resolved-ref")) or version
        elif source == "path":
            key = f"{name}@path:{string(described.get('path'))}"  # as pubspec.yaml's `path:` is written
        else:
            key = str(name)
        out.append(Dependency("pub", key, version, path, direct, scope))
    return out


# A pubspec.lock line as pub writes it: `    key: value` or `    key: "value"` (no flow, no block scalar, no comment).
_LOCK_LINE = lazy(r"""^( *)([A-Za-z_][\w-]*):(?: ([^\s"'#|>{}\[\]&*!][^\s"'#]*|"[^"\\]*"))?$""")


def _lock_line(line: str) -> tuple[int, str, str] | None:
    m = _LOCK_LINE.match(line)
    return None if m is None else (len(m.group(1)), m.group(2), (m.group(3) or "").strip('"'))


def pubspec_lock_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed line of a pubspec.lock hunk (round 50): a hosted entry's `version:` where the lines the hunk shows
    above it, up to the entry's key, hold `source: hosted` and `description:` with its `name:` (and `url:`, read as
    the whole-file reader reads it); the package it fetches, beside a `partial` problem when the hunk does not show
    the entry's key (a key other than the name is another package). A changed `sha256:` of an entry whose version line
    is read is no move of its own; any other changed line is refused (ManifestError)."""
    line = side[index][0]
    parsed = _lock_line(line)
    if parsed is not None and parsed[:2] == (6, "sha256"):
        for at in range(index + 1, len(side)):
            item = _lock_line(side[at][0])
            if item is None or item[0] <= 2:
                break
            if item[:2] == (4, "version"):
                if not side[at][1]:
                    return _refused("a package hash moved under an unchanged version", line)
                try:
                    pubspec_lock_line(side, at)  # the version line must be one this reader reads...
                except PartlyShown:
                    pass  # ...and it says itself what the hunk does not show
                return []
        return _refused("a package hash whose version the hunk does not show", line)
    if parsed is None or parsed[:2] != (4, "version") or not parsed[2]:
        return _refused("not a hosted package's version line", line)
    keys: dict[str, str] = {}
    nested: dict[str, str] = {}
    entry = ""
    for text, _ in reversed(side[:index]):
        item = _lock_line(text)
        if item is None:
            return _refused("a line this reader cannot place above a version", text)
        depth, key, value = item
        if depth == 2 and not value:
            entry = key
            break
        if depth == 6:
            nested.setdefault(key, value)
        elif depth == 4 and key not in keys:
            keys[key] = value
            if key == "description" and value:
                return _refused("a description that is no mapping", text)
        else:
            return _refused("a line this reader cannot place above a version", text)
    # the key comes before `description:`, so a hunk that shows the key shows it too; one that does not may show only
    # the description's nested lines (pub nests no other key of an entry), and is read beside a `partial` problem
    if "version" in keys or keys.get("source") != "hosted" or not nested.get("name") \
            or entry and "description" not in keys:
        return _refused("a version whose hosted source and package name the hunk does not show", line)
    name = _hosted(entry or nested["name"], nested["name"], nested.get("url", ""))
    if not entry:
        raise PartlyShown(f"the hunk does not show the key of {name[:80]!r}'s entry", [(name, parsed[2])])
    return [(name, parsed[2])]


def _refused(why: str, line: str) -> list[tuple[str, ...]]:
    raise ManifestError(f"{why}: {line.strip()[:80]!r}")
