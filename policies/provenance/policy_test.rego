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
