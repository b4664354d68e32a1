"""Classes of misses the thirty-sixth blind set of bot update commits found (bench/deps_bumps_thirtysixth.tsv).

- A Cargo.toml git dependency's `rev` (aspect-build/rules_py's Renovate "update uv-virtualenv digest to 6df4b71",
  `uv-virtualenv = { git = "https://github.com/astral-sh/uv", rev = "855c…" }` → `rev = "6df4…"`, 7 in both modes):
  the whole-file reader named the crate by its repository alone, the rev only in the entry's options (a `changed`
  crate whose from and to read the same); the patch reader refused the line (`partial`). The version is now the
  repository with the one `rev`, `tag` or `branch` (`https://github.com/astral-sh/uv revision:6df4…`, as Cargo.lock's
  git entries say `revision:`); from a patch when the changed line is one whole table of git, that ref and version
  or feature keys. Both sides being git revisions, the move is `changed` (the deps policy reviews it) as before.
- sbt's `val Version = new { val fs2 = "3.13.0" … }` (typelevel/weaver-test, 1 with `--tree`): a structural value
  whose members module lines use as `Version.fs2`. Where the file also defines the name elsewhere (`lazy val
  scalacheck = crossProject(…)`) the qualified name was refused (the file unparsable); it resolves now within that
  block as it does within an `object V {` block.
- An sbt module line whose version is an environment default (play-json's `addSbtPlugin("com.typesafe.play" %
  "play-docs-sbt-plugin" % sys.props.getOrElse("play.version", "2.8.2"))`, 1 both modes): read as a definition's
  default already was (`sbt._ENV`); before, the line named nothing.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.cargo import cargo_line, parse_cargo_toml
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sbt import parse_build
from gatekeeper.deps.sources import Delta
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

OLD = "855c1917e1e0e2b48c38de71bebc845af016afae"
NEW = "6df4b7166931f65b23cc0927495d4efda7976824"
UV = "https://github.com/astral-sh/uv"
PATCHED = "5e3eaf254b5bd481c75d2710eed055f95b756913"


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[Delta, Delta]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. a Cargo git dependency's rev ---------------------------------------------------------------------------------

RULES_PY_CARGO = f"""\
[workspace]
resolver = "2"
members = ["py/tools/venv_bin", "py/tools/unpack_bin"]

[workspace.package]
version = "0.0.0"
edition = "2021"

[workspace.dependencies]
clap = {{ version = "4.5.40", features = ["derive"] }}
miette = {{ version = "7.2", features = ["fancy"] }}
uv-cache = {{ git = "{UV}", rev = "{OLD}" }}
uv-distribution-filename = {{ git = "{UV}.git", rev = "{OLD}" }}
uv-extract = {{ git = "{UV}.git", rev = "{OLD}" }}
uv-install-wheel = {{ git = "{UV}", rev = "{OLD}" }}
uv-python = {{ git = "{UV}", rev = "{OLD}" }}
uv-virtualenv = {{ git = "{UV}", rev = "{OLD}" }}
uv-pep440 = {{ version = "0.0.1", git = "{UV}", rev = "{OLD}", features = ["serde"] }}
uv-tag = {{ git = "{UV}", tag = "0.5.0" }}
uv-fs = {{ git = "{UV}", branch = "main" }}

[patch.crates-io]
reqwest-middleware = {{ git = "{UV}-middleware", rev = "{PATCHED}" }}
"""


def test_a_rev_move_names_the_crate_at_the_new_revision_in_both_modes(tmp_path: Path) -> None:
    line = f'uv-virtualenv = {{ git = "{UV}", rev = "{OLD}" }}'
    tree, patch = _bumped(tmp_path, {"Cargo.toml": RULES_PY_CARGO},
                          {"Cargo.toml": {line: line.replace(OLD, NEW)}})
    want = {("cargo", "uv-virtualenv", f"{UV} revision:{OLD}", f"{UV} revision:{NEW}")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch
    # two revisions do not order: the deps policy's `deps.unordered` reviews the move, as it did before
    assert {c.change for c in tree.changes + patch.changes} == {"changed"}
    (dep,) = [d for d in parse_cargo_toml("Cargo.toml", RULES_PY_CARGO.encode()) if d.name == "uv-virtualenv"]
    assert dep.options == "workspace"  # the rev is the version's now, not an option


def test_a_tag_and_a_version_beside_the_source_are_read(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"Cargo.toml": RULES_PY_CARGO},
                          {"Cargo.toml": {'tag = "0.5.0"': 'tag = "0.5.1"',
                                          f'version = "0.0.1", git = "{UV}", rev = "{OLD}"':
                                          f'version = "0.0.2", git = "{UV}", rev = "{NEW}"'}})
    want = {("cargo", "uv-tag", f"{UV} tag:0.5.0", f"{UV} tag:0.5.1"),
            ("cargo", "uv-pep440", f"0.0.1 from git {UV} revision:{OLD}", f"0.0.2 from git {UV} revision:{NEW}")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch
    (dep,) = [d for d in parse_cargo_toml("Cargo.toml", RULES_PY_CARGO.encode()) if d.name == "uv-pep440"]
    assert dep.options == 'workspace {"features": ["serde"]}'


def test_a_branch_swapped_for_a_rev_is_a_change_in_both_modes(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"Cargo.toml": RULES_PY_CARGO},
                          {"Cargo.toml": {'branch = "main"': f'rev = "{NEW}"'}})
    want = {("cargo", "uv-fs", f"{UV} branch:main", f"{UV} revision:{NEW}")}
    assert moves(tree) == want and moves(patch) == want, (tree, patch)


def test_the_patch_section_still_counts_as_an_override_with_the_tree(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"Cargo.toml": RULES_PY_CARGO},
                          {"Cargo.toml": {f'rev = "{PATCHED}"': f'rev = "{NEW}"'}})
    assert partial(tree, "Cargo.toml"), tree  # [patch.crates-io] moved (overrides.py): reviewed
    # the hunk shows the section header: still no silent allow from the patch (a change that does not order)
    assert {c.change for c in patch.changes} <= {"changed"} and (patch.changes or patch.problems), patch


@each_case("entry", [
    f'{{ git = "{UV}", rev = "{OLD}", branch = "main" }}',  # two refs: which one Cargo takes is not read
    f'{{ git = "{UV}" }}',  # no ref: the default branch's head, whatever it is
    f'{{ git = "{UV}", rev = 855 }}',  # not a string
    f'{{ git = "{UV}", rev = "" }}',
    f'{{ git = "{UV}", rev = "{OLD}", path = "../uv" }}',  # a path beside it
    f'{{ git = "{UV}", rev = "{OLD}", registry = "corp" }}',
    f'{{ git = "{UV}", rev = "{OLD}", package = "uv-evil" }}',  # a renamed crate from git
    f'{{ git = "file:///tmp/uv", rev = "{OLD}" }}',  # no https address
    f'{{ git = "http://example.test/uv", rev = "{OLD}" }}',
    f'{{ git = "{UV}", rev = "{OLD}", version = "git+evil" }}',  # not a version requirement
    f'{{ git = "{UV}", rev = "{OLD}", unknown = true }}',
    f'{{ git = 1, rev = "{OLD}" }}',
])
def test_patch_lines_of_other_git_tables_are_refused(entry: str) -> None:
    with pytest.raises(ManifestError):
        cargo_line([(f"uv-cache = {entry}", True)], 0)


def test_two_refs_stay_in_the_options_with_the_tree() -> None:
    body = f'[dependencies]\nuv-cache = {{ git = "{UV}", rev = "{OLD}", branch = "main" }}\n'
    (dep,) = parse_cargo_toml("Cargo.toml", body.encode())
    assert dep.version == UV and '"branch": "main"' in dep.options and OLD in dep.options


def test_the_tree_reads_no_ref_without_a_git_source() -> None:
    body = f'[dependencies]\nuv-cache = {{ path = "../uv", rev = "{OLD}" }}\n'
    (dep,) = parse_cargo_toml("Cargo.toml", body.encode())
    assert dep.version == "../uv" and OLD in dep.options


def test_a_rev_moved_beside_another_key_is_refused_from_the_patch(tmp_path: Path) -> None:
    line = f'uv-cache = {{ git = "{UV}", rev = "{OLD}" }}'
    tree, patch = _bumped(tmp_path, {"Cargo.toml": RULES_PY_CARGO},
                          {"Cargo.toml": {line: f'uv-cache = {{ git = "{UV}", rev = "{NEW}", path = "x" }}'}})
    assert partial(patch, "Cargo.toml") and not patch.changes, patch
    assert [c.name for c in tree.changes] == ["uv-cache"], tree  # the tree names it, the path in its version


# --- 2. sbt's `val Version = new { … }` ------------------------------------------------------------------------------

WEAVER_BUILD = """\
ThisBuild / scalaVersion := "3.3.8"

val Version = new {
  val catsEffect             = "3.7.0"
  val fs2                    = "3.13.0"
  val scalacheck             = "1.19.0"
  val scalacCompatAnnotation = "0.1.4"
}

lazy val core = crossProject(JVMPlatform, JSPlatform)
  .settings(
    libraryDependencies ++= Seq(
      "co.fs2"        %%% "fs2-core"    % Version.fs2,
      "org.typelevel" %%% "cats-effect" % Version.catsEffect
    )
  )

lazy val scalacheck = crossProject(JVMPlatform, JSPlatform)
  .in(file("modules/scalacheck"))
  .settings(
    name := "weaver-scalacheck",
    libraryDependencies ++= Seq(
      "org.scalacheck" %%% "scalacheck" % Version.scalacheck
    )
  )
"""


def test_a_member_of_a_structural_value_is_read(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"build.sbt": WEAVER_BUILD},
                          {"build.sbt": {'"1.19.0"': '"1.19.1"'}})
    assert moves(tree) == {("maven", "org.scalacheck:scalacheck", "1.19.0", "1.19.1")}, tree
    assert not tree.problems, tree
    assert moves(patch) == {("maven", "scalacheck", "1.19.0", "1.19.1")} and partial(patch, "build.sbt"), patch


def test_the_other_members_resolve_too() -> None:
    found = {(d.name, d.version) for d in parse_build("build.sbt", WEAVER_BUILD.encode())}
    assert {("co.fs2:fs2-core", "3.13.0"), ("org.typelevel:cats-effect", "3.7.0"),
            ("org.scalacheck:scalacheck", "1.19.0"), ("org.scala-lang:scala3-library", "3.3.8")} <= found


@each_case("opening", [
    "val Version = new Versions {",  # a subclass: its members may come from elsewhere
    "val Version = new\n{",  # the brace on the next line: not read as the value's block
    "def Version = new {",
])
def test_other_openings_still_refuse_a_name_written_twice(opening: str) -> None:
    body = WEAVER_BUILD.replace("val Version = new {", opening)
    with pytest.raises(ManifestError, match="more than once"):
        parse_build("build.sbt", body.encode())


def test_two_structural_values_of_one_name_with_other_strings_are_refused() -> None:
    body = WEAVER_BUILD + '\nval Version = new {\n  val scalacheck = "1.18.0"\n}\n'
    with pytest.raises(ManifestError, match="more than once"):
        parse_build("build.sbt", body.encode())


# --- 3. an sbt module line whose version is an environment default ---------------------------------------------------

PLAY_JSON_PLUGINS = """\
resolvers += Resolver.typesafeRepo("releases")

addSbtPlugin("com.typesafe.play" % "interplay" % sys.props.get("interplay.version").getOrElse("3.0.0"))

addSbtPlugin("com.typesafe.play" % "play-docs-sbt-plugin" % sys.props.getOrElse("play.version", "2.8.1"))

addSbtPlugin("pl.project13.scala" % "sbt-jmh" % "0.3.7")
"""


def test_a_plugin_whose_version_is_a_system_property_default_is_read(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"project/plugins.sbt": PLAY_JSON_PLUGINS},
                          {"project/plugins.sbt": {'"2.8.1"': '"2.8.2"'}})
    want = {("maven", "com.typesafe.play:play-docs-sbt-plugin", "2.8.1", "2.8.2")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch
    found = {(d.name, d.version) for d in parse_build("project/plugins.sbt", PLAY_JSON_PLUGINS.encode())}
    assert ("com.typesafe.play:interplay", "3.0.0") in found


@each_case("version", [
    'sys.props.getOrElse("play.version", playVersion)',  # a default that is no literal
    'sys.props.getOrElse("play.version", "2.8.1" + suffix)',  # more than the literal
    'sys.props("play.version")',  # no default: the build fails without the property
    'foo("2.8.1")',  # a call of the build's own
    'sys.props.getOrElse("play.version", "2.8.1").trim',
])
def test_other_expressions_name_no_version(version: str) -> None:
    body = f'addSbtPlugin("com.typesafe.play" % "play-docs-sbt-plugin" % {version})\n'
    assert [d.version for d in parse_build("project/plugins.sbt", body.encode())] == []
