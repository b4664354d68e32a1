"""MSBuild properties from the Directory.Build.props above a project (msbuildprops.py), as bitwarden/server's
Renovate bump writes them: `Version="$(MicrosoftNetTestSdkVersion)"` in a project, the number in the props file.
Real git repositories; a patch alone reads the props file's property lines as a `partial` problem."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from gitdiffs import commit_patch

from gatekeeper.deps import msbuildprops
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from tests.gitrepo import GitRepo, edited_commits

PROPS = """<Project>
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <MicrosoftNetTestSdkVersion>17.8.0</MicrosoftNetTestSdkVersion>
    <XUnitVersion>2.6.6</XUnitVersion>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="StyleCop.Analyzers" Version="1.1.118" PrivateAssets="all" />
  </ItemGroup>
</Project>
"""
TEST_PROJECT = """<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="coverlet.collector" Version="6.0.4" />
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="$(MicrosoftNetTestSdkVersion)" />
    <PackageReference Include="xunit" Version="$(XUnitVersion)" />
  </ItemGroup>
</Project>
"""
FILES = {"Directory.Build.props": PROPS, "test/Core.Test/Core.Test.csproj": TEST_PROJECT,
         "src/Core/Core.csproj": '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="Dapper" '
                                 'Version="2.1.35" /></ItemGroup></Project>\n'}


def _commits(tmp_path: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[GitRepo, str, str]:
    return edited_commits(tmp_path / "repo", files, edits)


def _tree(tmp_path: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> Delta:
    repo, base, head = _commits(tmp_path, files, edits)
    with repo.objects() as git:
        return tree_delta(git, base, head)


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.manifest, c.name, c.from_version, c.to_version, c.change) for c in delta.changes}


def test_a_project_moved_onto_the_props_property_is_the_bump(tmp_path: Path) -> None:
    # bitwarden/server d26b5fa0293d: the props file moves the number, the project starts to use it
    project = TEST_PROJECT.replace("$(MicrosoftNetTestSdkVersion)", "17.8.0")
    files = {**FILES, "test/Core.Test/Core.Test.csproj": project}
    delta = _tree(tmp_path, files, {"Directory.Build.props": {">17.8.0<": ">18.0.1<"},
                                    "test/Core.Test/Core.Test.csproj": {'"17.8.0"': '"$(MicrosoftNetTestSdkVersion)"'}})
    assert _rows(delta) == {("test/Core.Test/Core.Test.csproj", "Microsoft.NET.Test.Sdk", "17.8.0", "18.0.1",
                             "upgraded")}
    assert delta.problems == ()


def test_a_props_property_bump_moves_the_untouched_projects_under_it(tmp_path: Path) -> None:
    delta = _tree(tmp_path, FILES, {"Directory.Build.props": {">2.6.6<": ">2.9.3<"}})
    assert _rows(delta) == {("Directory.Build.props", "xunit", "2.6.6", "2.9.3", "upgraded")}


def test_the_props_files_own_package_reference(tmp_path: Path) -> None:
    delta = _tree(tmp_path, FILES, {"Directory.Build.props": {"1.1.118": "1.2.0-beta.556"}})
    assert _rows(delta) == {("Directory.Build.props", "StyleCop.Analyzers", "1.1.118", "1.2.0-beta.556", "upgraded")}


def test_the_nearest_props_file_is_the_one_imported(tmp_path: Path) -> None:
    nested = PROPS.replace("2.6.6", "2.5.0")
    delta = _tree(tmp_path, {**FILES, "test/Directory.Build.props": nested},
                  {"Directory.Build.props": {">2.6.6<": ">2.9.3<"}})
    assert _rows(delta) == set()  # test/ imports test/Directory.Build.props, whose xunit did not move


def test_a_malformed_props_file_makes_the_touched_project_unreadable(tmp_path: Path) -> None:
    files = {**FILES, "Directory.Build.props": PROPS.replace("</Project>", "")}
    delta = _tree(tmp_path, files, {"test/Core.Test/Core.Test.csproj": {"6.0.4": "6.0.5"}})
    assert {(p.manifest, p.kind) for p in delta.problems} == {("test/Core.Test/Core.Test.csproj", "unparsable")}
    assert not any(c.manifest == "test/Core.Test/Core.Test.csproj" for c in delta.changes)


def test_an_entity_laden_project_using_the_property_is_a_problem_of_the_props_file(tmp_path: Path) -> None:
    bad = "<!DOCTYPE p [<!ENTITY a \"aaaa\">]>\n" + TEST_PROJECT
    delta = _tree(tmp_path, {**FILES, "test/Core.Test/Core.Test.csproj": bad},
                  {"Directory.Build.props": {">2.6.6<": ">2.9.3<"}})
    assert [(p.manifest, p.kind) for p in delta.problems] == [("Directory.Build.props", "partial")]


def test_more_projects_than_are_read_is_a_partial_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(msbuildprops, "_MAX_PROJECTS", 2)
    files = {**FILES, **{f"test/T{n}/T{n}.csproj": TEST_PROJECT for n in range(4)}}
    delta = _tree(tmp_path, files, {"Directory.Build.props": {">2.6.6<": ">2.9.3<"}})
    assert [(p.manifest, p.kind) for p in delta.problems] == [("Directory.Build.props", "partial")]
    assert "XUnitVersion" in delta.problems[0].msg


def test_from_a_patch_a_props_property_line_is_a_partial_problem(tmp_path: Path) -> None:
    repo, base, head = _commits(tmp_path, FILES, {"Directory.Build.props": {">2.6.6<": ">2.9.3<"}})
    delta = patch_delta(None, io.BytesIO(commit_patch(repo, base, head, "--binary")))
    assert [(p.manifest, p.kind) for p in delta.problems] == [("Directory.Build.props", "partial")]
    # round 55: the property itself, as the patch shows it (the items it feeds are not in the patch)
    assert [(c.name, c.from_version, c.to_version, c.partial) for c in delta.changes] == [
        ("$(XUnitVersion)", "2.6.6", "2.9.3", True)]
