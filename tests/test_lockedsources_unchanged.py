"""lockedsources.moved_sources skips the leaves of head entries found unchanged in the base lockfile (a bump leaves
thousands as they were). The skip must never hide a move: "unchanged" is exact (place, version and the source's
repr, so 1, 1.0, true and "1" differ, as their JSON leaves do), and what is skipped is always in the base's leaves
of that place and version."""

from __future__ import annotations

import json
import random
from typing import Any

from tables import each_case

from gatekeeper.deps.lockedsources import READERS, _leaves_of, _sources, moved_sources

_URL = "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"


def _lock(packages: dict[str, Any], v1: dict[str, Any] | None = None) -> bytes:
    doc: dict[str, Any] = {"name": "app", "lockfileVersion": 2 if v1 else 3, "packages": {"": {"name": "app"},
                                                                                         **packages}}
    if v1:
        doc["dependencies"] = v1
    return json.dumps(doc).encode()


def _entry(resolved: Any, version: str = "1.3.0") -> dict[str, Any]:
    return {"version": version, "resolved": resolved, "integrity": "sha512-aa"}


@each_case(("before", "after"), [(1, True), (True, 1), (1, 1.0), ("1", 1), (None, 0), (0, False)])
def test_a_source_equal_in_python_but_not_in_json_still_moves(before: Any, after: Any) -> None:
    base = _lock({"node_modules/left-pad": _entry(before)})
    head = _lock({"node_modules/left-pad": _entry(after)})
    assert moved_sources("package-lock.json", base, head) == ["the download location of node_modules/left-pad@1.3.0"]


def test_an_unchanged_copy_does_not_hide_its_changed_twin() -> None:
    # npm v2 writes each entry twice (`packages` and v1's `dependencies`): one copy left as it was, one moved.
    base = _lock({"node_modules/left-pad": _entry(_URL)}, {"left-pad": _entry(_URL)})
    head = _lock({"node_modules/left-pad": _entry(_URL)}, {"left-pad": _entry("https://evil.example/lp.tgz")})
    assert moved_sources("package-lock.json", base, head) == ["the download location of left-pad@1.3.0"]


def test_unchanged_entries_are_quiet_beside_a_moved_one() -> None:
    packages = {f"node_modules/p{i}": _entry(f"https://registry.npmjs.org/p{i}/-/p{i}-1.3.0.tgz") for i in range(50)}
    moved = {**packages, "node_modules/p7": _entry("https://evil.example/p7.tgz")}
    assert moved_sources("package-lock.json", _lock(packages), _lock(moved)) == [
        "the download location of node_modules/p7@1.3.0"]
    assert moved_sources("package-lock.json", _lock(packages), _lock(packages)) == []


def test_what_is_skipped_is_always_in_the_base_leaves_of_its_place_and_version() -> None:
    """The property that makes the skip exact, on mutated lockfiles: every leaf the skip leaves out of HEAD's
    entries is one BASE has at the same place and version (so `new` and the hosts compared stay the same)."""
    rnd = random.Random(14)
    values = [1, True, 1.0, "1", None, _URL, "https://evil.example/x.tgz", [], {}, ["a"], {"a": 1}, {"a": True}]
    read = READERS["package-lock.json"]
    for _ in range(200):
        packages = {f"node_modules/p{i}": _entry(f"https://registry.npmjs.org/p{i}.tgz") for i in range(12)}
        base = _lock(packages)
        for _ in range(rnd.randint(1, 4)):
            key = rnd.choice(sorted(packages))
            entry = dict(packages[key])
            field = rnd.choice(["resolved", "version", "dependencies", "name"])
            entry[field] = rnd.choice(values) if field != "version" else rnd.choice(["1.3.0", "1.3.1"])
            packages[key] = entry
        head = _lock(packages)
        before, unchanged = _sources(read, base)
        whole, _ = _sources(read, head)
        kept, _ = _sources(read, head, unchanged)
        for where, versions in whole.items():
            for version, sources in versions.items():
                left_out = _leaves_of(sources) - _leaves_of(kept.get(where, {}).get(version, []))
                assert left_out <= _leaves_of(before.get(where, {}).get(version, [])), (where, version, left_out)
