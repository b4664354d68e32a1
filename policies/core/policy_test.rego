package gatekeeper.policies.core_test

import rego.v1

import data.gatekeeper.lib.testing
import data.gatekeeper.policies.core

test_ci_file_needs_review if {
	files := [testing.file(".github/workflows/ci.yml", "ci"), testing.file("src/main.go", "src")]
	s := testing.summary(files)
	found := core.review with input.files as files with input.summary as s
	count(found) == 1
	some f in found
	f.rule == "core.ci"
	f.bucket == "ci"
	f.paths == [".github/workflows/ci.yml"]
}

test_iac_file_needs_review if {
	files := [testing.file("deploy/main.tf", "iac")]
	s := testing.summary(files)
	found := core.review with input.files as files with input.summary as s
	[f.rule | some f in found] == ["core.iac"]
}

test_one_finding_per_bucket_with_all_paths if {
	files := [
		testing.file("Jenkinsfile", "ci"),
		testing.file(".circleci/config.yml", "ci"),
		testing.file("infra/vpc.tf", "iac"),
	]
	s := testing.summary(files)
	found := core.review with input.files as files with input.summary as s
	count(found) == 2
	some ci in found
	ci.rule == "core.ci"
	ci.paths == ["Jenkinsfile", ".circleci/config.yml"]
}

test_deps_src_and_other_queue_normally if {
	files := [testing.file("go.mod", "deps"), testing.file("src/k8sclient.go", "src"), testing.file("README.md", "other")]
	s := testing.summary(files)
	found := core.review with input.files as files with input.summary as s
	count(found) == 0
}

test_core_never_denies_or_warns if {
	files := [testing.file("Jenkinsfile", "ci")]
	s := testing.summary(files)
	# core defines no deny or warn rules: both stay empty whatever the change. Queried through data, as
	# the gate queries them, since a bare `deny` would be an unsafe variable in OPA and test nothing.
	d := [x | some x in data.gatekeeper.policies.core.deny] with input.files as files with input.summary as s
	w := [x | some x in data.gatekeeper.policies.core.warn] with input.files as files with input.summary as s
	count(d) + count(w) == 0
}

test_needs_context_file_needs_review if {
	files := [
		testing.file_with("deploy-notes/web.yaml", "src", {"tags": ["needs-context"]}),
		testing.file("src/main.go", "src"),
	]
	s := testing.summary(files)
	found := core.review with input.files as files with input.summary as s
	[f.rule | some f in found] == ["core.needs_context"]
	some f in found
	f.paths == ["deploy-notes/web.yaml"]
}

test_needs_context_in_iac_is_one_iac_finding if {
	files := [testing.file_with("k8s/web.yaml", "iac", {"tags": ["needs-context"]})]
	s := testing.summary(files)
	found := core.review with input.files as files with input.summary as s
	[f.rule | some f in found] == ["core.iac"]
}
