"""Where a decision was made, from the CI's standard variables: repository, change, commits, run, actor.

Read from the job's environment (GitHub Actions `GITHUB_*` and the event payload the runner writes at
`GITHUB_EVENT_PATH`, GitLab CI `CI_*`), never from the change under review. Values are bounded strings; an
absent or malformed value is null, never guessed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gatekeeper.lazy_pattern import lazy

_MAX = 512  # a CI variable longer than this is not one the CI set
_PULL_REF = lazy(r"refs/pull/(\d+)/(?:merge|head)")
_SHA = lazy(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 or SHA-256 object names
_NUMBER = lazy(r"[1-9]\d{0,9}")
_MAX_EVENT_BYTES = 32 * 1024 * 1024  # GitHub caps webhook payloads at 25 MB


def ci_context(env: Mapping[str, str], tree: str | None = None) -> dict[str, Any] | None:
    """The record's `ci` field, or None outside a known CI and without `tree` (the gate's `--tree BASE..HEAD`)."""
    base_head = tree.split("..", 1) if tree and ".." in tree else None
    given = _bounded(tree)
    if env.get("GITHUB_ACTIONS") == "true":
        server = _get(env, "GITHUB_SERVER_URL") or "https://github.com"
        repo = _get(env, "GITHUB_REPOSITORY")
        run_id, attempt = _get(env, "GITHUB_RUN_ID"), _get(env, "GITHUB_RUN_ATTEMPT")
        run_url = f"{server}/{repo}/actions/runs/{run_id}" if repo and run_id else None
        if run_url and attempt:
            run_url += f"/attempts/{attempt}"
        pull = _PULL_REF.fullmatch(_get(env, "GITHUB_REF") or "")
        event = _pull_request(env)
        number = pull.group(1) if pull else _number(event.get("number"))
        return {
            "system": "github",
            "repository": f"{server.removeprefix('https://')}/{repo}" if repo else None,
            "change": f"{server}/{repo}/pull/{number}" if number and repo else None,
            "number": int(number) if number else None,
            "base": base_head[0] if base_head else _get(env, "GITHUB_BASE_REF"),
            "head": base_head[1] if base_head else (_get(env, "GITHUB_HEAD_REF") or _get(env, "GITHUB_SHA")),
            "base_sha": _sha(_at(event, "base", "sha")),
            "head_sha": _sha(_at(event, "head", "sha")),
            "tree": given,
            "commit": _get(env, "GITHUB_SHA"),
            "run_url": run_url,
            "actor": _get(env, "GITHUB_ACTOR"),
        }
    if env.get("GITLAB_CI") == "true":
        project_url, iid = _get(env, "CI_PROJECT_URL"), _number(_get(env, "CI_MERGE_REQUEST_IID"))
        host = _get(env, "CI_SERVER_HOST")
        path = _get(env, "CI_PROJECT_PATH")
        # A merged-results pipeline runs on a merge commit; the merge request's own head is SOURCE_BRANCH_SHA.
        head_sha = _get(env, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA") or (_get(env, "CI_COMMIT_SHA") if iid else None)
        return {
            "system": "gitlab",
            "repository": f"{host}/{path}" if host and path else path,
            "change": f"{project_url}/-/merge_requests/{iid}" if project_url and iid else None,
            "number": int(iid) if iid else None,
            "base": base_head[0] if base_head else _get(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA"),
            "head": base_head[1] if base_head else _get(env, "CI_COMMIT_SHA"),
            "base_sha": _sha(_get(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA")),
            "head_sha": _sha(head_sha),
            "tree": given,
            "commit": _get(env, "CI_COMMIT_SHA"),
            "run_url": _get(env, "CI_JOB_URL") or _get(env, "CI_PIPELINE_URL"),
            "actor": _get(env, "GITLAB_USER_LOGIN"),
        }
    if base_head:
        return {"system": None, "repository": None, "change": None, "number": None, "base": base_head[0],
                "head": base_head[1], "base_sha": None, "head_sha": None, "tree": given, "commit": None,
                "run_url": None, "actor": None}
    return None


def _pull_request(env: Mapping[str, str]) -> dict[str, Any]:
    """The `pull_request` object of the event payload (pull_request and pull_request_target events), else {}."""
    path = _get(env, "GITHUB_EVENT_PATH")
    if path is None:
        return {}
    try:
        with open(Path(path), "rb") as handle:
            data = handle.read(_MAX_EVENT_BYTES + 1)
        if len(data) > _MAX_EVENT_BYTES:
            return {}
        event = json.loads(data)
    except (OSError, ValueError, RecursionError):
        return {}  # the context is evidence, not a precondition: a record without it beats no record
    pull = event.get("pull_request") if isinstance(event, dict) else None
    return pull if isinstance(pull, dict) else {}


def _at(event: dict[str, Any], side: str, key: str) -> Any:
    ref = event.get(side)
    return ref.get(key) if isinstance(ref, dict) else None


def _sha(value: Any) -> str | None:
    return value if isinstance(value, str) and _SHA.fullmatch(value) else None


def _number(value: Any) -> str | None:
    text = str(value) if isinstance(value, int | str) and not isinstance(value, bool) else ""
    return text if _NUMBER.fullmatch(text) else None


def _bounded(value: str | None) -> str | None:
    if not value or len(value) > _MAX or any(ord(c) < 0x20 for c in value):
        return None
    return value


def _get(env: Mapping[str, str], name: str) -> str | None:
    return _bounded(env.get(name))
