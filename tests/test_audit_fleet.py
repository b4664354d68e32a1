"""Fleet fields from the CI's variables, and `audit stats` across repositories, buckets and a week window."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

import pytest

from gatekeeper.audit.fleet import ci_context
from gatekeeper.audit.gitlog import append_git, parse_spec
from gatekeeper.audit.log import append_decision
from gatekeeper.cli import main

GITLAB = {"GITLAB_CI": "true", "CI_SERVER_HOST": "gitlab.example", "CI_PROJECT_PATH": "infra/net",
          "CI_PROJECT_URL": "https://gitlab.example/infra/net", "CI_MERGE_REQUEST_IID": "5",
          "CI_MERGE_REQUEST_DIFF_BASE_SHA": "a" * 40, "CI_COMMIT_SHA": "b" * 40,
          "CI_JOB_URL": "https://gitlab.example/infra/net/-/jobs/9", "GITLAB_USER_LOGIN": "alice"}


def test_gitlab_variables() -> None:
    assert ci_context(GITLAB) == {
        "system": "gitlab", "repository": "gitlab.example/infra/net",
        "change": "https://gitlab.example/infra/net/-/merge_requests/5", "base": "a" * 40, "head": "b" * 40,
        "commit": "b" * 40, "run_url": "https://gitlab.example/infra/net/-/jobs/9", "actor": "alice"}


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
    assert f"sent to a human (review): {truth['to_human']} =" in first
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
