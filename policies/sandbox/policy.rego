# METADATA
# title: Runs must have had no network egress but the model relay, checked
# description: >-
#   Requires a human review when the packet says the generator's network was not `denied` (or
#   `allowlist` with the runner's model relay as the only way out: `packet.relay` present), when the
#   runner did not check that egress was actually blocked (`sandbox.egress_checked` not true), or when
#   the relay refused any attempt to reach another host, path or protocol. These are the runner's claims:
#   unless the runner signed the packet with a key the gate trusts (`input.attestation.verified`, gate
#   --trust), they are unverified and the run needs review too.
# custom:
#   version: 1.2.0
#   owner: security-engineering
#   rules:
#     - sandbox.network
#     - sandbox.egress_unchecked
#     - sandbox.refused_egress
#     - sandbox.unverified
package gatekeeper.policies.sandbox

import rego.v1

import data.gatekeeper.lib

sandbox := object.get(input.packet, "sandbox", {})

network := object.get(sandbox, "network", null)

relay := object.get(input.packet, "relay", null)

closed if network == "denied"

closed if {
	network == "allowlist"
	relay != null
}

review contains finding if {
	not closed
	msg := sprintf("the generator ran with network %s (backend %s): egress was not denied", [
		describe(network),
		describe(object.get(sandbox, "backend", null)),
	])
	finding := lib.finding("sandbox.network", msg)
}

review contains finding if {
	object.get(sandbox, "egress_checked", false) != true
	msg := "the runner did not check that egress was blocked"
	finding := lib.finding("sandbox.egress_unchecked", msg)
}

review contains finding if {
	relay != null
	refused := object.get(relay, "refused_by_host", [])
	count(refused) > 0
	msg := sprintf("the model relay refused %d attempt(s) to reach: %s", [
		object.get(relay, "refused", 0),
		trim_space(concat(", ", [sprintf("%s (%d)", [entry.host, entry.count]) | some entry in refused])),
	])
	finding := lib.finding("sandbox.refused_egress", msg)
}

review contains finding if {
	not verified
	msg := sprintf("the sandbox claims are not signed by a trusted runner key (%s)", [
		object.get(object.get(input, "attestation", {}), "reason", "no attestation"),
	])
	finding := lib.finding("sandbox.unverified", msg)
}

verified if object.get(object.get(input, "attestation", {}), "verified", false) == true

describe(value) := "unknown" if value == null
describe(value) := sprintf("%s", [value]) if value != null
