"""SARIF 2.1.0 (code scanning): one result per finding, one location per path, rules by id.

GitHub code scanning rejects a whole upload when one result has no location, so a finding without
paths (integrity, tree mismatch, provenance, sandbox, size, ...) is located at the file that stands
for it: the packet when it lies in the repository, else the patch, else the repository's README.md
(`decision["sources"]`, set by the gate step; see docs/ci.md#report-formats).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from gatekeeper.readable import inert_json
from gatekeeper.reports.findings import Finding, display, findings, outcome

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS: Mapping[str, str] = {"deny": "error", "review": "warning", "warn": "note"}
# Paths in a patch are relative to the repository root; consumers resolve this base themselves.
SRCROOT = "%SRCROOT%"
# Characters quote() leaves alone: a path made only of them is already a valid URI reference.
_PLAIN = re.compile(r"[A-Za-z0-9_.~/-]*")
# The stand-in of a file-less finding when neither the packet nor the patch lies in the repository.
FALLBACK_FILE = "README.md"
# GitHub accepts at most 1,000 locations per result (and shows 100); the rest are counted in properties.
MAX_LOCATIONS = 1000


def render(decision: Mapping[str, Any]) -> str:
    """The decision as one SARIF log with a single run, on one line (`jq .` indents it)."""
    # Not indented: json's C encoder only runs without `indent`, and a 10,000-path log is then
    # ten times faster to write; SARIF is read by tools.
    return inert_json(json.dumps(sarif_log(decision), ensure_ascii=True)) + "\n"


def sarif_log(decision: Mapping[str, Any]) -> dict[str, Any]:
    """The SARIF log object (a dict ready for `json.dumps`)."""
    items = findings(decision)
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    versions = {p.get("name"): p.get("version") for p in decision.get("policies") or ()}
    for item in items:
        if item.rule not in index:
            index[item.rule] = len(rules)
            rules.append(_rule(item, versions.get(item.policy)))
    tool = decision.get("tool") or {}
    driver: dict[str, Any] = {"name": str(tool.get("name") or "gatekeeper"), "rules": rules}
    if tool.get("version"):
        driver["version"] = str(tool["version"])
        driver["semanticVersion"] = str(tool["version"])
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [{"executionSuccessful": True, "properties": {"dryRun": bool(decision.get("dry_run"))}}],
        "results": [_result(item, index[item.rule], anchor_file(decision)) for item in items],
        "columnKind": "unicodeCodePoints",
        "properties": _run_properties(decision),
    }
    if decision.get("decided_at"):
        run["invocations"][0]["endTimeUtc"] = str(decision["decided_at"])
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def path_uri(path: str) -> str:
    """A repository path as a relative URI reference: its bytes percent-encoded, `/` kept."""
    # surrogateescape gives back the exact bytes of a non-UTF-8 path; quote() leaves only
    # unreserved characters and `/`, so `:` in a first segment can never read as a scheme.
    if _PLAIN.fullmatch(path):
        return path  # the common case, and quote() is slow enough to show on 10,000 paths
    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def _rule(item: Finding, version: object) -> dict[str, Any]:
    # Tags are a set in SARIF: the built-in policy is itself called "gatekeeper".
    properties: dict[str, Any] = {"policy": item.policy, "tags": sorted({"gatekeeper", item.policy})}
    if version:
        properties["policyVersion"] = str(version)
    return {
        "id": item.rule,
        "name": item.rule,
        "shortDescription": {"text": f"gatekeeper policy {display(item.policy)}: rule {display(item.rule)}"},
        "defaultConfiguration": {"level": LEVELS.get(item.level, "error")},
        "properties": properties,
    }


def anchor_file(decision: Mapping[str, Any]) -> str:
    """The repository path a file-less finding is located at: the packet, else the patch, else README.md."""
    sources = decision.get("sources") or {}
    for key in ("packet", "patch"):
        path = sources.get(key)
        if isinstance(path, str) and path:
            return path
    return FALLBACK_FILE


def _location(path: str) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": path_uri(path), "uriBaseId": SRCROOT}}}


def _result(item: Finding, rule_index: int, anchor: str) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": item.rule,
        "ruleIndex": rule_index,
        "level": LEVELS.get(item.level, "error"),
        "kind": "fail",
        "message": {"text": display(item.msg) or item.rule},
        "properties": {"policy": item.policy, "gatekeeperLevel": item.level},
    }
    if item.bucket:
        result["properties"]["bucket"] = item.bucket
    if item.paths:
        result["locations"] = [_location(path) for path in (item.paths or ())[:MAX_LOCATIONS]]
        if len(item.paths or ()) > MAX_LOCATIONS:
            result["properties"]["pathCount"] = len(item.paths or ())
    else:
        result["locations"] = [_location(anchor)]
        result["properties"]["fileless"] = True  # the location stands for the change, not a line in it
    return result


def _run_properties(decision: Mapping[str, Any]) -> dict[str, Any]:
    bundle = decision.get("bundle") or {}
    packet = decision.get("packet") or {}
    return {
        "outcome": outcome(decision),
        "dryRun": bool(decision.get("dry_run")),
        "bundle": {key: bundle.get(key) for key in ("name", "revision", "commit", "digest")},
        "packet": {key: packet.get(key) for key in ("run_id", "diff_sha256", "digest")},
        "inputDigest": decision.get("input_digest"),
        "policies": list(decision.get("policies") or ()),
    }
