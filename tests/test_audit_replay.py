"""`audit replay`: a decision made under an older policy revision is reproduced from git, and today's differs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from incli import run_cli

from gatekeeper import gate
from gatekeeper.audit.log import append_decision
from gatekeeper.audit.read import snapshot_file
from gatekeeper.audit.replay import replay_record
from gatekeeper.cli import main
from gatekeeper.errors import AuditError

# Today's core policy: a rewrite that no longer sends CI changes to a human (what a careless edit might do).
RELAXED_CORE = """# METADATA
# title: Core (relaxed)
# description: CI and IaC changes queue normally
# custom:
#   version: 2.0.0
#   owner: security
#   rules:
#     - core.relaxed
package gatekeeper.policies.core

import rego.v1

warn contains {"rule": "core.relaxed", "msg": "ci and iac are no longer reviewed"} if {
	count(input.files) > 0
}
"""


def make_policy_repo(root: Path) -> tuple[GitRepo, str]:
    """A git repository holding the shipped bundle under `policies/`, committed once."""
    repo = GitRepo(root)
    shutil.copytree(POLICY_DIR, repo.root / "policies", ignore=shutil.ignore_patterns("__pycache__"))
    return repo, repo.commit("Policies as shipped")


def make_patch(root: Path, dest: Path) -> Path:
    """A project change touching CI (the seed rule sends it to a human) and source."""
    project = GitRepo(root)
    project.write("src/app.py", "print('hi')\n")
    project.commit()
    project.write(".github/workflows/ci.yml", "on: push\njobs: {}\n")
    project.write("src/app.py", "print('hello')\n")
    return project.save_patch(dest)


def relax_core(repo: GitRepo) -> str:
    """Commit today's relaxed core policy (its old tests describe the old behaviour, so they go)."""
    core = repo.root / "policies" / "core" / "policy.rego"
    core.write_text(RELAXED_CORE)
    for test_file in core.parent.glob("*_test.rego"):
        test_file.unlink()
    return repo.commit("Relax core: CI changes queue normally")


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A policy repo (old commit, then a relaxed core), a project patch touching CI, and a log of the old decision.

    Built once for the module: the tests only read it (a test that edits the log edits its own copy)."""
    from gatekeeper.packet import build_packet, derive, write_packet
    from gatekeeper.policy.bundle import load_bundle

    tmp_path = tmp_path_factory.mktemp("replay-scene")
    policy_repo, old_commit = make_policy_repo(tmp_path / "policy-repo")
    patch = make_patch(tmp_path / "project", tmp_path / "change.diff")
    bundle = load_bundle(policy_repo.root / "policies")
    assert bundle.commit == old_commit
    enabled = [p.name for p in bundle.policies if p.default]
    packet = build_packet(derive(patch, bundle.rules), bundle.rules, run_id="run-42")
    packet_path = tmp_path / "packet.json"
    write_packet(packet_path, packet)
    log = tmp_path / "audit" / "decisions.jsonl"
    decision = gate.decide(json.loads(packet_path.read_text()), patch, bundle, enabled).to_dict()
    assert decision["outcome"] == "review", decision  # the seed rule: CI changes need a human
    first = append_decision(log, decision)
    append_decision(log, decision)  # a second, later record: replay must pick the one asked for
    new_commit = relax_core(policy_repo)
    return {
        "log": log,
        "record": first,
        "packet": packet_path,
        "patch": patch,
        "policies": policy_repo.root / "policies",
        "old": old_commit,
        "new": new_commit,
        "repo": policy_repo,
    }


def test_replay_reproduces_the_old_decision_and_shows_today_differs(scene: dict) -> None:
    status_before = scene["repo"].git("status", "--porcelain")
    result = replay_record(snapshot_file(scene["log"]), "1", scene["packet"], scene["patch"], scene["policies"])
    assert result.same, result.to_dict()
    assert result.recorded.outcome == result.replayed.outcome == "review"
    assert any("core" in f for f in result.replayed.findings)
    assert result.today is not None and result.today.outcome == "allow" and result.today_same is False
    today_rules = {json.loads(f)["rule"] for f in result.today.findings}
    assert "core.relaxed" in today_rules
    assert any(scene["old"] in note for note in result.notes)
    # git archive, never checkout: the working tree and index are as they were
    assert scene["repo"].git("status", "--porcelain") == status_before
    assert scene["repo"].git("rev-parse", "HEAD").decode().strip() == scene["new"]
    assert (scene["policies"] / "core" / "policy.rego").read_text() == RELAXED_CORE


def test_replay_cli_by_hash_prefix(scene: dict, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["audit", "replay", str(scene["log"]), scene["record"]["hash"][:10], "--packet", str(scene["packet"]),
            "--patch", str(scene["patch"]), "--policy", str(scene["policies"])]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "replayed with the recorded bundle: review, same outcome and findings" in text
    assert re.search(r"today's bundle .*: allow, DIFFERENT", text)
    assert "outcome review -> allow" in text and "+ warn core.relaxed" in text
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["same"] is True and data["today_same"] is False
    assert data["today_differences"]["outcome"] == {"before": "review", "after": "allow"}


def test_replay_reports_a_decision_that_no_longer_reproduces(scene: dict, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # A record that claims the old commit but holds today's decision: replay must say it does not reproduce.
    from gatekeeper.policy.bundle import load_bundle

    log = tmp_path / "other.jsonl"
    today = load_bundle(scene["policies"])
    decision = gate.decide(json.loads(scene["packet"].read_text()), scene["patch"], today, ["core"]).to_dict()
    decision["bundle"] = {**decision["bundle"], "commit": scene["old"], "digest": scene["record"]["bundle"]["digest"]}
    append_decision(log, decision)
    args = ["audit", "replay", str(log), "1", "--packet", str(scene["packet"]), "--patch", str(scene["patch"]),
            "--policy", str(scene["policies"])]
    assert main(args) == 1
    assert "replayed with the recorded bundle: review, DIFFERENT" in capsys.readouterr().out


def test_replay_refuses_the_wrong_inputs(scene: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other_patch = tmp_path / "other.diff"
    other_patch.write_bytes(scene["patch"].read_bytes() + b"\n")
    with pytest.raises(AuditError, match="not the patch"):
        replay_record(snapshot_file(scene["log"]), "1", scene["packet"], other_patch, scene["policies"])
    with pytest.raises(AuditError, match="no record"):
        replay_record(snapshot_file(scene["log"]), "99", scene["packet"], scene["patch"], scene["policies"])
    lines = scene["log"].read_text().splitlines(keepends=True)
    edited = tmp_path / "edited.jsonl"  # the shared log stays as written
    edited.write_text(lines[0].replace('"review"', '"allow"', 1) + "".join(lines[1:]))
    assert main(["audit", "replay", str(edited), "1", "--packet", str(scene["packet"]),
                 "--patch", str(scene["patch"]), "--policy", str(scene["policies"])]) == 2
    assert "chain is broken" in capsys.readouterr().err


def test_end_to_end_through_the_cli(tmp_path: Path) -> None:
    """packet, then `gate --log` under the old policies, a policy commit, then `audit replay`, through the CLI.

    `audit verify` and the first `audit replay` run as real processes; the packet, the two gates and the second
    replay (its text report) in-process (tests/incli.py): the gates' real processes are other tests' subject
    (tests/test_audit_log.py's eight real gates logging at once), and a cold interpreter costs ~0.3 CPU-seconds a
    command."""
    policy_repo, old_commit = make_policy_repo(tmp_path / "policy-repo")
    policies = str(policy_repo.root / "policies")
    patch = make_patch(tmp_path / "project", tmp_path / "change.diff")
    packet, log = tmp_path / "packet.json", tmp_path / "logs" / "decisions.jsonl"

    def gk(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "gatekeeper", *args], capture_output=True, text=True, timeout=120)

    def gk_in(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(args, text=True)  # type: ignore[return-value]

    made = gk_in("packet", str(patch), "--out", str(packet), "--policy", policies, "--run-id", "run-e2e")
    assert made.returncode == 0, made.stderr
    gated = gk_in("gate", str(packet), "--patch", str(patch), "--policy", policies, "--log", str(log), "--log-init",
                  "--format", "json")
    assert gated.returncode == 3, gated.stderr  # review
    assert json.loads(gated.stdout)["bundle"]["commit"] == old_commit
    relax_core(policy_repo)
    allowed = gk_in("gate", str(packet), "--patch", str(patch), "--policy", policies, "--log", str(log))
    assert allowed.returncode == 0, allowed.stderr
    assert gk("audit", "verify", str(log)).returncode == 0

    replayed = gk("audit", "replay", str(log), "1", "--packet", str(packet), "--patch", str(patch),
                  "--policy", policies, "--format", "json")
    assert replayed.returncode == 0, replayed.stderr
    data = json.loads(replayed.stdout)
    assert data["replayed"]["outcome"] == "review" and data["today"]["outcome"] == "allow"
    assert data["today_differences"]["outcome"] == {"before": "review", "after": "allow"}
    # The text report of the same command, in-process: the real process of `audit replay` is the one above.
    second = gk_in("audit", "replay", str(log), "2", "--packet", str(packet), "--patch", str(patch), "--policy",
                   policies)
    assert second.returncode == 0 and "today's bundle" in second.stdout and "same outcome" in second.stdout


def test_cannot_replay_without_the_bundle_history(scene: dict, tmp_path: Path) -> None:
    loose = tmp_path / "loose-policies"
    shutil.copytree(scene["policies"], loose)  # today's bundle, outside any repository
    with pytest.raises(AuditError, match="not inside a git repository"):
        replay_record(snapshot_file(scene["log"]), "1", scene["packet"], scene["patch"], loose)
    other = GitRepo(tmp_path / "fresh")  # a repository that never held the recorded commit
    shutil.copytree(scene["policies"], other.root / "policies")
    other.commit("unrelated history")
    with pytest.raises(AuditError, match="is not in the repository"):
        replay_record(snapshot_file(scene["log"]), "1", scene["packet"], scene["patch"], other.root / "policies")
    packet = json.loads(scene["packet"].read_text())
    packet["run_id"] = "someone-else"
    wrong = tmp_path / "wrong-packet.json"
    wrong.write_text(json.dumps(packet))
    with pytest.raises(AuditError, match="not the packet"):
        replay_record(snapshot_file(scene["log"]), "1", wrong, scene["patch"], scene["policies"])


def test_replay_reads_the_record_from_a_git_log(scene: dict, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from gatekeeper.audit.gitlog import append_git, parse_spec

    remote = tmp_path / "audit.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    stored = json.loads(scene["log"].read_bytes().splitlines()[0])
    decision = {"outcome": stored["outcome"], "reasons": stored["findings"], "policies": stored["policies"],
                "enabled": stored["enabled"], "bundle": stored["bundle"], "input_digest": stored["input_digest"],
                "packet": {"run_id": stored["run_id"], "diff_sha256": stored["diff_sha256"],
                           "digest": stored["packet_digest"]}, "summary": stored["summary"]}
    append_git(parse_spec(str(remote)), decision)
    args = ["audit", "replay", "--git", str(remote), "1", "--packet", str(scene["packet"]), "--patch",
            str(scene["patch"]), "--policy", str(scene["policies"]), "--format", "json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["replayed"]["outcome"] == "review" and data["today"]["outcome"] == "allow"
