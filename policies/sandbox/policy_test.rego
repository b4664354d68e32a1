package gatekeeper.policies.sandbox

import rego.v1

test_denied_and_checked_passes if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "unshare", "network": "denied", "egress_checked": true, "env_passed": [], "egress": {"recording": "recorded", "reason": null, "refused": 0, "refused_by_host": [], "unrecorded": 0}}
	count(found) == 0
}

test_unrestricted_network_needs_review if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "none", "network": "unrestricted", "egress_checked": true, "env_passed": []}
	[f.rule | some f in found] == ["sandbox.network"]
}

test_unchecked_egress_needs_review if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "unshare", "network": "denied", "egress_checked": false, "env_passed": [], "egress": {"recording": "recorded", "reason": null, "refused": 0, "refused_by_host": [], "unrecorded": 0}}
	[f.rule | some f in found] == ["sandbox.egress_unchecked"]
}

test_packet_built_outside_the_runner_needs_review if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "none", "network": "unknown", "egress_checked": false, "env_passed": []}
	sort([f.rule | some f in found]) == ["sandbox.egress_unchecked", "sandbox.network"]
}

test_missing_sandbox_block_needs_review if {
	found := review with input.attestation.verified as true with input.packet.run_id as "r1"
	count(found) == 2
}

test_allowlist_through_the_relay_passes if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "bwrap", "network": "allowlist", "egress_checked": true, "env_passed": [], "egress": {"recording": "recorded", "reason": null, "refused": 0, "refused_by_host": [], "unrecorded": 0}}
		with input.packet.relay as {"apis": ["anthropic"], "served": ["m"], "requests": 3, "refused": 0, "refused_by_host": [], "tokens": 9}
	count(found) == 0
}

test_allowlist_without_a_relay_needs_review if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "bwrap", "network": "allowlist", "egress_checked": true, "env_passed": [], "egress": {"recording": "recorded", "reason": null, "refused": 0, "refused_by_host": [], "unrecorded": 0}}
	[f.rule | some f in found] == ["sandbox.network"]
}

test_refused_attempts_need_review if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "bwrap", "network": "allowlist", "egress_checked": true, "env_passed": [], "egress": {"recording": "recorded", "reason": null, "refused": 0, "refused_by_host": [], "unrecorded": 0}}
		with input.packet.relay as {"apis": ["openai"], "served": [], "requests": 0, "refused": 2, "refused_by_host": [{"host": "pastebin.example", "count": 2}], "tokens": 0}
	[f.rule | some f in found] == ["sandbox.refused_egress"]
	some f in found
	contains(f.msg, "pastebin.example (2)")
}

test_unverified_sandbox_claims_need_review if {
	found := review with input.packet.sandbox as {"backend": "bwrap", "network": "denied", "egress_checked": true, "env_passed": [], "egress": {"recording": "recorded", "reason": null, "refused": 0, "refused_by_host": [], "unrecorded": 0}}
		with input.attestation as {"verified": false, "failed": false, "reason": "unsigned", "signer": null, "keyid": null, "groups": [], "claims": []}
	[f.rule | some f in found] == ["sandbox.unverified"]
}

closed_sandbox(egress) := {"backend": "unshare", "network": "denied", "egress_checked": true, "env_passed": [], "egress": egress}

test_attempts_around_the_relay_need_review if {
	egress := {"recording": "recorded", "reason": null, "refused": 3, "refused_by_host": [{"host": "192.0.2.10", "count": 1}, {"host": "example.com", "count": 2}], "unrecorded": 0}
	found := review with input.attestation.verified as true with input.packet.sandbox as closed_sandbox(egress)
	[f.rule | some f in found] == ["sandbox.egress_attempts"]
	some f in found
	contains(f.msg, "3 time(s): 192.0.2.10 (1), example.com (2)")
}

test_a_closed_sandbox_without_an_egress_record_needs_review if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "bwrap", "network": "denied", "egress_checked": true, "env_passed": []}
	[f.rule | some f in found] == ["sandbox.egress_unrecorded"]
	some f in found
	contains(f.msg, "no egress record")
}

test_unavailable_recording_needs_review_with_its_reason if {
	egress := {"recording": "unavailable", "reason": "no catch-all device: Permission denied", "refused": 0, "refused_by_host": [], "unrecorded": 0}
	found := review with input.attestation.verified as true with input.packet.sandbox as closed_sandbox(egress)
	[f.rule | some f in found] == ["sandbox.egress_unrecorded"]
	some f in found
	contains(f.msg, "Permission denied")
}

test_attempts_known_unrecorded_need_review if {
	egress := {"recording": "recorded", "reason": null, "refused": 10001, "refused_by_host": [{"host": "192.0.2.10", "count": 10000}, {"host": "unrecorded", "count": 1}], "unrecorded": 1}
	found := review with input.attestation.verified as true with input.packet.sandbox as closed_sandbox(egress)
	sort([f.rule | some f in found]) == ["sandbox.egress_attempts", "sandbox.egress_unrecorded"]
}

test_an_open_network_is_not_reviewed_twice_for_recording if {
	found := review with input.attestation.verified as true with input.packet.sandbox as {"backend": "none", "network": "unrestricted", "egress_checked": true, "env_passed": []}
	[f.rule | some f in found] == ["sandbox.network"]
}

test_a_flood_of_hosts_is_listed_in_short if {
	hosts := [{"host": sprintf("h%d.example", [i]), "count": 1} | some i in numbers.range(1, 25)]
	egress := {"recording": "recorded", "reason": null, "refused": 25, "refused_by_host": hosts, "unrecorded": 0}
	found := review with input.attestation.verified as true with input.packet.sandbox as closed_sandbox(egress)
	some f in found
	f.rule == "sandbox.egress_attempts"
	endswith(f.msg, "h20.example (1), and 5 more host(s)")
}
