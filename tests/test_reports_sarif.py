"""`--format sarif`: validated against the official SARIF 2.1.0 JSON Schema (tests/data)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

import pytest
from decisions import ALL, allow, deny, hostile, many_paths, review
from jsonschema import Draft7Validator

from gatekeeper.reports import render
from gatekeeper.reports.sarif import path_uri

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-2.1.0.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft7Validator(SCHEMA)
# RFC 3986 relative-ref with a path only: unreserved, pct-encoded, sub-delims, ":", "@", "/";
# the first segment may not hold ":" (it would read as a scheme).
RELATIVE_REF = re.compile(r"^(?![^/]*:)(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*$")


def sarif(decision: dict[str, Any]) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(render("sarif", decision))
    errors = sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)
    return log


def test_vendored_schema_is_the_sarif_2_1_0_schema() -> None:
    Draft7Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["version"]["enum"] == ["2.1.0"]
    # The validator does reject a broken log, so a pass below means something.
    assert list(VALIDATOR.iter_errors({"version": "2.1.0", "runs": [{"results": [{"level": "fatal"}]}]}))


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_decision_is_valid_sarif(name: str) -> None:
    log = sarif(ALL[name]())
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1


def test_allow_has_an_empty_results_array_and_the_tool() -> None:
    run = sarif(allow())["runs"][0]
    assert run["results"] == []
    assert run["tool"]["driver"]["name"] == "gatekeeper"
    assert run["tool"]["driver"]["version"] == "0.1.0"
    assert run["properties"]["outcome"] == "allow"
    assert run["properties"]["bundle"]["digest"] == allow()["bundle"]["digest"]


def test_one_result_per_finding_with_one_location_per_path() -> None:
    run = sarif(review())["runs"][0]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["core.ci", "core.iac", "size.lines"]
    assert [r["level"] for r in results] == ["warning", "warning", "note"]
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"] for loc in results[0]["locations"]]
    assert uris == [".github/workflows/ci.yml", "Jenkinsfile", ".circleci/config.yml"]
    assert "locations" not in results[2]  # a path-less finding is still a result
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["core.ci", "core.iac", "size.lines"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    assert rules[2]["properties"]["policyVersion"] == "1.1.0"


def test_deny_maps_to_error_and_rules_are_unique() -> None:
    decision = deny()
    decision["reasons"].append(dict(decision["reasons"][0], msg="another difference"))
    run = sarif(decision)["runs"][0]
    assert [r["level"] for r in run["results"]] == ["error", "error", "note"]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == ["gatekeeper.integrity", "provenance.model"]
    assert run["results"][0]["message"]["text"].startswith("the packet does not match the patch:\n")


def test_hostile_paths_become_valid_percent_encoded_uris() -> None:
    decision = hostile()
    run = sarif(decision)["runs"][0]
    for reason, result in zip(
        sorted(decision["reasons"], key=lambda r: ["deny", "review", "warn"].index(r["level"])),
        run["results"],
        strict=True,
    ):
        uris = [loc["physicalLocation"]["artifactLocation"]["uri"] for loc in result["locations"]]
        for path, uri in zip(reason["paths"], uris, strict=True):
            assert RELATIVE_REF.match(uri), uri
            assert unquote_to_bytes(uri) == path.encode("utf-8", "surrogateescape")
    assert "\x1b" not in json.dumps(run, ensure_ascii=False)
    assert run["properties"]["dryRun"] is True and run["invocations"][0]["properties"]["dryRun"] is True


def test_path_uri_examples() -> None:
    assert path_uri("src/main.go") == "src/main.go"
    assert path_uri("a b/c%d.txt") == "a%20b/c%25d.txt"
    assert path_uri("x:y,z") == "x%3Ay%2Cz"
    assert path_uri("r\u00e9sum\u00e9") == "r%C3%A9sum%C3%A9"
    assert path_uri("bytes\udcff") == "bytes%FF"


def test_every_path_is_kept() -> None:
    run = sarif(many_paths(250))["runs"][0]
    assert len(run["results"][0]["locations"]) == 250
