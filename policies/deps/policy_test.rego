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

sha_a := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

sha_b := "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

# An action or a pre-commit hook moved onto a bare commit sha no version names (the delta's `unversioned`): pinned,
# but no level to compare, so max_upgrade_level cannot let it through: reviewed, once, under its own rule.
unversioned_moves := [
	change("actions/checkout", "changed", {"ecosystem": "github-actions", "manifest": ".github/workflows/ci.yml",
		"from": sha_a, "to": sha_b, "pinned": true, "level": null, "unversioned": true}),
	change("psf/black", "changed", {"ecosystem": "pre-commit", "manifest": ".pre-commit-config.yaml",
		"from": sha_a, "to": sha_b, "pinned": null, "level": null, "unversioned": true}),
]

moves_files := [
	testing.file(".github/workflows/ci.yml", "ci"),
	testing.file_with(".pre-commit-config.yaml", "deps", {"ecosystem": "pre-commit"}),
]

files_of(c) := [f | some f in moves_files; f.path == c.manifest]

rules_with(params, changes, files) := sort([f.rule | some f in found]) if {
	s := testing.summary(files)
	d := {"changes": changes, "problems": []}
	found := deps.review with input.files as files with input.summary as s with input.dependencies as d
		with data.gatekeeper.params as params
}

test_a_move_onto_an_unnamed_sha_is_reviewed if {
	every c in unversioned_moves {
		rules([c], [], files_of(c)) == ["deps.unversioned"]
	}
}

test_every_unversioned_move_is_named_in_one_finding if {
	files := moves_files
	s := testing.summary(files)
	d := {"changes": unversioned_moves, "problems": []}
	found := deps.review with input.files as files with input.summary as s with input.dependencies as d
	[f] := [f | some f in found; f.rule == "deps.unversioned"]
	sort(f.paths) == [".github/workflows/ci.yml", ".pre-commit-config.yaml"]
	contains(f.msg, "actions/checkout")
	contains(f.msg, "psf/black")
}

test_unversioned_moves_queue_when_the_configuration_allows_them if {
	every c in unversioned_moves {
		rules_with({"deps": {"allow_unversioned": true}}, [c], files_of(c)) == []
	}
}

# Only the boolean true allows: a string, a number or null reads as not set (the more sensitive answer), and no
# upgrade level reaches a move that has none.
test_only_a_true_setting_allows_unversioned_moves if {
	every c in unversioned_moves {
		rules_with({"deps": {"allow_unversioned": "yes"}}, [c], files_of(c)) == ["deps.unversioned"]
		rules_with({"deps": {"allow_unversioned": 1}}, [c], files_of(c)) == ["deps.unversioned"]
		rules_with({"deps": {"allow_unversioned": false}}, [c], files_of(c)) == ["deps.unversioned"]
		rules_with({"deps": {"allow_unversioned": null}}, [c], files_of(c)) == ["deps.unversioned"]
		rules_with({"deps": {"max_upgrade_level": "major"}}, [c], files_of(c)) == ["deps.unversioned"]
	}
}

# The setting allows the unnamed sha, nothing else: a major upgrade, an action moved to a branch or a hook moved to
# one beside it still go to a human.
test_the_setting_allows_nothing_else if {
	allowed := {"deps": {"allow_unversioned": true}}
	major := change("a", "upgraded", {"level": "major"})
	rules_with(allowed, array.concat(unversioned_moves, [major]), array.concat(moves_files, [lock])) == [
		"deps.upgrade_level",
	]
	branch := change("actions/cache", "changed", {"ecosystem": "github-actions", "manifest": ".github/workflows/ci.yml",
		"from": sha_a, "to": "main", "pinned": false, "level": null})
	rules_with(allowed, [branch], files_of(branch)) == ["deps.unpinned_action"]
	hook := change("o/r", "changed", {"ecosystem": "pre-commit", "manifest": ".pre-commit-config.yaml",
		"from": "v1", "to": "main", "level": null})
	rules_with(allowed, [hook], files_of(hook)) == ["deps.unordered"]
}

# Look-alikes: a sha move whose version comments name both sides is an upgrade the level judges; a hook moved to a
# branch stays unordered; `unversioned: false` (an older delta writing it) is no such move.
test_named_sha_moves_are_judged_by_their_level if {
	named := change("actions/checkout", "upgraded", {"ecosystem": "github-actions", "manifest": ".github/workflows/ci.yml",
		"from": sha_a, "to": sha_b, "from_tag": "v4.1.1", "to_tag": "v4.2.0", "pinned": true, "level": "minor"})
	rules([named], [], files_of(named)) == []
	rules([object.union(named, {"unversioned": false})], [], files_of(named)) == []
	hook := change("o/r", "changed", {"ecosystem": "pre-commit", "manifest": ".pre-commit-config.yaml",
		"from": "v1", "to": "main", "level": null})
	rules([hook], [], files_of(hook)) == ["deps.unordered"]
}
