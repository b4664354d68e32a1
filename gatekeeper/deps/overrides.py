"""Sections of a manifest that send a known dependency to another source or version, or run code on install, which
the delta's parsers do not model: npm/yarn/pnpm `overrides`/`resolutions` (pnpm 10 keeps them in pnpm-workspace.yaml),
npm's install hooks (`postinstall`, ...) and which dependencies may run theirs, Composer's `scripts`,
Cargo `[patch]`/`[replace]`, pub's `dependency_overrides`, Bazel's `*_override()` calls (and any MODULE.bazel edit
beyond what bazel.py reads; any Package.swift edit beyond its `.package(...)` calls, any mix.exs edit beyond its deps
list), uv's and Poetry's sources and indexes. A git source swapped in there beside an ordinary bump would read as
the bump alone, so a change in any of them is a `partial` problem (the `deps` policy reviews it), never silence.
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps.bazel import OVERRIDE, residue
from gatekeeper.deps.cocoapods import moved_checksums
from gatekeeper.deps.devcontainer import moved_digests
from gatekeeper.deps.loaders import load_json, load_toml, load_yaml, text
from gatekeeper.deps.lockedsources import moved_sources
from gatekeeper.deps.mixexs import residue as mix_residue
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.rebar import moved_hashes
from gatekeeper.deps.residue import changed as residue_changed
from gatekeeper.deps.swift import moved_revisions
from gatekeeper.deps.swiftmanifest import residue as swift_residue


def _get(doc: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc


# What installing runs without being asked (red team: a `postinstall` beside a bump read as the bump alone): npm's
# lifecycle hooks of the project itself, and which dependencies' own install scripts pnpm and bun let run.
_NPM_INSTALL_HOOKS = ("preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare", "prepublish",
                      "dependencies")


def _sections(name: str, data: bytes) -> dict[str, Any] | None:
    if name == "package.json":
        doc = load_json(data)
        scripts = _get(doc, "scripts")
        return {"overrides": _get(doc, "overrides"), "resolutions": _get(doc, "resolutions"),
                "pnpm.overrides": _get(doc, "pnpm", "overrides"),
                "pnpm.patchedDependencies": _get(doc, "pnpm", "patchedDependencies"),
                "pnpm.onlyBuiltDependencies": _get(doc, "pnpm", "onlyBuiltDependencies"),
                "pnpm.neverBuiltDependencies": _get(doc, "pnpm", "neverBuiltDependencies"),
                "trustedDependencies": _get(doc, "trustedDependencies"),
                **{f"scripts.{hook}": _get(scripts, hook) for hook in _NPM_INSTALL_HOOKS}}
    if name == "composer.json":  # an event script (post-install-cmd, ...) may call any other script: all of them
        return {"scripts": _get(load_json(data), "scripts")}
    if name == "pnpm-workspace.yaml":
        doc = load_yaml(data)
        return {"overrides": _get(doc, "overrides"), "patchedDependencies": _get(doc, "patchedDependencies"),
                "packageExtensions": _get(doc, "packageExtensions")}
    if name == "MODULE.bazel":
        return {"*_override": OVERRIDE.findall(text(data))}
    if name == "pubspec.yaml":
        return {"dependency_overrides": _get(load_yaml(data), "dependency_overrides")}
    if name == "Cargo.toml":
        doc = load_toml(data)
        return {"patch": _get(doc, "patch"), "replace": _get(doc, "replace")}
    if name == "pyproject.toml":
        doc = load_toml(data)
        return {"tool.uv.sources": _get(doc, "tool", "uv", "sources"),
                "tool.uv.index": _get(doc, "tool", "uv", "index"),
                "tool.uv.override-dependencies": _get(doc, "tool", "uv", "override-dependencies"),
                "tool.poetry.source": _get(doc, "tool", "poetry", "source")}
    return None


def changed_overrides(path: str, base: bytes | None, head: bytes | None) -> list[str]:
    """The override sections of `path` whose content differs between the two sides (empty when none, when the
    file is not such a manifest, or when a side does not parse: the parsers report that themselves)."""
    name = path.rsplit("/", 1)[-1]
    if residue_changed(path, base, head):
        return ["build logic or download location"]
    if name == "MODULE.bazel" and base is not None and head is not None and residue(base) != residue(head):
        return ["build logic or download location"]
    if name in ("Package.swift", "mix.exs") and base is not None and head is not None:
        left_over = swift_residue if name == "Package.swift" else mix_residue
        try:
            if left_over(base) != left_over(head):
                return ["build logic or download location"]
        except ManifestError:
            pass  # the parser reports an unreadable side itself
    pinned = {"Package.resolved": moved_revisions, "devcontainer-lock.json": moved_digests,
              ".devcontainer-lock.json": moved_digests, "Podfile.lock": moved_checksums,
              "rebar.lock": moved_hashes}.get(name)
    if pinned is not None and base is not None and head is not None:
        try:
            return pinned(base, head)
        except (ManifestError, RecursionError):
            return []  # the parser reports an unreadable side itself
    if base is not None and head is not None:
        try:  # a locked entry fetched from elsewhere, or trusting another checksum, at the same version
            if moved := moved_sources(name, base, head):
                return moved
        except (ManifestError, RecursionError):
            return []  # the parser reports an unreadable side itself
    try:
        before = _sections(name, base) if base is not None else {}
        after = _sections(name, head) if head is not None else {}
    except (ManifestError, RecursionError):
        return []
    if before is None or after is None:
        return []
    return sorted(key for key in {*before, *after} if before.get(key) != after.get(key))
