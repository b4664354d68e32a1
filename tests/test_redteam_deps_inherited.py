"""Red team: properties a manifest takes from a file the delta did not read as that manifest's source.

Each attack moves a property in a file a real build reads (a parent POM under another name than pom.xml, a
Directory.Build.targets, an outer Directory.Build.props a nested one imports) beside a harmless in-level
bump, so that `gate --tree --enable deps` said allow while an untouched module's dependency became a NEW
package. The delta must name the move, or say by a problem that it cannot (fail closed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps import mavenprops
from gatekeeper.deps.sources import Delta, tree_delta
from tests.gitrepo import edited_commits

PARENT = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.ex</groupId>
  <artifactId>ex-parent</artifactId>
  <version>1.0</version>
  <packaging>pom</packaging>
  <properties>
    <lib.name>commons-lang3</lib.name>
  </properties>
</project>
"""
MODULE = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.ex</groupId>
    <artifactId>ex-parent</artifactId>
    <version>1.0</version>
    <relativePath>RELATIVE</relativePath>
  </parent>
  <artifactId>mod</artifactId>
  <dependencies>
    <dependency>
      <groupId>org.apache.commons</groupId>
      <artifactId>${lib.name}</artifactId>
      <version>3.12.0</version>
    </dependency>
  </dependencies>
</project>
"""
PROJECT = """<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="$(JsonPackage)" Version="13.0.1" />
  </ItemGroup>
</Project>
"""
PROPERTIES = """<Project>
  <PropertyGroup>
    <JsonPackage>Newtonsoft.Json</JsonPackage>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Serilog" Version="4.0.0" />
  </ItemGroup>
</Project>
"""
NESTED = """<Project>
  <Import Project="$([MSBuild]::GetPathOfFileAbove('Directory.Build.props', '$(MSBuildThisFileDirectory)../'))" />
</Project>
"""
EVIL = {"Newtonsoft.Json": "Evil.Json", '"4.0.0"': '"4.0.1"'}


def _delta(tmp_path: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> Delta:
    repo, base, head = edited_commits(tmp_path / "repo", files, edits)
    with repo.objects() as git:
        return tree_delta(git, base, head)


def _seen(delta: Delta, name: str, manifest: str) -> bool:
    """The move to `name` is named, or the file whose edit made it carries a problem (review by hand)."""
    return (any(c.name.endswith(name) and c.change == "added" for c in delta.changes)
            or any(p.manifest == manifest for p in delta.problems))


def test_a_parent_pom_under_another_name_moves_the_module(tmp_path: Path) -> None:
    # relativePath may name any file: Maven reads build/base.xml as the parent
    files = {"build/base.xml": PARENT, "mod/pom.xml": MODULE.replace("RELATIVE", "../build/base.xml")}
    delta = _delta(tmp_path, files, {"build/base.xml": {"commons-lang3": "evil-lang3"}})
    assert any(c.name == "org.apache.commons:evil-lang3" and c.change == "added" for c in delta.changes), delta


def test_a_grandparent_under_another_name_moves_the_module(tmp_path: Path) -> None:
    middle = PARENT.replace("<artifactId>ex-parent</artifactId>\n  <version>1.0</version>",
                            "<parent><groupId>org.ex</groupId><artifactId>ex-root</artifactId><version>1.0</version>"
                            "<relativePath>root.xml</relativePath></parent>\n  <artifactId>ex-parent</artifactId>"
                            ).replace("<lib.name>commons-lang3</lib.name>", "")
    root = PARENT.replace("ex-parent", "ex-root")
    files = {"build/root.xml": root, "build/pom.xml": middle, "mod/pom.xml": MODULE.replace("RELATIVE", "../build")}
    delta = _delta(tmp_path, files, {"build/root.xml": {"commons-lang3": "evil-lang3"}})
    assert _seen(delta, "evil-lang3", "build/root.xml"), delta


def test_a_directory_build_targets_property_reaches_the_projects_below(tmp_path: Path) -> None:
    # MSBuild evaluates every property (targets' too) before any item: Include="$(JsonPackage)" reads it
    files = {"Directory.Build.targets": PROPERTIES, "src/App/App.csproj": PROJECT}
    delta = _delta(tmp_path, files, {"Directory.Build.targets": EVIL})
    assert _seen(delta, "Evil.Json", "Directory.Build.targets"), delta


def test_an_outer_props_file_a_nested_one_imports(tmp_path: Path) -> None:
    files = {"Directory.Build.props": PROPERTIES, "src/Directory.Build.props": NESTED, "src/App/App.csproj": PROJECT}
    delta = _delta(tmp_path, files, {"Directory.Build.props": EVIL})
    assert _seen(delta, "Evil.Json", "Directory.Build.props"), delta


def test_a_nested_props_file_without_imports_still_shields_the_outer_move(tmp_path: Path) -> None:
    files = {"Directory.Build.props": PROPERTIES, "src/Directory.Build.props": "<Project></Project>\n",
             "src/App/App.csproj": PROJECT}
    delta = _delta(tmp_path, files, {"Directory.Build.props": EVIL})
    # MSBuild imports only the nearest: the project does not move; since red team 11 the outer file's own edit (a
    # value that is no version) is its XML residue's problem, reviewed by hand like any deps file's build logic
    assert not any(c.name.endswith("Evil.Json") for c in delta.changes), delta
    assert all(p.kind == "partial" and "build logic" in p.msg for p in delta.problems), delta


def test_an_xml_file_no_pom_names_stays_unread(tmp_path: Path) -> None:
    files = {"build/base.xml": PARENT, "mod/pom.xml": MODULE.replace("RELATIVE", "../pom.xml"),
             "src/main/resources/log4j2.xml": "<Configuration/>\n"}
    delta = _delta(tmp_path, files, {"build/base.xml": {"commons-lang3": "evil-lang3"},
                                     "src/main/resources/log4j2.xml": {"/>": "></Configuration>"}})
    assert delta.changes == () and delta.problems == ()  # Maven never reads them: no POM names them


def test_past_the_pom_bound_every_changed_xml_file_is_read_as_a_pom(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mavenprops, "_MAX_POMS", 0)
    files = {"build/base.xml": PARENT, "mod/pom.xml": MODULE.replace("RELATIVE", "../build/base.xml"),
             "src/main/resources/log4j2.xml": "<Configuration/>\n"}
    delta = _delta(tmp_path, files, {"src/main/resources/log4j2.xml": {"/>": "></Configuration>"}})
    assert [(p.manifest, p.kind) for p in delta.problems] == [("src/main/resources/log4j2.xml", "unparsable")] * 2


def test_a_property_naming_a_moved_one_in_an_untouched_middle_parent(tmp_path: Path) -> None:
    # Maven resolves ${lib.name} -> ${base.name} -> evil-lang3; the module names only lib.name, which did not move
    root = PARENT.replace("ex-parent", "ex-root").replace("<lib.name>commons-lang3</lib.name>",
                                                          "<base.name>commons-lang3</base.name>")
    middle = PARENT.replace("<artifactId>ex-parent</artifactId>\n  <version>1.0</version>",
                            "<parent><groupId>org.ex</groupId><artifactId>ex-root</artifactId><version>1.0</version>"
                            "</parent>\n  <artifactId>ex-parent</artifactId>").replace("commons-lang3", "${base.name}")
    files = {"pom.xml": root, "build/pom.xml": middle, "build/mod/pom.xml": MODULE.replace("RELATIVE", "../pom.xml")}
    delta = _delta(tmp_path, files, {"pom.xml": {"<base.name>commons-lang3": "<base.name>evil-lang3"}})
    assert any(c.name == "org.apache.commons:evil-lang3" and c.manifest == "pom.xml" for c in delta.changes), delta


def test_a_property_naming_another_in_the_same_pom(tmp_path: Path) -> None:
    module = MODULE.replace("<relativePath>RELATIVE</relativePath>", "<relativePath/>").replace(
        "<artifactId>mod</artifactId>", "<artifactId>mod</artifactId>\n  <properties><lib.name>${base.name}</lib.name>"
        "<base.name>commons-lang3</base.name></properties>")
    delta = _delta(tmp_path, {"pom.xml": module}, {"pom.xml": {"<base.name>commons-lang3": "<base.name>evil-lang3"}})
    assert any(c.name == "org.apache.commons:evil-lang3" and c.change == "added" for c in delta.changes), delta


def test_a_doubling_property_chain_is_refused_quickly(tmp_path: Path) -> None:
    chain = "".join(f"<p{n}>${{p{n + 1}}}${{p{n + 1}}}</p{n}>" for n in range(40)) + "<p40>x</p40>"
    module = MODULE.replace("<relativePath>RELATIVE</relativePath>", "<relativePath/>").replace(
        "<artifactId>mod</artifactId>", f"<artifactId>mod</artifactId>\n  <properties>{chain}"
        "<lib.name>${p0}</lib.name></properties>")
    delta = _delta(tmp_path, {"pom.xml": module}, {"pom.xml": {"<p40>x<": "<p40>y<"}})
    # (and, since red team 11, the non-version value that moved is the XML residue's partial problem too)
    assert [(p.manifest, p.kind) for p in delta.problems if p.kind != "partial"] == [("pom.xml", "unparsable")] * 2
    assert "expands without end" in delta.problems[0].msg


CSPROJ = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <JsonPackage>Newtonsoft.Json</JsonPackage>
    <Major>13</Major>
    <Base>4.0.0</Base>
    <SerilogVersion>$(Base)</SerilogVersion>
    <Loop>$(Loop)1</Loop>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="$(JsonPackage)" Version="13.0.1" />
    <PackageReference Include="Dapper" Version="$(Major).0.1" />
    <PackageReference Include="Serilog" Version="$(SerilogVersion)" />
    <PackageReference Include="Polly" Version="8.0.0" />
  </ItemGroup>
</Project>
"""


@pytest.mark.parametrize(("old", "new", "moved"), [
    ("Newtonsoft.Json", "Evil.Json", ("Evil.Json", None, "13.0.1")),  # a property as the package's name
    ("<Major>13", "<Major>1", ("Dapper", "13.0.1", "1.0.1")),  # a property inside a version expression
    ("<Base>4.0.0", "<Base>1.0.0", ("Serilog", "4.0.0", "1.0.0")),  # a property naming another
], ids=["name", "expression", "chain"])
def test_an_msbuild_property_moved_beside_a_cover_bump(tmp_path: Path, old: str, new: str,
                                                       moved: tuple[str, str | None, str]) -> None:
    delta = _delta(tmp_path, {"a/a.csproj": CSPROJ}, {"a/a.csproj": {old: new, '"8.0.0"': '"8.0.1"'}})
    assert moved in {(c.name, c.from_version, c.to_version) for c in delta.changes}, delta


def test_a_self_referencing_msbuild_property_is_refused(tmp_path: Path) -> None:
    project = CSPROJ.replace('Version="13.0.1"', 'Version="$(Loop)"')
    delta = _delta(tmp_path, {"a/a.csproj": project}, {"a/a.csproj": {'"8.0.0"': '"8.0.1"'}})
    assert [(p.manifest, p.kind) for p in delta.problems] == [("a/a.csproj", "unparsable")] * 2


def test_a_props_property_naming_a_moved_one(tmp_path: Path) -> None:
    props = PROPERTIES.replace("<JsonPackage>Newtonsoft.Json</JsonPackage>",
                               "<JsonPackage>$(Base)</JsonPackage><Base>Newtonsoft.Json</Base>")
    files = {"Directory.Build.props": props, "src/App/App.csproj": PROJECT}
    delta = _delta(tmp_path, files, {"Directory.Build.props": EVIL})
    assert ("Evil.Json", "Directory.Build.props") in {(c.name, c.manifest) for c in delta.changes}, delta


PROFILE = """
  <profiles>
    <profile>
      <id>modern</id>
      <activation><jdk>[17,)</jdk></activation>
      <properties><lib.name>commons-lang3</lib.name></properties>
    </profile>
  </profiles>
</project>"""


def test_a_profile_property_moved_in_the_same_pom(tmp_path: Path) -> None:
    # the profile is active on every JDK from 17: its lib.name is the one Maven uses there
    module = MODULE.replace("<relativePath>RELATIVE</relativePath>", "<relativePath/>").replace(
        "<artifactId>mod</artifactId>", "<artifactId>mod</artifactId>\n  <properties><lib.name>commons-lang3"
        "</lib.name></properties>").replace("\n</project>", PROFILE)
    delta = _delta(tmp_path, {"pom.xml": module}, {"pom.xml": {"<properties><lib.name>commons-lang3</lib.name></p"
                                                               "roperties>\n    </profile>": "<properties><lib.name>"
                                                               "evil-lang3</lib.name></properties>\n    </profile>"}})
    assert any("evil-lang3" in c.name for c in delta.changes) or delta.problems, delta


def test_a_profile_property_moved_in_the_parent(tmp_path: Path) -> None:
    parent = PARENT.replace("\n</project>", PROFILE)
    files = {"pom.xml": parent, "mod/pom.xml": MODULE.replace("RELATIVE", "../pom.xml")}
    delta = _delta(tmp_path, files, {"pom.xml": {"<properties><lib.name>commons-lang3</lib.name></properties>\n"
                                                 "    </profile>": "<properties><lib.name>evil-lang3</lib.name>"
                                                 "</properties>\n    </profile>"}})
    assert any("evil-lang3" in c.name for c in delta.changes) or delta.problems, delta
