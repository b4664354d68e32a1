"""Red team: `audit replay` applied a record's approvals to any review.

The recorded approvals turned a replayed review into allow whatever that review was about: today's bundle can
add a review finding no approver ever saw (or a record can claim `accepted` with no approval at all), and replay
still answered allow. An approval accepts rule ids; replay applies the recorded ones only when they accept every
review finding of the replayed decision, as the gate did.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_audit_replay import make_patch, make_policy_repo

from gatekeeper import gate
from gatekeeper.attest.verdict import APPROVED_RULE
from gatekeeper.audit.log import append_decision
from gatekeeper.audit.read import snapshot_file
from gatekeeper.audit.replay import replay_record

# Today's core: CI changes still reviewed, and a new review rule nobody approved back then.
STRICTER_CORE = """# METADATA
# title: Core (stricter)
# description: every change is reviewed for a second reason
# custom:
#   version: 3.0.0
#   owner: security
#   rules:
#     - core.second_look
package gatekeeper.policies.core

import rego.v1

review contains {"rule": "core.second_look", "msg": "a second look at every change"} if {
	count(input.files) > 0
}
"""

APPROVAL = {"signer": "alice", "keyid": "ab" * 32, "groups": ["platform"], "approved_at": "2026-12-01T00:00:00+00:00",
            "expires_at": "2026-12-15T00:00:00+00:00", "comment": "ok", "file": "a.json"}


def _scene(tmp_path: Path, approvals: dict) -> dict:
    from gatekeeper.packet import build_packet, derive, write_packet
    from gatekeeper.policy.bundle import load_bundle

    repo, _ = make_policy_repo(tmp_path / "policy-repo")
    patch = make_patch(tmp_path / "project", tmp_path / "change.diff")
    bundle = load_bundle(repo.root / "policies")
    enabled = [p.name for p in bundle.policies if p.default]
    packet_path = tmp_path / "packet.json"
    write_packet(packet_path, build_packet(derive(patch, bundle.rules), bundle.rules, run_id="run-7"))
    decision = gate.decide(json.loads(packet_path.read_text()), patch, bundle, enabled).to_dict()
    assert decision["outcome"] == "review" and {r["rule"] for r in decision["reasons"]} >= {"core.ci"}
    # What the gate logs after `--approvals` accepted the review.
    decision["approvals"] = approvals
    decision["outcome"] = "allow"
    decision["reasons"] = [*decision["reasons"], {"policy": "gatekeeper", "rule": APPROVED_RULE, "level": "warn",
                                                  "msg": "review accepted by signed approval (alice)"}]
    log = tmp_path / "decisions.jsonl"
    append_decision(log, decision)
    core = repo.root / "policies" / "core" / "policy.rego"
    core.write_text(STRICTER_CORE)
    for test_file in core.parent.glob("*_test.rego"):
        test_file.unlink()
    repo.commit("core: a second look at every change")
    return {"log": log, "packet": packet_path, "patch": patch, "policies": repo.root / "policies"}


def test_recorded_approvals_still_reproduce_the_approved_allow(tmp_path: Path) -> None:
    approvals = {"accepted": True, "approvals": [{**APPROVAL, "rules": ["core.ci"]}], "problems": []}
    scene = _scene(tmp_path, approvals)
    result = replay_record(snapshot_file(scene["log"]), "1", scene["packet"], scene["patch"], scene["policies"])
    assert result.replayed.outcome == "allow" and result.same, result.to_dict()


@pytest.mark.parametrize("approvals", [
    {"accepted": True, "approvals": [{**APPROVAL, "rules": ["core.ci"]}], "problems": []},
    {"accepted": True, "approvals": [{**APPROVAL, "rules": ["core.ci", "other.rule"]}], "problems": []},
    {"accepted": True, "approvals": [], "problems": []},
], ids=["core.ci", "core.ci+other", "no-approval"])
def test_today_a_review_nobody_approved_stays_a_review(tmp_path: Path, approvals: dict) -> None:
    scene = _scene(tmp_path, approvals)
    result = replay_record(snapshot_file(scene["log"]), "1", scene["packet"], scene["patch"], scene["policies"])
    assert result.today is not None
    assert "core.second_look" in {json.loads(f)["rule"] for f in result.today.findings}
    assert result.today.outcome == "review", result.to_dict()
    assert result.today_same is False


def test_a_record_claiming_acceptance_without_approvals_does_not_replay_as_allow(tmp_path: Path) -> None:
    scene = _scene(tmp_path, {"accepted": True, "approvals": [{**APPROVAL, "rules": "core.ci"}], "problems": []})
    result = replay_record(snapshot_file(scene["log"]), "1", scene["packet"], scene["patch"], scene["policies"])
    assert result.replayed.outcome == "review" and not result.same
    assert any("do not accept" in note for note in result.notes), result.notes
