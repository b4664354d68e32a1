package gatekeeper.policies.deps_test

import rego.v1

import data.gatekeeper.lib.testing
import data.gatekeeper.policies.deps

change(name, kind, fields) := object.union({"ecosystem": "npm", "name": name, "manifest": "package-lock.json",
	"from": "1.0.0", "to": "1.0.1", "change": kind, "direct": true, "scope": "runtime", "pinned": null,
	"level": "patch", "vulnerabilities": []}, fields)

lock := testing.file_with("package-lock.json", "deps", {"tags": ["lockfile"], "ecosystem": "npm"})

rules(changes, problems, files) := sort([f.rule | some f in found]) if {
	s := testing.summary(files)
	d := {"changes": changes, "problems": problems}
	found := deps.review with input.files as files with input.summary as s with input.dependencies as d
}

denied(changes) := sort([f.rule | some f in found]) if {
	files := [lock]
	s := testing.summary(files)
	d := {"changes": changes, "problems": []}
	found := deps.deny with input.files as files with input.summary as s with input.dependencies as d
}

test_patch_and_minor_upgrades_queue_normally if {
	minor := change("b", "upgraded", {"level": "minor"})
	rules([change("a", "upgraded", {}), minor], [], [lock]) == []
}

test_major_upgrade_is_reviewed if {
	rules([change("a", "upgraded", {"level": "major"})], [], [lock]) == ["deps.upgrade_level"]
}

test_unknown_level_is_reviewed if {
	rules([change("a", "upgraded", {"level": null})], [], [lock]) == ["deps.upgrade_level"]
}

test_new_direct_dependency_is_reviewed if {
	rules([change("evil", "added", {"from": null})], [], [lock]) == ["deps.new_direct"]
}

test_new_transitive_dependency_alone_queues if {
	rules([change("t", "added", {"from": null, "direct": false})], [], [lock]) == []
}

test_more_than_three_new_is_reviewed if {
	added := [change(sprintf("t%d", [i]), "added", {"direct": false}) | some i in numbers.range(1, 4)]
	rules(added, [], [lock]) == ["deps.too_many_new"]
}

test_downgrade_is_reviewed if {
	rules([change("a", "downgraded", {})], [], [lock]) == ["deps.downgrade"]
}

test_action_moved_to_a_branch_is_reviewed if {
	wf := testing.file(".github/workflows/ci.yml", "ci")
	c := change("actions/checkout", "changed", {"ecosystem": "github-actions", "manifest": wf.path, "pinned": false})
	rules([c], [], [wf]) == ["deps.unpinned_action"]
}

test_base_image_change_is_reviewed if {
	df := testing.file("Dockerfile", "iac")
	c := change("python", "upgraded", {"ecosystem": "docker", "manifest": "Dockerfile", "level": "minor"})
	rules([c], [], [df]) == ["deps.base_image"]
}

test_new_registry_is_reviewed if {
	facts := {"kind": "registries", "registries_added": ["https://x.example/"]}
	npmrc := testing.file_with(".npmrc", "deps", {"facts": facts})
	rules([], [], [npmrc]) == ["deps.new_registry"]
}

# A registry named outside the deps bucket (a classification that puts pip.conf elsewhere) still counts.
test_new_registry_outside_the_deps_bucket_is_reviewed if {
	facts := {"kind": "registries", "registries_added": ["https://x.example/"]}
	conf := testing.file_with("tools/pip.conf", "other", {"facts": facts})
	rules([], [], [testing.file("src/a.go", "src"), conf]) == ["deps.new_registry"]
}

# A summary without `facts` (an input recorded before it existed) never lets the files go unread.
test_a_summary_without_facts_still_reads_the_files if {
	facts := {"kind": "registries", "registries_added": ["https://x.example/"]}
	files := [testing.file_with("tools/pip.conf", "other", {"facts": facts})]
	s := object.remove(testing.summary(files), ["facts"])
	d := {"changes": [], "problems": []}
	found := deps.review with input.files as files with input.summary as s with input.dependencies as d
	[f.rule | some f in found] == ["deps.new_registry"]
}

# When the summary counts no deps file and no facts, the files are not read at all (the gate computes the
# summary from the same files; here it is made to disagree, to show the pass is skipped).
test_no_deps_file_and_no_facts_in_the_summary_skips_the_pass if {
	files := [lock]
	s := testing.summary([testing.file("src/a.go", "src")])
	s.facts == 0
	deps.noted == [] with input.files as files with input.summary as s
	s2 := testing.summary(files)
	deps.noted == files with input.files as files with input.summary as s2
}

test_unreadable_file_is_reviewed if {
	rules([], [{"manifest": "package-lock.json", "kind": "unparsable", "msg": "x"}], [lock]) == ["deps.unreadable"]
}

# From a patch alone, an entry read as far as its hunk shows it (a pubspec entry whose section is above the hunk, an
# sbt definition whose uses are not in it) is named, partial, beside a `partial` problem: an in-level upgrade on what
# the patch hides is reviewed, never allowed.
test_a_partial_entry_beside_its_partial_problem_is_reviewed_not_allowed if {
	pub := testing.file_with("pubspec.yaml", "deps", {"tags": ["manifest"], "ecosystem": "pub"})
	entry := change("dio", "upgraded", {"ecosystem": "pub", "manifest": "pubspec.yaml", "from": "^5.4.0",
		"to": "^5.4.1", "partial": true})
	rules([entry], [], [pub]) == []
	problem := {"manifest": "pubspec.yaml", "kind": "partial", "msg": "the hunk does not show the section of 'dio'"}
	rules([entry], [problem], [pub]) == ["deps.unreadable"]
}

test_lockfile_change_without_a_moved_version_is_reviewed if {
	rules([], [], [lock]) == ["deps.unexplained"]
}

test_without_a_delta_every_deps_file_is_reviewed if {
	files := [lock]
	s := testing.summary(files)
	found := deps.review with input.files as files with input.summary as s
	[f.rule | some f in found] == ["deps.no_delta"]
}

test_range_or_branch_move_is_reviewed if {
	rules([change("a", "changed", {"from": "^1.0.0", "to": ">=1 <3", "level": null})], [], [lock]) == ["deps.unordered"]
}

test_vulnerable_version_is_denied if {
	denied([change("lodash", "upgraded", {"vulnerabilities": ["GHSA-x"]})]) == ["deps.vulnerable"]
}

# Red team 15: a private scope's or index's registry removed sends its packages to the public one (dependency
# confusion), alone or beside a bump that explains the file.
test_removed_registry_is_reviewed if {
	facts := {"kind": "registries", "registries_removed": ["https://x.example/"]}
	npmrc := testing.file_with(".npmrc", "deps", {"facts": facts})
	rules([], [], [npmrc]) == ["deps.removed_registry"]
	req := testing.file_with("requirements.txt", "deps", {"facts": facts})
	rules([change("requests", "upgraded", {"manifest": "requirements.txt"})], [], [req]) == ["deps.removed_registry"]
}

test_a_registry_swapped_is_new_and_removed if {
	moved := {"registries_added": ["https://y.example/"], "registries_removed": ["https://x.example/"]}
	facts := object.union({"kind": "registries"}, moved)
	npmrc := testing.file_with(".npmrc", "deps", {"facts": facts})
	rules([], [], [npmrc]) == ["deps.new_registry", "deps.removed_registry"]
}
