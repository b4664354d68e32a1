# METADATA
# title: The served model must be the requested one
# description: >-
#   Requires a human review when the packet does not say which model the provider reported
#   serving (`packet.model.reported` missing or null), or when the reported model differs from the
#   requested one (exact string comparison).
# custom:
#   version: 1.0.0
#   owner: security-engineering
#   rules:
#     - provenance.unreported
#     - provenance.mismatch
package gatekeeper.policies.provenance

import rego.v1

import data.gatekeeper.lib

model := object.get(input.packet, "model", {})

requested := object.get(model, "requested", null)

reported := object.get(model, "reported", null)

review contains finding if {
	reported == null
	msg := sprintf("no provider reported which model served the run (requested: %s)", [describe(requested)])
	finding := lib.finding("provenance.unreported", msg)
}

review contains finding if {
	reported != null
	requested != null
	reported != requested
	msg := sprintf("the provider reported model %s but %s was requested", [describe(reported), describe(requested)])
	finding := lib.finding("provenance.mismatch", msg)
}

describe(value) := "none" if value == null
describe(value) := sprintf("\"%s\"", [value]) if value != null
