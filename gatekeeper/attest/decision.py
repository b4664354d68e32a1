"""The gate's decision as a SLSA verification summary (VSA v1), signed: who checked which patch against
which policy bundle, and with what result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gatekeeper import __version__
from gatekeeper.attest.envelope import sign, statement

if TYPE_CHECKING:
    from securesystemslib.signer import Signer as KeySigner

VSA_PREDICATE = "https://slsa.dev/verification_summary/v1"
VERIFIER_ID = "https://gatekeeper.invalid/verifier/gate"


def summary(decision: Mapping[str, Any], patch_sha256: str) -> dict[str, Any]:
    """The in-toto Statement (VSA v1 predicate) for `decision` about the patch `patch_sha256`."""
    bundle = decision.get("bundle") or {}
    outcome = str(decision.get("outcome"))
    policy_uri = f"urn:gatekeeper:bundle:{bundle.get('name') or 'unnamed'}@{bundle.get('revision') or 'unknown'}"
    predicate = {
        "verifier": {"id": VERIFIER_ID, "version": {"gatekeeper": __version__}},
        "timeVerified": str(decision.get("decided_at") or ""),
        "resourceUri": f"urn:gatekeeper:patch:sha256:{patch_sha256}",
        "policy": {"uri": policy_uri, "digest": {"sha256": str(bundle.get("digest") or "")}},
        "verificationResult": "PASSED" if outcome == "allow" else "FAILED",
        # A custom level (the spec reserves SLSA_*): the gate's outcome.
        "verifiedLevels": [f"GATEKEEPER_{outcome.upper()}"],
        "slsaVersion": "1.0",
    }
    return statement("patch.diff", patch_sha256, VSA_PREDICATE, predicate)


def sign_decision(signer: KeySigner, decision: Mapping[str, Any], patch_sha256: str) -> dict[str, Any]:
    """The signed VSA envelope written next to the gate's report."""
    return sign(signer, summary(decision, patch_sha256))
