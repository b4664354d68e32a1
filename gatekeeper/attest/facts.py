"""What a packet's signature proved, as the policy input shows it (no cryptography imported here: the gate
builds the unverified default on every run)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The runner-only claims a signature vouches for; everything else the gate re-derives itself.
SIGNED_CLAIMS = ("sandbox", "model", "relay", "generator", "repository")


@dataclass(frozen=True, slots=True)
class PacketAttestation:
    """What the policy input's `attestation` says: whether the packet's claims are verified, and by whom."""

    verified: bool
    reason: str
    signer: str | None = None
    keyid: str | None = None
    groups: tuple[str, ...] = ()
    failed: bool = False  # a signature was there and did not hold: the gate denies

    def to_input(self) -> dict[str, Any]:
        return {"verified": self.verified, "failed": self.failed, "reason": self.reason, "signer": self.signer,
                "keyid": self.keyid, "groups": list(self.groups),
                "claims": list(SIGNED_CLAIMS) if self.verified else []}


UNCHECKED = PacketAttestation(False, "unverified: no trust given (gate --trust FILE)")
# A pull request gated without a packet (gate --tree alone): no runner made any claim to verify.
NO_PACKET = PacketAttestation(False, "unverified: no packet, the pull request was judged from its commits alone")
