"""Classes of misses the forty-eighth blind set of update commits found (bench/deps_bumps_fortyeighth.tsv,
docs/dependencies.md round 48); setup.py and setup.cfg are tests/test_deps_setupfiles.py.

- A Cargo manifest's MSRV line from a patch (thiserror's "bump MSRV to 1.81", log's in round 47): the hunk shows
  `rust-version = "1.81"` below `[package]`'s other keys, not under its header, and the hunk reader refused the key as
  the package's own metadata (a `partial` problem, nothing named). It is the tool `rust` now, as the whole file names
  it: under a `[package]`/`[workspace.package]` header the hunk shows, or, with none shown, beside a `partial`
  problem (in a dependency table the key would be a crate's); under any other header it stays refused.
- A gemspec's `required_ruby_version` (ruby's rdoc.gemspec, "Update required_ruby_version to 2.4.0", generated as
  `Gem::Requirement.new(">= 2.4.0")`): residue, so a `partial` problem naming nothing. It is the tool `ruby` now, as
  Cargo's `rust-version` is `rust`, in both modes; any other spelling stays residue.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import gemspec, residue
from tests.deltas import both_edited, each_fast, moves, partial

# --- Cargo.toml: the MSRV line from a patch --------------------------------------------------------------------------

# dtolnay/thiserror's Cargo.toml (its shape: [package] keys above, the MSRV far below the header)
THISERROR = """\
[package]
name = "thiserror"
version = "1.0.64"
authors = ["David Tolnay <dtolnay@gmail.com>"]
categories = ["rust-patterns"]
description = "derive(Error)"
documentation = "https://docs.rs/thiserror"
edition = "2018"
keywords = ["error", "error-handling", "derive"]
license = "MIT OR Apache-2.0"
repository = "https://github.com/dtolnay/thiserror"
rust-version = "1.56"

[dependencies]
thiserror-impl = { version = "=1.0.64", path = "impl" }

[dev-dependencies]
anyhow = "1.0.73"
"""
SHORT = """\
[package]
name = "x"
rust-version = "1.56"

[dependencies]
anyhow = "1.0.73"
"""


def test_thiserror_msrv_from_a_patch_is_the_tool_rust(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Cargo.toml": THISERROR}, {"Cargo.toml": {'"1.56"': '"1.81"'}})
    assert ("tool", "rust", "1.56", "1.81") in moves(tree), tree
    assert ("tool", "rust", "1.56", "1.81") in moves(patch), patch
    assert partial(patch, "Cargo.toml")  # the hunk does not show [package]: named beside a partial problem


def test_msrv_under_its_header_is_named_without_a_problem(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Cargo.toml": SHORT}, {"Cargo.toml": {'"1.56"': '"1.81"'}})
    assert moves(patch) == moves(tree) == {("tool", "rust", "1.56", "1.81")}, (tree, patch)
    assert not patch.problems, patch.problems


@each_case("body, named", [
    # under another table the key is a crate's (or nothing): refused, nothing named
    ('[dependencies]\nrust-version = "1.56"\n', False),
    ('[package.metadata.x]\nrust-version = "1.56"\n', False),
    ('[workspace.package]\nrust-version = "1.56"\n', True),
    ('[ workspace . package ]\nrust-version = "1.56"  # MSRV\n', True),
    ("[package]\nrust-version = '1.56'\n", False),  # a literal string: not this reader's form, refused
    ('[package]\nrust-version = "1.56\\u0030"\n', False),  # an escape
    ('[package]\nrust-version = "nightly-1.56"\n', False),
    ('[package]\ndescription = """\nrust-version = "1.56"\n"""\n', False),  # text of a multi-line string
    ('[package]\nrust-version.workspace = "1.56"\n', False),  # a dotted key
])
def test_msrv_line_shapes(tmp_path: Path, body: str, named: bool) -> None:
    head = body.replace("1.56", "1.81")
    _, patch = both_edited(tmp_path, {"Cargo.toml": "[x]\n\n\n\n" + body}, {"Cargo.toml": {body: head}})
    assert (("tool", "rust", "1.56", "1.81") in moves(patch)) is named, patch
    if not named:
        assert partial(patch, "Cargo.toml"), patch.problems


def test_hostile_msrv_lines_are_fast() -> None:
    from gatekeeper.deps import cargo

    side = [("[package]", False)] + [("#", False)] * 20000 + [('rust-version = "' + "1" * 120 + '"' + " " * 5000, True)]
    each_fast([(lambda: _quiet(lambda: cargo.cargo_line(side, len(side) - 1)), "a far header, a long line")], 1.0)


def _quiet(call: object) -> None:
    try:
        call()  # type: ignore[operator]
    except Exception:  # noqa: BLE001 - a refusal is as good an answer here as a result
        pass


# --- gemspec: required_ruby_version ----------------------------------------------------------------------------------

# ruby/rdoc's generated lib/rdoc/rdoc.gemspec (its shape)
RDOC = """\
begin
  require_relative "lib/rdoc"
rescue LoadError
end

Gem::Specification.new do |s|
  s.name = "rdoc"
  s.version = RDoc::VERSION

  s.required_ruby_version = Gem::Requirement.new(">= 2.2.2")
  s.rubygems_version = "2.5.2"
  s.required_rubygems_version = Gem::Requirement.new(">= 2.2")

  s.add_development_dependency("rake")
  s.add_development_dependency("minitest", "~> 5")
end
"""


def test_rdoc_required_ruby_version_is_the_tool_ruby(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"lib/rdoc/rdoc.gemspec": RDOC},
                              {"lib/rdoc/rdoc.gemspec": {">= 2.2.2": ">= 2.4.0"}})
    for delta in (tree, patch):
        assert moves(delta) == {("tool", "ruby", ">= 2.2.2", ">= 2.4.0")}, delta
        assert not delta.problems, delta.problems


@each_case("line, named", [
    ('  s.required_ruby_version = ">= 2.7.0"', ">= 2.7.0"),
    ("  spec.required_ruby_version = '>= 3.0'  # see README", ">= 3.0"),
    ('  spec.required_ruby_version = [">= 2.7", "< 4"]', ">= 2.7, < 4"),
    ('  s.required_ruby_version = Gem::Requirement.new(">= 2.4.0".freeze)', ">= 2.4.0"),
    # look-alikes and computed values: residue, nothing named
    ('  s.required_rubygems_version = Gem::Requirement.new(">= 2.2")', None),
    ("  s.required_ruby_version = RUBY_REQUIREMENT", None),
    ('  s.required_ruby_version = ">= #{MIN}"', None),
    ('  s.required_ruby_version = ">= 2.7" if ENV["X"]', None),
    ('  s.required_ruby_version = ">= 2.7"; system("id")', None),
])
def test_required_ruby_version_shapes(line: str, named: str | None) -> None:
    deps = gemspec.parse_gemspec("x.gemspec", f"Gem::Specification.new do |s|\n{line}\nend\n".encode())
    assert [d.version for d in deps if d.name == "ruby"] == ([named] if named else [])


def test_code_beside_a_ruby_bump_is_partial() -> None:
    moved = RDOC.replace(">= 2.2.2", ">= 2.4.0")
    assert not residue.changed("x.gemspec", RDOC.encode(), moved.encode())
    evil = moved.replace('  s.name = "rdoc"\n', '  s.name = "rdoc"\n  system("curl x | sh")\n')
    assert residue.changed("x.gemspec", RDOC.encode(), evil.encode())


def test_hostile_ruby_lines_are_fast() -> None:
    lines = ['s.required_ruby_version = ' + '">= 1", ' * 5000 + '"',
             's.required_ruby_version = Gem::Requirement.new(' + '(' * 5000,
             's.required_ruby_version = [' + '"1",' * 5000 + ' ' * 5000]
    each_fast([(lambda line=line: gemspec.parse_gemspec("x.gemspec", line.encode()), line[:40]) for line in lines],
              1.0)


# --- MSBuild: a property an outer Directory.Build.props moves, reached through a chained import ----------------------

# dotnet/orleans (its shape): the root props file holds the versions, src/Directory.Build.props imports it, the project
# uses `$(ZooKeeperNetExVersion)`. The chain is not followed, so the move was a `partial` problem naming nothing.
ROOT_PROPS = """\
<Project>
  <PropertyGroup>
    <NpgsqlVersion>3.1.9</NpgsqlVersion>
    <ZooKeeperNetExVersion>3.4.9.4</ZooKeeperNetExVersion>
  </PropertyGroup>
</Project>
"""
SRC_PROPS = """\
<Project>
  <PropertyGroup>
    <_ParentDirectoryBuildPropsPath Condition="'$(_DirectoryBuildPropsFile)' != ''">\
$([System.IO.Path]::Combine('..', '$(_DirectoryBuildPropsFile)'))</_ParentDirectoryBuildPropsPath>
  </PropertyGroup>
  <Import Project="$(_ParentDirectoryBuildPropsPath)" Condition="Exists('$(_ParentDirectoryBuildPropsPath)')"/>
  <PropertyGroup>
    <IsPackable>true</IsPackable>
  </PropertyGroup>
</Project>
"""
ZK_PROJECT = """\
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <PackageId>Microsoft.Orleans.OrleansZooKeeperUtils</PackageId>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="ZooKeeperNetEx" Version="$(ZooKeeperNetExVersion)" />
  </ItemGroup>
</Project>
"""
ZK = "src/Orleans.Clustering.ZooKeeper/Orleans.Clustering.ZooKeeper.csproj"


def test_orleans_chained_props_move_is_named_beside_its_problem(tmp_path: Path) -> None:
    files = {"Directory.Build.props": ROOT_PROPS, "src/Directory.Build.props": SRC_PROPS, ZK: ZK_PROJECT}
    tree, _ = both_edited(tmp_path, files, {"Directory.Build.props": {"3.4.9.4": "3.4.12.1"}})
    assert moves(tree) == {("nuget", "ZooKeeperNetEx", "3.4.9.4", "3.4.12.1")}, tree
    assert {c.manifest for c in tree.changes} == {"Directory.Build.props"}
    assert partial(tree, "Directory.Build.props")  # the import is still not followed: reviewed


@pytest.mark.parametrize("nearest, named", [
    # the nearest props file defines the property itself: its value wins, nothing moves
    (SRC_PROPS.replace("<IsPackable>true</IsPackable>", "<ZooKeeperNetExVersion>3.0</ZooKeeperNetExVersion>"), False),
    # the nearest imports nothing: the root's property cannot reach the project (no problem, as before)
    ("<Project>\n  <PropertyGroup>\n    <IsPackable>true</IsPackable>\n  </PropertyGroup>\n</Project>\n", False),
])
def test_chained_props_look_alikes(tmp_path: Path, nearest: str, named: bool) -> None:
    files = {"Directory.Build.props": ROOT_PROPS, "src/Directory.Build.props": nearest, ZK: ZK_PROJECT}
    tree, _ = both_edited(tmp_path, files, {"Directory.Build.props": {"3.4.9.4": "3.4.12.1"}})
    assert bool(moves(tree)) is named, tree


def test_chained_props_unreadable_side_names_nothing(tmp_path: Path) -> None:
    files = {"Directory.Build.props": ROOT_PROPS, "src/Directory.Build.props": SRC_PROPS, ZK: ZK_PROJECT}
    tree, _ = both_edited(tmp_path, files, {"Directory.Build.props": {"3.4.9.4</Zoo": "3.4.12.1</Zoo<"}})
    assert not moves(tree), tree
    assert any(p.manifest == "Directory.Build.props" for p in tree.problems), tree.problems


# --- a workflow's `choco install NAME --version=V` --------------------------------------------------------------------

# python-pillow/Pillow's .github/workflows/test-windows.yml (its shape: a PowerShell step installing Windows programs)
PILLOW_WINDOWS = """\
name: Test Windows
on: [push]
jobs:
  build:
    runs-on: windows-latest
    steps:
    - uses: actions/checkout@v4
    - name: Install dependencies
      run: |
        choco install nasm --no-progress
        echo "C:\\\\Program Files\\\\NASM" >> $env:GITHUB_PATH

        choco install ghostscript --version=10.7.0 --no-progress
        echo "C:\\\\Program Files\\\\gs\\\\gs10.07.0\\\\bin" >> $env:GITHUB_PATH
      shell: pwsh
"""
WORKFLOW = ".github/workflows/test-windows.yml"


def test_pillow_ghostscript_is_the_tool_ghostscript(tmp_path: Path) -> None:
    edit = {WORKFLOW: {"10.7.0": "10.7.1", "10.07.0": "10.07.1"}}
    tree, patch = both_edited(tmp_path, {WORKFLOW: PILLOW_WINDOWS}, edit)
    for delta in (tree, patch):
        assert moves(delta) == {("tool", "ghostscript", "10.7.0", "10.7.1")}, delta


@each_case("line, named", [
    ("choco install -y nasm --version 2.16.01", ("nasm", "2.16.01")),
    ('choco.exe upgrade innosetup --version="6.2.2" -y', ("innosetup", "6.2.2")),
    ("choco install x --source https://e.example/feed --version=1.0", ("x", "1.0")),
    # look-alikes: no exact version, a package list (the version would be each one's), not a command
    ("choco install ghostscript --no-progress", None),
    ("choco install x --version=latest", None),
    ("choco install a b --version=1.0", None),
    ("echo choco install x --version=1.0", None),
    ("chocolatey-install x --version=1.0", None),
])
def test_choco_line_shapes(line: str, named: tuple[str, str] | None) -> None:
    from gatekeeper.deps import runlines

    found = [(d.name, d.version) for d in runlines.installs("w.yml", line) if d.ecosystem == "tool"]
    assert found == ([named] if named else [])


def test_hostile_choco_lines_are_fast() -> None:
    from gatekeeper.deps import runlines

    lines = ["choco install " + "x " * 50_000 + "--version=1", "choco install x" + " --version" * 50_000,
             "choco " * 50_000 + "install x --version=1"]  # long lines built against the pattern
    each_fast([(lambda line=line: runlines.installs("w.yml", line), line[:30]) for line in lines], 1.0)
