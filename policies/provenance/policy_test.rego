package gatekeeper.policies.provenance_test

import rego.v1

import data.gatekeeper.policies.provenance

unsigned := {
	"verified": false, "failed": false, "reason": "unsigned", "signer": null, "keyid": null, "groups": [],
	"claims": [],
}

test_matching_model_passes if {
	model := {"requested": "model-a", "reported": "model-a", "reported_by": "provider"}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	count(found) == 0
}

test_unreported_model_needs_review if {
	model := {"requested": "model-a", "reported": null, "reported_by": null}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	[f.rule | some f in found] == ["provenance.unreported"]
}

test_missing_model_block_needs_review if {
	found := provenance.review with input.attestation.verified as true with input.packet.run_id as "r1"
	[f.rule | some f in found] == ["provenance.unreported"]
}

test_different_model_needs_review if {
	model := {"requested": "model-a", "reported": "model-b", "reported_by": "provider"}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	[f.rule | some f in found] == ["provenance.mismatch"]
	some f in found
	contains(f.msg, "model-b")
}

test_relay_served_model_wins_over_the_generators_word if {
	model := {"requested": "model-a", "reported": "model-a", "reported_by": "generator", "served": ["model-b"]}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	[f.rule | some f in found] == ["provenance.mismatch"]
	some f in found
	contains(f.msg, "relay")
}

test_relay_with_the_requested_model_passes if {
	model := {"requested": "model-a", "reported": null, "reported_by": null, "served": ["model-a"]}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	count(found) == 0
}

test_relay_where_no_model_answered_needs_review if {
	model := {"requested": "model-a", "reported": "model-a", "reported_by": "generator", "served": []}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	[f.rule | some f in found] == ["provenance.unreported"]
}

test_an_unrecorded_call_needs_review_without_a_requested_model if {
	model := {"requested": null, "reported": null, "reported_by": null, "served": ["model-a", "(unrecorded)"]}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	[f.rule | some f in found] == ["provenance.unreported"]
	some f in found
	contains(f.msg, "(unrecorded)")
}

test_an_unreadable_answer_needs_review_without_a_requested_model if {
	model := {"requested": null, "reported": null, "reported_by": null, "served": ["(unreadable)"]}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
	[f.rule | some f in found] == ["provenance.unreported"]
	some f in found
	contains(f.msg, "(unreadable)")
}

test_models_outside_the_allowlist_need_review if {
	model := {"requested": "model-a", "reported": null, "reported_by": null, "served": ["model-a"]}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
		with data.gatekeeper.params.provenance.allowed_models as ["model-b"]
	[f.rule | some f in found] == ["provenance.not_allowed"]
}

test_metadata_egress_is_denied if {
	refused := [{"host": "169.254.169.254", "count": 2}, {"host": "127.0.0.1", "count": 1}]
	found := provenance.deny with input.attestation.verified as true with input.packet.relay.refused_by_host as refused
	[f.rule | some f in found] == ["provenance.metadata_egress"]
}

test_metadata_attempt_around_the_relay_is_denied if {
	some host in ["169.254.169.254", "fd00:ec2::254", "metadata.google.internal"]
	egress := {
		"recording": "recorded", "reason": null, "refused": 1,
		"refused_by_host": [{"host": host, "count": 1}], "unrecorded": 0,
	}
	found := provenance.deny with input.attestation.verified as true with input.packet.sandbox.egress as egress
	[f.rule | some f in found] == ["provenance.metadata_egress"]
	some f in found
	contains(f.msg, host)
}

test_metadata_attempt_by_every_route_is_one_finding if {
	relayed := [{"host": "169.254.169.254", "count": 1}]
	around := [{"host": "169.254.169.254", "count": 3}, {"host": "FD00:EC2::254", "count": 1}]
	found := provenance.deny with input.attestation.verified as true
		with input.packet.relay.refused_by_host as relayed
		with input.packet.sandbox.egress.refused_by_host as around
	count(found) == 1
	some f in found
	contains(f.msg, "169.254.169.254, fd00:ec2::254")
}

test_other_direct_attempts_are_not_denied_here if {
	around := [{"host": "192.0.2.10", "count": 1}, {"host": "example.com", "count": 2}]
	found := provenance.deny with input.attestation.verified as true
		with input.packet.sandbox.egress.refused_by_host as around
	count(found) == 0
}

test_other_refused_hosts_are_not_denied_here if {
	refused := [{"host": "pastebin.example", "count": 1}]
	found := provenance.deny with input.attestation.verified as true with input.packet.relay.refused_by_host as refused
	count(found) == 0
}

test_unverified_model_facts_need_review if {
	model := {"requested": "model-a", "reported": null, "reported_by": null, "served": ["model-a"]}
	attestation := unsigned
	found := provenance.review with input.packet.model as model with input.attestation as attestation
	[f.rule | some f in found] == ["provenance.unverified"]
	some f in found
	contains(f.msg, "unsigned")
}

test_a_self_report_from_a_closed_sandbox_without_relay_needs_review if {
	model := {"requested": "model-a", "reported": "model-a", "reported_by": "generator", "served": null}
	sandbox := {"backend": "unshare", "network": "denied", "egress_checked": true}
	found := provenance.review with input.attestation.verified as true with input.packet.model as model
		with input.packet.sandbox as sandbox
	[f.rule | some f in found] == ["provenance.unreachable"]
}

test_a_relayed_or_open_run_is_not_unreachable if {
	relayed := {"requested": "model-a", "reported": "model-a", "reported_by": "generator", "served": ["model-a"]}
	closed := {"backend": "unshare", "network": "allowlist", "egress_checked": true}
	count(provenance.review) == 0 with input.attestation.verified as true with input.packet.model as relayed
		with input.packet.sandbox as closed
	open := {"backend": "none", "network": "unrestricted", "egress_checked": true}
	unrelayed := {"requested": "model-a", "reported": "model-a", "reported_by": "generator"}
	count(provenance.review) == 0 with input.attestation.verified as true with input.packet.model as unrelayed
		with input.packet.sandbox as open
}
