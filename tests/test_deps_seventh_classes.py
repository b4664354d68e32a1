"""Classes of misses the seventh blind set of bot update commits found (bench/deps_bumps_seventh.tsv): a chart's
application named by its untagged image, a tool a Dockerfile stage downloads by an `<TOOL>_VERSION` ARG, a
SwiftPM `Package.resolved` read from a patch's hunks, `bazel_dep(repo_name = None)` and a hash-pinned
requirements file's hunks (CocoaPods, also found there: tests/test_deps_cocoapods.py). Each is fed the shape of the
real file (cloudnative-pg's chart, grafana/tanka's Dockerfile, the Swift Package Index's resolved pins,
aspect-build/rules_js's MODULE.bazel, sigstore-python's install/requirements.txt) through a real git repository,
with the hostile variants beside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import bazel, docker, swift
from gatekeeper.deps.model import ManifestError
from tests.deltas import moves as _moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# A chart's application, named by the image its values tag with appVersion (`helm create`'s shape)

CHART = """\
apiVersion: v2
name: cloudnative-pg
description: CloudNativePG Operator Helm Chart
type: application
# This is the chart version.
version: "0.28.3"
# This is the version number of the application being deployed.
appVersion: "1.29.1"
sources:
  - https://github.com/cloudnative-pg/charts
dependencies:
  - name: cluster
    alias: monitoring
    version: "0.0"
    repository: https://cloudnative-pg.github.io/grafana-dashboards
"""
VALUES = """\
replicaCount: 1

image:
  repository: ghcr.io/cloudnative-pg/cloudnative-pg
  pullPolicy: IfNotPresent
  # -- Overrides the image tag whose default is the chart appVersion.
  tag: ""

imagePullSecrets: []
monitoring:
  image:
    repository: docker.io/grafana/grafana
    tag: "12.1.0"
"""
BUMP = {"charts/cloudnative-pg/Chart.yaml": {'appVersion: "1.29.1"': 'appVersion: "1.30.0"'}}


def test_chart_app_version_names_the_untagged_image(tmp_path: Path) -> None:
    files = {"charts/cloudnative-pg/Chart.yaml": CHART, "charts/cloudnative-pg/values.yaml": VALUES}
    delta = _tree(*edited_commits(tmp_path, files, BUMP))
    assert _moves(delta) == {("tool", "ghcr.io/cloudnative-pg/cloudnative-pg", "1.29.1", "1.30.0")}
    [change] = delta.changes
    assert (change.change, change.level, change.manifest) == ("upgraded", "minor", "charts/cloudnative-pg/Chart.yaml")


@each_case("values", [
    VALUES.replace('  tag: "12.1.0"\n', ""),  # two untagged images: which one appVersion tags is the templates' say
    "image:\n  repository: ghcr.io/cloudnative-pg/cloudnative-pg\n  tag: 1.29.1\n",  # a tagged image: not appVersion's
    "image: [unclosed\n",  # values that do not parse: a label, never a crash
    "image:\n  repository: https://charts.example.com\n",  # a URL is no image
    "- a list\n- at the top\n",
])
def test_chart_app_keeps_its_label_when_the_values_name_no_one_image(tmp_path: Path, values: str) -> None:
    files = {"charts/cloudnative-pg/Chart.yaml": CHART, "charts/cloudnative-pg/values.yaml": values}
    delta = _tree(*edited_commits(tmp_path, files, BUMP))
    assert _moves(delta) == {("tool", "cloudnative-pg", "1.29.1", "1.30.0")}


def test_chart_app_without_values_and_from_a_patch_keeps_its_label(tmp_path: Path) -> None:
    delta = _tree(*edited_commits(tmp_path / "alone", {"charts/cloudnative-pg/Chart.yaml": CHART}, BUMP))
    assert _moves(delta) == {("tool", "cloudnative-pg", "1.29.1", "1.30.0")}
    files = {"charts/cloudnative-pg/Chart.yaml": CHART, "charts/cloudnative-pg/values.yaml": VALUES}
    repo, base, head = edited_commits(tmp_path / "patch", files, BUMP)
    # the values are not in the patch: the version is still named, under the chart's label
    assert {(name, to) for _, name, _, to in _moves(_patch(repo, base, head))} <= {("cloudnative-pg", "1.30.0")}


def test_values_swapping_the_untagged_image_beside_a_bump_is_no_upgrade(tmp_path: Path) -> None:
    """The app's name follows its image at each side: a registry swapped under an appVersion bump is a removed
    and an added application, which the deps policy reviews, never an upgrade within level."""
    files = {"charts/cloudnative-pg/Chart.yaml": CHART, "charts/cloudnative-pg/values.yaml": VALUES}
    edits = {**BUMP, "charts/cloudnative-pg/values.yaml": {"ghcr.io/cloudnative-pg/": "127.0.0.1:9/cnpg/"}}
    delta = _tree(*edited_commits(tmp_path, files, edits))
    assert {(c.name, c.change) for c in delta.changes if c.ecosystem == "tool"} == {
        ("ghcr.io/cloudnative-pg/cloudnative-pg", "removed"), ("127.0.0.1:9/cnpg/cloudnative-pg", "added")}


# A tool a Dockerfile stage downloads by version (grafana/tanka)

DOCKERFILE = """\
# download kubectl
FROM golang:1.26.5-alpine AS kubectl
ARG KUBECTL_VERSION=1.34.9
RUN apk add --no-cache curl
RUN export OS=$(go env GOOS) && \\
    curl -o /usr/local/bin/kubectl -L https://dl.k8s.io/release/v${KUBECTL_VERSION}/bin/${OS}/kubectl

FROM golang:1.26.5-alpine AS helm
WORKDIR /tmp/helm
ARG HELM_VERSION=3.21.0
RUN curl -SL "https://get.helm.sh/helm-v${HELM_VERSION}-linux-amd64.tar.gz" > helm.tgz

FROM alpine:3.24
ENV NODE_VERSION 20.11.1
ENV PATH=/usr/local/bin:$PATH
# renovate: datasource=github-releases depName=jsonnet-bundler/jsonnet-bundler
ARG JB_VERSION=v0.6.0
COPY --from=kubectl /usr/local/bin/kubectl /usr/local/bin/kubectl
"""


def test_dockerfile_tool_versions() -> None:
    deps = {(d.ecosystem, d.name, d.version) for d in docker.parse_dockerfile("Dockerfile", DOCKERFILE.encode())}
    assert deps == {("docker", "golang", "1.26.5-alpine"), ("docker", "alpine", "3.24"),
                    ("tool", "kubectl", "1.34.9"), ("tool", "helm/helm", "3.21.0"), ("tool", "node", "20.11.1"),
                    ("tool", "jsonnet-bundler/jsonnet-bundler", "v0.6.0")}  # annotated: read once, by its annotation


def test_dockerfile_arg_a_from_reads_is_the_image_not_a_tool() -> None:
    body = "ARG GO_VERSION=1.22\nFROM golang:${GO_VERSION}-alpine AS build\nARG APP_VERSION=latest\nRUN make\n"
    deps = {(d.ecosystem, d.name, d.version) for d in docker.parse_dockerfile("Dockerfile", body.encode())}
    assert deps == {("docker", "golang", "1.22-alpine")}  # `latest` names no version


@pytest.mark.parametrize("extra", [(), ("-U1",)])
def test_stage_arg_bump_is_read_from_a_patch(tmp_path: Path, extra: tuple[str, ...]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": DOCKERFILE},
                                      {"Dockerfile": {"KUBECTL_VERSION=1.34.9": "KUBECTL_VERSION=1.34.10"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head, *extra)):
        assert _moves(delta) == {("tool", "kubectl", "1.34.9", "1.34.10")}
        assert not delta.problems


def test_a_global_arg_whose_from_the_hunk_does_not_show_still_fails_closed(tmp_path: Path) -> None:
    """An ARG above the first FROM may be read by any FROM below: when the hunk shows none, the image it moves is
    unknown, and the patch alone must not call the move a tool bump."""
    body = "ARG GO_VERSION=1.22\n" + "\n".join(f"LABEL n{i}=x" for i in range(8)) + "\nFROM golang:${GO_VERSION}\n"
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": body},
                                      {"Dockerfile": {"GO_VERSION=1.22": "GO_VERSION=6.66"}})
    delta = _patch(repo, base, head)
    assert {(p.manifest, p.kind) for p in delta.problems} == {("Dockerfile", "partial")}  # one per side
    assert not delta.changes
    assert _moves(_tree(repo, base, head)) == {("docker", "golang", "1.22", "6.66")}


# Swift Package.resolved from a patch's hunks (the Swift Package Index)

def _pin(identity: str, location: str, revision: str, version: str | None, branch: str | None = None) -> dict:
    state: dict[str, str] = {"revision": revision}
    if branch is not None:
        state["branch"] = branch
    if version is not None:
        state["version"] = version
    return {"identity": identity, "kind": "remoteSourceControl", "location": location,
            "state": dict(sorted(state.items()))}


def _resolved(pins: list[dict]) -> str:
    # SwiftPM writes `"key" : value` with a space before the colon, two-space indents
    body = json.dumps({"originHash": "aaf45ceddb02850c5d6086f7000395f1a9b823249c741db3bd80dcfa4085bd7c",
                       "pins": pins, "version": 3}, indent=2)
    return body.replace('": ', '" : ') + "\n"


PINS = [_pin(f"pkg{i}", f"https://github.com/acme/Pkg{i}.git", f"{i:040x}", f"1.{i}.0") for i in range(12)]
PINS.append(_pin("sdk", "git@github.com:acme/sdk.git", "f" * 40, None, "main"))
RESOLVED = _resolved(PINS)


def test_package_resolved_bump_is_read_from_hunks(tmp_path: Path) -> None:
    head = _resolved([_pin("pkg5", "https://github.com/acme/Pkg5.git", "e" * 40, "1.5.1") if p["identity"] == "pkg5"
                      else p for p in PINS]).replace("aaf45", "c0739")
    repo, base, head_sha = edited_commits(tmp_path, {"Package.resolved": RESOLVED},
                                          {"Package.resolved": {RESOLVED: head}})
    delta = _patch(repo, base, head_sha)
    assert _moves(delta) == {("swift", "github.com/acme/Pkg5", "1.5.0", "1.5.1")}
    assert not delta.problems
    assert all(c.partial for c in delta.changes)
    assert _moves(_tree(repo, base, head_sha)) == _moves(delta)


@pytest.mark.parametrize(("why", "old", "new"), [
    ("revision moved under its version", f'"revision" : "{5:040x}"', '"revision" : "' + "b" * 40 + '"'),
    ("branch pin's revision moved", '"revision" : "' + "f" * 40 + '"', '"revision" : "' + "b" * 40 + '"'),
    ("pin form not read", '"version" : "1.5.0"', '"version":"1.5.1","x":1'),
])
def test_package_resolved_hunks_that_hide_a_move_fail_closed(tmp_path: Path, why: str, old: str, new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"Package.resolved": RESOLVED}, {"Package.resolved": {old: new}})
    delta = _patch(repo, base, head)
    assert {(p.manifest, p.kind) for p in delta.problems} == {("Package.resolved", "partial")}, why
    assert not delta.changes


def test_package_resolved_hunk_without_its_location_fails_closed(tmp_path: Path) -> None:
    """With less context (-U0, or -U1 that stops short of `location`), a changed version has no pin to name."""
    bump = {'"version" : "1.5.0"': '"version" : "1.5.1"', f'"revision" : "{5:040x}"': '"revision" : "' + "e" * 40 + '"'}
    repo, base, head = edited_commits(tmp_path, {"Package.resolved": RESOLVED}, {"Package.resolved": bump})
    for extra in ("-U0", "-U1"):
        delta = _patch(repo, base, head, extra)
        assert {p.kind for p in delta.problems} == {"partial"} and not delta.changes, extra


def test_package_resolved_hunks_agree_with_the_whole_file_reader() -> None:
    """Every single-pin bump and every pin added or removed: the hunk reader of each side names what the whole
    file names of that pin."""
    for i, pin in enumerate(PINS):
        lines = RESOLVED.splitlines()
        start = next(n for n, line in enumerate(lines) if f'"identity" : "{pin["identity"]}"' in line)
        shown = "\n".join(lines[max(start - 2, 0): start + 11]).encode()
        whole = {(d.name, d.version) for d in swift.parse_package_resolved("Package.resolved", RESOLVED.encode())}
        assert {(d.name, d.version) for d in swift.package_resolved_hunks("Package.resolved", shown)} <= whole, i


def test_package_resolved_hunks_of_a_v1_file() -> None:
    v1 = ('{\n  "object": {\n    "pins": [\n      {\n        "package": "Nimble",\n'
          '        "repositoryURL": "https://github.com/Quick/Nimble.git",\n        "state": {\n'
          '          "branch": null,\n          "revision": "1f3bde57bde12f5e7b07909848c071e9b73d6edc",\n'
          '          "version": "13.7.1"\n        }\n      }\n    ]\n  },\n  "version": 1\n}\n')
    assert [(d.name, d.version) for d in swift.package_resolved_hunks("Package.resolved", v1.encode())] == [
        ("github.com/Quick/Nimble", "13.7.1")]
    with pytest.raises(ManifestError):
        swift.package_resolved_hunks("Package.resolved", b'\0        "version": "13.7.2"\n')


# MODULE.bazel

def test_bazel_dep_repo_name_none_is_a_literal() -> None:
    body = b'bazel_dep(name = "aspect_bazel_lib", version = "2.22.5", repo_name = None)\n'
    assert [(d.name, d.version) for d in bazel.parse_module_bazel("MODULE.bazel", body)] == [("aspect_bazel_lib",
                                                                                              "2.22.5")]
    with pytest.raises(ManifestError, match="not a literal"):
        bazel.parse_module_bazel("MODULE.bazel", b'bazel_dep(name = "x", version = VERSION)\n')


@pytest.mark.parametrize("above", [
    "RUN echo \\\nFROM golang:1.22 AS fake\n",  # a RUN's continuation that reads FROM
    "RUN <<EOF\nFROM golang:1.22 AS fake\nEOF\n",  # a heredoc's line
])
def test_a_from_that_is_no_instruction_does_not_make_a_global_arg_a_stage_one(tmp_path: Path, above: str) -> None:
    # the FROM-looking line is part of an instruction above the first FROM: ARG GO_VERSION is global
    # (the filler is ARG lines, which may stand above a FROM: since round 57 a LABEL below the ARG places it in a stage)
    body = above + "ARG GO_VERSION=1.22\n" + "ARG PAD=y\n" * 8 + "FROM golang:${GO_VERSION}\n"
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": body},
                                      {"Dockerfile": {"GO_VERSION=1.22": "GO_VERSION=6.66"}})
    delta = _patch(repo, base, head)
    assert {p.kind for p in delta.problems} == {"partial"} and not delta.changes


# A hash-pinned requirements file (pip-compile --generate-hashes; sigstore-python's install/requirements.txt)

def _pinned(name: str, version: str, via: str) -> str:
    hashes = " \\\n".join(f"    --hash=sha256:{(name + version + str(n)).encode().hex()[:64]:0<64}" for n in range(2))
    return f"{name}=={version} \\\n{hashes}\n    # via {via}\n"


REQUIREMENTS = "".join(_pinned(f"pkg{i}", f"1.{i}.0", "sigstore") for i in range(40))


def test_hash_pinned_requirements_hunks_are_read_one_by_one(tmp_path: Path) -> None:
    """Two hunks: the first ends inside a `--hash` list (its last line ends in `\\`), the second opens with a
    requirement. Read as one text, the two requirements joined into one line that does not parse."""
    edits = {"install/requirements.txt": {
        _pinned("pkg10", "1.10.0", "sigstore"): _pinned("pkg10", "1.11.0", "sigstore"),
        _pinned("pkg20", "1.20.0", "sigstore"): _pinned("pkg20", "1.20.0", "id")}}
    repo, base, head = edited_commits(tmp_path, {"install/requirements.txt": REQUIREMENTS}, edits)
    delta = _patch(repo, base, head)
    assert not delta.problems
    assert _moves(delta) == {("pip", "pkg10", "1.10.0", "1.11.0")} == _moves(_tree(repo, base, head))


def test_a_hunk_opening_inside_a_split_requirement_fails_closed(tmp_path: Path) -> None:
    body = "".join(f"pkg{i}==1.{i}.0\n" for i in range(12)) + "target \\\n    ==1.0.0\n" + "".join(
        f"other{i}==2.{i}.0\n" for i in range(12))
    repo, base, head = edited_commits(tmp_path, {"requirements.txt": body},
                                      {"requirements.txt": {"    ==1.0.0\n": "    ==6.6.6\n"}})
    delta = _patch(repo, base, head, "-U0")
    assert {p.kind for p in delta.problems} == {"partial"} and not delta.changes
    assert _moves(_tree(repo, base, head)) == {("pip", "target", "1.0.0", "6.6.6")}


def test_chart_sources_repository_of_its_name_still_names_the_app_first(tmp_path: Path) -> None:
    """argo-helm's charts name their application's GitHub repository in `sources:`, and its bots name the bump by
    it: that stays the name even when the values leave one image untagged."""
    chart = CHART.replace("https://github.com/cloudnative-pg/charts", "https://github.com/cloudnative-pg/cloudnative-pg")
    files = {"charts/cloudnative-pg/Chart.yaml": chart, "charts/cloudnative-pg/values.yaml": VALUES}
    delta = _tree(*edited_commits(tmp_path, files, BUMP))
    assert _moves(delta) == {("tool", "cloudnative-pg/cloudnative-pg", "1.29.1", "1.30.0")}
