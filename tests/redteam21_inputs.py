"""Policy inputs for the typo mutants (red team 21, tests only): every shipped fixture, and variants that make the
packet-level rules (sandbox, provenance, size) fire, so a typo that silences any rule shows in a decision."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from gatekeeper.gate_input import build_input
from gatekeeper.packet import build_packet, derive
from gatekeeper.policy.bundle import Bundle


def fixture_inputs(bundle: Bundle, fixtures: Path) -> list[dict[str, Any]]:
    """The policy input of every fixture case built from its patch (cases with their own packet.json left out)."""
    out = []
    for patch in sorted(fixtures.rglob("patch.diff")):
        if (patch.parent / "packet.json").exists():
            continue
        derived = derive(patch, bundle.rules)
        out.append(build_input(build_packet(derived, bundle.rules), derived, []))
    return out


def variants(base: dict[str, Any]) -> list[dict[str, Any]]:
    """`base` with packet claims that each make a sandbox or provenance rule fire, and a verified attestation."""
    out = []

    def variant(edit: Any) -> None:
        doc = copy.deepcopy(base)
        doc["attestation"]["verified"] = True
        edit(doc)
        out.append(doc)

    def sandbox(**fields: Any) -> Any:
        return lambda doc: doc["packet"].setdefault("sandbox", {}).update(fields)

    def model(**fields: Any) -> Any:
        return lambda doc: doc["packet"].setdefault("model", {}).update(fields)

    egress = {"recording": "recorded", "reason": None, "refused": 0, "refused_by_host": [], "unrecorded": 0}
    closed = {"backend": "unshare", "network": "denied", "egress_checked": True, "env_passed": [], "egress": egress}
    variant(lambda doc: (doc["packet"].update(sandbox=dict(closed)),
                         doc["packet"].update(model={"requested": "m", "reported": "m", "reported_by": "relay",
                                                     "served": ["m"]})))
    variant(sandbox(**{**closed, "network": "unrestricted"}))
    variant(sandbox(**{**closed, "egress_checked": False}))
    variant(sandbox(**{**closed, "egress": {**egress, "refused": 2,
                                            "refused_by_host": [{"host": "169.254.169.254", "count": 2}]}}))
    variant(sandbox(**{**closed, "egress": {**egress, "recording": "unavailable", "reason": "no device"}}))
    variant(sandbox(**{**closed, "egress": {**egress, "unrecorded": 3}}))
    variant(model(requested="m", reported="other", reported_by="generator"))
    variant(model(requested="m", reported=None, reported_by=None))
    variant(model(requested="m", reported="m", reported_by="generator", served=["x", "m"]))
    variant(lambda doc: doc["packet"].update(relay={"apis": [], "served": ["m"], "requests": 1, "refused": 1,
                                                     "refused_by_host": [{"host": "metadata.google.internal",
                                                                          "count": 1}], "tokens": {}}))
    return out
