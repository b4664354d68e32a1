"""Known vulnerabilities offline: OSV records (the osv.dev export's JSON files) matched against `to` versions.

Ranges are matched with the ecosystem's own ordering (SEMVER ranges with SemVer, ECOSYSTEM ranges with
PEP 440, Maven, RubyGems, ...); GIT ranges name commits, which a version cannot be placed among, so
only their explicit `versions` list counts.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gatekeeper.bounded import load_json
from gatekeeper.deps.model import Change
from gatekeeper.deps.versions import base_version, compare, compare_semver
from gatekeeper.errors import InputFileError, LimitError

OSV_ECOSYSTEMS = {"npm": "npm", "pip": "PyPI", "go": "Go", "cargo": "crates.io", "bundler": "RubyGems",
                  "composer": "Packagist", "maven": "Maven", "nuget": "NuGet", "github-actions": "GitHub Actions"}
MAX_RECORDS = 500_000
MAX_RECORD_BYTES = 4 << 20


@dataclass(frozen=True, slots=True)
class Affected:
    """One `affected[]` entry of an OSV record, for one package."""

    osv_id: str
    ecosystem: str  # ours
    ranges: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # (type, ((event, version), ...))
    versions: frozenset[str]


def _key(ecosystem: str, name: str) -> tuple[str, str]:
    if ecosystem == "pip":
        name = re.sub(r"[-_.]+", "-", name).lower()
    return ecosystem, name


def load(folder: Path) -> dict[tuple[str, str], list[Affected]]:
    """Every OSV record under `folder` (recursively), indexed by (ecosystem, package name)."""
    if not folder.is_dir():
        raise InputFileError("the advisories folder does not exist", where=str(folder),
                             hint="pass a folder of OSV JSON records (the osv.dev export, unzipped)")
    ours = {v: k for k, v in OSV_ECOSYSTEMS.items()}
    index: dict[tuple[str, str], list[Affected]] = {}
    count = 0
    for file in sorted(folder.rglob("*.json")):
        count += 1
        if count > MAX_RECORDS:
            raise InputFileError(f"more than {MAX_RECORDS} advisory files", where=str(folder))
        try:
            if file.stat().st_size > MAX_RECORD_BYTES or not file.is_file():
                raise InputFileError("not a regular file of at most 4 MiB", where=str(file))
            record = load_json(file.read_bytes(), str(file))
        except (OSError, ValueError, LimitError) as exc:
            raise InputFileError(f"not an OSV JSON record: {exc}", where=str(file),
                                 hint="remove it or take a fresh copy of the OSV export") from None
        for entry in _affected(record, file):
            package = entry["package"] if isinstance(entry.get("package"), dict) else {}
            ecosystem = ours.get(str(package.get("ecosystem", "")).split(":")[0])
            name = package.get("name")
            if ecosystem is None or not isinstance(name, str):
                continue
            ranges = tuple((str(r.get("type")), tuple((k, str(v)) for e in r.get("events") or [] if isinstance(e, dict)
                                                      for k, v in e.items()))
                           for r in entry.get("ranges") or [] if isinstance(r, dict))
            versions = frozenset(str(v) for v in entry.get("versions") or [])
            index.setdefault(_key(ecosystem, name), []).append(Affected(record["id"], ecosystem, ranges, versions))
    return index


def _affected(record: Any, file: Path) -> list[dict[str, Any]]:
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        raise InputFileError("an OSV record needs an `id`", where=str(file))
    entries = record.get("affected") or []
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def in_range(ecosystem: str, kind: str, events: tuple[tuple[str, str], ...], version: str) -> bool:
    """The OSV evaluation: walk events in version order; `introduced` opens, `fixed`/`last_affected` close."""
    def cmp(a: str, b: str) -> int | None:
        if a == "0":
            return -1 if b != "0" else 0
        return compare_semver(a, b) if kind == "SEMVER" else compare(ecosystem, a, b)

    affected = False
    for event, bound in events:
        order = cmp(bound, version)
        if order is None:
            return False  # cannot place the version: say nothing rather than guess
        if event == "introduced" and order <= 0:
            affected = True
        elif event == "fixed" and order <= 0:
            affected = False
        elif event == "last_affected" and order < 0:
            affected = False
    return affected


def mark(changes: tuple[Change, ...], index: dict[tuple[str, str], list[Affected]]) -> tuple[Change, ...]:
    """The changes with `vulnerabilities` set to the OSV ids affecting their `to` version."""
    out = []
    for change in changes:
        version = base_version(change.to_version or "") if change.to_version else None
        hits: list[str] = []
        for adv in index.get(_key(change.ecosystem, change.name), []) if version else []:
            assert version is not None
            ranged = any(kind in ("SEMVER", "ECOSYSTEM")
                         and in_range(change.ecosystem, kind, _ordered(change.ecosystem, kind, events), version)
                         for kind, events in adv.ranges)
            if ranged or version in adv.versions or change.to_version in adv.versions:
                hits.append(adv.osv_id)
        out.append(replace(change, vulnerabilities=tuple(sorted(set(hits)))) if hits else change)
    return tuple(out)


def _ordered(ecosystem: str, kind: str, events: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Events sorted by version ("0" first); a range with unorderable bounds keeps its written order."""
    def cmp(a: tuple[str, str], b: tuple[str, str]) -> int:
        if a[1] == b[1]:
            return 0
        if a[1] == "0" or b[1] == "0":
            return -1 if a[1] == "0" else 1
        order = compare_semver(a[1], b[1]) if kind == "SEMVER" else compare(ecosystem, a[1], b[1])
        return order if order is not None else 0

    return tuple(sorted(events, key=functools.cmp_to_key(cmp)))
