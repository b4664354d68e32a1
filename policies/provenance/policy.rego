# METADATA
# title: The served model must be the requested one
# description: >-
#   Requires a human review when nobody says which model served the run, or when it differs from the
#   requested one (exact string comparison). With the runner's model relay the answer is the relay's
#   record (`packet.model.served`, every model that answered); without it, what the provider reported
#   through the generator (`packet.model.reported`). Reviews served models outside
#   `params.provenance.allowed_models` when that list is set, and denies a run whose generator tried to
#   reach a cloud metadata address, through the relay (`packet.relay.refused_by_host`) or around it (a
#   direct connection or a DNS lookup recorded by the sandbox: `packet.sandbox.egress.refused_by_host`).
#   Reviews a model the generator reports when no relay ran and the sandbox denied all network: no model
#   outside could have answered, so the report is the generator's word alone (`provenance.unreachable`).
#   Reviews a relay record that names no model for some call (`(unreadable)`: an answer naming none it could read;
#   `(unrecorded)`: a log it could not close whole), whatever was requested (`provenance.unreported`).
#   The model facts are the runner's claims: unless the runner signed the packet with a key the gate
#   trusts (`input.attestation.verified`, gate --trust), they are unverified and the run needs review too.
# custom:
#   version: 1.5.0
#   owner: security-engineering
#   rules:
#     - provenance.unreported
#     - provenance.mismatch
#     - provenance.not_allowed
#     - provenance.metadata_egress
#     - provenance.unverified
#     - provenance.unreachable
package gatekeeper.policies.provenance

import rego.v1

import data.gatekeeper.lib

model := object.get(input.packet, "model", {})

requested := object.get(model, "requested", null)

reported := object.get(model, "reported", null)

# The relay's record wins over the generator's word: null when the run had no relay.
served := object.get(model, "served", null)

answered := served if served != null

answered := [reported] if {
	served == null
	reported != null
}

answered := [] if {
	served == null
	reported == null
}

# Hosts that hand out cloud credentials: AWS/Azure/OpenStack, GCP, Alibaba, AWS over IPv6
# (params.provenance.metadata_hosts replaces the list).
default_metadata_hosts := [
	"169.254.169.254", "metadata.google.internal", "metadata", "100.100.100.200", "fd00:ec2::254",
]

review contains finding if {
	count(answered) == 0
	msg := sprintf("no model was recorded as serving the run (requested: %s)", [describe(requested)])
	finding := lib.finding("provenance.unreported", msg)
}

# The relay's placeholders: some call's model is not known, so which model answered the run is not either.
review contains finding if {
	unknown := [m | some m in answered; m in {"(unreadable)", "(unrecorded)"}]
	count(unknown) > 0
	msg := sprintf("the model relay could not say which model answered every call (%s)", [names(unknown)])
	finding := lib.finding("provenance.unreported", msg)
}

review contains finding if {
	requested != null
	others := [m | some m in answered; m != requested]
	count(others) > 0
	msg := sprintf("%s answered but %s was requested (%s)", [names(others), describe(requested), source])
	finding := lib.finding("provenance.mismatch", msg)
}

review contains finding if {
	allowed := lib.param(data.gatekeeper.params, ["provenance", "allowed_models"], [])
	count(allowed) > 0
	outside := [m | some m in answered; not m in allowed]
	count(outside) > 0
	msg := sprintf("%s answered, which is not among the allowed models", [names(outside)])
	finding := lib.finding("provenance.not_allowed", msg)
}

# The runner's own signed claims say nothing could leave the sandbox and no relay ran: the generator's report names
# a model no request could have reached (a script, or a local model under any name). `served` is null without a relay.
review contains finding if {
	served == null
	reported != null
	object.get(object.get(input.packet, "sandbox", {}), "network", null) == "denied"
	msg := sprintf("the generator reports %s, but no model relay ran and the sandbox denied all network: %s", [
		describe(reported), "no model outside could have answered; the report is the generator's word alone",
	])
	finding := lib.finding("provenance.unreachable", msg)
}

deny contains finding if {
	hosts := lib.param(data.gatekeeper.params, ["provenance", "metadata_hosts"], default_metadata_hosts)
	relayed := object.get(object.get(input.packet, "relay", {}), "refused_by_host", [])
	around := object.get(object.get(object.get(input.packet, "sandbox", {}), "egress", {}), "refused_by_host", [])
	tried := {lower(entry.host) | some entry in array.concat(relayed, around); lower(entry.host) in hosts}
	count(tried) > 0
	msg := sprintf("the generator tried to reach a cloud metadata address (%s)", [names(sort(tried))])
	finding := lib.finding("provenance.metadata_egress", msg)
}

review contains finding if {
	not verified
	msg := sprintf("the model facts are not signed by a trusted runner key (%s)", [
		object.get(object.get(input, "attestation", {}), "reason", "no attestation"),
	])
	finding := lib.finding("provenance.unverified", msg)
}

verified if object.get(object.get(input, "attestation", {}), "verified", false) == true

source := "recorded by the model relay" if served != null

source := "as reported by the generator" if served == null

# (trim_space because regopy's sprintf prints a concat() result with quotes around it.)
names(values) := trim_space(concat(", ", values))

describe(value) := "none" if value == null
describe(value) := sprintf("\"%s\"", [value]) if value != null
