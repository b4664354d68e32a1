"""What the gate does with signatures: check the runner's packet, count approvals, sign its decision."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gatekeeper.atomic import write_json_atomic
from gatekeeper.attest import approvals
from gatekeeper.attest.decision import sign_decision
from gatekeeper.attest.envelope import AttestationError
from gatekeeper.attest.facts import PacketAttestation
from gatekeeper.attest.keys import Trust, load_signer
from gatekeeper.attest.packet import check_packet

APPROVED_RULE = "gatekeeper.approved"


def packet_attestation(packet_file: Path, packet: Mapping[str, Any], trust: Trust) -> PacketAttestation:
    """The packet's attestation for the policy input: verified, unsigned, or failed (a deny)."""
    try:
        return check_packet(packet_file, packet, trust)
    except AttestationError as exc:
        return PacketAttestation(False, str(exc), failed=True)


def apply_approvals(decision: dict[str, Any], folder: Path, trust: Trust, params: Mapping[str, Any],
                    sign_key: Path | None = None) -> dict[str, Any]:
    """`decision`, turned from review into allow when valid approvals accept every review finding.

    An approval counts only for the bundle that decided, and never by the key that signed the packet (the runner
    approving its own change) or the gate's own signing key (`sign_key`, gate --sign): both sit in the same
    allowed-signers file as the approvers. The decision keeps its findings; `approvals` says which approvals
    counted and why others did not."""
    sha256 = str(decision["packet"]["diff_sha256"])
    found, problems = approvals.read(folder, trust, patch_sha256=sha256, input_digest=str(decision["input_digest"]),
                                     bundle_digest=str((decision.get("bundle") or {}).get("digest")),
                                     refused=refused_keys(decision.get("attestation"), sign_key))
    outcome = approvals.apply(decision, found, approvals.Requirements.from_params(params), problems)
    decision["approvals"] = outcome.to_dict()
    if outcome.accepted:
        names = ", ".join(sorted({a.signer.name for a in outcome.counted}))
        decision["outcome"] = "allow"
        decision["reasons"] = [*decision["reasons"], {
            "policy": "gatekeeper", "rule": APPROVED_RULE, "level": "warn",
            "msg": f"review accepted by signed approval of exactly this patch ({names})"}]
    return decision


def refused_keys(attestation: Mapping[str, Any] | None, sign_key: Path | None) -> dict[str, str]:
    """The key ids that may not approve this change, with why: the packet's signer and the gate's own key."""
    refused: dict[str, str] = {}
    keyid = (attestation or {}).get("keyid")
    if isinstance(keyid, str) and keyid:
        refused[keyid] = "its key signed the packet (the runner does not approve its own change)"
    if sign_key is not None:
        refused[str(load_signer(sign_key).public_key.keyid)] = "its key is the gate's own signing key (gate --sign)"
    return refused


def summary_path(output: Path | None) -> Path:
    """Where `sign_summary` writes: beside the report (`FILE.intoto.json`), else `./decision.intoto.json`."""
    return output.with_name(output.name + ".intoto.json") if output is not None else Path("decision.intoto.json")


def sign_summary(decision: Mapping[str, Any], key: Path, output: Path | None) -> Path:
    """Write the decision's signed SLSA verification summary beside the report; its path."""
    signer = load_signer(key)
    target = summary_path(output)
    write_json_atomic(target, sign_decision(signer, decision, str(decision["packet"]["diff_sha256"])))
    return target
