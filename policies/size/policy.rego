# METADATA
# title: Large changes need a human; binary executables are refused
# description: >-
#   Requires a human review above params.size.max_files changed files or
#   params.size.max_changed_lines added plus deleted lines, and denies any change that adds or
#   modifies a binary executable: a file tagged `binary` whose new side is executable (tagged
#   `executable`, or mode 100755 already: a compiled program replaced in place keeps its mode).
# custom:
#   version: 1.1.0
#   owner: security-engineering
#   rules:
#     - size.files
#     - size.lines
#     - size.binary_executable
package gatekeeper.policies.size

import rego.v1

import data.gatekeeper.lib

max_files := lib.param(data.gatekeeper.params, ["size", "max_files"], 100)

max_lines := lib.param(data.gatekeeper.params, ["size", "max_changed_lines"], 2000)

review contains finding if {
	input.summary.files > max_files
	msg := sprintf("%s changed, above the limit of %d", [lib.files_text(input.summary.files), max_files])
	finding := lib.finding("size.files", msg)
}

review contains finding if {
	changed := input.summary.additions + input.summary.deletions
	changed > max_lines
	msg := sprintf("%d lines changed (+%d -%d), above the limit of %d", [
		changed,
		input.summary.additions,
		input.summary.deletions,
		max_lines,
	])
	finding := lib.finding("size.lines", msg)
}

deny contains finding if {
	input.summary.tags.binary > 0
	paths := [f.path | some f in lib.notable(input.files, input.summary); "binary" in f.tags; executable_after(f)]
	count(paths) > 0
	msg := sprintf("binary executable %s (%s): agents may not ship compiled programs", [
		lib.files_text(count(paths)),
		lib.sample(paths),
	])
	finding := lib.paths_finding("size.binary_executable", msg, paths)
}

# The file is executable after the change: made so (the `executable` tag), or it was and stays so (red team 31:
# a compiled program replaced in place at 100755 carried the `binary` tag alone).
executable_after(f) if "executable" in f.tags

executable_after(f) if object.get(f, "new_mode", null) == "100755"
