"""JUnit XML (GitLab, Jenkins, ...): one test case per policy evaluated, plus the built-in checks.

A policy with deny or review findings fails its test case (the failure type says which); warn
findings go to the case's system-out, so a warning never turns a CI test report red.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from gatekeeper.reports.findings import Finding, display, findings, one_line, outcome, path_text

# Integrity, unsafe-path and tree-mismatch findings come from the gate itself, under this policy name.
BUILTIN_POLICY = "gatekeeper"
SUITE_NAME = "gatekeeper gate"


def render(decision: Mapping[str, Any]) -> str:
    """The decision as a JUnit XML document (UTF-8, with declaration)."""
    items = findings(decision)
    cases = _cases(decision, items)
    failures = sum(1 for _, _, found in cases if any(item.blocking for item in found))
    suites = ET.Element(
        "testsuites", {"name": "gatekeeper", "tests": str(len(cases)), "failures": str(failures), "errors": "0"}
    )
    suite = ET.SubElement(
        suites,
        "testsuite",
        {
            "name": SUITE_NAME,
            "tests": str(len(cases)),
            "failures": str(failures),
            "errors": "0",
            "skipped": "0",
        },
    )
    if decision.get("decided_at"):
        suite.set("timestamp", _xml(decision["decided_at"]))
    _properties(suite, decision)
    for name, version, found in cases:
        _case(suite, name, version, found)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _cases(decision: Mapping[str, Any], items: Sequence[Finding]) -> list[tuple[str, str, list[Finding]]]:
    by_policy: dict[str, list[Finding]] = {}
    for item in items:
        by_policy.setdefault(item.policy, []).append(item)
    cases = [(BUILTIN_POLICY, "", by_policy.pop(BUILTIN_POLICY, []))]
    for policy in decision.get("policies") or ():
        name = str(policy.get("name", ""))
        if name == BUILTIN_POLICY:
            continue
        cases.append((name, str(policy.get("version", "")), by_policy.pop(name, [])))
    # A finding from a policy the decision does not list still gets a case: never drop a reason.
    cases.extend((name, "", found) for name, found in by_policy.items())
    return cases


def _case(suite: ET.Element, name: str, version: str, found: list[Finding]) -> None:
    label = "integrity and path safety (built in)" if name == BUILTIN_POLICY else f"{name} {version}".strip()
    case = ET.SubElement(suite, "testcase", {"classname": "gatekeeper.policies", "name": _xml(label)})
    blocking = [item for item in found if item.blocking]
    if blocking:
        worst = "deny" if any(item.level == "deny" for item in blocking) else "review"
        failure = ET.SubElement(
            case,
            "failure",
            {"type": worst, "message": _xml("; ".join(f"{item.rule}: {one_line(item.msg)}" for item in blocking))},
        )
        failure.text = _xml("\n\n".join(_describe(item) for item in blocking))
    warnings = [item for item in found if not item.blocking]
    if warnings:
        out = ET.SubElement(case, "system-out")
        out.text = _xml("\n\n".join(_describe(item) for item in warnings))


def _describe(item: Finding) -> str:
    lines = [f"{item.level} {item.rule}" + (f" [{item.bucket}]" if item.bucket else ""), display(item.msg)]
    lines += [f"  - {path_text(path)}" for path in item.paths or ()]
    return "\n".join(lines)


def _properties(suite: ET.Element, decision: Mapping[str, Any]) -> None:
    bundle = decision.get("bundle") or {}
    packet = decision.get("packet") or {}
    pairs = [
        ("outcome", outcome(decision)),
        ("dry_run", "true" if decision.get("dry_run") else "false"),
        ("bundle.name", bundle.get("name")),
        ("bundle.revision", bundle.get("revision")),
        ("bundle.commit", bundle.get("commit")),
        ("bundle.digest", bundle.get("digest")),
        ("packet.run_id", packet.get("run_id")),
        ("packet.diff_sha256", packet.get("diff_sha256")),
        ("input_digest", decision.get("input_digest")),
    ]
    props = ET.SubElement(suite, "properties")
    for key, value in pairs:
        if value is not None:
            ET.SubElement(props, "property", {"name": key, "value": _xml(value)})


def _xml(text: object) -> str:
    # ElementTree escapes markup but writes XML-invalid characters as they are; display() maps
    # those (controls, non-UTF-8 bytes) to visible escapes and keeps newlines and tabs.
    return display(text)
