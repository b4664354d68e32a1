# METADATA
# title: Helpers for policy unit tests
# description: >-
#   Builds file entries and the matching `summary` so a test mocks parts of the input
#   (`with input.files as files with input.summary as s`), never the whole input, which crashes
#   regopy. Bind results to local variables before `with ... as`: a rule reference there is undefined.
#   Loaded only by `gatekeeper test`, never into a gate.
package gatekeeper.lib.testing

import rego.v1

buckets := ["ci", "iac", "deps", "src", "other"]

tags := [
	"guardrail", "manifest", "lockfile", "toolchain", "executable", "symlink", "submodule", "binary",
	"needs-context",
]

# A modified file entry, shaped as the gate hands it to policies (fields at their default left out:
# `old_path`, `ecosystem`, `old_mode`, `new_mode`, `symlink_target`, `unsafe` null, `tags` [], `binary` false).
file(path, bucket) := {
	"path": path,
	"status": "modified",
	"bucket": bucket,
	"rule": sprintf("test.%s", [bucket]),
	"additions": 1,
	"deletions": 0,
	"dir": dir_of(path),
}

# The same entry with some fields replaced, e.g. {"tags": ["lockfile"], "ecosystem": "npm"}.
file_with(path, bucket, fields) := object.union(file(path, bucket), fields)

dir_of(path) := concat("/", array.slice(parts, 0, count(parts) - 1)) if {
	parts := split(path, "/")
}

# The `summary` the gate would compute for `files`.
summary(files) := {
	"buckets": {b: {
		"files": count([f | some f in files; f.bucket == b]),
		"additions": sum([f.additions | some f in files; f.bucket == b]),
		"deletions": sum([f.deletions | some f in files; f.bucket == b]),
	} | some b in buckets},
	"tags": {t: count([f | some f in files; t in f.tags]) | some t in tags},
	"files": count(files),
	"additions": sum([f.additions | some f in files]),
	"deletions": sum([f.deletions | some f in files]),
	"facts": count([f | some f in files; f.facts]),
	"notable": notable_of(files),
}

# What the gate lists in `summary.notable` (gate.notable): bucket ci, iac or deps, a tag, or facts.
notable_of(files) := [i | some i; f := files[i]; is_notable(f)]

is_notable(f) if f.bucket in {"ci", "iac", "deps"}

is_notable(f) if count(object.get(f, "tags", [])) > 0

is_notable(f) if object.get(f, "facts", null) != null
