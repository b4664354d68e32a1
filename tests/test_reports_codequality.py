"""`--format codequality`: GitLab Code Quality issues, each with what GitLab requires."""

from __future__ import annotations

import json
from typing import Any

from decisions import ALL, allow, deny, hostile, review
from tables import each_case

from gatekeeper.reports import render


def issues(decision: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(render("codequality", decision))
    for issue in found:
        assert issue["type"] == "issue" and issue["check_name"] and issue["description"]
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert len(issue["fingerprint"]) == 64
        assert issue["location"]["path"] and issue["location"]["lines"]["begin"] == 1
    assert len({issue["fingerprint"] for issue in found}) == len(found)
    return found


@each_case("name", sorted(ALL))
def test_every_decision_gives_valid_issues(name: str) -> None:
    issues(ALL[name]())


def test_allow_is_an_empty_array() -> None:
    assert issues(allow()) == []


def test_one_issue_per_finding_and_path_and_fileless_at_the_anchor() -> None:
    found = issues(review())
    assert [i["location"]["path"] for i in found if i["check_name"] == "core.ci"] == [
        ".github/workflows/ci.yml", "Jenkinsfile", ".circleci/config.yml"]
    assert [i["location"]["path"] for i in found if i["check_name"] == "size.lines"] == ["README.md"]
    decision = deny()
    decision["sources"] = {"packet": ".agent/packet.json", "patch": None}
    assert {i["location"]["path"] for i in issues(decision) if i["check_name"] == "gatekeeper.integrity"} == {
        ".agent/packet.json"}
    assert {i["severity"] for i in issues(deny())} >= {"blocker"}


def test_hostile_paths_are_shown_escaped() -> None:
    text = render("codequality", hostile())
    assert "\x1b" not in json.loads(text).__repr__() and "\x1b" not in text
