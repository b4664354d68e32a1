"""GitLab Code Quality (a JSON array of issues): one issue per finding and path, in the merge request widget.

GitLab needs `description`, `check_name`, `fingerprint`, `severity` and `location.path` with
`location.lines.begin` in every issue; a finding without paths is located where SARIF locates it
(the packet in the checkout, else the patch, else README.md) at line 1.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from gatekeeper.readable import inert_json
from gatekeeper.reports.findings import Finding, display, findings
from gatekeeper.reports.sarif import anchor_file

SEVERITIES: Mapping[str, str] = {"deny": "blocker", "review": "major", "warn": "minor"}


def render(decision: Mapping[str, Any]) -> str:
    """The findings as a Code Quality report (`artifacts:reports:codequality`)."""
    anchor = anchor_file(decision)
    issues = [_issue(item, path) for item in findings(decision) for path in (item.paths or (anchor,))]
    return inert_json(json.dumps(issues, indent=1, ensure_ascii=True)) + "\n"


def _issue(item: Finding, path: str) -> dict[str, Any]:
    # The fingerprint tells GitLab which issues are the same across pipelines (new / resolved in the widget).
    identity = "\0".join((item.rule, path, item.msg)).encode("utf-8", "surrogateescape")
    return {
        "type": "issue",
        "check_name": item.rule,
        "description": f"{display(item.msg) or item.rule} (policy {display(item.policy)}, {item.level})",
        "categories": ["Security"],
        "severity": SEVERITIES.get(item.level, "blocker"),
        "fingerprint": hashlib.sha256(identity).hexdigest(),
        "location": {"path": display(path), "lines": {"begin": 1}},
    }
