package gatekeeper.policies.sandbox_test

import rego.v1

import data.gatekeeper.policies.sandbox

unsigned := {
	"verified": false, "failed": false, "reason": "unsigned", "signer": null, "keyid": null, "groups": [],
	"claims": [],
}

# The packet's sandbox block, with some fields replaced.
box(fields) := object.union(
	{"backend": "unshare", "network": "denied", "egress_checked": true, "env_passed": []},
	fields,
)

test_denied_and_checked_passes if {
	s := box({})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	count(found) == 0
}

test_unrestricted_network_needs_review if {
	s := box({"backend": "none", "network": "unrestricted"})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.network"]
}

test_unchecked_egress_needs_review if {
	s := box({"egress_checked": false})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.egress_unchecked"]
}

test_packet_built_outside_the_runner_needs_review if {
	s := box({"backend": "none", "network": "unknown", "egress_checked": false})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	sort([f.rule | some f in found]) == ["sandbox.egress_unchecked", "sandbox.network"]
}

test_missing_sandbox_block_needs_review if {
	found := sandbox.review with input.attestation.verified as true with input.packet.run_id as "r1"
	count(found) == 2
}

test_allowlist_through_the_relay_passes if {
	s := box({"backend": "bwrap", "network": "allowlist"})
	relay := {"apis": ["anthropic"], "served": ["m"], "requests": 3, "refused": 0, "refused_by_host": [], "tokens": 9}
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
		with input.packet.relay as relay
	count(found) == 0
}

test_allowlist_without_a_relay_needs_review if {
	s := box({"backend": "bwrap", "network": "allowlist"})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.network"]
}

test_refused_attempts_need_review if {
	s := box({"backend": "bwrap", "network": "allowlist"})
	relay := {
		"apis": ["openai"], "served": [], "requests": 0, "refused": 2,
		"refused_by_host": [{"host": "pastebin.example", "count": 2}], "tokens": 0,
	}
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
		with input.packet.relay as relay
	[f.rule | some f in found] == ["sandbox.refused_egress"]
	some f in found
	contains(f.msg, "pastebin.example (2)")
}

test_unverified_sandbox_claims_need_review if {
	s := box({"backend": "bwrap"})
	attestation := unsigned
	found := sandbox.review with input.packet.sandbox as s with input.attestation as attestation
	[f.rule | some f in found] == ["sandbox.unverified"]
}
