# METADATA
# title: Edits to agent and gate guardrails need a human
# description: >-
#   An agent that edits the files steering agents or gates (tagged `guardrail` by the
#   classification rules: agent instructions, CODEOWNERS, this policy bundle, ...) requires a human
#   review, whatever bucket those files fall in.
# custom:
#   version: 1.0.2
#   owner: security-engineering
#   rules:
#     - guardrails.edit
package gatekeeper.policies.guardrails

import rego.v1

import data.gatekeeper.lib

review contains finding if {
	input.summary.tags.guardrail > 0
	paths := lib.paths_tagged(lib.notable(input.files, input.summary), "guardrail")
	msg := sprintf("%s that steer agents or gates changed (%s): a human must approve", [
		lib.files_text(count(paths)),
		lib.sample(paths),
	])
	finding := lib.paths_finding("guardrails.edit", msg, paths)
}
