package gatekeeper.policies.size_test

import rego.v1

import data.gatekeeper.lib.testing
import data.gatekeeper.policies.size

test_small_change_passes if {
	files := [testing.file("src/a.go", "src")]
	s := testing.summary(files)
	r := size.review with input.files as files with input.summary as s
	d := size.deny with input.files as files with input.summary as s
	count(r) + count(d) == 0
}

test_too_many_files_needs_review if {
	files := [testing.file("a.go", "src"), testing.file("b.go", "src"), testing.file("c.go", "src")]
	s := testing.summary(files)
	found := size.review with input.files as files with input.summary as s with data.gatekeeper.params.size.max_files as 2
	[f.rule | some f in found] == ["size.files"]
}

test_exactly_at_the_file_limit_passes if {
	files := [testing.file("a.go", "src"), testing.file("b.go", "src")]
	s := testing.summary(files)
	found := size.review with input.files as files with input.summary as s with data.gatekeeper.params.size.max_files as 2
	count(found) == 0
}

test_too_many_lines_needs_review if {
	files := [testing.file_with("a.go", "src", {"additions": 30, "deletions": 20})]
	s := testing.summary(files)
	found := size.review with input.files as files with input.summary as s
		with data.gatekeeper.params.size.max_changed_lines as 49
	[f.rule | some f in found] == ["size.lines"]
}

test_binary_executable_is_denied if {
	files := [
		testing.file_with("bin/tool", "other", {"tags": ["binary", "executable"], "binary": true, "new_mode": "100755"}),
		testing.file_with("img/logo.png", "other", {"tags": ["binary"], "binary": true}),
		testing.file_with("run.sh", "src", {"tags": ["executable"], "new_mode": "100755"}),
	]
	s := testing.summary(files)
	found := size.deny with input.files as files with input.summary as s
	count(found) == 1
	some f in found
	f.rule == "size.binary_executable"
	f.paths == ["bin/tool"]
}

test_binary_executable_replaced_in_place_is_denied if {
	files := [
		testing.file_with("bin/tool", "other", {
			"tags": ["binary"], "binary": true,
			"old_mode": "100755", "new_mode": "100755",
		}),
		testing.file_with("assets/blob.bin", "other", {
			"tags": ["binary"], "binary": true,
			"old_mode": "100644", "new_mode": "100644",
		}),
		testing.file_with("bin/gone", "other", {
			"tags": ["binary"], "binary": true,
			"status": "deleted", "old_mode": "100755",
		}),
	]
	s := testing.summary(files)
	found := size.deny with input.files as files with input.summary as s
	[f.paths | some f in found; f.rule == "size.binary_executable"] == [["bin/tool"]]
}
