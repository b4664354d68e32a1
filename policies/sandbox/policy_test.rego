package gatekeeper.policies.sandbox_test

import rego.v1

import data.gatekeeper.policies.sandbox

unsigned := {
	"verified": false, "failed": false, "reason": "unsigned", "signer": null, "keyid": null, "groups": [],
	"claims": [],
}

# What the runner's catch-all reports for a run that tried nothing (packet.sandbox.egress).
quiet := {"recording": "recorded", "reason": null, "refused": 0, "refused_by_host": [], "unrecorded": 0}

# The packet's sandbox block of a closed sandbox, with some fields replaced.
box(fields) := object.union(
	{"backend": "unshare", "network": "denied", "egress_checked": true, "env_passed": [], "egress": quiet},
	fields,
)

# A sandbox block without an egress record (an open network, a packet built outside the runner).
unrecorded_box(fields) := object.remove(box(fields), ["egress"])

test_denied_and_checked_passes if {
	s := box({})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	count(found) == 0
}

test_unrestricted_network_needs_review if {
	s := unrecorded_box({"backend": "none", "network": "unrestricted"})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.network"]
}

test_unchecked_egress_needs_review if {
	s := box({"egress_checked": false})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.egress_unchecked"]
}

test_packet_built_outside_the_runner_needs_review if {
	s := unrecorded_box({"backend": "none", "network": "unknown", "egress_checked": false})
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

test_attempts_around_the_relay_need_review if {
	egress := object.union(quiet, {
		"refused": 3,
		"refused_by_host": [{"host": "192.0.2.10", "count": 1}, {"host": "example.com", "count": 2}],
	})
	s := box({"egress": egress})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.egress_attempts"]
	some f in found
	contains(f.msg, "3 time(s): 192.0.2.10 (1), example.com (2)")
}

test_a_closed_sandbox_without_an_egress_record_needs_review if {
	s := unrecorded_box({"backend": "bwrap"})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.egress_unrecorded"]
	some f in found
	contains(f.msg, "no egress record")
}

test_unavailable_recording_needs_review_with_its_reason if {
	egress := object.union(quiet, {"recording": "unavailable", "reason": "no catch-all device: Permission denied"})
	s := box({"egress": egress})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.egress_unrecorded"]
	some f in found
	contains(f.msg, "Permission denied")
}

test_attempts_known_unrecorded_need_review if {
	egress := object.union(quiet, {
		"refused": 10001,
		"refused_by_host": [{"host": "192.0.2.10", "count": 10000}, {"host": "unrecorded", "count": 1}],
		"unrecorded": 1,
	})
	s := box({"egress": egress})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	sort([f.rule | some f in found]) == ["sandbox.egress_attempts", "sandbox.egress_unrecorded"]
}

test_an_open_network_is_not_reviewed_twice_for_recording if {
	s := unrecorded_box({"backend": "none", "network": "unrestricted"})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	[f.rule | some f in found] == ["sandbox.network"]
}

test_a_flood_of_hosts_is_listed_in_short if {
	hosts := [{"host": sprintf("h%d.example", [i]), "count": 1} | some i in numbers.range(1, 25)]
	egress := object.union(quiet, {"refused": 25, "refused_by_host": hosts})
	s := box({"egress": egress})
	found := sandbox.review with input.attestation.verified as true with input.packet.sandbox as s
	some f in found
	f.rule == "sandbox.egress_attempts"
	endswith(f.msg, "h20.example (1), and 5 more host(s)")
}
