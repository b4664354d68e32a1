"""Realistic Decision dicts (contracts.md shape) for the report tests, from plain to hostile."""

from __future__ import annotations

import copy
from typing import Any

BASE: dict[str, Any] = {
    "outcome": "allow",
    "reasons": [],
    "policies": [{"name": "core", "version": "1.0.0"}],
    "bundle": {
        "name": "default",
        "revision": "2026.11.1",
        "commit": "4f9c2d1e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d",
        "digest": "9e1f" + "0" * 60,
    },
    "packet": {"run_id": "run-20261129-0001", "diff_sha256": "ab" * 32, "digest": "cd" * 32},
    "input_digest": "ef" * 32,
    "summary": {
        "files": 1,
        "additions": 12,
        "deletions": 3,
        "buckets": {
            "ci": {"files": 0, "additions": 0, "deletions": 0},
            "iac": {"files": 0, "additions": 0, "deletions": 0},
            "deps": {"files": 0, "additions": 0, "deletions": 0},
            "src": {"files": 1, "additions": 12, "deletions": 3},
            "other": {"files": 0, "additions": 0, "deletions": 0},
        },
    },
    "dry_run": False,
    "tool": {"name": "gatekeeper", "version": "0.1.0"},
    "decided_at": "2026-11-29T12:00:00Z",
}


def decision(**changes: Any) -> dict[str, Any]:
    """A deep copy of BASE with top-level keys replaced."""
    result = copy.deepcopy(BASE)
    result.update(copy.deepcopy(changes))
    return result


def allow() -> dict[str, Any]:
    """Nothing to say: a source-only change."""
    return decision()


def review() -> dict[str, Any]:
    """CI and IaC files changed (core), plus a size warning without paths."""
    return decision(
        outcome="review",
        policies=[{"name": "core", "version": "1.0.0"}, {"name": "size", "version": "1.1.0"}],
        reasons=[
            {
                "policy": "core",
                "rule": "core.ci",
                "level": "review",
                "msg": "CI configuration changed: a human must review",
                "bucket": "ci",
                "paths": [".github/workflows/ci.yml", "Jenkinsfile", ".circleci/config.yml"],
            },
            {
                "policy": "core",
                "rule": "core.iac",
                "level": "review",
                "msg": "infrastructure as code changed",
                "bucket": "iac",
                "paths": ["deploy/terraform/main.tf"],
            },
            {"policy": "size", "rule": "size.lines", "level": "warn", "msg": "1,204 changed lines (limit 1,000)"},
        ],
    )


def deny() -> dict[str, Any]:
    """The packet lies about the patch: an integrity finding without paths, plus a warning."""
    return decision(
        outcome="deny",
        policies=[{"name": "core", "version": "1.0.0"}, {"name": "provenance", "version": "1.0.0"}],
        reasons=[
            {
                "policy": "gatekeeper",
                "rule": "gatekeeper.integrity",
                "level": "deny",
                "msg": "the packet does not match the patch:\n- diff.sha256: packet says 00ff, patch is abab\n"
                "- files: packet omits .github/workflows/release.yml",
            },
            {
                "policy": "provenance",
                "rule": "provenance.model",
                "level": "warn",
                "msg": "model reported by nobody",
            },
        ],
    )


def hostile() -> dict[str, Any]:
    """Every character a format must escape, in paths, messages and rule text."""
    return decision(
        outcome="deny",
        dry_run=True,
        policies=[{"name": "core", "version": "1.0.0"}, {"name": "odd|policy", "version": "0.0.1-<b>"}],
        reasons=[
            {
                "policy": "gatekeeper",
                "rule": "gatekeeper.unsafe_path",
                "level": "deny",
                "msg": "unsafe path: 100% sure, see a:b,c\r\nnext line\n::set-output name=x::y",
                "paths": ["../escape\u0007.sh", "dir/\u001b[31mred\u001b[0m.txt"],
            },
            {
                "policy": "core",
                "rule": "core.ci",
                "level": "review",
                "msg": "CI <script>alert(1)</script> & `code` | pipe *bold* _it_ [link](javascript:x) $x$",
                "bucket": "ci",
                "paths": [
                    ".github/workflows/r\u00e9sum\u00e9 \u65e5\u672c.yml",
                    "ci/50%,done:now.yml",
                    "ci/line\nbreak.yml",
                    "ci/bytes\udcff\udcfe.yml",
                    "ci/`tick`|<pipe>&.yml",
                    "ci/space name #1 @someone.yml",
                ],
            },
            {
                "policy": "odd|policy",
                "rule": "odd.rule,with:chars",
                "level": "warn",
                "msg": "warn \u2014 em dash, emoji \U0001f600, tab\there",
                "paths": ["x,y:z%.txt"],
            },
        ],
    )


def many_paths(count: int = 250) -> dict[str, Any]:
    """One CI finding over many files, to check every format's bounding or completeness."""
    paths = [f".github/workflows/job-{i:04d}.yml" for i in range(count)]
    return decision(
        outcome="review",
        reasons=[
            {
                "policy": "core",
                "rule": "core.ci",
                "level": "review",
                "msg": "CI changed",
                "bucket": "ci",
                "paths": paths,
            }
        ],
    )


ALL = {"allow": allow, "review": review, "deny": deny, "hostile": hostile, "many_paths": many_paths}
