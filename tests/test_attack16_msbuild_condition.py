"""Attack 16: an MSBuild package reference's condition changed beside an in-level bump of it.

This stop's edits.py reads a one-line `<PackageReference … Condition="…" />` from a patch, the condition being the
line's section: "a version moved under one unchanged condition is read, one whose condition changed … is refused".
Two ways around it. From a patch, the condition was compared with its blanks collapsed, so `'a  b'` → `'a b'` (a
string MSBuild compares as written) passed as unchanged. With --tree the whole-file reader never looks at a
condition, and the XML residue left the dependency entries out whole, condition and place included: a reference whose
condition never held (`'$(Flavor)' == 'never'`) switched on (`'true' == 'true'`), or moved out of an ItemGroup whose
condition never holds, beside a 13.0.1 → 13.0.3 bump, was allowed by `gate --tree --enable deps` as a patch-level
upgrade (at the base commit too). Now the residue keeps each conditioned entry's place and own condition as written:
such a move is a `partial` problem (reviewed). A bump under an unchanged condition is still an upgrade.
The same class in a POM: a managed version or an inactive profile's dependency moved into <dependencies> beside a bump.
Variants: 2 from a patch (blanks, changed condition), 4 with --tree (blanks, switched on, moved out of a group, moved
between groups), 2 POM moves; 3 controls (bump under the same own / group condition, a managed version bumped).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.deps.sources import patch_delta

_PROJECT = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
{groups}
</Project>
"""
_OWN = ('  <ItemGroup>\n    <PackageReference Include="Newtonsoft.Json" Version="{v}" Condition="{c}" />\n'
        '  </ItemGroup>')
_NEVER = "'$(Flavor)' == 'never'"
_IN_GROUP = ('  <ItemGroup Condition="{c}">\n    <PackageReference Include="Newtonsoft.Json" Version="{v}" />\n'
             '  </ItemGroup>\n  <ItemGroup Condition="{d}">\n'
             '    <PackageReference Include="Serilog" Version="3.1.1" />\n  </ItemGroup>')
_MOVED = ('  <ItemGroup Condition="{c}">\n  </ItemGroup>\n  <ItemGroup Condition="{d}">\n'
          '    <PackageReference Include="Serilog" Version="3.1.1" />\n'
          '    <PackageReference Include="Newtonsoft.Json" Version="{v}" />\n  </ItemGroup>')
_PLAIN_MOVED = ('  <ItemGroup Condition="{c}">\n  </ItemGroup>\n  <ItemGroup>\n'
                '    <PackageReference Include="Newtonsoft.Json" Version="{v}" />\n  </ItemGroup>')
_PLAIN = ('  <ItemGroup Condition="{c}">\n    <PackageReference Include="Newtonsoft.Json" Version="{v}" />\n'
          '  </ItemGroup>')

TREE = {  # name: (base groups, head groups)
    "blanks": (_OWN.format(v="13.0.1", c="'$(Flavor)' == 'a  b'"), _OWN.format(v="13.0.3", c="'$(Flavor)' == 'a b'")),
    "switched-on": (_OWN.format(v="13.0.1", c=_NEVER), _OWN.format(v="13.0.3", c="'true' == 'true'")),
    "out-of-a-group": (_PLAIN.format(v="13.0.1", c=_NEVER), _PLAIN_MOVED.format(v="13.0.3", c=_NEVER)),
    "between-groups": (_IN_GROUP.format(v="13.0.1", c=_NEVER, d="'$(OS)' == 'Windows_NT'"),
                       _MOVED.format(v="13.0.3", c=_NEVER, d="'$(OS)' == 'Windows_NT'")),
}
SAME = {
    "own-condition": (_OWN.format(v="13.0.1", c=_NEVER), _OWN.format(v="13.0.3", c=_NEVER)),
    "group-condition": (_PLAIN.format(v="13.0.1", c=_NEVER), _PLAIN.format(v="13.0.3", c=_NEVER)),
}


def _commits(tmp_path: Path, base: str, head: str) -> tuple[Path, str, str]:
    repo, old, new = two_commits(tmp_path / "repo", {"App/App.csproj": _PROJECT.format(groups=base)},
                                 {"App/App.csproj": _PROJECT.format(groups=head)})
    return repo.root, old, new


@each_case("case", sorted(TREE))
def test_a_reference_whose_condition_moves_beside_a_bump_is_reviewed(tmp_path: Path, case: str) -> None:
    root, old, new = _commits(tmp_path, *TREE[case])
    code, decision = tree_gate(root, old, new, None, "--enable", "deps")
    assert code == 3, decision
    assert any("App/App.csproj" in reason.get("paths", ()) for reason in decision["reasons"])


@pytest.mark.parametrize("case", sorted(SAME))
def test_a_bump_under_an_unchanged_condition_is_still_an_upgrade(tmp_path: Path, case: str) -> None:
    root, old, new = _commits(tmp_path, *SAME[case])
    code, decision = tree_gate(root, old, new, None, "--enable", "deps")
    assert code == 0, decision


@pytest.mark.parametrize("case", ["blanks", "switched-on"])
def test_from_a_patch_a_condition_written_otherwise_is_no_upgrade(tmp_path: Path, case: str) -> None:
    root, old, new = _commits(tmp_path, *TREE[case])
    patch = tmp_path / "change.patch"
    patch.write_bytes(subprocess.run(["git", "-C", str(root), "diff", "--binary", "--no-color", old, new],
                                     check=True, capture_output=True).stdout)
    delta = patch_delta(patch)
    assert not [c for c in delta.changes if c.change == "upgraded"], delta
    assert [p.kind for p in delta.problems] == ["partial"], delta



# The same class in a POM (at the base commit too): a version only managed (<dependencyManagement>) or a dependency of
# a profile nothing activates, moved into the project's <dependencies> beside an in-level bump, is a new dependency
# of the build, not that bump.
_POM = """<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>app</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-api</artifactId>
      <version>2.0.9</version>
    </dependency>
{main}  </dependencies>
  <dependencyManagement>
    <dependencies>
{managed}    </dependencies>
  </dependencyManagement>
  <profiles>
    <profile>
      <id>never</id>
      <activation><property><name>never.set</name></property></activation>
      <dependencies>
{profiled}      </dependencies>
    </profile>
  </profiles>
</project>
"""
_GUAVA = ("    <dependency>\n      <groupId>com.google.guava</groupId>\n      <artifactId>guava</artifactId>\n"
          "      <version>{v}</version>\n    </dependency>\n")
POM = {  # name: (base's main, managed, profiled; head's)
    "managed-into-dependencies": (("", _GUAVA.format(v="33.0.0-jre"), ""), (_GUAVA.format(v="33.1.0-jre"), "", "")),
    "profile-into-dependencies": (("", "", _GUAVA.format(v="33.0.0-jre")), (_GUAVA.format(v="33.1.0-jre"), "", "")),
}


@pytest.mark.parametrize("case", sorted(POM))
def test_a_pom_entry_moved_into_the_dependencies_beside_a_bump_is_reviewed(tmp_path: Path, case: str) -> None:
    (main, managed, profiled), (main2, managed2, profiled2) = POM[case]
    repo, old, new = two_commits(tmp_path / "repo", {"pom.xml": _POM.format(main=main, managed=managed,
                                                                              profiled=profiled)},
                                 {"pom.xml": _POM.format(main=main2, managed=managed2, profiled=profiled2)})
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    assert code == 3, decision
    assert any("pom.xml" in reason.get("paths", ()) for reason in decision["reasons"])


def test_a_managed_version_bumped_in_place_is_still_an_upgrade(tmp_path: Path) -> None:
    repo, old, new = two_commits(tmp_path / "repo",
                                 {"pom.xml": _POM.format(main="", managed=_GUAVA.format(v="33.0.0-jre"), profiled="")},
                                 {"pom.xml": _POM.format(main="", managed=_GUAVA.format(v="33.1.0-jre"), profiled="")})
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    assert code == 0, decision
