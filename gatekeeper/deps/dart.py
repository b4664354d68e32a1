"""Dart and Flutter packages (pub): `pubspec.yaml` and `pubspec.lock`, both YAML."""

from __future__ import annotations

from gatekeeper.deps.loaders import load_yaml, mapping, string
from gatekeeper.deps.model import Dependency, Scope

# The sections of a pubspec that declare packages; `dependency_overrides` is an override section
# (overrides.py reviews any change in it), not a declaration.
_SECTIONS: tuple[tuple[str, Scope], ...] = (("dependencies", "runtime"), ("dev_dependencies", "dev"))
_LOCK_KINDS: dict[str, tuple[bool, Scope]] = {
    "direct main": (True, "runtime"), "direct dev": (True, "dev"), "direct overridden": (True, "runtime"),
    "transitive": (False, "runtime"),
}


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
            out.append(Dependency("pub", str(name), _requirement(value), path, True, scope))
    return out


def parse_pubspec_lock(path: str, data: bytes) -> list[Dependency]:
    """Every locked package; its `dependency:` field says whether the project declares it and where.
    An unknown or missing field fails closed (direct, runtime)."""
    doc = mapping(load_yaml(data), "pubspec.lock")
    out: list[Dependency] = []
    for name, entry in mapping(doc.get("packages"), "packages").items():
        entry = mapping(entry, f"package {name}")
        direct, scope = _LOCK_KINDS.get(string(entry.get("dependency")), (True, "runtime"))
        out.append(Dependency("pub", str(name), string(entry.get("version")), path, direct, scope))
    return out
