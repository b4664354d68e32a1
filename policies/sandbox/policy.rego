# METADATA
# title: Runs must have had no network egress but the model relay, checked
# description: >-
#   Requires a human review when the packet says the generator's network was not `denied` (or
#   `allowlist` with the runner's model relay as the only way out: `packet.relay` present), when the
#   runner did not check that egress was actually blocked (`sandbox.egress_checked` not true), when
#   the relay refused any attempt to reach another host, path or protocol, when the sandbox's catch-all
#   recorded any attempt to reach the network around the relay (`sandbox.egress.refused_by_host`: a
#   direct connection, a DNS lookup, a datagram), or when such attempts may have gone unrecorded
#   (`sandbox.egress` absent from a closed sandbox, `recording` not `recorded`, or `unrecorded` above
#   zero): nothing recorded is never read as nothing attempted. These are the runner's claims:
#   unless the runner signed the packet with a key the gate trusts (`input.attestation.verified`, gate
#   --trust), they are unverified and the run needs review too.
# custom:
#   version: 1.3.0
#   owner: security-engineering
#   rules:
#     - sandbox.network
#     - sandbox.egress_unchecked
#     - sandbox.refused_egress
#     - sandbox.egress_attempts
#     - sandbox.egress_unrecorded
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

# {} when the packet has no egress record (a packet from before the catch-all, or built outside the runner).
egress := object.get(sandbox, "egress", {})

review contains finding if {
	tried := object.get(egress, "refused_by_host", [])
	count(tried) > 0
	# A flood of names would make an unreadable finding: the first 20 hosts, and how many more.
	shown := [sprintf("%s (%d)", [entry.host, entry.count]) | some entry in array.slice(tried, 0, 20)]
	hidden_hosts := [sprintf("and %d more host(s)", [count(tried) - 20]) | count(tried) > 20]
	msg := sprintf("the generator tried to reach the network around the model relay %d time(s): %s", [
		object.get(egress, "refused", 0),
		trim_space(concat(", ", array.concat(shown, hidden_hosts))),
	])
	finding := lib.finding("sandbox.egress_attempts", msg)
}

review contains finding if {
	closed
	not recorded
	msg := sprintf("attempts to reach the network around the model relay may have gone unrecorded (%s)", [
		unrecorded_reason,
	])
	finding := lib.finding("sandbox.egress_unrecorded", msg)
}

recorded if {
	object.get(egress, "recording", null) == "recorded"
	object.get(egress, "unrecorded", 1) == 0
}

unrecorded_reason := "the packet has no egress record" if egress == {}

unrecorded_reason := sprintf("%s", [object.get(egress, "reason", null)]) if {
	egress != {}
	object.get(egress, "recording", null) != "recorded"
	object.get(egress, "reason", null) != null
}

unrecorded_reason := "recording unavailable" if {
	egress != {}
	object.get(egress, "recording", null) != "recorded"
	object.get(egress, "reason", null) == null
}

unrecorded_reason := sprintf("%d attempt(s) known unrecorded", [object.get(egress, "unrecorded", 0)]) if {
	object.get(egress, "recording", null) == "recorded"
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
