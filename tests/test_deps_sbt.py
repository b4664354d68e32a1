"""sbt builds (gatekeeper/deps/sbt.py): build.sbt and project/*.sbt|*.scala module lines, version definitions,
Scala versions and project/build.properties, read from the tree and from a patch's hunks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import sbt
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from tests.deltas import each_fast, moves, refused
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import GitRepo, edited_commits

BUILD_SBT = """\
import sbtcrossproject.CrossPlugin.autoImport.crossProject

// the versions scala-steward keeps current
val Scala212 = "2.12.20"
val Scala213 = "2.13.14"
val Scala3 = "3.3.3"

val catsVersion = "2.12.0"
lazy val munitVersion = "1.0.0"
val fs2Version = "3.10.2"

ThisBuild / scalaVersion := Scala213
ThisBuild / crossScalaVersions := Seq(Scala212, Scala213, Scala3)
ThisBuild / tlBaseVersion := "0.4"

lazy val core = crossProject(JVMPlatform, JSPlatform)
  .in(file("core"))
  .settings(
    name := "ledger-core",
    libraryDependencies ++= Seq(
      "org.typelevel" %%% "cats-core" % catsVersion,
      "org.typelevel" %%% "cats-effect" % "3.5.4",
      "co.fs2" %% "fs2-io" % fs2Version,
      "org.scalameta" %%% "munit" % munitVersion % Test,
      "com.squareup.okhttp3" % "okhttp" % "4.12.0"
    )
  )
"""
PLUGINS_SBT = """\
addSbtPlugin("org.typelevel" % "sbt-typelevel" % "0.7.1")
addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.2")
// addSbtPlugin("com.github.sbt" % "sbt-unused" % "0.1.0")
addSbtPlugin("org.scala-js" % "sbt-scalajs" % "1.16.0")
"""
DEPENDENCIES_SCALA = """\
import sbt._

object Dependencies {
  object V {
    val circe = "0.14.9"
    val http4s = "0.23.27"
  }
  val circeGeneric = "io.circe" %% "circe-generic" % V.circe
  val circeParser = "io.circe" %% "circe-parser" % V.circe
  val blaze = "org.http4s" %% "http4s-ember-server" % V.http4s
}
"""
FILES = {"build.sbt": BUILD_SBT, "project/plugins.sbt": PLUGINS_SBT, "project/Dependencies.scala": DEPENDENCIES_SCALA,
         "project/build.properties": "sbt.version=1.10.0\n"}


def _edit(tmp_path: Path, path: str, edit: dict[str, str]) -> tuple[GitRepo, str, str]:
    return edited_commits(tmp_path, FILES, {path: edit})


@each_case(("path", "edit", "name", "old", "new"), [
    ("build.sbt", {'"cats-effect" % "3.5.4"': '"cats-effect" % "3.5.7"'}, "org.typelevel:cats-effect", "3.5.4",
     "3.5.7"),
    ("build.sbt", {'"okhttp" % "4.12.0"': '"okhttp" % "4.12.1"'}, "com.squareup.okhttp3:okhttp", "4.12.0", "4.12.1"),
    ("project/plugins.sbt", {'"sbt-scalafmt" % "2.5.2"': '"sbt-scalafmt" % "2.5.4"'}, "org.scalameta:sbt-scalafmt",
     "2.5.2", "2.5.4"),
    ("project/build.properties", {"1.10.0": "1.10.2"}, "org.scala-sbt:sbt", "1.10.0", "1.10.2"),
])
def test_a_literal_bump_is_read_from_the_tree_and_the_patch(tmp_path: Path, path: str, edit: dict[str, str],
                                                            name: str, old: str, new: str) -> None:
    repo, base, head = _edit(tmp_path, path, edit)
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("maven", name, old, new)} and not delta.problems, delta


def test_a_scala_version_definition_is_the_scala_library_and_from_the_patch_a_problem(tmp_path: Path) -> None:
    repo, base, head = _edit(tmp_path, "build.sbt", {'Scala213 = "2.13.14"': 'Scala213 = "2.13.15"'})
    tree, patch = _tree(repo, base, head), _patch(repo, base, head)
    for delta in (tree, patch):
        assert moves(delta) == {("maven", "org.scala-lang:scala-library", "2.13.14", "2.13.15")}, delta
    assert not tree.problems
    # its uses (`scalaVersion := Scala213`) are below the hunk: named by the convention, reviewed (tests/
    # test_deps_patch_classes.py)
    assert [p.kind for p in patch.problems] == ["partial"] and "Scala213" in patch.problems[0].msg


def test_a_definition_moves_every_module_of_its_file_in_the_tree(tmp_path: Path) -> None:
    repo, base, head = _edit(tmp_path, "project/Dependencies.scala", {'circe = "0.14.9"': 'circe = "0.14.10"'})
    assert moves(_tree(repo, base, head)) == {("maven", "io.circe:circe-generic", "0.14.9", "0.14.10"),
                                              ("maven", "io.circe:circe-parser", "0.14.9", "0.14.10")}
    # the hunk shows the definition and one use (`circeGeneric`, three lines below): that module is named, beside a
    # `partial` problem for the uses it does not show
    patch = _patch(repo, base, head)
    assert moves(patch) == {("maven", "io.circe:circe-generic", "0.14.9", "0.14.10")}
    assert [p.kind for p in patch.problems] == ["partial"] and "other uses" in patch.problems[0].msg


def test_a_definition_used_nowhere_in_its_file_is_reported_by_its_name() -> None:
    found = sbt.parse_build("project/Versions.scala", b'object Versions {\n  val doobie = "1.0.0-RC5"\n}\n')
    assert [(d.name, d.version, d.alias) for d in found] == [("doobie", "1.0.0-RC5", "doobie")]


def test_the_tree_reads_scopes_scala_versions_and_skips_comments() -> None:
    found = {(d.name, d.version, d.scope) for d in sbt.parse_build("build.sbt", BUILD_SBT.encode())}
    assert ("org.scalameta:munit", "1.0.0", "dev") in found
    assert ("org.typelevel:cats-core", "2.12.0", "runtime") in found
    assert {("org.scala-lang:scala-library", "2.12.20", "runtime"), ("org.scala-lang:scala-library", "2.13.14",
            "runtime"), ("org.scala-lang:scala3-library", "3.3.3", "runtime")} <= found
    plugins = {(d.name, d.scope) for d in sbt.parse_build("project/plugins.sbt", PLUGINS_SBT.encode())}
    assert plugins == {("org.typelevel:sbt-typelevel", "build"), ("org.scalameta:sbt-scalafmt", "build"),
                       ("org.scala-js:sbt-scalajs", "build")}  # the commented-out plugin is not read


def test_a_cross_version_line_reads_its_literals_beside_a_definition(tmp_path: Path) -> None:
    files = {"build.sbt": 'val NewScala = "2.13.10"\n\nThisBuild / crossScalaVersions := Seq("3.2.2", "2.12.17", '
                          'NewScala)\n'}
    repo, base, head = edited_commits(tmp_path, files, {"build.sbt": {'"3.2.2"': '"3.3.0"'}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("maven", "org.scala-lang:scala3-library", "3.2.2", "3.3.0")}, delta


def test_a_changed_build_code_line_is_partial_in_the_patch(tmp_path: Path) -> None:
    repo, base, head = _edit(tmp_path, "build.sbt", {'name := "ledger-core",': 'name := "ledger-core2",'})
    delta = _patch(repo, base, head)
    assert _partial(delta, "build.sbt") and not delta.changes
    assert not moves(_tree(repo, base, head))


def test_a_module_line_using_a_definition_the_hunk_does_not_show_is_refused() -> None:
    with pytest.raises(ManifestError):
        sbt.sbt_line([('      "org.typelevel" %%% "cats-core" % catsVersion,', True)], 0)
    side = [('val catsVersion = "2.12.0"', False), ("", False),
            ('  "org.typelevel" %% "cats-core" % catsVersion', True)]
    assert sbt.sbt_line(side, 2) == [("org.typelevel:cats-core", "2.12.0", "maven", "", "catsVersion")]


@each_case("path", ["src/main/scala/Build.scala", "core/src/test/scala/ModuleSpec.scala",
                                  "build.properties", "docs/project.md", "build.sbt.bak"])
def test_look_alikes_are_not_build_files(path: str) -> None:
    assert format_for(path) is None or format_for(path).name != "sbt"  # type: ignore[union-attr]


def test_a_scala_source_with_module_strings_is_not_read(tmp_path: Path) -> None:
    source = 'object Coordinates {\n  val shown = "org.example" % "lib" % "1.0.0"\n}\n'
    repo, base, head = edited_commits(tmp_path, {"src/main/scala/Coordinates.scala": source},
                                      {"src/main/scala/Coordinates.scala": {"1.0.0": "2.0.0"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert not delta.changes and not delta.problems


@each_case("body", [
    b'"org" %% "name" % ',  # no version
    b'"org" %% "name" % "not a version"',
    b'val x = "latest"',
    b"sbt.version=\n",
    b'libraryDependencies += "a" %% "b" % "1.0" % "test" // unclosed "',
    b"\xff\xfe not text",
])
def test_malformed_lines_read_nothing_or_fail_closed(body: bytes) -> None:
    for parse in (sbt.parse_build, sbt.parse_properties):
        try:
            found = parse("build.sbt", body)
        except ManifestError:
            continue
        assert all(d.version and d.version[0].isdigit() for d in found)


def test_lines_over_the_limit_are_skipped() -> None:
    line = '"org" %% "name" % "1.0.0"' + " " * sbt.MAX_LINE
    assert sbt.parse_build("build.sbt", line.encode()) == []
    with pytest.raises(ManifestError):
        sbt.sbt_line([(line, True)], 0)


def test_the_reader_is_linear_on_hostile_lines() -> None:
    mib = 1_000_000
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: sbt.parse_build("build.sbt", b'"a" %% "b" % ' * (mib // 14)), "module chain"),
        (lambda: sbt.parse_build("build.sbt", (b'"' + b"a" * 150 + b'" % ') * (mib // 160)), "long groups"),
        (lambda: sbt.parse_build("build.sbt", b'val a = "1.0"\n' * (mib // 15)), "many definitions"),
        (lambda: sbt.parse_build("build.sbt", b"crossScalaVersions := Seq(" + b"a," * (mib // 2)), "cross items"),
        (lambda: sbt.parse_properties("build.properties", b"sbt.version=" + b" " * mib + b"x"), "property"),
        (lambda: refused(lambda: sbt.sbt_line([("  a %% b % c " * 300, True)] * 2000, 1999)), "hunk of code"),
        (lambda: [refused(lambda i=i: sbt.sbt_line(side, i)) for i in range(0, 4000, 7)], "hunk of uses"),
    ]
    side = [('  "o" %% "a" % someVersion', True)] * 4000
    each_fast(calls, 2)


def test_a_def_definition_is_read_as_a_val_is() -> None:
    body = b'def scala212 = "2.12.21"\ndef scala3 = "3.3.8"\nval scala2Versions = Seq(scala212)\n'
    found = {(d.name, d.version, d.alias) for d in sbt.parse_build("build.sbt", body)}
    assert found == {("org.scala-lang:scala-library", "2.12.21", "scala212"),
                     ("org.scala-lang:scala3-library", "3.3.8", "scala3")}
