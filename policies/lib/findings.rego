# METADATA
# title: Shared helpers for gatekeeper policies
# description: >-
#   Builds findings so their shape never drifts ({rule, msg, bucket?, paths?}) and iterates the
#   re-derived file list as an array (regopy builds sets in quadratic time). Functions take what they
#   read as arguments (input.files, data.gatekeeper.params), never `input` or `data` themselves.
package gatekeeper.lib

import rego.v1

# A finding with only a rule id and a message.
finding(rule, msg) := {"rule": rule, "msg": msg}

# A finding about some files: one finding per rule, carrying every path, never one per file.
paths_finding(rule, msg, paths) := {"rule": rule, "msg": msg, "paths": paths}

# A finding about the files of one bucket.
bucket_finding(rule, msg, bucket, paths) := {"rule": rule, "msg": msg, "bucket": bucket, "paths": paths}

# The entries of `files` (input.files) that `summary` (input.summary) lists as notable: bucket ci, iac or deps,
# a tag, or facts, in patch order. Walk these rather than every file (each walk over a 10,000-file change
# costs regopy ~0.12 s whatever it tests); every file when the summary has no `notable` (an older input).
notable(files, summary) := [f | some i in summary.notable; f := files[i]] if {
	is_array(summary.notable)
} else := files

# Paths of the `files` (input.files) in `bucket`, in patch order.
paths_in_bucket(files, bucket) := [f.path | some f in files; f.bucket == bucket]

# Paths of the `files` (input.files) that carry `tag`, in patch order.
paths_tagged(files, tag) := [f.path | some f in files; tag in f.tags]

# "1 file" / "3 files", for messages.
files_text(n) := "1 file" if n == 1
files_text(n) := sprintf("%d files", [n]) if n != 1

# A threshold from the manifest's `params` (pass data.gatekeeper.params), with a fallback.
param(params, path, fallback) := object.get(params, path, fallback)

# The first paths, for messages that must stay short on a 10,000-file change.
# (trim_space because regopy's sprintf prints a concat() result with quotes around it.)
sample(paths) := trim_space(concat(", ", array.slice(paths, 0, 3))) if count(paths) <= 3

sample(paths) := sprintf("%s and %d more", [
	trim_space(concat(", ", array.slice(paths, 0, 3))),
	count(paths) - 3,
]) if count(paths) > 3
