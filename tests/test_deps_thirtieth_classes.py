"""Classes of misses the thirtieth blind set of bot update commits found (bench/deps_bumps_thirtieth.tsv).

- A POM whose `<relativePath>` names its parent's folder two levels up (`../..`: swagger-api/swagger-core's
  modules/swagger-jaxrs/pom.xml, 1 with --tree): the parent's path came out `./pom.xml`, no path of the tree, so the
  root's `jackson-version` never reached the module and its jackson-module-jaxb-annotations moved unnamed.
- A Package.resolved rewritten whole (mas-cli/mas: Dependabot's two-space indentation over Xcode's tabs, 6 from the
  patch): the file's own `"version" : 3` changed with every line and refused the hunk as a pin's state.
- A mise tool whose version is a one-line array (JJGadgets/Biohazard's `go = ["1.23.4"]`, 6 from the patch): only a
  string was read from a hunk.
- A Gradle catalog plugin in string notation (`spotbugs = "com.github.spotbugs:6.5.11"`) whose `[plugins]` header
  the hunk does not show (diffplug/spotless, 1 from the patch): refused; now named as shown beside a `partial`
  problem, as a `group:artifact:version` string is.
- .NET's global.json (open-telemetry/opentelemetry-dotnet-contrib's "Bump dotnet-sdk from 9.0.303 to 9.0.304", 1,
  both modes): not read at all. Now `sdk.version` is the tool `dotnet` and each `msbuild-sdks` entry a NuGet package,
  from the whole file and from hunks; its other keys are its residue (`sdk.paths` runs an SDK from the repository).
- A props file of another name than MSBuild's own that projects import (graphql-dotnet's src/Tests.props holding
  Microsoft.NET.Test.Sdk and Moq, 2 with --tree, 1 more from the patch): not read. Now any `*.props` file is an MSBuild
  file; one that is no XML (a `key=value` properties file) holds no package.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.cataloglines import catalog_line
from gatekeeper.deps.globaljson import global_json_line, parse_global_json
from gatekeeper.deps.loaders import load_xml
from gatekeeper.deps.mavenprops import _parent_path
from gatekeeper.deps.mise import mise_line
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.deps.nuget import parse_msbuild
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.swift import package_resolved_hunks
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits, two_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. a parent POM two folders up ---------------------------------------------------------------------------------

ROOT_POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <groupId>io.swagger</groupId>
    <artifactId>swagger-project</artifactId>
    <version>1.6.17-SNAPSHOT</version>
    <packaging>pom</packaging>
    <modules>
        <module>modules/swagger-jaxrs</module>
    </modules>
    <properties>
        <jersey-version>1.19.4</jersey-version>
        <jackson-version>2.22.0</jackson-version>
        <snakeyaml-version>2.6</snakeyaml-version>
    </properties>
</project>
"""

MODULE_POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <parent>
        <groupId>io.swagger</groupId>
        <artifactId>swagger-project</artifactId>
        <version>1.6.17-SNAPSHOT</version>
        <relativePath>{relative}</relativePath>
    </parent>
    <modelVersion>4.0.0</modelVersion>
    <artifactId>swagger-jaxrs</artifactId>
    <dependencies>
        <dependency>
            <groupId>com.fasterxml.jackson.module</groupId>
            <artifactId>jackson-module-jaxb-annotations</artifactId>
            <version>${{jackson-version}}</version>
        </dependency>
    </dependencies>
</project>
"""

_JAXB = ("maven", "com.fasterxml.jackson.module:jackson-module-jaxb-annotations", "2.22.0", "2.22.2")


@each_case("relative", ["../..", "../../", "../../pom.xml", "./../.."])
def test_a_parent_two_folders_up_lends_its_properties(tmp_path: Path, relative: str) -> None:
    files = {"pom.xml": ROOT_POM, "modules/swagger-jaxrs/pom.xml": MODULE_POM.format(relative=relative)}
    repo, base, head = edited_commits(tmp_path, files, {"pom.xml": {"2.22.0": "2.22.2"}})
    delta = _tree(repo, base, head)
    assert _JAXB in moves(delta) and not delta.problems, delta


@each_case(("path", "relative", "parent"), [
    ("modules/a/pom.xml", "../..", "pom.xml"),
    ("modules/a/pom.xml", "..", "modules/pom.xml"),
    ("modules/a/pom.xml", "../../build", "build/pom.xml"),
    ("modules/a/pom.xml", "../../base.xml", "base.xml"),
    ("pom.xml", ".", "pom.xml"),
    # look-alikes: outside the repository, from a repository (`<relativePath/>`)
    ("modules/a/pom.xml", "../../..", None),
    ("a/pom.xml", "../../x", None),
    ("modules/a/pom.xml", "", None),
])
def test_the_parent_path_is_the_tree_s_own(path: str, relative: str, parent: str | None) -> None:
    root = load_xml(f"<project><parent><artifactId>p</artifactId><relativePath>{relative}</relativePath></parent>"
                    "</project>".encode())
    assert _parent_path(path, root) == parent


# --- 2. a Package.resolved rewritten whole ----------------------------------------------------------------------------

def _resolved(indent: str, parser: str) -> str:
    pins = [("swift-argument-parser", "https://github.com/apple/swift-argument-parser.git",
             "011f0c765fb46d9cac61bca19be0527e99c98c8b", parser),
            ("swiftsoup", "https://github.com/scinfu/SwiftSoup.git", "6c7915e16f729857aec3e99068c361e58a00ed68",
             "2.13.4")]
    i = indent
    body = f",\n{i}{i}".join(
        f'{{\n{i}{i}{i}"identity" : "{name}",\n{i}{i}{i}"kind" : "remoteSourceControl",\n{i}{i}{i}"location" : '
        f'"{url}",\n{i}{i}{i}"state" : {{\n{i}{i}{i}{i}"revision" : "{rev}",\n{i}{i}{i}{i}"version" : "{ver}"\n'
        f'{i}{i}{i}}}\n{i}{i}}}' for name, url, rev, ver in pins)
    return (f'{{\n{i}"originHash" : "2277ed9d2daa7a09520ff58214e4aed1453d61cb6bf1cdee8c13b6f71eb09a02",\n'
            f'{i}"pins" : [\n{i}{i}{body}\n{i}],\n{i}"version" : 3\n}}\n')


def test_a_package_resolved_rewritten_with_a_bump_names_the_bump(tmp_path: Path) -> None:
    old, new = _resolved("\t", "1.7.1"), _resolved("  ", "1.8.2").replace("011f0c7", "309a47b")
    repo, base, head = two_commits(tmp_path, {"Package.resolved": old}, {"Package.resolved": new})
    tree, patch = _tree(repo, base, head), _patch(repo, base, head)
    bump = {("swift", "github.com/apple/swift-argument-parser", "1.7.1", "1.8.2")}
    assert moves(tree) == moves(patch) == bump, patch


def test_a_rewrite_that_moves_a_revision_under_its_version_is_still_refused(tmp_path: Path) -> None:
    old, new = _resolved("\t", "1.7.1"), _resolved("  ", "1.7.1").replace("6c7915e", "0000000")
    repo, base, head = two_commits(tmp_path, {"Package.resolved": old}, {"Package.resolved": new})
    assert partial(_patch(repo, base, head), "Package.resolved")


@each_case("line", ['"version" : "3"', '"version" : 3.0', '"version" : [3]', '"version" : v3'])
def test_a_format_version_look_alike_is_no_skip(line: str) -> None:
    # a string is a pin's state (no location above it: refused); other forms are no format version
    with pytest.raises(ManifestError):
        package_resolved_hunks("Package.resolved", f"@@\n\0  {line}\n".encode())


# --- 3. a mise tool at a one-line array of versions -------------------------------------------------------------------

@each_case(("lines", "read"), [
    (["[tools]", 'go = ["1.23.4"]'], [("go", "1.23.4")]),
    (["[tools]", "python = ['3.13', '3.11']"], [("python", "3.13"), ("python", "3.11")]),
    (["[tools]", '"cargo:viddy" = [ "1.1.6", ]  # pinned'], [("cargo:viddy", "1.1.6")]),
    (["[tools]", 'node = ["latest"]'], [("node", "latest")]),  # as written (attack 23)
])
def test_a_tool_at_an_array_is_each_version(lines: list[str], read: list[tuple[str, str]]) -> None:
    side = [(line, i == len(lines) - 1) for i, line in enumerate(lines)]
    assert mise_line(side, len(lines) - 1) == read


def test_an_array_under_an_unseen_header_is_named_with_a_problem() -> None:
    with pytest.raises(PartlyShown) as shown:
        mise_line([('"cargo:himalaya" = ["1.0.0"]', False), ('go = ["1.23.4"]', True)], 1)
    assert shown.value.pairs == [("go", "1.23.4")]


@each_case("lines", [
    ["[env]", 'PATHS = ["/tmp/evil"]'],  # another table's array
    ["[tools]", 'go = ["1.23.4"'],  # unclosed
    ["[tools]", 'go = ["1.23.4", { version = "1.22" }]'],  # an inline table in it: the whole file's to read
    ["[tools]", 'go = ["1.23" "1.22"]'],  # no comma
    ["[tools]", 'go = ["1.23.4"] extra'],
    ['GO_VERSIONS = ["1.23.4"]'],  # an [env] variable's look under an unseen header
])
def test_array_look_alikes_and_malformed_arrays_are_refused(lines: list[str]) -> None:
    side = [(line, i == len(lines) - 1) for i, line in enumerate(lines)]
    with pytest.raises(ManifestError) as refused:
        mise_line(side, len(lines) - 1)
    assert not isinstance(refused.value, PartlyShown)


def test_a_mise_array_bump_from_the_patch_matches_the_tree(tmp_path: Path) -> None:
    mise = ("[tools]\n" + "".join(f'"cargo:tool{i}" = ["0.{i}.0"]\n' for i in range(12)) + 'go = ["1.22.6"]\n'
            '"go:github.com/gcla/termshark/v2/cmd/termshark" = ["2.4.0"]\n\n[env]\nGOFLAGS = "-mod=mod"\n')
    tree, patch = _bumped(tmp_path, {".mise.toml": mise}, {".mise.toml": {'go = ["1.22.6"]': 'go = ["1.23.4"]'}})
    assert moves(tree) == moves(patch) == {("tool", "go", "1.22.6", "1.23.4")}
    assert not tree.problems and partial(patch, ".mise.toml")  # the hunk does not show [tools]


# --- 4. a catalog plugin's id:version string under an unseen header ---------------------------------------------------

def test_a_plugin_string_under_an_unseen_header_is_named_with_a_problem() -> None:
    side = [('spotless = "com.diffplug.spotless:8.10.0"', False), ('spotbugs = "com.github.spotbugs:6.5.11"', True)]
    with pytest.raises(PartlyShown) as shown:
        catalog_line(side, 1)
    assert shown.value.pairs == [("com.github.spotbugs", "6.5.11", "maven", "", "spotbugs")]


@each_case("line", [
    'guava = "com.google.guava:guava"',  # a library without its version
    'jvm = "17"',  # a [versions] key
    'odd = "spotbugs:6.5.11"',  # an id without a dot
    'odd = "com.github.spotbugs:v6.5.11"',  # no digit-led version
    'odd = "com.github.spotbugs:6.5.11:x:y"',
    'odd = "com.github.spot bugs:6.5.11"',
])
def test_two_part_look_alikes_are_refused(line: str) -> None:
    with pytest.raises(ManifestError) as refused:
        catalog_line([(line, True)], 0)
    assert not isinstance(refused.value, PartlyShown)


def test_a_plugin_string_bump_from_the_patch_is_named_by_its_key(tmp_path: Path) -> None:
    catalog = ("[versions]\njunit = \"5.11.0\"\n\n[libraries]\njunit = { module = \"org.junit.jupiter:junit-jupiter\","
               " version.ref = \"junit\" }\n\n[plugins]\n"
               + "".join(f'p{i} = "org.example.p{i}:1.{i}.0"\n' for i in range(6))
               + 'spotbugs = "com.github.spotbugs:6.5.10"\nplugin-publish = "com.gradle.plugin-publish:2.1.1"\n')
    tree, patch = _bumped(tmp_path, {"gradle/libs.versions.toml": catalog},
                          {"gradle/libs.versions.toml": {"spotbugs:6.5.10": "spotbugs:6.5.11"}})
    assert moves(tree) == moves(patch) == {("maven", "com.github.spotbugs", "6.5.10", "6.5.11")}
    assert {c.alias for c in patch.changes} == {"spotbugs"} and partial(patch, "gradle/libs.versions.toml")


# --- 5. .NET's global.json --------------------------------------------------------------------------------------------

GLOBAL_JSON = """\
{
  "sdk": {
    "version": "9.0.303",
    "rollForward": "latestFeature",
    "allowPrerelease": false
  },
  "msbuild-sdks": {
    "Microsoft.Build.Traversal": "4.1.0",
    "MSTest.Sdk": "3.6.0"
  }
}
"""


@pytest.mark.parametrize(("old", "new", "move"), [
    ('"9.0.303"', '"9.0.304"', ("tool", "dotnet", "9.0.303", "9.0.304")),
    ('"3.6.0"', '"3.7.1"', ("nuget", "MSTest.Sdk", "3.6.0", "3.7.1")),
])
def test_global_json_names_the_sdk_and_msbuild_sdks(tmp_path: Path, old: str, new: str,
                                                    move: tuple[str, str, str, str]) -> None:
    tree, patch = _bumped(tmp_path, {"global.json": GLOBAL_JSON}, {"global.json": {old: new}})
    assert moves(tree) == moves(patch) == {move}
    assert not tree.problems and not patch.problems


def test_global_json_whole() -> None:
    read = {(d.ecosystem, d.name, d.version) for d in parse_global_json("global.json", GLOBAL_JSON.encode())}
    assert read == {("tool", "dotnet", "9.0.303"), ("nuget", "Microsoft.Build.Traversal", "4.1.0"),
                    ("nuget", "MSTest.Sdk", "3.6.0")}
    assert parse_global_json("global.json", b'{"test": {"runner": "Microsoft.Testing.Platform"}}') == []
    assert format_for("src/global.json") is not None and format_for("global.json.bak") is None


@each_case("data", [
    b'{"sdk": {"version": 9}}', b'{"sdk": "9.0.100"}', b'{"msbuild-sdks": {"X": 1}}',
    b'{"sdk": {"version": "9.0.100"} // the team\'s\n}', b"[1]", b"",
])
def test_malformed_global_json_is_a_problem(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(ManifestError):
        parse_global_json("global.json", data)


def test_an_sdk_path_beside_a_bump_is_a_problem(tmp_path: Path) -> None:
    edit = {'"9.0.303"': '"9.0.304"', '"latestFeature"': '"latestFeature",\n    "paths": ["./.dotnet"]'}
    tree, patch = _bumped(tmp_path, {"global.json": GLOBAL_JSON}, {"global.json": edit})
    assert partial(tree, "global.json") and partial(patch, "global.json")


@each_case("lines", [
    ['  "version": "9.0.304"'],  # its object not shown
    ["{", '  "tools": {', '    "version": "9.0.304"'],  # another object's
    ["{", '  "sdk": {', '    "paths": [".dotnet"]'],  # an array the reader does not read
    ["{", '  "sdk": {', '    "manifestsVersion": "9.0.100"'],  # a key it does not know
    ["{", '  "sdk": {', '    "paths": [', '      ".dotnet"', "    ],", '    "version": "9.0.304"'],
])
def test_global_json_lines_the_hunk_cannot_place_are_refused(lines: list[str]) -> None:
    side = [(line, i == len(lines) - 1) for i, line in enumerate(lines)]
    with pytest.raises(ManifestError):
        global_json_line(side, len(lines) - 1)


# --- 6. a props file of any name --------------------------------------------------------------------------------------

TESTS_PROPS = """\
<Project>

  <PropertyGroup>
    <IsPackable>false</IsPackable>
    <NoWarn>$(NoWarn);CA1707</NoWarn>
  </PropertyGroup>

  <ItemGroup>
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.8.0" />
    <PackageReference Include="Moq" Version="4.18.1" />
    <PackageReference Include="Shouldly" Version="4.2.1" />
    <PackageReference Include="xunit" Version="2.6.6" />
  </ItemGroup>

</Project>
"""

PROJECT = """\
<Project Sdk="Microsoft.NET.Sdk">
  <Import Project="..\\Tests.props" />
  <PropertyGroup>
    <TargetFrameworks>net8.0</TargetFrameworks>
  </PropertyGroup>
</Project>
"""


def test_an_imported_props_file_is_read(tmp_path: Path) -> None:
    files = {"src/Tests.props": TESTS_PROPS, "src/GraphQL.Tests/GraphQL.Tests.csproj": PROJECT}
    tree, patch = _bumped(tmp_path, files, {"src/Tests.props": {'"17.8.0"': '"17.9.0"'}})
    assert moves(tree) == moves(patch) == {("nuget", "Microsoft.NET.Test.Sdk", "17.8.0", "17.9.0")}
    assert not tree.problems and not patch.problems


@each_case(("path", "data"), [
    ("config/app.props", b"db.url=jdbc:h2:mem:test\nversion=1.2.3\n"),  # no MSBuild file
    ("config/app.props", b"\xef\xbb\xbf  # comment\nversion = 1.2.3\n"),
    ("build/Common.props", b'<Project><PropertyGroup><LangVersion>12</LangVersion></PropertyGroup></Project>'),
])
def test_props_files_without_packages_name_none(path: str, data: bytes) -> None:
    assert format_for(path) is not None and parse_msbuild(path, data) == []


def test_a_malformed_props_file_is_a_problem(tmp_path: Path) -> None:
    files = {"src/Tests.props": TESTS_PROPS}
    repo, base, head = edited_commits(tmp_path, files, {"src/Tests.props": {"</Project>": "</Projec"}})
    assert any(p.manifest == "src/Tests.props" for p in _tree(repo, base, head).problems)
