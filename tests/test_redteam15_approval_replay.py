"""Red team: signed approvals that must not count.

- Self-approval: the key that signed the packet (the runner that made the change) or the gate's own signing key
  (`gate --sign`) approving the change's review findings. Both are in the same allowed-signers file as the
  human approvers (docs/security-teams.md lists runner, alice and gate in one file), and without
  `params.approvals` any trusted signer may approve: a runner or gate key turned the review into allow.
- Replay across policy bundles: an approval names the patch and the policy input's digest, and the input does
  not hold the bundle, so an approval given under one bundle (revision, name, a policy's text, its params)
  turned the review into allow under another.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from incli import run_cli
from tables import each_case

from gatekeeper.attest import approvals
from gatekeeper.attest.keys import generate, load_signer
from gatekeeper.attest.packet import sign_packet

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policies"
PATCH = ROOT / "fixtures" / "ci-workflow" / "patch.diff"  # core.ci: review


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """runner, alice and gate in one allowed-signers file (as the docs write it), and a packet the runner signed."""
    home = tmp_path_factory.mktemp("rt15-approvals")
    lines = [generate(name, home / "keys")[2].line() for name in ("runner", "alice", "gate")]
    # Every key listed for approvals too (the docs of that round trusted any line to approve): the gate must still
    # refuse the packet's signer and its own --sign key as approvers (test_redteam20_roles: the line refuses first).
    lines = [f'{line} namespaces="gatekeeper-approval,gatekeeper-{role}"'
             for line, role in zip(lines, ("packet", "approval", "gate"), strict=True)]
    (home / "allowed_signers").write_text("\n".join(lines) + "\n")
    shutil.copyfile(PATCH, home / "patch.diff")
    done = run_cli(["packet", "patch.diff", "--out", "packet.json", "--policy", str(POLICY_DIR)], cwd=home)
    assert done.returncode == 0, done.stderr
    packet = json.loads((home / "packet.json").read_text())
    envelope = sign_packet(load_signer(home / "keys" / "runner.key"), packet)
    (home / "packet.intoto.json").write_text(json.dumps(envelope))
    return home


def _copy(signed: Path, tmp_path: Path) -> Path:
    shutil.copytree(signed, tmp_path / "w")
    return tmp_path / "w"


def _approve(home: Path, key: str, policy: Path = POLICY_DIR) -> None:
    done = run_cli(["approve", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--key",
                    f"keys/{key}.key", "--out", "approvals", "--policy", str(policy)], cwd=home, text=True)
    assert done.returncode == 0, done.stderr


def _gate(home: Path, *extra: str, policy: Path = POLICY_DIR) -> tuple[int, dict, str]:
    done = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--approvals",
                    "approvals", "--policy", str(policy), "--format", "json", *extra], cwd=home, text=True)
    return done.returncode, json.loads(done.stdout), str(done.stderr)


def test_a_human_approval_turns_the_review_into_allow(signed: Path, tmp_path: Path) -> None:
    home = _copy(signed, tmp_path)
    _approve(home, "alice")
    code, decision, _ = _gate(home, "--sign", "keys/gate.key")
    assert code == 0 and decision["outcome"] == "allow"
    assert decision["attestation"]["signer"] == "runner"


@pytest.mark.parametrize("approver, extra", [
    ("runner", ()),  # the key that signed this packet
    ("gate", ("--sign", "keys/gate.key")),  # the gate's own signing key
    ("runner", ("--sign", "keys/gate.key")),
])
def test_the_runner_or_the_gate_cannot_approve_the_change(signed: Path, tmp_path: Path, approver: str,
                                                         extra: tuple[str, ...]) -> None:
    home = _copy(signed, tmp_path)
    _approve(home, approver)
    code, decision, stderr = _gate(home, *extra)
    assert code == 3 and decision["outcome"] == "review"
    assert decision["approvals"]["accepted"] is False and decision["approvals"]["approvals"] == []
    assert any("may not approve" in p for p in decision["approvals"]["problems"]), decision["approvals"]
    assert "may not approve" in stderr


def test_a_self_approval_beside_a_human_one_changes_nothing(signed: Path, tmp_path: Path) -> None:
    home = _copy(signed, tmp_path)
    _approve(home, "runner")
    _approve(home, "alice")
    code, decision, _ = _gate(home)
    assert code == 0 and [a["signer"] for a in decision["approvals"]["approvals"]] == ["alice"]


def _edit_manifest(folder: Path, **changes: str) -> None:
    manifest = json.loads((folder / ".manifest").read_text())
    manifest.update({k: v for k, v in changes.items() if k == "revision"})
    if "name" in changes:
        manifest["metadata"]["name"] = changes["name"]
    if "params" in changes:
        manifest.setdefault("params", {})["approvals"] = json.loads(changes["params"])
    (folder / ".manifest").write_text(json.dumps(manifest, indent=2) + "\n")


def _edit_policy(folder: Path) -> None:
    rego = folder / "core" / "policy.rego"
    rego.write_text(rego.read_text() + "\n# a comment the approver never saw\n")


@each_case("change", ["revision", "name", "policy-text", "params"])
def test_an_approval_does_not_travel_to_another_bundle(signed: Path, tmp_path: Path, change: str) -> None:
    home = _copy(signed, tmp_path)
    _approve(home, "alice")
    other = tmp_path / "other-policies"
    shutil.copytree(POLICY_DIR, other)
    if change == "revision":
        _edit_manifest(other, revision="9999.01.01-1")
    elif change == "name":
        _edit_manifest(other, name="swapped")
    elif change == "params":
        _edit_manifest(other, params='{"buckets": {"docs": ["nobody"]}}')
    else:
        _edit_policy(other)
    code, decision, stderr = _gate(home, policy=other)
    assert code == 3 and decision["outcome"] == "review", decision.get("approvals")
    assert any("another policy bundle" in p for p in decision["approvals"]["problems"])
    assert "another policy bundle" in stderr


def test_the_same_bundle_elsewhere_still_counts(signed: Path, tmp_path: Path) -> None:
    home = _copy(signed, tmp_path)
    _approve(home, "alice")
    other = tmp_path / "same-bundle-copied"
    shutil.copytree(POLICY_DIR, other)
    code, decision, _ = _gate(home, policy=other)
    assert code == 0 and decision["outcome"] == "allow"


def test_an_approval_without_a_bundle_digest_does_not_count(signed: Path, tmp_path: Path) -> None:
    """An approval made before approvals named their bundle (or forged without one) is refused, not waved through."""
    home = _copy(signed, tmp_path)
    _approve(home, "alice")
    done = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--policy",
                    str(POLICY_DIR), "--format", "json"], cwd=home, text=True)
    decision = json.loads(done.stdout)
    legacy = approvals.make(load_signer(home / "keys" / "alice.key"), patch_sha256=decision["packet"]["diff_sha256"],
                            input_digest=decision["input_digest"], rules=["core.ci"], bundle_digest=None)
    shutil.rmtree(home / "approvals")
    (home / "approvals").mkdir()
    (home / "approvals" / "legacy.json").write_text(json.dumps(legacy))
    code, decision, _ = _gate(home)
    assert code == 3 and any("another policy bundle" in p for p in decision["approvals"]["problems"])
