# METADATA
# title: Runs must have had no network egress, checked
# description: >-
#   Requires a human review when the packet says the generator's network was not `denied`
#   (`allowlist`, `unrestricted`, `unknown` or missing), or when the runner did not check that
#   egress was actually blocked (`sandbox.egress_checked` not true).
# custom:
#   version: 1.0.0
#   owner: security-engineering
#   rules:
#     - sandbox.network
#     - sandbox.egress_unchecked
package gatekeeper.policies.sandbox

import rego.v1

import data.gatekeeper.lib

sandbox := object.get(input.packet, "sandbox", {})

network := object.get(sandbox, "network", null)

review contains finding if {
	network != "denied"
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

describe(value) := "unknown" if value == null
describe(value) := sprintf("%s", [value]) if value != null
