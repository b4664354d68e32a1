"""Classes of misses the twenty-second blind set of bot update commits found (bench/deps_bumps_twentysecond.tsv):
a project's package reference whose line carries its `Condition` (Tyrrrz/CliWrap's netstandard2.0 polyfills,
`Condition="$([MSBuild]::IsTargetFrameworkCompatible('$(TargetFramework)', 'netstandard2.1')) != true"`), refused
from the patch — now read under that condition as the line's section, so a condition changed, added or dropped
still refuses; a test project whose first line lost its UTF-8 byte order mark in the same commit as the bump
(`-\\ufeff<Project Sdk="Microsoft.NET.Sdk">` `+<Project …>`, CliWrap), which made the whole file `partial` from the
patch — now that line is context when the mark is all that moved, at the file's start only; and a naming class of
the benchmark (bench/bench_deps_accuracy.py): scala-steward's "Update scala3-library_sjs1_3 to 3.8.4" for a Scala.js
build's `val scala3 = "3.8.4"` (typelevel/kittens; typelevel/fs2 of the sbt set) — sbt-scalajs takes the Scala.js
build of the Scala 3 library at `scalaVersion` itself, so the library the delta names is named by it. Real-shaped
files, look-alikes and malformed input."""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.nugetedits import msbuild_line
from tests.deltas import accuracy_bench as _bench
from tests.deltas import bench_change as _change
from tests.deltas import each_fast, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits, two_commits

POLYFILL = "$([MSBuild]::IsTargetFrameworkCompatible('$(TargetFramework)', 'netstandard2.1')) != true"
NETSTANDARD = "'$(TargetFrameworkIdentifier)' == '.NETStandard'"
PROJECT_PATH = "Shell/Shell.csproj"
# A library's project in the shape of a process-running library multi-targeting netstandard2.0: its polyfills apply
# only where the framework lacks them.
PROJECT = f"""\
<Project Sdk="Microsoft.NET.Sdk">

  <PropertyGroup>
    <TargetFrameworks>netstandard2.0;netstandard2.1;net8.0</TargetFrameworks>
    <IsPackable>true</IsPackable>
    <Description>Library for running command-line processes</Description>
  </PropertyGroup>

  <ItemGroup>
    <None Include="../favicon.png" Pack="true" PackagePath="" Visible="false" />
  </ItemGroup>

  <ItemGroup>
    <PackageReference Include="CSharpier.MsBuild" Version="0.30.2" PrivateAssets="all" />
    <PackageReference Include="Microsoft.Bcl.AsyncInterfaces" Version="9.0.0" Condition="{POLYFILL}" />
    <PackageReference Include="Microsoft.SourceLink.GitHub" Version="8.0.0" PrivateAssets="all" />
    <PackageReference Include="PolyShim" Version="1.14.0" PrivateAssets="all" />
    <PackageReference Include="System.Threading.Tasks.Extensions" Version="4.5.4" Condition="{POLYFILL}" />
    <PackageReference Include="System.Management" Version="9.0.0" Condition="{NETSTANDARD}" />
  </ItemGroup>

</Project>
"""
TASKS_OLD = f'"System.Threading.Tasks.Extensions" Version="4.5.4" Condition="{POLYFILL}"'


def _bumped(root: Path, new: str) -> tuple[object, object]:
    repo, base, head = edited_commits(root, {PROJECT_PATH: PROJECT}, {PROJECT_PATH: {TASKS_OLD: new}})
    return _tree(repo, base, head), _patch(repo, base, head)


LOOK_ALIKES = (
    # the condition changed with the version: which frameworks get which version is not the hunk's to say
    TASKS_OLD.replace("4.5.4", "4.6.0").replace("netstandard2.1", "net5.0"),
    # the condition dropped: the package moves from the conditional to the unconditional
    '"System.Threading.Tasks.Extensions" Version="4.6.0"',
    # the same condition spelled in another case of the attribute: not what MSBuild reads as the condition
    TASKS_OLD.replace("4.5.4", "4.6.0").replace("Condition=", "condition="),
)


def test_a_conditional_reference_moved_under_its_condition_reads_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path / "bump", TASKS_OLD.replace("4.5.4", "4.6.0"))
    for delta in (tree, patch):
        assert moves(delta) == {("nuget", "System.Threading.Tasks.Extensions", "4.5.4", "4.6.0")}, delta
    assert not partial(patch, PROJECT_PATH)
    for number, new in enumerate(LOOK_ALIKES):
        tree, patch = _bumped(tmp_path / str(number), new)
        assert partial(patch, PROJECT_PATH), new
        assert ("nuget", "System.Threading.Tasks.Extensions", "4.5.4", "4.6.0") not in moves(patch), new
        assert "System.Threading.Tasks.Extensions" in {c.name for c in tree.changes}  # --tree reads the whole file


def test_a_conditional_reference_beside_an_unconditional_bump_reads_both(tmp_path: Path) -> None:
    edit = {'"CSharpier.MsBuild" Version="0.30.2"': '"CSharpier.MsBuild" Version="0.30.4"',
            TASKS_OLD: TASKS_OLD.replace("4.5.4", "4.6.0")}
    repo, base, head = edited_commits(tmp_path, {PROJECT_PATH: PROJECT}, {PROJECT_PATH: edit})
    assert moves(_patch(repo, base, head)) == {("nuget", "CSharpier.MsBuild", "0.30.2", "0.30.4"),
                                                ("nuget", "System.Threading.Tasks.Extensions", "4.5.4", "4.6.0")}


MALFORMED = (
    '<PackageReference Include="a|System.Memory" Version="4.6.0" />',  # no package id holds the section's mark
    '<PackageReference Include="x" Version="1.0.0" Condition="a" Condition="b" />',  # twice: which one holds?
    '<PackageReference Include="x" Version="$(XVersion)" Condition="true" />',  # a property's value: --tree
    '<PackageReference Include="x" Version="1.0.0" Condition="true" Remove="x" />',
    "<PackageReference Include=\"x\" Version=\"1.0.0\" Condition='true' />",  # single-quoted: not read here
)


def test_a_conditional_line_names_its_condition_as_its_section() -> None:
    line = f'    <PackageReference Include="System.Memory" Version="4.6.0" Condition="  {POLYFILL} " />'
    assert msbuild_line([(line, True)], 0) == [(f"{POLYFILL}|System.Memory", "4.6.0")]
    assert msbuild_line([('    <PackageVersion Include="x" Version="1.0.0" Condition="" />', True)], 0) == \
        [("x", "1.0.0")]  # an empty condition is always true: the item applies everywhere
    for bad in MALFORMED:
        with pytest.raises(ManifestError):
            msbuild_line([(f"    {bad}", True)], 0)
    hostile = [(f'    <PackageReference Include="x" Version="1.0.0" Condition="{"(" * 200_000}" />', True)]
    each_fast([(lambda: msbuild_line(hostile, 0), "a long condition")], 1.0)


TEST_PROJECT_PATH = "Shell.Tests/Shell.Tests.csproj"
TEST_PROJECT = """\
<Project Sdk="Microsoft.NET.Sdk">

  <PropertyGroup>
    <TargetFrameworks>net9.0</TargetFrameworks>
  </PropertyGroup>

  <ItemGroup>
    <PackageReference Include="coverlet.collector" Version="6.0.4" PrivateAssets="all" />
    <PackageReference Include="FluentAssertions" Version="8.1.1" />
    <PackageReference Include="xunit" Version="2.9.3" />
  </ItemGroup>

</Project>
"""
BUMP = ('"FluentAssertions" Version="8.1.1"', '"FluentAssertions" Version="8.2.0"')
BOM = "\ufeff"
XUNIT = '    <PackageReference Include="xunit" Version="2.9.3" />'


def _commits(root: Path, before: str, after: str) -> tuple[object, object]:
    repo, base, head = two_commits(root, {TEST_PROJECT_PATH: before.encode()}, {TEST_PROJECT_PATH: after.encode()})
    return _tree(repo, base, head), _patch(repo, base, head)


@pytest.mark.parametrize(("before", "after"), [(BOM + TEST_PROJECT, TEST_PROJECT),  # the mark dropped
                                               (TEST_PROJECT, BOM + TEST_PROJECT)])  # or added
def test_a_byte_order_mark_moved_at_the_files_start_is_no_edit(tmp_path: Path, before: str, after: str) -> None:
    for delta in _commits(tmp_path / "bump", before, after.replace(*BUMP)):
        assert moves(delta) == {("nuget", "FluentAssertions", "8.1.1", "8.2.0")}, delta
        assert not delta.problems, delta.problems
    # the first line edited beside the mark: the SDK is read, or the file is partial
    _, patch = _commits(tmp_path / "sdk", before, after.replace('Sdk="Microsoft.NET.Sdk"', 'Sdk="Evil.Sdk/1.0.0"'))
    assert ("nuget", "Evil.Sdk", None, "1.0.0") in moves(patch) or partial(patch, TEST_PROJECT_PATH), moves(patch)
    # a mark on a package's own line (the file's tenth) is no encoding's: that line changed, it is no context
    _, patch = _commits(tmp_path / "inner", before, after.replace(XUNIT, BOM + XUNIT).replace(*BUMP))
    assert partial(patch, TEST_PROJECT_PATH)
    # three marks dropped are not one encoding's mark
    _, patch = _commits(tmp_path / "three", BOM * 3 + TEST_PROJECT, TEST_PROJECT.replace(*BUMP))
    assert partial(patch, TEST_PROJECT_PATH)


def test_the_benchmark_names_the_scala3_library_by_its_scalajs_build() -> None:
    bench = _bench()
    library = _change("maven", "org.scala-lang:scala3-library")
    assert bench._same_name("scala3-library_sjs1_3", library)  # scala-steward's name for it
    assert bench._same_name("scala3-library_sjs1", library)
    assert not bench._same_name("scala3-library_sjs1_3", _change("maven", "org.scala-lang:scala-library"))  # Scala 2
    assert not bench._same_name("scala3-library_native0.5_3", library)  # carries Scala Native's version too
    assert not bench._same_name("cats-core_sjs1_3", library)  # another library's Scala.js build
    assert not bench._same_name("scala3-library_sjs1_3", _change("maven", "com.example:scala3-library"))
    assert not bench._same_name("scala3-library_sjs1_3", _change("cargo", "org.scala-lang:scala3-library"))
