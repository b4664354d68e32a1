"""Moves the first readers did not pair or resolve, found on real bot update commits (bench/deps_bumps_*.tsv): a
chart's `appVersion` without an annotation, a Go module whose major version moved in its path, and an MSBuild
version held in a property of the same file; a Gradle catalog entry named by its key (`alias`)."""

from __future__ import annotations

from pathlib import Path

from gatekeeper.deps import infra, nuget
from gatekeeper.deps.delta import diff
from tests.test_deps_more_ecosystems import CHART, GO_MOD, GO_SUM, _bump, _rows

# Helm appVersion

def test_chart_app_version_names_the_app_by_its_source_repository() -> None:
    deps = {(d.ecosystem, d.name, d.version) for d in infra.parse_chart("charts/argo-cd/Chart.yaml", CHART.encode())}
    assert deps == {("helm", "redis-ha", "4.34.11"), ("tool", "argoproj/argo-cd", "v3.4.3")}
    no_source = CHART.replace("  - https://github.com/argoproj/argo-cd\n", "")
    assert ("tool", "argo-cd", "v3.4.3") in {(d.ecosystem, d.name, d.version)
                                             for d in infra.parse_chart("Chart.yaml", no_source.encode())}
    # argocd-image-updater's chart names its repository in `home:` only
    updater = no_source.replace("name: argo-cd", "name: argocd-image-updater").replace(
        "home: https://github.com/argoproj/argo-helm", "home: https://github.com/argoproj-labs/argocd-image-updater")
    assert ("tool", "argoproj-labs/argocd-image-updater", "v3.4.3") in {
        (d.ecosystem, d.name, d.version) for d in infra.parse_chart("Chart.yaml", updater.encode())}
    # a source of another name (a fork, the chart repository itself) names nothing
    other = no_source.replace("home: https://github.com/argoproj/argo-helm", "home: https://github.com/evil/argo-cd-x")
    assert "evil/argo-cd-x" not in {d.name for d in infra.parse_chart("Chart.yaml", other.encode())}


def test_annotated_app_version_is_read_once() -> None:
    annotated = CHART.replace("appVersion: v3.4.3", "# renovate: datasource=github-releases depName=argoproj/argo-cd\n"
                                                   "appVersion: v3.4.3")
    apps = [d for d in infra.parse_chart("Chart.yaml", annotated.encode()) if d.name == "argoproj/argo-cd"]
    assert len(apps) == 1


def test_renovate_app_version_bump_of_a_chart(tmp_path: Path) -> None:
    delta = _bump(tmp_path, {"charts/argo-cd/Chart.yaml": CHART}, {"charts/argo-cd/Chart.yaml": (
        "appVersion: v3.4.3\n", "appVersion: v3.4.4\n")})
    assert _rows(delta.changes) == {("tool", "argoproj/argo-cd", "v3.4.3", "v3.4.4", "upgraded", "patch", True,
                                     "runtime")}


# Go major versions

def test_go_major_version_path_move_is_one_upgrade(tmp_path: Path) -> None:
    moved_sum = GO_SUM.replace("v89 v89.0.0", "v90 v90.0.0")
    delta = _bump(tmp_path, {"go.mod": GO_MOD, "go.sum": GO_SUM}, {
        "go.mod": ("github.com/google/go-github/v89 v89.0.0", "github.com/google/go-github/v90 v90.0.0"),
        "go.sum": (GO_SUM, moved_sum)})
    assert {(c.manifest, c.name, c.from_name, c.from_version, c.to_version, c.change, c.level)
            for c in delta.changes} == {
        (m, "github.com/google/go-github/v90", "github.com/google/go-github/v89", "v89.0.0", "v90.0.0", "upgraded",
         "major") for m in ("go.mod", "go.sum")}
    assert delta.changes[0].to_dict()["from_name"] == "github.com/google/go-github/v89"


def test_gopkg_in_and_v1_to_v2_moves(tmp_path: Path) -> None:
    delta = _bump(tmp_path, {"go.mod": GO_MOD}, {"go.mod": ("gopkg.in/yaml.v2 v2.4.0", "gopkg.in/yaml.v3 v3.0.1")})
    assert [(c.name, c.from_name, c.change) for c in delta.changes] == [("gopkg.in/yaml.v3", "gopkg.in/yaml.v2",
                                                                         "upgraded")]
    plain = GO_MOD.replace("github.com/cenkalti/backoff/v5 v5.0.3", "github.com/cenkalti/backoff v1.1.0")
    delta = _bump(tmp_path / "b", {"go.mod": plain}, {"go.mod": ("github.com/cenkalti/backoff v1.1.0",
                                                                 "github.com/cenkalti/backoff/v2 v2.2.1")})
    assert [(c.name, c.from_name, c.change) for c in delta.changes] == [("github.com/cenkalti/backoff/v2",
                                                                         "github.com/cenkalti/backoff", "upgraded")]


def test_a_new_major_beside_the_old_one_is_an_addition(tmp_path: Path) -> None:
    """Both majors kept (a migration under way): the new path is a new dependency, nothing was moved."""
    delta = _bump(tmp_path, {"go.mod": GO_MOD}, {"go.mod": (
        "\tgithub.com/google/go-github/v89 v89.0.0\n",
        "\tgithub.com/google/go-github/v89 v89.0.0\n\tgithub.com/google/go-github/v90 v90.0.0\n")})
    assert [(c.name, c.from_name, c.change) for c in delta.changes] == [("github.com/google/go-github/v90", None,
                                                                         "added")]


def test_another_module_with_a_major_suffix_is_not_a_move(tmp_path: Path) -> None:
    """Only the same base path pairs: `other/v2` added beside `go-github/v89` removed stays two changes."""
    delta = _bump(tmp_path, {"go.mod": GO_MOD}, {"go.mod": (
        "github.com/google/go-github/v89 v89.0.0", "github.com/evil/go-github/v90 v90.0.0")})
    assert sorted((c.name, c.from_name, c.change) for c in delta.changes) == [
        ("github.com/evil/go-github/v90", None, "added"), ("github.com/google/go-github/v89", None, "removed")]


PACKAGES_PROPS = """\
<Project>
  <PropertyGroup>
    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>
  </PropertyGroup>
  <PropertyGroup>
    <!-- Maestro/Dependabot update these -->
    <XUnitV3Version>4.0.0-pre.81</XUnitV3Version>
    <WixVersion>6.0.2</WixVersion>
  </PropertyGroup>
  <PropertyGroup Condition="'$(TargetFramework)' == 'net472'">
    <WixVersion>5.0.2</WixVersion>
  </PropertyGroup>
  <ItemGroup>
    <PackageVersion Include="xunit.v3.extensibility.core" Version="$(XUnitV3Version)" />
    <PackageVersion Include="xunit.v3.assert" Version="$(XUnitV3Version)" />
    <PackageVersion Include="Microsoft.wix" Version="$(WixVersion)" />
    <PackageVersion Include="Newtonsoft.Json" Version="13.0.3" />
  </ItemGroup>
</Project>
"""


def test_msbuild_property_of_the_same_file_is_resolved(tmp_path: Path) -> None:
    delta = _bump(tmp_path, {"Directory.Packages.props": PACKAGES_PROPS}, {"Directory.Packages.props": (
        "<XUnitV3Version>4.0.0-pre.81<", "<XUnitV3Version>4.0.0-pre.154<")})
    assert _rows(delta.changes) == {
        ("nuget", name, "4.0.0-pre.81", "4.0.0-pre.154", "upgraded", "patch", True, "runtime")
        for name in ("xunit.v3.extensibility.core", "xunit.v3.assert")}


def test_an_msbuild_property_with_two_values_holds_both(tmp_path: Path) -> None:
    """`WixVersion` has a conditional second value: which one applies is MSBuild's to say, not a guess; both
    are kept (sorted, `|`-joined), so a move of either is a change (unordered: reviewed), never no move."""
    delta = _bump(tmp_path, {"Directory.Packages.props": PACKAGES_PROPS}, {"Directory.Packages.props": (
        "<WixVersion>6.0.2<", "<WixVersion>6.0.3<")})
    assert [(c.name, c.from_version, c.to_version, c.level) for c in delta.changes] == [
        ("Microsoft.wix", "5.0.2|6.0.2", "5.0.2|6.0.3", None)]
    wix = [d for d in nuget.parse_msbuild(
        "Directory.Packages.props", PACKAGES_PROPS.encode()) if d.name == "Microsoft.wix"]
    assert [d.version for d in wix] == ["5.0.2|6.0.2"]


# Use sites counted line by line

A, B = "54f647b7e1bb85c95cddabcd46b0c578ec92bc1a", "99df26d4f13ea111d4ec1a7dddef6063f76b97e9"
CODEQL = f"""name: CodeQL
on: [push]
jobs:
  analyze:
    runs-on: ubuntu-latest
    steps:
      - uses: github/codeql-action/init@{A}
      - uses: github/codeql-action/autobuild@{B}
      - uses: github/codeql-action/analyze@{A}
"""


def test_a_use_site_moved_to_a_ref_another_line_already_uses(tmp_path: Path) -> None:
    # cfug/dio 4a58758eebde: Dependabot moved `init` to the sha `autobuild` already had; both sides hold the
    # refs {A, B}, yet one line moved. It read as no change at all (`deps.unexplained`).
    path = ".github/workflows/codeql.yml"
    delta = _bump(tmp_path / "moved", {path: CODEQL}, {path: (f"init@{A}", f"init@{B}")})
    assert [(c.name, c.from_version, c.to_version, c.change) for c in delta.changes] == [
        ("github/codeql-action", A, B, "changed")]
    # two lines leaving A for B: one change per (from, to)
    delta = _bump(tmp_path / "both", {path: CODEQL}, {path: (CODEQL, CODEQL.replace(f"@{A}", f"@{B}"))})
    assert [(c.from_version, c.to_version) for c in delta.changes] == [(A, B)]
    # two lines swapping their refs bring no ref in that was not there: counted by ref, nothing moved
    swapped = CODEQL.replace(f"init@{A}", "init@X").replace(f"autobuild@{B}", f"autobuild@{A}").replace(
        "init@X", f"init@{B}")
    assert not _bump(tmp_path / "swap", {path: CODEQL}, {path: (CODEQL, swapped)}).changes
    # a new line at a ref the file already uses moves nothing; a line removed at a kept ref neither
    delta = _bump(tmp_path / "added", {path: CODEQL}, {path: (
        f"      - uses: github/codeql-action/analyze@{A}\n",
        f"      - uses: github/codeql-action/analyze@{A}\n      - uses: github/codeql-action/upload-sarif@{A}\n")})
    assert not delta.changes


# Version comment spellings

def test_version_comments_with_an_at_sign_or_the_actions_own_tag_prefix(tmp_path: Path) -> None:
    # thunderbird-android: `# @v6.3.0`; grafana/shared-workflows tags each action: `# create-github-app-token/v0.3.1`
    old, new = "259ba21cb3ff07724f331e26d926d655d24b317b", "46f48da11e78ebdba7a8747ae456b11062fac83e"
    sub = "grafana/shared-workflows/actions/create-github-app-token"
    flow = ("on: [push]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
            f"      - uses: {sub}@{old} # create-github-app-token/v0.2.3\n"
            f"      - uses: actions/setup-python@{A} # @v6.2.0\n")
    path = ".github/workflows/ci.yml"
    head = flow.replace(f"{old} # create-github-app-token/v0.2.3", f"{new} # create-github-app-token/v0.3.1").replace(
        f"{A} # @v6.2.0", f"{B} # @v6.3.0")
    delta = _bump(tmp_path / "a", {path: flow}, {path: (flow, head)})
    assert sorted((c.name, c.from_tag, c.to_tag, c.change) for c in delta.changes) == [
        ("actions/setup-python", "v6.2.0", "v6.3.0", "upgraded"),
        ("grafana/shared-workflows", "v0.2.3", "v0.3.1", "upgraded")]
    # another action's tag of the same repository claims nothing about this one
    other = head.replace("create-github-app-token/v0.3.1", "get-vault-secrets/v9.0.0")
    delta = _bump(tmp_path / "b", {path: flow}, {path: (flow, other)})
    assert [(c.to_tag, c.change) for c in delta.changes if c.name == "grafana/shared-workflows"] == [(None, "changed")]


# Gradle catalog aliases

CATALOG = """[versions]
kotlin = "2.0.20"

[plugins]
kotlin-jvm = { id = "org.jetbrains.kotlin.jvm", version.ref = "kotlin" }
mavenPublish = { id = "com.vanniktech.maven.publish", version = "0.36.0" }
spotless = { id = "com.diffplug.spotless", version = "8.7.0" }

[libraries]
asm = "org.ow2.asm:asm:9.10"
"""


def test_a_catalog_entry_keeps_its_key_as_its_alias(tmp_path: Path) -> None:
    # square/moshi bd83ec69ac60, Renovate's "Update plugin spotless to v8.8.0": the file's key names the plugin
    delta = _bump(tmp_path, {"gradle/libs.versions.toml": CATALOG}, {"gradle/libs.versions.toml": (
        '"8.7.0"', '"8.8.0"')})
    assert [(c.name, c.alias, c.to_version) for c in delta.changes] == [("com.diffplug.spotless", "spotless", "8.8.0")]
    assert delta.changes[0].to_dict()["alias"] == "spotless"
    moved = _bump(tmp_path / "2", {"gradle/libs.versions.toml": CATALOG}, {"gradle/libs.versions.toml": (
        "asm:9.10", "asm:9.10.1")})
    assert [(c.name, c.alias) for c in moved.changes] == [("org.ow2.asm:asm", "asm")]


def test_files_without_aliases_show_none() -> None:
    change = nuget.parse_msbuild("Directory.Packages.props", b'<Project><ItemGroup><PackageVersion Include="A" '
                                 b'Version="1.0" /></ItemGroup></Project>')[0]
    assert change.alias == ""
    assert "alias" not in diff([], [change], "Directory.Packages.props")[0].to_dict()
