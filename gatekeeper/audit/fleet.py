"""Where a decision was made, from the CI's standard variables: repository, change, commits, run, actor.

Read from the job's environment (GitHub Actions `GITHUB_*`, GitLab CI `CI_*`), never from the change
under review. Values are bounded strings; an absent variable is null, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_MAX = 512  # a CI variable longer than this is not one the CI set
_PULL_REF = re.compile(r"refs/pull/(\d+)/(?:merge|head)")


def ci_context(env: Mapping[str, str], tree: str | None = None) -> dict[str, Any] | None:
    """The record's `ci` field, or None outside a known CI. `tree` is the gate's `--tree BASE..HEAD`."""
    base_head = tree.split("..", 1) if tree and ".." in tree else None
    if env.get("GITHUB_ACTIONS") == "true":
        server = _get(env, "GITHUB_SERVER_URL") or "https://github.com"
        repo = _get(env, "GITHUB_REPOSITORY")
        run_id, attempt = _get(env, "GITHUB_RUN_ID"), _get(env, "GITHUB_RUN_ATTEMPT")
        run_url = f"{server}/{repo}/actions/runs/{run_id}" if repo and run_id else None
        if run_url and attempt:
            run_url += f"/attempts/{attempt}"
        pull = _PULL_REF.fullmatch(_get(env, "GITHUB_REF") or "")
        return {
            "system": "github",
            "repository": f"{server.removeprefix('https://')}/{repo}" if repo else None,
            "change": f"{server}/{repo}/pull/{pull.group(1)}" if pull and repo else None,
            "base": base_head[0] if base_head else _get(env, "GITHUB_BASE_REF"),
            "head": base_head[1] if base_head else (_get(env, "GITHUB_HEAD_REF") or _get(env, "GITHUB_SHA")),
            "commit": _get(env, "GITHUB_SHA"),
            "run_url": run_url,
            "actor": _get(env, "GITHUB_ACTOR"),
        }
    if env.get("GITLAB_CI") == "true":
        project_url, iid = _get(env, "CI_PROJECT_URL"), _get(env, "CI_MERGE_REQUEST_IID")
        host = _get(env, "CI_SERVER_HOST")
        path = _get(env, "CI_PROJECT_PATH")
        return {
            "system": "gitlab",
            "repository": f"{host}/{path}" if host and path else path,
            "change": f"{project_url}/-/merge_requests/{iid}" if project_url and iid else None,
            "base": base_head[0] if base_head else _get(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA"),
            "head": base_head[1] if base_head else _get(env, "CI_COMMIT_SHA"),
            "commit": _get(env, "CI_COMMIT_SHA"),
            "run_url": _get(env, "CI_JOB_URL") or _get(env, "CI_PIPELINE_URL"),
            "actor": _get(env, "GITLAB_USER_LOGIN"),
        }
    if base_head:
        return {"system": None, "repository": None, "change": None, "base": base_head[0], "head": base_head[1],
                "commit": None, "run_url": None, "actor": None}
    return None


def _get(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name)
    if not value or len(value) > _MAX or any(ord(c) < 0x20 for c in value):
        return None
    return value
