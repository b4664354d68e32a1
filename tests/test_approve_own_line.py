"""`gatekeeper approve` says when the approval it writes will not count: the approver's key is not in the
allowed-signers file it was given, or its line does not list the approval namespace (red team 20 left this: the
gate names the line, but the approver learned it only when the gate ran)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from incli import run_cli
from tables import each_case

from gatekeeper.attest.keys import generate

REPO_ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = REPO_ROOT / "policies"
PATCH = REPO_ROOT / "fixtures" / "ci-workflow" / "patch.diff"  # core.ci: review

LINES = {
    "no-option": ("groups=platform", "has no namespaces= option"),
    "packet-only": ('namespaces="gatekeeper-packet"', "lists namespaces gatekeeper-packet"),
    "gate-only": ('namespaces="gatekeeper-gate"', "lists namespaces gatekeeper-gate"),
    "missing": (None, "allowed_signers: the gate will not count"),
    "approver": ('groups=platform namespaces="gatekeeper-approval"', None),
    "approver-and-packet": ('namespaces="gatekeeper-packet,gatekeeper-approval"', None),
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("approve-line")
    private, _, trusted = generate("alice", home / "keys")
    (home / "hex").write_text(trusted.key.keyval["public"])
    shutil.copyfile(PATCH, home / "patch.diff")
    made = run_cli(["packet", "patch.diff", "--out", "packet.json", "--policy", str(POLICY_DIR)], cwd=home)
    assert made.returncode == 0, made.stderr
    return home


@each_case("variant", sorted(LINES))
def test_approve_warns_when_its_approval_will_not_count(workspace: Path, tmp_path: Path, variant: str) -> None:
    options, expected = LINES[variant]
    other = "bob ed25519 " + "11" * 32 + "\n"  # another signer, so the file is never empty
    line = "" if options is None else f"alice ed25519 {(workspace / 'hex').read_text()} {options}\n"
    trust = tmp_path / "allowed_signers"
    trust.write_text(other + line)
    done = run_cli(["approve", "packet.json", "--patch", "patch.diff", "--trust", str(trust), "--key",
                    "keys/alice.key", "--out", str(tmp_path / "approvals"), "--policy", str(POLICY_DIR)],
                   cwd=workspace, text=True)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "approvals").iterdir())) == 1  # written all the same: the gate decides
    if expected is None:
        assert "warning" not in str(done.stderr), done.stderr
        return
    warning = next((text for text in str(done.stderr).splitlines() if "warning" in text), "")
    assert expected in warning and "will not count" in warning and str(trust) in warning, done.stderr
    if options is not None:
        assert "allowed_signers:2" in warning and 'namespaces="' in warning and "gatekeeper-approval" in warning
