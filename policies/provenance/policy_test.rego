package gatekeeper.policies.provenance

import rego.v1

test_matching_model_passes if {
	found := review with input.packet.model as {"requested": "model-a", "reported": "model-a", "reported_by": "provider"}
	count(found) == 0
}

test_unreported_model_needs_review if {
	found := review with input.packet.model as {"requested": "model-a", "reported": null, "reported_by": null}
	[f.rule | some f in found] == ["provenance.unreported"]
}

test_missing_model_block_needs_review if {
	found := review with input.packet.run_id as "r1"
	[f.rule | some f in found] == ["provenance.unreported"]
}

test_different_model_needs_review if {
	found := review with input.packet.model as {"requested": "model-a", "reported": "model-b", "reported_by": "provider"}
	[f.rule | some f in found] == ["provenance.mismatch"]
	some f in found
	contains(f.msg, "model-b")
}
