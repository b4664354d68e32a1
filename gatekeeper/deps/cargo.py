"""Rust crates: Cargo.toml (dependencies, dev-, build-, target-specific, workspace) and Cargo.lock."""

from __future__ import annotations

from typing import Any

from gatekeeper.deps.loaders import listing, load_toml, mapping, sourced_version, string
from gatekeeper.deps.model import Dependency, Scope

# Where a dependency table says its crate comes from instead of crates.io.
_SOURCES = ("path", "git", "registry", "registry-index")
_TABLES: dict[str, Scope] = {"dependencies": "runtime", "dev-dependencies": "dev", "build-dependencies": "build"}


def _tables(doc: dict[str, Any]) -> list[tuple[dict[str, Any], Scope]]:
    found = [(mapping(doc.get(t), t), s) for t, s in _TABLES.items()]
    for target in mapping(doc.get("target"), "target").values():
        found += [(mapping(mapping(target, "target").get(t), t), s) for t, s in _TABLES.items()]
    found.append((mapping(mapping(doc.get("workspace"), "workspace").get("dependencies"), "workspace"), "runtime"))
    return found


def parse_cargo_toml(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    for table, scope in _tables(load_toml(data)):
        for key, spec in table.items():
            name = key
            if isinstance(spec, dict):
                name = string(spec.get("package")) or key  # a renamed dependency
                version = sourced_version(spec, _SOURCES)
                if spec.get("workspace") is True:
                    version = "workspace"
            else:
                version = string(spec)
            out.append(Dependency("cargo", name, version, path, True, scope))
    return out


def parse_cargo_lock(path: str, data: bytes) -> list[Dependency]:
    doc = load_toml(data)
    out: list[Dependency] = []
    for entry in listing(doc.get("package"), "[[package]]"):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        if "source" not in entry:
            continue  # a workspace member, not a dependency
        out.append(Dependency("cargo", entry["name"], string(entry.get("version")), path, None, None))
    return out
