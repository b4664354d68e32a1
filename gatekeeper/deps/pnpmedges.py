"""pnpm workspace packages moved onto a copy the lockfile already held.

A pnpm-lock.yaml lists each locked package once under `packages:` (and `snapshots:`) and, per workspace package
(`importers:`), the version each of its dependencies resolves to. A bump of one importer's dependency onto a version
another importer already used (novu's `webpack: {specifier: 5.78.0, version: 5.78.0(...)}` → `5.94.0(...)` beside
other apps at 5.94.0 and 5.78.0, under "update dependency webpack to v5.94.0") leaves the package list's versions as
they were: the whole-file reader shows nothing for it, the importers do. Only an upgrade or downgrade the package list
does not already show is added, the same change once however many importers make it (as cargo.edge_moves reads a
Cargo workspace's member edges).
"""

from __future__ import annotations

import re

from gatekeeper.deps.delta import diff
from gatekeeper.deps.loaders import load_yaml, mapping
from gatekeeper.deps.model import Change, Dependency, ManifestError
from gatekeeper.deps.npm import SECTIONS, names_package
from gatekeeper.lazy_pattern import lazy

# The first top-level key after the importers: `packages:` (every lockfile version), `snapshots:` (v9). Only the text
# above it is read (the header and the importers: a few percent of a large lockfile), so this costs little beside the
# whole-file reader's parse.
_PACKAGES = lazy(rb"^(?:packages|snapshots):", re.MULTILINE)


def _head(data: bytes) -> bytes:
    m = _PACKAGES.search(data)
    return data if m is None else data[: m.start()]


def _importers(path: str, data: bytes) -> dict[str, list[Dependency]]:
    """Each importer's registry dependencies at the version they resolve to (peers and v5's `_peer` suffix cut); a
    link, a file, a URL or an alias (`evil@1.0.0`: another package) is the whole-file reader's to tell."""
    doc = mapping(load_yaml(_head(data)), "pnpm-lock.yaml")
    v5 = str(doc.get("lockfileVersion", "")).startswith("5")
    out: dict[str, list[Dependency]] = {}
    for where, importer in (mapping(doc.get("importers"), "importers") or {".": doc}).items():
        if not isinstance(importer, dict):
            continue
        found: dict[tuple[str, str], Dependency] = {}
        for section, scope in SECTIONS.items():
            for name, entry in mapping(importer.get(section), section).items():
                ref = entry.get("version") if isinstance(entry, dict) else entry
                if not isinstance(ref, str) or not ref[:1].isdigit() or names_package(ref, v5):
                    continue
                version = ref.split("(", 1)[0].split("_", 1)[0] if v5 else ref.split("(", 1)[0]
                found.setdefault((str(name), version), Dependency("npm", str(name), version, path, True, scope))
        out[str(where)] = list(found.values())
    return out


def importer_moves(path: str, base: bytes, head: bytes, moved: set[tuple[str, str | None]]) -> list[Change]:
    """The upgrades and downgrades of importers' dependencies that `moved` (name and new version of the changes the
    package list shows) does not hold, each (name, new version) once."""
    try:
        before, after = _importers(path, base), _importers(path, head)
    except (ManifestError, RecursionError):
        return []  # the whole-file reader reports an unreadable side itself
    out: list[Change] = []
    seen = set(moved)
    for where in sorted(before.keys() & after.keys()):
        for change in diff(before[where], after[where], path):
            if change.change in ("upgraded", "downgraded") and (change.name, change.to_version) not in seen:
                seen.add((change.name, change.to_version))
                out.append(change)
    return out
