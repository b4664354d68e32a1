"""Flux's HelmRelease and OCIRepository files (round 56, deps55's lead: "Update Helm release cert-manager to v1.16.3" in
a Flux repository's `helmrelease.yaml` named nothing, and no problem). The chart a release installs is named at its
`spec.chart.spec.version`, an OCIRepository's artifact at its `ref`; with `--tree` and from a patch whose hunk shows the
chart's name beside its version (Renovate's flux manager edits only that line). Look-alikes: a `version:` in the
release's values, a local chart, another kind, a file of another name."""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from tests.deltas import both_edited, moves, partial
from tests.deltas import patch as patch_of
from tests.gitrepo import edited_commits

# onedr0p/cluster-template's shape (kubernetes/apps/cert-manager/cert-manager/app/helmrelease.yaml)
RELEASE = """\
---
# yaml-language-server: $schema=https://kubernetes-schemas.example/helm.toolkit.fluxcd.io/helmrelease_v2.json
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: cert-manager
spec:
  interval: 1h
  chart:
    spec:
      chart: cert-manager
      version: v1.16.2
      sourceRef:
        kind: HelmRepository
        name: jetstack
        namespace: flux-system
  install:
    remediation:
      retries: 3
  upgrade:
    cleanupOnFail: true
    remediation:
      retries: 3
  values:
    crds:
      enabled: true
    replicaCount: 1
    dns01RecursiveNameservers: https://127.0.0.1:9/dns-query
    prometheus:
      enabled: true
      servicemonitor:
        enabled: true
"""

# bjw-s's app-template from an OCIRepository (its `ref` above its `url`, as the keys sort)
OCI = """\
---
apiVersion: source.toolkit.fluxcd.io/v1beta2
kind: OCIRepository
metadata:
  name: app-template
spec:
  interval: 5m
  layerSelector:
    mediaType: application/vnd.cncf.helm.chart.content.v1.tar+gzip
    operation: copy
  ref:
    tag: 3.5.1
  url: oci://ghcr.io/bjw-s/helm/app-template
"""

_NAMES = ["helmrelease.yaml", "helm-release.yml", "cert-manager.helmrelease.yaml", "app/HelmRelease.yaml",
          "kubernetes/apps/x/helmreleases.yaml", "hr_helmrelease.yml"]


def _parse(path: str, body: str) -> set[tuple[str, str, str]]:
    fmt = format_for(path)
    assert fmt is not None, path
    return {(d.ecosystem, d.name, d.version) for d in fmt.parse(path, body.encode())}


@pytest.mark.parametrize("path", _NAMES)
def test_a_release_names_its_chart(path: str) -> None:
    assert _parse(path, RELEASE) == {("helm", "cert-manager", "v1.16.2")}


@pytest.mark.parametrize("api", ["v2", "v2beta1", "v2beta2"])
@pytest.mark.parametrize("version", ["v1.16.2", '"1.16.2"', "'4.x'", '">=4.0.0 <5.0.0"', "1.16.2  # pinned"])
def test_versions_and_api_versions(api: str, version: str) -> None:
    body = RELEASE.replace("helm.toolkit.fluxcd.io/v2", f"helm.toolkit.fluxcd.io/{api}").replace(
        "version: v1.16.2", f"version: {version}")
    want = version.split("  #")[0].strip("'\"")
    assert _parse("helmrelease.yaml", body) == {("helm", "cert-manager", want)}


def test_several_documents_and_kinds() -> None:
    repo = ("---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: jetstack\n"
            "spec:\n  url: https://charts.jetstack.io\n")
    assert _parse("helm-release.yaml", repo + RELEASE + OCI) == {
        ("helm", "cert-manager", "v1.16.2"), ("docker", "ghcr.io/bjw-s/helm/app-template", "3.5.1")}
    assert _parse("ocirepository.yaml", OCI) == {("docker", "ghcr.io/bjw-s/helm/app-template", "3.5.1")}


@pytest.mark.parametrize("path,body,edit,want", [
    ("apps/cert-manager/app/helmrelease.yaml", RELEASE, {"version: v1.16.2": "version: v1.16.3"},
     ("helm", "cert-manager", "v1.16.2", "v1.16.3")),
    ("helm-release.yaml", RELEASE.replace("      chart: cert-manager\n      version: v1.16.2\n",
                                          "      version: v1.16.2\n      chart: cert-manager\n"),
     {"version: v1.16.2": "version: v1.16.3"}, ("helm", "cert-manager", "v1.16.2", "v1.16.3")),
    ("ocirepository.yaml", OCI, {"tag: 3.5.1": "tag: 3.6.0"},
     ("docker", "ghcr.io/bjw-s/helm/app-template", "3.5.1", "3.6.0")),
    ("app/helmrelease.yaml", RELEASE + OCI, {"tag: 3.5.1": "tag: 3.6.0"},
     ("docker", "ghcr.io/bjw-s/helm/app-template", "3.5.1", "3.6.0")),
])
def test_a_bump_is_named_in_both_modes(tmp_path: Path, path: str, body: str, edit: dict[str, str],
                                       want: tuple[str, str, str, str]) -> None:
    tree, patch = both_edited(tmp_path, {path: body}, {path: edit})
    assert moves(tree) == {want} and not tree.problems, tree
    assert moves(patch) == {want} and not patch.problems, patch


def test_a_moved_source_is_a_change(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"helmrelease.yaml": RELEASE},
                              {"helmrelease.yaml": {"name: jetstack": "name: other-charts"}})
    assert [c.name for c in tree.changes] == ["cert-manager"], tree
    assert partial(patch, "helmrelease.yaml"), patch


def test_a_values_version_is_no_chart(tmp_path: Path) -> None:
    body = RELEASE + "    image:\n      repository: quay.io/jetstack/cert-manager-controller\n      version: v1.0.0\n"
    tree, patch = both_edited(tmp_path, {"helmrelease.yaml": body},
                              {"helmrelease.yaml": {"version: v1.0.0": "version: v1.1.0"}})
    assert not tree.changes and not tree.problems, tree
    assert not patch.changes and partial(patch, "helmrelease.yaml"), patch


def test_a_hunk_that_does_not_show_the_chart_stays_partial(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"helmrelease.yaml": RELEASE},
                              {"helmrelease.yaml": {"version: v1.16.2": "version: v1.16.3"}})
    assert moves(tree) == moves(patch)
    # -U0: the version line alone
    repo, base, head = edited_commits(tmp_path / "u0", {"helmrelease.yaml": RELEASE},
                                      {"helmrelease.yaml": {"version: v1.16.2": "version: v1.16.3"}})
    bare = patch_of(repo, base, head, "-U0")
    assert not bare.changes and partial(bare, "helmrelease.yaml"), bare


@pytest.mark.parametrize("body", [
    RELEASE.replace("chart: cert-manager", "chart: ./charts/cert-manager"),  # the project's own chart
    RELEASE.replace("kind: HelmRelease", "kind: Deployment"),
    RELEASE.replace("helm.toolkit.fluxcd.io/v2", "example.org/v1"),
    "",
])
def test_look_alikes_name_nothing(body: str) -> None:
    assert _parse("helmrelease.yaml", body) == set()


@pytest.mark.parametrize("path", ["release.yaml", "helmreleaser.yaml", "values.helmrelease.json",
                                  "helmrelease.yaml.bak"])
def test_other_names_are_not_read(path: str) -> None:
    fmt = format_for(path)
    assert fmt is None or fmt.name != "helmrelease", (path, fmt)


@pytest.mark.parametrize("body", [
    RELEASE.replace("      chart: cert-manager\n", ""),  # a chart without its name
    OCI.replace("oci://", "https://"),
    "- a list\n",
    "key: [unclosed\n",
    "---\n" * 70 + RELEASE,  # more documents than read
])
def test_a_malformed_file_is_a_finding(body: str) -> None:
    fmt = format_for("helmrelease.yaml")
    assert fmt is not None
    with pytest.raises(ManifestError):
        fmt.parse("helmrelease.yaml", body.encode())


@pytest.mark.parametrize("head,unit", [
    ("spec:\n  chart:\n    spec:\n", "\0      version: 1.0.0\n"),  # versions whose chart is never shown
    ("", "  " * 40 + "k:\n"),  # parents, deeper each time
    ("", "\0      chart: x\n\0      version: 1\n"),
    ("spec:\n  values:\n", "    image:\n      repository: r\n\0      tag: v1\n"),  # images in values
])
def test_a_hunk_is_read_in_linear_time(head: str, unit: str) -> None:
    """One side of a hunk (hunks.sides: changed lines marked with NUL) read by flux_hunks."""
    fmt = format_for("helmrelease.yaml")
    assert fmt is not None and fmt.hunks is not None
    reader = fmt.hunks

    def read(text: str) -> object:
        try:
            return reader("helmrelease.yaml", text.encode())
        except ManifestError as exc:
            return exc
    assert_linear(read, repeated(unit, head), budget=2.0)


# Images a release's values set (CloudHub-Social/CloudHub-Cluster's "update image ghcr.io/mastodon/mastodon to v4.7.0"),
# named as a chart's values.yaml names them.
MASTODON = RELEASE.replace("  values:\n", """  values:
    image:
      repository: ghcr.io/mastodon/mastodon
      tag: v4.6.6
      pullPolicy: Always
    mastodon:
      createAdmin:
        enabled: false
""")


def test_an_image_of_the_values_is_named_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"helmrelease.yaml": MASTODON},
                              {"helmrelease.yaml": {"tag: v4.6.6": "tag: v4.7.0"}})
    want = {("docker", "ghcr.io/mastodon/mastodon", "v4.6.6", "v4.7.0")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


def test_a_values_edit_beside_a_chart_bump(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"helmrelease.yaml": MASTODON}, {"helmrelease.yaml": {
        "version: v1.16.2": "version: v1.17.0", "    replicaCount: 1\n": "    replicaCount: 2\n"}})
    assert moves(tree) == {("helm", "cert-manager", "v1.16.2", "v1.17.0")} == moves(patch), (tree, patch)
    assert partial(patch, "helmrelease.yaml"), "the hunk does not show `values:` above replicaCount: reviewed"


def test_a_change_outside_the_values_the_hunk_does_not_place_is_partial(tmp_path: Path) -> None:
    _, patch = both_edited(tmp_path, {"helmrelease.yaml": MASTODON}, {"helmrelease.yaml": {
        "  interval: 1h": "  interval: 2h", "retries: 3\n  upgrade": "retries: 5\n  upgrade"}})
    assert partial(patch, "helmrelease.yaml"), patch
