"""The runner's signed packet (packet.intoto.json beside packet.json) and what the gate makes of it.

The runner signs an in-toto Statement whose subject is the patch's sha256 and whose predicate is the
packet itself, with a key the generator never sees. The gate, given a Trust, reads the envelope found
beside the packet: absent means the packet's claims are unverified; present but not verifying (another
patch, an edited packet, an unknown or forged signer) is an AttestationError, which the gate denies.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.attest import roles
from gatekeeper.attest.envelope import AttestationError, open_statement, read_envelope, sign, statement
from gatekeeper.attest.facts import PacketAttestation
from gatekeeper.attest.keys import Trust

if TYPE_CHECKING:
    from securesystemslib.signer import Signer as KeySigner

PACKET_PREDICATE = "https://gatekeeper.invalid/attestation/packet/v1"
def envelope_path(packet: Path) -> Path:
    """`packet.intoto.json` beside `packet.json` (for any name: `X.json` → `X.intoto.json`)."""
    return packet.with_name(packet.name.removesuffix(".json") + ".intoto.json")


def sign_packet(signer: KeySigner, packet: Mapping[str, Any]) -> dict[str, Any]:
    """The envelope the runner writes beside its packet."""
    diff = packet["diff"]
    return sign(signer, statement("patch.diff", str(diff["sha256"]), PACKET_PREDICATE, packet))


def check_packet(packet_file: Path, packet: Mapping[str, Any], trust: Trust) -> PacketAttestation:
    """Verify the envelope beside `packet_file` against `packet` (AttestationError when it does not hold)."""
    found = envelope_path(packet_file)
    if not found.exists():
        return PacketAttestation(False, f"unsigned: no {found.name} beside the packet")
    data = read_envelope(found)
    sha256 = str((packet.get("diff") or {}).get("sha256", ""))
    opened = open_statement(data, trust, where=str(found), predicate_type=PACKET_PREDICATE,
                            namespace=roles.PACKET, sha256=sha256)
    if dict(opened.predicate) != dict(packet):
        changed = sorted(k for k in set(opened.predicate) | set(packet) if opened.predicate.get(k) != packet.get(k))
        raise AttestationError(f"packet.json differs from the packet the runner signed ({', '.join(changed[:8])})",
                               where=str(found), hint="the packet was edited after the run")
    return PacketAttestation(True, f"signed by {opened.signer.name}", opened.signer.name, opened.signer.keyid,
                             opened.signer.groups)
