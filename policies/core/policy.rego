# METADATA
# title: CI and infrastructure changes need a human
# description: >-
#   Reproduces the proposal's gate exactly: any changed file classified `ci` or `iac` requires a
#   human review before merge (one finding per bucket, listing its paths); files in `deps`, `src`
#   and `other` queue normally, except files tagged `needs-context`: classified from a patch alone,
#   their class depends on content or marker files the patch does not show, so a human looks
#   (pass `--tree BASE..HEAD` to the gate to classify them from the commits instead).
# custom:
#   version: 1.1.3
#   owner: security-engineering
#   rules:
#     - core.ci
#     - core.iac
#     - core.needs_context
package gatekeeper.policies.core

import rego.v1

import data.gatekeeper.lib

review contains finding if {
	input.summary.buckets.ci.files > 0
	paths := lib.paths_in_bucket(ci_or_iac, "ci")
	msg := sprintf("%s in ci (%s): CI configuration changes need a human review", [
		lib.files_text(count(paths)),
		lib.sample(paths),
	])
	finding := lib.bucket_finding("core.ci", msg, "ci", paths)
}

review contains finding if {
	input.summary.buckets.iac.files > 0
	paths := lib.paths_in_bucket(ci_or_iac, "iac")
	msg := sprintf("%s in iac (%s): infrastructure changes need a human review", [
		lib.files_text(count(paths)),
		lib.sample(paths),
	])
	finding := lib.bucket_finding("core.iac", msg, "iac", paths)
}

review contains finding if {
	input.summary.tags["needs-context"] > 0
	notable := lib.notable(input.files, input.summary)
	paths := [f.path | some f in notable; "needs-context" in f.tags; not f.bucket in {"ci", "iac"}]
	count(paths) > 0
	what := sprintf("%s classified without repository context (%s)", [lib.files_text(count(paths)), lib.sample(paths)])
	# Three steps to stay within 120 columns; a string literal bound to a variable would print quoted in regopy.
	why := sprintf("%s: their class depends on content or marker files the patch does not show", [what])
	msg := sprintf("%s; pass --tree BASE..HEAD to the gate, or have a human review", [why])
	finding := lib.paths_finding("core.needs_context", msg, paths)
}

# The ci and iac files, found in one pass over the notable files (lib.notable: every file of an older input);
# evaluated only when a rule above reads it, after the summary counted such files.
ci_or_iac := [f | some f in lib.notable(input.files, input.summary); f.bucket in {"ci", "iac"}]
