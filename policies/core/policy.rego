# METADATA
# title: CI and infrastructure changes need a human
# description: >-
#   Reproduces the proposal's gate exactly: any changed file classified `ci` or `iac` requires a
#   human review before merge (one finding per bucket, listing its paths); files in `deps`, `src`
#   and `other` queue normally.
# custom:
#   version: 1.0.0
#   owner: security-engineering
#   rules:
#     - core.ci
#     - core.iac
package gatekeeper.policies.core

import rego.v1

import data.gatekeeper.lib

review contains finding if {
	input.summary.buckets.ci.files > 0
	paths := lib.paths_in_bucket("ci")
	msg := sprintf("%s in ci (%s): CI configuration changes need a human review", [lib.files_text(count(paths)), lib.sample(paths)])
	finding := lib.bucket_finding("core.ci", msg, "ci", paths)
}

review contains finding if {
	input.summary.buckets.iac.files > 0
	paths := lib.paths_in_bucket("iac")
	msg := sprintf("%s in iac (%s): infrastructure changes need a human review", [lib.files_text(count(paths)), lib.sample(paths)])
	finding := lib.bucket_finding("core.iac", msg, "iac", paths)
}
