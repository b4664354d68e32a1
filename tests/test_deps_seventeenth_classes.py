"""Classes of misses the seventeenth blind set of bot update commits found (bench/deps_bumps_seventeenth.tsv):
containerbase's `RUN install-tool NAME VERSION` lines (containerbase/base, and renovatebot/helm-charts in the
sixteenth set), which Renovate's regex managers bump under a `# renovate:` annotation, were read by no reader, and
a bump of one was no change and no problem in both modes (10 commits); an MSBuild property defined under several
conditions moved to the value another condition gives left the same set of values, no change and no problem with
`--tree` (Humanizr/Humanizer, 2); a kustomization's `helmCharts:` entry `version:` was refused from its hunk
(mirceanton/home-ops, 8, patch only). Real-shaped files, look-alikes and attacks; one git repository per case."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.deps import docker, hunklines, nuget
from gatekeeper.deps.model import ManifestError
from tests.deltas import each_fast, moves, partial, refused
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# The shape of containerbase's test images: stages, annotations naming the package Renovate looks up (or only its
# datasource), tools installed one a line.
DOCKERFILE = """\
# syntax=docker/dockerfile:1.19.0@sha256:b6afd42430b15f2d2a4c5a02b919e98a525b785b1aaff16747d2f623364e39b6

ARG BASE_IMAGE=ghcr.io/containerbase/ubuntu:24.04

FROM ${BASE_IMAGE} AS build

ARG APT_HTTP_PROXY
ARG CONTAINERBASE_LOG_LEVEL

# renovate: datasource=github-releases packageName=containerbase/node-prebuild versioning=node
RUN install-tool node 24.19.0
# renovate: datasource=npm
RUN install-tool pnpm 10.34.5

#--------------------------------------
# test: sbt
#--------------------------------------
FROM build AS test-sbt

# renovate: datasource=github-releases packageName=sbt/sbt
RUN install-tool sbt v1.12.15

RUN install-tool gradle 8.8-rc-2

# renovate: datasource=github-releases packageName=docker/compose
RUN install-tool docker-compose v5.3.1

# only patch updates
# renovate: datasource=dotnet packageName=dotnet-sdk
RUN install-tool dotnet 8.0.424

# Test duplicate install
# renovate: datasource=dotnet packageName=dotnet-sdk
RUN install-tool dotnet 8.0.424
RUN set -ex; dotnet --version | grep 8.0.
"""


@each_case(("edit", "name", "old", "new"), [
    ({"install-tool sbt v1.12.15": "install-tool sbt v2.0.7"}, "sbt", "v1.12.15", "v2.0.7"),
    ({"install-tool pnpm 10.34.5": "install-tool pnpm 11.22.0"}, "pnpm", "10.34.5", "11.22.0"),
    ({"install-tool docker-compose v5.3.1": "install-tool docker-compose v5.5.0"}, "docker/compose", "v5.3.1",
     "v5.5.0"),
    ({"install-tool gradle 8.8-rc-2": "install-tool gradle 8.14.3"}, "gradle", "8.8-rc-2", "8.14.3"),
    # both stages' copies move: one tool, one move
    ({"install-tool dotnet 8.0.424": "install-tool dotnet 10.0.400"}, "dotnet", "8.0.424", "10.0.400"),
])
def test_install_tool_bumps_tree_and_patch(tmp_path: Path, edit: dict[str, str], name: str, old: str,
                                           new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"test/Dockerfile": DOCKERFILE}, {"test/Dockerfile": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("tool", name, old, new)} and not delta.problems, delta


def test_every_install_tool_line_is_read_once_and_look_alikes_are_not() -> None:
    body = DOCKERFILE + """\
RUN \\
    install-tool kubectl v1.36.4
RUN install-tool node 20 && install-tool yarn 1.22.22
RUN install-tool helm $HELM_VERSION
RUN install-tool bazelisk
# RUN install-tool commented 1.0.0
RUN echo install-tool echoed 1.0.0
RUN install-tool "quoted" 1.0.0
RUN install-tool rust "1.91.0"
RUN <<EOF
install-tool should-not-read 1.0.0
RUN install-tool heredoc-body 1.0.0
EOF
"""
    found = sorted((d.ecosystem, d.name, d.version) for d in docker.parse_dockerfile("Dockerfile", body.encode())
                   if d.ecosystem == "tool")
    assert found == [("tool", "docker/compose", "v5.3.1"), ("tool", "dotnet", "8.0.424"),
                     ("tool", "gradle", "8.8-rc-2"), ("tool", "kubectl", "v1.36.4"), ("tool", "node", "24.19.0"),
                     ("tool", "pnpm", "10.34.5"), ("tool", "rust", "1.91.0"), ("tool", "sbt", "v1.12.15")]


def test_one_stage_moved_of_two_names_the_new_version(tmp_path: Path) -> None:
    edit = {"# Test duplicate install\n# renovate: datasource=dotnet packageName=dotnet-sdk\n"
            "RUN install-tool dotnet 8.0.424": "# Test duplicate install\n"
            "# renovate: datasource=dotnet packageName=dotnet-sdk\nRUN install-tool dotnet 9.0.300"}
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": DOCKERFILE}, {"Dockerfile": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert ("tool", "dotnet", None, "9.0.300") in moves(delta) or ("tool", "dotnet", "8.0.424", "9.0.300") in \
            moves(delta), delta
        assert not [c for c in delta.changes if c.name == "dotnet" and c.to_version is None], delta


def test_an_install_tool_line_changed_into_a_look_alike_is_a_removal(tmp_path: Path) -> None:
    """A pinned line rewritten into a form no reader reads (`$VAR`) shows the pin gone, never no change."""
    edit = {"RUN install-tool sbt v1.12.15": "RUN install-tool sbt ${SBT_VERSION}"}
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": DOCKERFILE}, {"Dockerfile": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("tool", "sbt", "v1.12.15", None)}, delta


def _dockerfile(data: bytes) -> None:
    refused(lambda: docker.parse_dockerfile("D", data))


# 1-2 MiB texts under a 2 CPU-s budget, no ratio, until suite round 32: each reads the same (the same pins, none or
# one) at 16, 64 and 1024 KiB; linear at 16/64 KiB now, the old budget per character
@each_case(("text", "what"), [
    (repeated(b"a", b"RUN install-tool ", b" 1.0"), "a long name"),
    (repeated(b" ", b"RUN install-tool a ", b"x"), "blanks before no version"),
    (repeated(b" ", b"RUN", b"install-tool a 1"), "blanks after RUN"),
    (repeated(b".1", b"RUN install-tool a 1", b"!"), "a long version"),
    (repeated(b"-", b'RUN install-tool a "1'), "an unclosed quote"),
    (repeated(b"RUN install-tool a 1.0\n"), "many lines"),
], ids=lambda value: value if isinstance(value, str) else "")
def test_hostile_install_tool_lines_are_read_in_linear_time(text: Callable[[int], bytes], what: str) -> None:
    assert_linear(_dockerfile, text, budget=0.125)


# Humanizr/Humanizer's analyzer project: one property per Roslyn version it builds against, each under a condition,
# and a default; Dependabot moved the 3.8 build's analyzers from 3.0.0 to 3.11.0, the value the 4.14 build has.
ANALYZERS_CSPROJ = """\
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>netstandard2.0</TargetFramework>
    <RoslynVersion Condition="'$(RoslynVersion)' == ''">3.8</RoslynVersion>
    <RoslynCSharpVersion Condition="'$(RoslynVersion)' == '3.8'">3.8.0</RoslynCSharpVersion>
    <RoslynAnalyzerVersion Condition="'$(RoslynVersion)' == '3.8'">3.0.0</RoslynAnalyzerVersion>
    <RoslynCSharpVersion Condition="'$(RoslynVersion)' == '4.8'">4.8.0</RoslynCSharpVersion>
    <RoslynAnalyzerVersion Condition="'$(RoslynVersion)' == '4.8'">3.3.4</RoslynAnalyzerVersion>
    <RoslynCSharpVersion Condition="'$(RoslynVersion)' == '4.14'">4.14.0</RoslynCSharpVersion>
    <RoslynAnalyzerVersion Condition="'$(RoslynVersion)' == '4.14'">3.11.0</RoslynAnalyzerVersion>
    <RoslynCSharpVersion Condition="'$(RoslynCSharpVersion)' == ''">3.8.0</RoslynCSharpVersion>
    <RoslynAnalyzerVersion Condition="'$(RoslynAnalyzerVersion)' == ''">3.0.0</RoslynAnalyzerVersion>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Microsoft.CodeAnalysis.CSharp" Version="$(RoslynCSharpVersion)" PrivateAssets="all" />
    <PackageReference Include="Microsoft.CodeAnalysis.Analyzers" Version="$(RoslynAnalyzerVersion)"
                      PrivateAssets="all" />
  </ItemGroup>
</Project>
"""


@pytest.mark.parametrize(("old", "new", "was", "now"), [
    # to a value another condition holds: the set of values is the same, the definitions are not
    ("== '3.8'\">3.0.0<", "== '3.8'\">3.11.0<", "3.0.0|3.0.0|3.11.0|3.3.4", "3.0.0|3.11.0|3.11.0|3.3.4"),
    ("== '4.8'\">3.3.4<", "== '4.8'\">3.3.5<", "3.0.0|3.0.0|3.11.0|3.3.4", "3.0.0|3.0.0|3.11.0|3.3.5"),
])
def test_a_conditional_property_moved_to_another_conditions_value_is_a_move(tmp_path: Path, old: str, new: str,
                                                                           was: str, now: str) -> None:
    path = "src/Humanizer.Analyzers/Humanizer.Analyzers.csproj"
    repo, base, head = edited_commits(tmp_path, {path: ANALYZERS_CSPROJ}, {path: {old: new}})
    assert moves(_tree(repo, base, head)) == {("nuget", "Microsoft.CodeAnalysis.Analyzers", was, now)}
    patched = _patch(repo, base, head)  # a property's use is not in the hunk: reviewed, never no change
    assert partial(patched, path) and not patched.changes, patched


def test_a_property_defined_twice_alike_is_one_value(tmp_path: Path) -> None:
    body = ANALYZERS_CSPROJ.replace("== '4.8'\">3.3.4<", "== '4.8'\">3.0.0<").replace(
        "== '4.14'\">3.11.0<", "== '4.14'\">3.0.0<")
    found = {d.name: d.version for d in nuget.parse_msbuild("A.csproj", body.encode())}
    assert found["Microsoft.CodeAnalysis.Analyzers"] == "3.0.0"
    assert found["Microsoft.CodeAnalysis.CSharp"] == "3.8.0|3.8.0|4.14.0|4.8.0"


# mirceanton/home-ops's bootstrap kustomization: a chart kustomize inflates, which Renovate bumps by its version.
KUSTOMIZATION = """\
---
# yaml-language-server: $schema=https://json.schemastore.org/kustomization
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization

commonLabels:
  app.kubernetes.io/managed-by: kustomize

helmCharts:
  - name: cilium
    repo: https://helm.cilium.io/
    version: 1.15.4
    releaseName: cilium
    includeCRDs: true
    namespace: cilium-system
    valuesFile: values.yaml
  - name: coredns
    repo: https://coredns.github.io/helm
    version: 1.28.2
    releaseName: coredns
    namespace: kube-system
    valuesInline:
      image:
        version: 1.11.1
      replicaCount: 2
"""


def test_a_helm_charts_version_is_read_from_its_hunk(tmp_path: Path) -> None:
    path = "clusters/home-cluster/bootstrap/integrations/cilium/kustomization.yaml"
    repo, base, head = edited_commits(tmp_path, {path: KUSTOMIZATION}, {path: {"version: 1.15.4": "version: 1.15.5"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("helm", "cilium", "1.15.4", "1.15.5")} and not delta.problems, delta


@pytest.mark.parametrize("edit", [
    {"- name: cilium": "- name: cilium-next", "version: 1.15.4": "version: 1.15.5"},  # renamed as it moves
    {"        version: 1.11.1": "        version: 1.11.3"},  # a key nested in the chart's values
    {"    repo: https://helm.cilium.io/": "    repo: https://127.0.0.1:9/", "version: 1.15.4": "version: 1.15.5"},
])
def test_helm_charts_lines_the_hunk_cannot_place_are_partial(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"kustomization.yaml": KUSTOMIZATION}, {"kustomization.yaml": edit})
    assert partial(_patch(repo, base, head), "kustomization.yaml")
    assert _tree(repo, base, head).changes or edit.get("- name: cilium") is None


def test_a_chart_entry_out_of_sight_is_partial_never_read_alone(tmp_path: Path) -> None:
    """A hunk that starts below the entry's `- name:` (`-U1`), or below `helmCharts:` (git's three lines, `-U9`),
    cannot say whose version it is; one that shows both (`-U12`) reads it as the tree does."""
    repo, base, head = edited_commits(tmp_path, {"kustomization.yaml": KUSTOMIZATION},
                                      {"kustomization.yaml": {"version: 1.28.2": "version: 1.29.0"}})
    for extra in ("-U1", "-U3", "-U9"):
        assert partial(_patch(repo, base, head, extra), "kustomization.yaml")
    for delta in (_tree(repo, base, head), _patch(repo, base, head, "-U12")):
        assert moves(delta) == {("helm", "coredns", "1.28.2", "1.29.0")} and not delta.problems, delta


@each_case("header", ["images:", "  helmCharts:", "helmChartInflationGenerator:", "resources:"])
def test_a_version_under_another_list_is_no_chart(header: str) -> None:
    side = [(header, False), ("  - name: cilium", False), ("    version: 1.15.5", True)]
    with pytest.raises(ManifestError):
        hunklines.kustomize_line(side, 2)


def test_hostile_chart_hunks_are_read_quickly() -> None:
    big = 1 << 20
    many = [("helmCharts:", False), ("  - name: a", False)] + [("    version: 1.0.0", True)] * (big // 32)
    calls = [
        (lambda: _each_chart_line(many), "a hunk of many changed versions in one entry"),
        (lambda: _each_chart_line([("    version: 1.0.0", True)] * (big // 32)), "many versions and no entry"),
        (lambda: _each_chart_line([("helmCharts:", False)] + [("      deep: x", False)] * (big // 32)
                                  + [("    version: 1.0.0", True)] * 64), "a long nested value above"),
        (lambda: refused(lambda: hunklines.kustomize_line([("    version:" + " " * big + "x", True)], 0)),
         "a value's blanks"),
        # blanks that the colon's run and an empty value's trailing run could split two ways (quadratic before the
        # pattern's runs were made possessive: 3 s at 16 KiB)
        (lambda: refused(lambda: hunklines.kustomize_line([("    version:" + " " * big + '"', True)], 0)),
         "blanks then a quote"),
        (lambda: refused(lambda: hunklines.kustomize_line(
            [("helmCharts:", False), ("  - name:" + " " * big + "'x", False), ("    version: 1", True)], 2)),
         "an entry's name of blanks then a quote"),
        (lambda: refused(lambda: hunklines.kustomize_line([(" " * big + "- version: 1", True)], 0)), "an indent"),
    ]
    each_fast(calls, 2.0)


def _each_chart_line(side: list[tuple[str, bool]]) -> None:
    for index, (_, changed) in enumerate(side):
        if changed:
            refused(lambda at=index: hunklines.kustomize_line(side, at))
