package gatekeeper.policies.guardrails_test

import rego.v1

import data.gatekeeper.lib.testing
import data.gatekeeper.policies.guardrails

test_guardrail_file_needs_review if {
	files := [
		testing.file_with("AGENTS.md", "other", {"tags": ["guardrail"]}),
		testing.file("src/app.py", "src"),
		testing.file_with(".github/CODEOWNERS", "other", {"tags": ["guardrail"]}),
	]
	s := testing.summary(files)
	found := guardrails.review with input.files as files with input.summary as s
	count(found) == 1
	some f in found
	f.rule == "guardrails.edit"
	f.paths == ["AGENTS.md", ".github/CODEOWNERS"]
	# `not f.bucket` would not compile in OPA (a finding built by paths_finding has no such key).
	not "bucket" in object.keys(f)
}

test_untagged_files_pass if {
	files := [testing.file("src/app.py", "src"), testing.file("docs/AGENTS-history.md", "other")]
	s := testing.summary(files)
	found := guardrails.review with input.files as files with input.summary as s
	count(found) == 0
}
