# METADATA
# title: Dependency changes are judged by what they move
# description: >-
#   Reads the dependency delta (input.dependencies) and file facts (input.files[i].facts): an upgrade of
#   an existing dependency within params.deps.max_upgrade_level (patch | minor) queues normally; a new
#   direct dependency, more than params.deps.max_new new ones, a downgrade, an upgrade beyond the level,
#   a move to a version that does not order, a move onto a commit sha no version names (unless
#   params.deps.allow_unversioned is true), an action not pinned to a full commit sha, a base image
#   change, a new or removed package registry, a dependency file not fully read, or a deps file whose change the
#   delta does not explain needs a human; a change to a version an advisory marks is denied. Without a
#   delta every deps file needs a human.
# custom:
#   version: 2.2.0
#   owner: security-engineering
#   rules:
#     - deps.no_delta
#     - deps.new_direct
#     - deps.too_many_new
#     - deps.downgrade
#     - deps.upgrade_level
#     - deps.unordered
#     - deps.unversioned
#     - deps.unpinned_action
#     - deps.base_image
#     - deps.new_registry
#     - deps.removed_registry
#     - deps.unreadable
#     - deps.unexplained
#     - deps.vulnerable
package gatekeeper.policies.deps

import rego.v1

import data.gatekeeper.lib

changes := object.get(input, ["dependencies", "changes"], [])

problems := object.get(input, ["dependencies", "problems"], [])

rank := {"patch": 1, "minor": 2, "major": 3}

max_level := lib.param(data.gatekeeper.params, ["deps", "max_upgrade_level"], "minor")

max_new := lib.param(data.gatekeeper.params, ["deps", "max_new"], 3)

within_level(c) if rank[c.level] <= rank[max_level]

# params.deps.allow_unversioned (optional, default false): only the boolean true lets a move onto a bare commit sha
# queue; any other value (a string "true", a number) reads as not set, the more sensitive answer.
allow_unversioned if lib.param(data.gatekeeper.params, ["deps", "allow_unversioned"], false) == true

unversioned(c) if object.get(c, "unversioned", false) == true

names(selected) := [sprintf("%s %s", [c.name, object.get(c, "to", "")]) | some c in selected]

manifests(selected) := [c.manifest | some c in selected]

# The files the per-file rules read, found in one pass over the notable files (lib.notable: every file of an
# older input), and no pass at all when the summary says there are none (a summary without `facts` gets the pass).
noted := [f | some f in lib.notable(input.files, input.summary); noted_file(f)] if {
	any_noted
} else := []

any_noted if input.summary.buckets.deps.files > 0

any_noted if object.get(input.summary, "facts", 1) > 0

noted_file(f) if f.bucket == "deps"

noted_file(f) if f.facts

review contains finding if {
	not input.dependencies
	paths := lib.paths_in_bucket(noted, "deps")
	count(paths) > 0
	msg := sprintf("%s changed (%s) and no dependency delta was computed", [
		lib.files_text(count(paths)),
		lib.sample(paths),
	])
	finding := lib.bucket_finding("deps.no_delta", msg, "deps", paths)
}

review contains finding if {
	selected := [c | some c in changes; c.change == "added"; c.direct]
	count(selected) > 0
	msg := sprintf("new direct dependencies: %s", [lib.sample(names(selected))])
	finding := lib.bucket_finding("deps.new_direct", msg, "deps", manifests(selected))
}

review contains finding if {
	selected := [c | some c in changes; c.change == "added"]
	count(selected) > max_new
	msg := sprintf("%d new dependencies (more than %d)", [count(selected), max_new])
	finding := lib.bucket_finding("deps.too_many_new", msg, "deps", manifests(selected))
}

review contains finding if {
	selected := [c | some c in changes; c.change == "downgraded"]
	count(selected) > 0
	msg := sprintf("downgraded dependencies: %s", [lib.sample(names(selected))])
	finding := lib.bucket_finding("deps.downgrade", msg, "deps", manifests(selected))
}

review contains finding if {
	selected := [c | some c in changes; c.change == "upgraded"; c.ecosystem != "docker"; not within_level(c)]
	count(selected) > 0
	msg := sprintf("upgrades beyond the allowed level (%s): %s", [max_level, lib.sample(names(selected))])
	finding := lib.bucket_finding("deps.upgrade_level", msg, "deps", manifests(selected))
}

review contains finding if {
	selected := [c |
		some c in changes
		c.change == "changed"
		c.ecosystem != "docker"
		c.ecosystem != "github-actions"
		not unversioned(c)
	]
	count(selected) > 0
	msg := sprintf("dependencies moved to a version that does not order: %s", [lib.sample(names(selected))])
	finding := lib.bucket_finding("deps.unordered", msg, "deps", manifests(selected))
}

# A move onto a full commit sha that no version names (`unversioned`: `@<sha>` -> `@<sha2>`, a stale or dropped
# version comment, a tag left for a bare sha): pinned, but no file says which version runs, so no level can be
# compared and max_upgrade_level cannot let it through (a version the commit message gives is the changer's own
# word). Reviewed unless params.deps.allow_unversioned is true (a team that trusts its bot's sha bumps).
review contains finding if {
	not allow_unversioned
	selected := [c | some c in changes; unversioned(c)]
	count(selected) > 0
	msg := sprintf("moved onto a commit sha no version names (no level to compare): %s", [
		lib.sample(names(selected)),
	])
	finding := lib.bucket_finding("deps.unversioned", msg, "deps", manifests(selected))
}

review contains finding if {
	selected := [c | some c in changes; c.ecosystem == "github-actions"; c.change != "removed"; c.pinned == false]
	count(selected) > 0
	msg := sprintf("actions not pinned to a full commit sha: %s", [lib.sample(names(selected))])
	finding := lib.bucket_finding("deps.unpinned_action", msg, "ci", manifests(selected))
}

review contains finding if {
	selected := [c | some c in changes; c.ecosystem == "docker"]
	count(selected) > 0
	msg := sprintf("container base images changed: %s", [lib.sample(names(selected))])
	finding := lib.bucket_finding("deps.base_image", msg, "deps", manifests(selected))
}

review contains finding if {
	paths := [f.path | some f in noted; count(object.get(f, ["facts", "registries_added"], [])) > 0]
	count(paths) > 0
	msg := sprintf("new package registries or indexes named in %s", [lib.sample(paths)])
	finding := lib.bucket_finding("deps.new_registry", msg, "deps", paths)
}

# A registry removed is no less a move of where packages come from (red team 15): the packages it served (a
# private scope, an internal index) are then looked up in the registries left, the public ones, where anyone can
# publish that name (dependency confusion). Beside a bump of the same file it rode on the bump's explanation.
review contains finding if {
	paths := [f.path | some f in noted; count(object.get(f, ["facts", "registries_removed"], [])) > 0]
	count(paths) > 0
	msg := sprintf("package registries or indexes removed from %s: what they served is looked up elsewhere", [
		lib.sample(paths),
	])
	finding := lib.bucket_finding("deps.removed_registry", msg, "deps", paths)
}

review contains finding if {
	paths := [p.manifest | some p in problems]
	count(paths) > 0
	msg := sprintf("dependency files not fully read (%s): their changes are unknown", [lib.sample(paths)])
	finding := lib.bucket_finding("deps.unreadable", msg, "deps", paths)
}

# A registry config's facts say what moved in it: new_registry judges an added URL, a removed one is harmless.
registries_moved(f) if object.get(f, ["facts", "kind"], "") == "registries"

# A deps file with no change and no problem moved something the delta does not model (a lockfile's
# resolved URL or integrity, a toolchain pin): a human looks.
review contains finding if {
	input.dependencies
	explained := array.concat(manifests(changes), [p.manifest | some p in problems])
	paths := [f.path | some f in noted; f.bucket == "deps"; not f.path in explained; not registries_moved(f)]
	count(paths) > 0
	msg := sprintf("deps files changed with no dependency moved (%s)", [lib.sample(paths)])
	finding := lib.bucket_finding("deps.unexplained", msg, "deps", paths)
}

deny contains finding if {
	selected := [c | some c in changes; count(object.get(c, "vulnerabilities", [])) > 0]
	count(selected) > 0
	ids := [id | some c in selected; some id in c.vulnerabilities]
	msg := sprintf("dependencies with known vulnerabilities: %s (%s)", [lib.sample(names(selected)), lib.sample(ids)])
	finding := lib.bucket_finding("deps.vulnerable", msg, "deps", manifests(selected))
}
