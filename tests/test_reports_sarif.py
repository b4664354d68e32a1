"""`--format sarif`: validated against the official SARIF 2.1.0 JSON Schema (tests/data)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

from decisions import ALL, allow, deny, hostile, many_paths, review
from jsonschema import Draft7Validator
from tables import each_case

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
    assert not github_problems(log), github_problems(log)
    return log


def github_problems(log: dict[str, Any]) -> list[str]:
    """What GitHub code scanning's upload refuses or drops (docs: "SARIF support for code scanning")."""
    problems = []
    if len(log["runs"]) > 20:
        problems.append("more than 20 runs")
    for run in log["runs"]:
        rules = {rule["id"] for rule in run["tool"]["driver"].get("rules", [])}
        if not run["tool"]["driver"].get("name"):
            problems.append("tool.driver.name missing")
        if len(run["results"]) > 25_000:
            problems.append("more than 25,000 results")
        for number, result in enumerate(run["results"]):
            where = f"result {number}"
            if not result.get("ruleId") or result["ruleId"] not in rules:
                problems.append(f"{where}: ruleId missing or not among the rules")
            if not (result.get("message") or {}).get("text"):
                problems.append(f"{where}: message.text missing")
            locations = result.get("locations") or []
            if not locations:
                problems.append(f"{where}: no location")
            if len(locations) > 1000:
                problems.append(f"{where}: more than 1,000 locations")
            for location in locations:
                artifact = location.get("physicalLocation", {}).get("artifactLocation", {})
                uri = artifact.get("uri")
                if not uri or not RELATIVE_REF.match(uri):
                    problems.append(f"{where}: uri {uri!r} is not a relative reference")
                region = location["physicalLocation"].get("region")
                if region is not None and region.get("startLine", 1) < 1:
                    problems.append(f"{where}: startLine below 1")
    return problems


def test_the_github_check_rejects_what_github_rejects() -> None:
    log = json.loads(render("sarif", review()))
    del log["runs"][0]["results"][0]["locations"]
    log["runs"][0]["results"][1]["ruleId"] = "nope"
    assert any("no location" in p for p in github_problems(log))
    assert any("ruleId" in p for p in github_problems(log))


@each_case(("sources", "uri"), [
    ({"packet": ".agent/packet.json", "patch": ".agent/patch.diff"}, ".agent/packet.json"),
    ({"packet": None, "patch": ".agent/patch.diff"}, ".agent/patch.diff"),
    ({"packet": None, "patch": None}, "README.md"),
    ({"packet": ".agent/p ack:et.json", "patch": None}, ".agent/p%20ack%3Aet.json"),
])
def test_a_fileless_finding_is_located_at_the_packet_else_the_patch_else_readme(
    sources: dict[str, Any], uri: str
) -> None:
    decision = deny()
    decision["sources"] = sources
    for result in sarif(decision)["runs"][0]["results"]:
        if result["properties"].get("fileless"):
            assert [loc["physicalLocation"]["artifactLocation"]["uri"] for loc in result["locations"]] == [uri]


def test_vendored_schema_is_the_sarif_2_1_0_schema() -> None:
    Draft7Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["version"]["enum"] == ["2.1.0"]
    # The validator does reject a broken log, so a pass below means something.
    assert list(VALIDATOR.iter_errors({"version": "2.1.0", "runs": [{"results": [{"level": "fatal"}]}]}))


@each_case("name", sorted(ALL))
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
    # A path-less finding is located at the stand-in file (GitHub rejects a result without a location).
    assert results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "README.md"
    assert results[2]["properties"]["fileless"] is True
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


def test_locations_stop_at_githubs_cap_and_the_total_is_kept() -> None:
    result = sarif(many_paths(1500))["runs"][0]["results"][0]
    assert len(result["locations"]) == 1000 and result["properties"]["pathCount"] == 1500
