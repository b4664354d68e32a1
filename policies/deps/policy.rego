# METADATA
# title: Dependency changes need a human
# description: >-
#   Any changed file in the `deps` bucket requires a human review. Manifests and lock files are
#   reported as separate findings, and so is a lock file changed without a manifest of its
#   ecosystem in its folder, or a manifest changed without its lock file (only for the ecosystems
#   in params.deps.lock_ecosystems, where every manifest has a committed lock file).
# custom:
#   version: 1.0.0
#   owner: security-engineering
#   rules:
#     - deps.manifest
#     - deps.lockfile
#     - deps.other
#     - deps.lock_without_manifest
#     - deps.manifest_without_lock
#     - deps.pairing_skipped
package gatekeeper.policies.deps

import rego.v1

import data.gatekeeper.lib

# Every rule below reads these arrays, computed once per evaluation; no sets (quadratic in regopy).
deps_files := [f | some f in input.files; f.bucket == "deps"] if input.summary.buckets.deps.files > 0

manifests := [f | some f in deps_files; "manifest" in f.tags]

lockfiles := [f | some f in deps_files; "lockfile" in f.tags]

review contains finding if {
	count(manifests) > 0
	paths := [f.path | some f in manifests]
	msg := sprintf("%s changed (%s): new or changed dependencies need a human review", [lib.files_text(count(paths)), lib.sample(paths)])
	finding := lib.bucket_finding("deps.manifest", msg, "deps", paths)
}

review contains finding if {
	count(lockfiles) > 0
	paths := [f.path | some f in lockfiles]
	msg := sprintf("%s changed (%s): resolved dependency versions need a human review", [lib.files_text(count(paths)), lib.sample(paths)])
	finding := lib.bucket_finding("deps.lockfile", msg, "deps", paths)
}

review contains finding if {
	paths := [f.path | some f in deps_files; not "manifest" in f.tags; not "lockfile" in f.tags]
	count(paths) > 0
	msg := sprintf("%s in deps changed (%s): dependency configuration needs a human review", [lib.files_text(count(paths)), lib.sample(paths)])
	finding := lib.bucket_finding("deps.other", msg, "deps", paths)
}

review contains finding if {
	pairing_checked
	paths := [f.path | some f in lockfiles; f.ecosystem != null; not paired(f, manifests)]
	count(paths) > 0
	msg := sprintf("lock file changed without its manifest (%s): versions moved with no declared change", [lib.sample(paths)])
	finding := lib.bucket_finding("deps.lock_without_manifest", msg, "deps", paths)
}

review contains finding if {
	pairing_checked
	paths := [f.path | some f in manifests; always_locked(f); not paired(f, lockfiles)]
	count(paths) > 0
	msg := sprintf("manifest changed without its lock file (%s): the resolved versions were not updated", [lib.sample(paths)])
	finding := lib.bucket_finding("deps.manifest_without_lock", msg, "deps", paths)
}

warn contains finding if {
	count(lockfiles) > 0
	not pairing_checked
	msg := sprintf("too many manifests x lock files to pair (%d x %d); pairing not checked", [count(manifests), count(lockfiles)])
	finding := lib.finding("deps.pairing_skipped", msg)
}

# Pairing compares every lock file with every manifest: bounded so a huge change cannot hang the gate.
pairing_checked if count(manifests) * count(lockfiles) <= lib.param(["deps", "max_pair_checks"], 1000000)

always_locked(f) if f.ecosystem in lib.param(["deps", "lock_ecosystems"], [])

paired(file, others) if {
	some other in others
	other.ecosystem == file.ecosystem
	other.dir == file.dir
}
