"""Red team 19 (attack19) on 50fa80b: from a patch, installed code's YAML needs context (red team 22: a Kubernetes
manifest in a `pods/` folder, a vendored operator's manifests), except a vendored module's own dot-file settings.
Any leading dot was that exception, and `kubectl apply -f manifests/chaos/pods/` applies `.netpol.yaml` as any
other: an edit to a dot-named manifest the patch shows in part was `deps` with no `needs-context`, and the default
gate allowed what the commits call iac. Only the settings files a module keeps at its root by name stay exempt."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import two_commits
from tests.test_classify_context import patch_files, tree_files

BINDING = """apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: chaos-runner
  labels:
    app.kubernetes.io/part-of: chaos-tests
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: view
subjects:
  - kind: ServiceAccount
    name: chaos-runner
    namespace: chaos
"""

GOLANGCI = """run:
  timeout: 5m
linters:
  enable:
    - gofmt
    - govet
    - errcheck
    - staticcheck
    - unused
"""


@each_case("path", [
    "manifests/chaos-tests/pods/.rbac.yaml",
    "manifests/chaos-tests/pods/.cluster-role-binding.yml",
    "vendor/github.com/acme/operator/config/rbac/.role_binding.yaml",
    "web/node_modules/@acme/operator/deploy/.binding.yaml",
])
def test_a_dot_named_installed_manifest_needs_context_from_a_patch(tmp_path: Path, path: str) -> None:
    repo, _, _ = two_commits(tmp_path / "repo", {"README.md": "# chaos tests\n", path: BINDING},
                             {path: BINDING.replace("name: view", "name: cluster-admin")})
    assert tree_files(repo)[path].bucket == "iac"
    patch = patch_files(repo, tmp_path)[path]
    assert patch.bucket == "iac" or "needs-context" in patch.tags, patch


@each_case("path", [
    "vendor/github.com/acme/lib/.golangci.yml", "vendor/github.com/acme/lib/.travis.yml",
    "vendor/github.com/acme/lib/.codecov.yml", "vendor/github.com/acme/lib/.goreleaser.yaml",
])
def test_a_vendored_module_s_own_settings_stay_settled(tmp_path: Path, path: str) -> None:
    """The look-alikes 50fa80b kept settled: a Go module's own lint, CI and coverage settings."""
    repo, _, _ = two_commits(tmp_path / "repo", {"go.mod": "module example.invalid/svc\n", path: GOLANGCI},
                             {path: GOLANGCI.replace("5m", "10m")})
    patch = patch_files(repo, tmp_path)[path]
    assert (patch.bucket, "needs-context" in patch.tags) == ("deps", False), patch
