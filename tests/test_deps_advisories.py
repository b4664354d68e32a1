"""OSV records (written here in the OSV export format) matched against the delta's `to` versions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gatekeeper.deps import advisories
from gatekeeper.deps.delta import diff
from gatekeeper.deps.model import Dependency
from gatekeeper.errors import InputFileError

RECORDS = {
    "npm/GHSA-jf85-cpcp-j695.json": {
        "schema_version": "1.6.0", "id": "GHSA-jf85-cpcp-j695", "modified": "2024-01-01T00:00:00Z",
        "summary": "Prototype Pollution in lodash",
        "affected": [{"package": {"ecosystem": "npm", "name": "lodash"},
                      "ranges": [{"type": "SEMVER", "events": [{"introduced": "0"}, {"fixed": "4.17.12"}]}]}]},
    "PyPI/PYSEC-2023-74.json": {
        "id": "PYSEC-2023-74", "modified": "2024-01-01T00:00:00Z",
        "affected": [{"package": {"ecosystem": "PyPI", "name": "requests"},
                      "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "2.3.0"}, {"fixed": "2.31.0"}]}],
                      "versions": ["2.3.0", "2.30.0"]}]},
    "Maven/GHSA-maven.json": {
        "id": "GHSA-maven-1", "modified": "2024-01-01T00:00:00Z",
        "affected": [{"package": {"ecosystem": "Maven", "name": "org.apache.logging.log4j:log4j-core"},
                      "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "2.0-beta9"}, {"fixed": "2.15.0"}]},
                                 {"type": "ECOSYSTEM", "events": [{"introduced": "2.16.0"},
                                                                  {"last_affected": "2.16.0"}]}]}]},
    "Go/GO-2024-1.json": {
        "id": "GO-2024-0001", "modified": "2024-01-01T00:00:00Z",
        "affected": [{"package": {"ecosystem": "Go", "name": "golang.org/x/net"},
                      "ranges": [{"type": "SEMVER", "events": [{"introduced": "0"}, {"fixed": "0.17.0"}]},
                                 {"type": "GIT", "repo": "https://go.googlesource.com/net",
                                  "events": [{"introduced": "0"}, {"fixed": "abc123"}]}]}]},
}


@pytest.fixture()
def osv_dir(tmp_path: Path) -> Path:
    for name, record in RECORDS.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record))
    return tmp_path


def _marked(osv: Path, eco: str, name: str, old: str | None, new: str | None) -> tuple[str, ...]:
    base = [Dependency(eco, name, old, "m")] if old else []
    head = [Dependency(eco, name, new, "m")] if new else []
    (change,) = advisories.mark(tuple(diff(base, head, "m")), advisories.load(osv))
    return change.vulnerabilities


@pytest.mark.parametrize("eco, name, new, hit", [
    ("npm", "lodash", "4.17.11", True),
    ("npm", "lodash", "4.17.12", False),
    ("npm", "lodash", "4.17.21", False),
    ("pip", "requests", "2.30.0", True),
    ("pip", "Requests", "2.28.1", True),  # PEP 503 names; inside the ECOSYSTEM range
    ("pip", "requests", "2.2.1", False),
    ("pip", "requests", "2.31.0", False),
    ("maven", "org.apache.logging.log4j:log4j-core", "2.14.1", True),
    ("maven", "org.apache.logging.log4j:log4j-core", "2.0", True),  # 2.0-beta9 < 2.0
    ("maven", "org.apache.logging.log4j:log4j-core", "2.15.0", False),
    ("maven", "org.apache.logging.log4j:log4j-core", "2.16.0", True),  # last_affected is inclusive
    ("maven", "org.apache.logging.log4j:log4j-core", "2.17.1", False),
    ("go", "golang.org/x/net", "v0.16.0", True),
    ("go", "golang.org/x/net", "v0.17.0", False),
])
def test_ranges(osv_dir: Path, eco: str, name: str, new: str, hit: bool) -> None:
    assert bool(_marked(osv_dir, eco, name, "0.0.1" if eco != "go" else "v0.0.1", new)) is hit


def test_added_dependency_is_checked_and_removed_is_not(osv_dir: Path) -> None:
    assert _marked(osv_dir, "npm", "lodash", None, "4.17.4") == ("GHSA-jf85-cpcp-j695",)
    assert _marked(osv_dir, "npm", "lodash", "4.17.4", None) == ()


def test_constraint_checks_its_lower_bound(osv_dir: Path) -> None:
    assert _marked(osv_dir, "npm", "lodash", None, "^4.17.4") == ("GHSA-jf85-cpcp-j695",)


def test_bad_folder_and_records(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="does not exist"):
        advisories.load(tmp_path / "nope")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(InputFileError, match="not an OSV JSON record"):
        advisories.load(tmp_path)
    (tmp_path / "bad.json").write_text('{"affected": []}')
    with pytest.raises(InputFileError, match="needs an `id`"):
        advisories.load(tmp_path)


def test_hostile_record_shapes_do_not_crash(tmp_path: Path) -> None:
    shapes = [{"id": "X-1", "affected": "nope"}, {"id": "X-2", "affected": [{"package": "npm"}]},
              {"id": "X-3", "affected": [{"package": {"ecosystem": "npm", "name": "a"},
                                          "ranges": [{"type": "SEMVER", "events": ["introduced"]}]}]},
              {"id": "X-4", "affected": [{"package": {"ecosystem": "npm", "name": "a"},
                                          "ranges": [{"type": "SEMVER", "events": [{"introduced": "main"}]}]}]}]
    for i, shape in enumerate(shapes):
        (tmp_path / f"{i}.json").write_text(json.dumps(shape))
    index = advisories.load(tmp_path)
    (change,) = advisories.mark(tuple(diff([], [Dependency("npm", "a", "1.0.0", "m")], "m")), index)
    assert change.vulnerabilities == ()
