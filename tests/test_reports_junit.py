"""`--format junit`: parsed as XML and checked for the structure CI servers read."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from decisions import ALL, allow, deny, hostile, many_paths, review
from tables import each_case

from gatekeeper.reports import render


def parse(decision: dict) -> ET.Element:
    text = render("junit", decision)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(text.encode("utf-8"))  # expat rejects any XML-invalid character
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 1
    suite = suites[0]
    cases = suite.findall("testcase")
    failed = [case for case in cases if case.find("failure") is not None]
    for element in (root, suite):
        assert element.get("tests") == str(len(cases))
        assert element.get("failures") == str(len(failed))
        assert element.get("errors") == "0"
    for case in cases:
        assert case.get("classname") == "gatekeeper.policies" and case.get("name")
        assert len(case.findall("failure")) <= 1  # the JUnit schema allows one per case
        assert set(child.tag for child in case) <= {"failure", "system-out"}
    return root


def cases(root: ET.Element) -> dict[str, ET.Element]:
    return {case.get("name", ""): case for case in root.iter("testcase")}


def properties(root: ET.Element) -> dict[str, str]:
    return {p.get("name", ""): p.get("value", "") for p in root.iter("property")}


def test_allow_every_policy_passes() -> None:
    root = parse(allow())
    assert list(cases(root)) == ["integrity and path safety (built in)", "core 1.0.0"]
    assert not list(root.iter("failure"))
    props = properties(root)
    assert props["outcome"] == "allow" and props["dry_run"] == "false"
    assert props["bundle.digest"] == allow()["bundle"]["digest"]
    assert props["packet.run_id"] == "run-20261129-0001"
    assert root.find("testsuite").get("timestamp") == "2026-11-29T12:00:00Z"  # type: ignore[union-attr]


def test_review_fails_its_policy_and_warn_goes_to_system_out() -> None:
    root = parse(review())
    by_name = cases(root)
    failure = by_name["core 1.0.0"].find("failure")
    assert failure is not None and failure.get("type") == "review"
    assert failure.get("message") == (
        "core.ci: CI configuration changed: a human must review; core.iac: infrastructure as code changed"
    )
    assert "  - .github/workflows/ci.yml\n  - Jenkinsfile\n  - .circleci/config.yml" in (failure.text or "")
    size = by_name["size 1.1.0"]
    assert size.find("failure") is None
    assert "1,204 changed lines" in (size.findtext("system-out") or "")


def test_deny_fails_the_built_in_case() -> None:
    root = parse(deny())
    failure = cases(root)["integrity and path safety (built in)"].find("failure")
    assert failure is not None and failure.get("type") == "deny"
    assert "diff.sha256: packet says 00ff" in (failure.text or "")
    assert cases(root)["core 1.0.0"].find("failure") is None
    assert cases(root)["provenance 1.0.0"].find("system-out") is not None


def test_hostile_text_is_escaped_and_stays_valid_xml() -> None:
    root = parse(hostile())
    builtin = cases(root)["integrity and path safety (built in)"].find("failure")
    assert builtin is not None
    # A line that starts with `::` is a GitHub command wherever it is printed: its first `:` is escaped (red team 49).
    assert "unsafe path: 100% sure, see a:b,c\nnext line\n\\x3a:set-output name=x::y" in (builtin.text or "")
    assert "- dir/\\x1b[31mred\\x1b[0m.txt" in (builtin.text or "")
    core = cases(root)["core 1.0.0"].find("failure")
    assert core is not None
    assert "CI <script>alert(1)</script> & `code`" in (core.text or "")  # escaped on the wire, intact parsed
    assert "ci/bytes\\xff\\xfe.yml" in (core.text or "")
    assert "r\u00e9sum\u00e9 \u65e5\u672c" in (core.text or "")
    assert "odd|policy 0.0.1-<b>" in cases(root)
    assert properties(root)["dry_run"] == "true"
    raw = render("junit", hostile())
    assert "<script>" not in raw and "&lt;script&gt;" in raw


def test_a_finding_from_an_unlisted_policy_still_gets_a_case() -> None:
    decision = review()
    decision["reasons"].append({"policy": "ghost", "rule": "ghost.x", "level": "deny", "msg": "boo"})
    root = parse(decision)
    assert cases(root)["ghost"].find("failure") is not None


def test_all_paths_are_listed() -> None:
    root = parse(many_paths(250))
    assert (cases(root)["core 1.0.0"].findtext("failure") or "").count("  - .github/workflows/job-") == 250


@each_case("name", sorted(ALL))
def test_every_decision_is_valid_junit(name: str) -> None:
    parse(ALL[name]())
