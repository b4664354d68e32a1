package gatekeeper.policies.deps

import rego.v1

import data.gatekeeper.lib.testing

manifest(path, ecosystem) := testing.file_with(path, "deps", {"tags": ["manifest"], "ecosystem": ecosystem})

lockfile(path, ecosystem) := testing.file_with(path, "deps", {"tags": ["lockfile"], "ecosystem": ecosystem})

rules(files) := sort([f.rule | some f in found]) if {
	s := testing.summary(files)
	found := review with input.files as files with input.summary as s
}

test_manifest_and_lock_together_are_two_findings if {
	rules([manifest("go.mod", "go"), lockfile("go.sum", "go")]) == ["deps.lockfile", "deps.manifest"]
}

test_lock_without_manifest if {
	rules([lockfile("web/package-lock.json", "npm")]) == ["deps.lock_without_manifest", "deps.lockfile"]
}

test_manifest_without_lock if {
	rules([manifest("go.mod", "go")]) == ["deps.manifest", "deps.manifest_without_lock"]
}

test_pairing_is_per_folder if {
	files := [manifest("a/package.json", "npm"), lockfile("b/package-lock.json", "npm")]
	rules(files) == ["deps.lock_without_manifest", "deps.lockfile", "deps.manifest", "deps.manifest_without_lock"]
}

test_pairing_is_per_ecosystem if {
	rules([manifest("package.json", "npm"), lockfile("go.sum", "go")]) == [
		"deps.lock_without_manifest", "deps.lockfile", "deps.manifest", "deps.manifest_without_lock",
	]
}

test_manifests_of_ecosystems_without_lock_files_are_not_paired if {
	rules([manifest("requirements.txt", "pip")]) == ["deps.manifest"]
}

test_every_lock_file_needs_its_manifest if {
	rules([lockfile("poetry.lock", "pip")]) == ["deps.lock_without_manifest", "deps.lockfile"]
}

test_other_deps_files if {
	files := [testing.file_with(".nvmrc", "deps", {"tags": ["toolchain"]})]
	rules(files) == ["deps.other"]
}

test_findings_carry_paths_and_bucket if {
	files := [manifest("go.mod", "go"), lockfile("go.sum", "go"), testing.file("src/a.go", "src")]
	s := testing.summary(files)
	found := review with input.files as files with input.summary as s
	some f in found
	f.rule == "deps.manifest"
	f.bucket == "deps"
	f.paths == ["go.mod"]
}

test_no_deps_files_no_findings if {
	rules([testing.file("src/main.go", "src"), testing.file("Jenkinsfile", "ci")]) == []
}

test_pairing_is_bounded if {
	files := [manifest("go.mod", "go"), lockfile("b/go.sum", "go")]
	s := testing.summary(files)
	found := review with input.files as files with input.summary as s with data.gatekeeper.params.deps.max_pair_checks as 0
	sort([f.rule | some f in found]) == ["deps.lockfile", "deps.manifest"]
	w := warn with input.files as files with input.summary as s with data.gatekeeper.params.deps.max_pair_checks as 0
	[f.rule | some f in w] == ["deps.pairing_skipped"]
}
