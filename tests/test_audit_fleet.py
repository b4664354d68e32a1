"""Fleet fields from the CI's variables, and `audit stats` across repositories, buckets and a week window."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.audit.fleet import ci_context
from gatekeeper.audit.gitlog import append_git, parse_spec
from gatekeeper.audit.log import append_decision
from gatekeeper.cli import main

GITLAB = {"GITLAB_CI": "true", "CI_SERVER_HOST": "gitlab.example", "CI_PROJECT_PATH": "infra/net",
          "CI_PROJECT_URL": "https://gitlab.example/infra/net", "CI_MERGE_REQUEST_IID": "5",
          "CI_MERGE_REQUEST_DIFF_BASE_SHA": "a" * 40, "CI_COMMIT_SHA": "b" * 40,
          "CI_JOB_URL": "https://gitlab.example/infra/net/-/jobs/9", "GITLAB_USER_LOGIN": "alice"}


def test_gitlab_variables() -> None:
    assert ci_context(GITLAB, "origin/main..HEAD") == {
        "system": "gitlab", "repository": "gitlab.example/infra/net",
        "change": "https://gitlab.example/infra/net/-/merge_requests/5", "number": 5,
        "base": "origin/main", "head": "HEAD", "base_sha": "a" * 40, "head_sha": "b" * 40,
        "tree": "origin/main..HEAD", "commit": "b" * 40, "run_url": "https://gitlab.example/infra/net/-/jobs/9",
        "actor": "alice"}
    # A merged-results pipeline runs on a merge commit: the request's own head is SOURCE_BRANCH_SHA.
    merged = ci_context({**GITLAB, "CI_COMMIT_SHA": "c" * 40, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": "d" * 40})
    assert merged is not None and (merged["head_sha"], merged["commit"]) == ("d" * 40, "c" * 40)
    # Outside a merge request pipeline there is no change, number or head of one.
    branch = ci_context({k: v for k, v in GITLAB.items() if k != "CI_MERGE_REQUEST_IID"})
    assert branch is not None and (branch["number"], branch["change"], branch["head_sha"]) == (None, None, None)


def github_env(tmp_path: Path, event: object, **extra: str) -> dict[str, str]:
    path = tmp_path / "event.json"
    path.write_text(event if isinstance(event, str) else json.dumps(event))
    return {"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_RUN_ID": "77",
            "GITHUB_RUN_ATTEMPT": "2", "GITHUB_SHA": "e" * 40, "GITHUB_EVENT_PATH": str(path), **extra}


def test_github_pull_request_from_the_event_payload(tmp_path: Path) -> None:
    event = {"number": 12, "pull_request": {"number": 12, "base": {"sha": "a" * 40, "ref": "main"},
                                             "head": {"sha": "b" * 40, "ref": "agent/fix"}}}
    env = github_env(tmp_path, event, GITHUB_REF="refs/pull/12/merge", GITHUB_BASE_REF="main",
                     GITHUB_HEAD_REF="agent/fix")
    assert ci_context(env, "a..b") == {
        "system": "github", "repository": "github.com/acme/shop", "change": "https://github.com/acme/shop/pull/12",
        "number": 12, "base": "a", "head": "b", "base_sha": "a" * 40, "head_sha": "b" * 40, "tree": "a..b",
        "commit": "e" * 40, "run_url": "https://github.com/acme/shop/actions/runs/77/attempts/2", "actor": None}
    # pull_request_target runs on the base branch (GITHUB_REF is not refs/pull/...): the payload still names it.
    target = ci_context(github_env(tmp_path, event, GITHUB_REF="refs/heads/main"))
    assert target is not None and target["number"] == 12 and target["change"].endswith("/pull/12")


@each_case("event", [
    "not json", "[]", "{\"pull_request\": 3}", json.dumps({"pull_request": {"number": True}}),
    json.dumps({"pull_request": {"number": "12; rm -rf /", "base": {"sha": "A" * 40}, "head": {"sha": "b" * 39}}}),
    json.dumps({"pull_request": {"number": -1, "base": {"sha": ["a" * 40]}, "head": "b" * 40}}),
    "[" * 100_000,
])
def test_a_malformed_event_payload_gives_nulls_never_a_crash(tmp_path: Path, event: str) -> None:
    context = ci_context(github_env(tmp_path, event))
    assert context is not None
    assert (context["number"], context["change"], context["base_sha"], context["head_sha"]) == (None,) * 4
    assert context["repository"] == "github.com/acme/shop"


def test_a_missing_or_unreadable_event_file_gives_nulls(tmp_path: Path) -> None:
    env = github_env(tmp_path, {})
    env["GITHUB_EVENT_PATH"] = str(tmp_path / "gone.json")
    assert ci_context(env)["base_sha"] is None
    env["GITHUB_EVENT_PATH"] = str(tmp_path)  # a folder
    assert ci_context(env)["base_sha"] is None


def test_tree_range_wins_and_nothing_is_guessed() -> None:
    assert ci_context({}) is None
    assert ci_context({}, "main..HEAD")["base"] == "main"
    github = ci_context({"GITHUB_ACTIONS": "true", "GITHUB_REF": "refs/heads/main"}, "x..y")
    assert github is not None and github["change"] is None and (github["base"], github["head"]) == ("x", "y")
    assert github["repository"] is None and github["run_url"] is None


def test_hostile_ci_values_are_dropped() -> None:
    env = {**GITLAB, "GITLAB_USER_LOGIN": "mallory\n2026 forged line", "CI_PROJECT_PATH": "x" * 10_000}
    context = ci_context(env)
    assert context is not None and context["actor"] is None and context["repository"] is None


def _decision(n: int, buckets: dict[str, int], outcome: str) -> dict:
    return {
        "outcome": outcome, "reasons": [], "policies": [{"name": "core", "version": "1.0.0"}],
        "bundle": {"name": "b", "revision": "1", "commit": None, "digest": "0" * 64},
        "packet": {"run_id": f"run-{n}", "diff_sha256": "0" * 64, "digest": "0" * 64},
        "summary": {"files": sum(buckets.values()), "additions": 1, "deletions": 0,
                    "buckets": {b: {"files": f, "additions": f, "deletions": 0} for b, f in buckets.items()}},
        "input_digest": "0" * 64, "dry_run": False, "tool": {"name": "gatekeeper", "version": "0.1.0"},
    }


def test_last_week_ci_iac_changes_sent_to_a_human_across_repositories(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(18)
    log = tmp_path / "decisions.jsonl"
    week_start = dt.datetime(2026, 11, 23, tzinfo=dt.UTC)  # Monday of ISO week 2026-W48
    truth = {"in_week": 0, "touching": 0, "to_human": 0, "per_repo": {}}
    for n in range(120):
        when = week_start + dt.timedelta(hours=rng.randrange(-7 * 24, 14 * 24))
        buckets = {b: rng.choice([0, 0, 1, 2]) for b in ("ci", "iac", "src")}
        touching = bool(buckets["ci"] or buckets["iac"])
        outcome = "review" if touching and rng.random() < 0.9 else rng.choice(["allow", "allow", "deny"])
        repo = rng.choice(["acme/web", "acme/infra", "acme/ops"])
        ci = ci_context({"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": repo})
        append_decision(log, _decision(n, buckets, outcome), at=when.isoformat().replace("+00:00", "Z"), ci=ci)
        if week_start <= when < week_start + dt.timedelta(days=7):
            truth["in_week"] += 1
            truth["per_repo"][f"github.com/{repo}"] = truth["per_repo"].get(f"github.com/{repo}", 0) + 1
            if touching:
                truth["touching"] += 1
                truth["to_human"] += outcome == "review"
    command = ["audit", "stats", str(log), "--since", "2026-11-23", "--until", "2026-11-30",
               "--bucket", "ci", "--bucket", "iac"]
    assert main([*command, "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["in_period"] == truth["in_week"]
    assert stats["decisions"] == truth["touching"]
    assert stats["outcomes"]["review"] == truth["to_human"]
    assert main(command) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{truth['touching']} decisions touching ci or iac (of {truth['in_week']} in the period)")
    assert f"sent to a human (review): {truth['to_human']} of {truth['touching']} =" in first
    assert main(["audit", "stats", str(log), "--since", "2026-11-23", "--until", "2026-11-30", "--format", "json"]) == 0
    everything = json.loads(capsys.readouterr().out)
    assert {k: v["decisions"] for k, v in everything["repositories"].items()} == truth["per_repo"]
    assert set(everything["buckets"]) <= {"ci", "iac", "src"}


def test_stats_read_a_git_log_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess

    remote = tmp_path / "audit.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    for n, repo in enumerate(["a/one", "b/two", "a/one"]):
        ci = ci_context({"GITLAB_CI": "true", "CI_SERVER_HOST": "gl", "CI_PROJECT_PATH": repo})
        append_git(parse_spec(str(remote)), _decision(n, {"ci": 1}, "review"), ci=ci)
    assert main(["audit", "stats", "--git", str(remote), "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["repositories"]["gl/a/one"]["review"] == 2 and stats["buckets"]["ci"]["decisions"] == 3
