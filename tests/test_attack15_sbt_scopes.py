"""Attack 15: an sbt definition's name resolved to another scope's value.

The whole-file reader (deps/sbt.py parse_build) resolves a group or version written as a definition's name by that
name alone: the latest `val org` above the line for a group, the first `val v` of the file for a version. Scala
resolves `Forks.org` to the `org` of `object Forks`, and an unqualified name to the innermost one in scope. So
`Forks.org %% "cats-core" % "2.10.1"`, whose group is `io.github.someone-else`, was read as
`org.typelevel:cats-core` moved 2.10.0 -> 2.10.1, an in-level patch upgrade `gate --tree --enable deps` allowed,
though it brings in another group's artifact (a new dependency: reviewed). Now a module that uses a name the file
defines with two different values is a problem (deps.unreadable, reviewed); from a patch, a hunk showing two values
for the name refuses the line. Variants: a qualified group (its object on many lines or one), an unqualified group
under a shadowing block, a qualified version (`Next.cats` read as `V.cats`, bumped beside it), a group and a version
the hunk shows twice; one definition per name still reads as an upgrade.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.deps import sbt
from gatekeeper.deps.model import ManifestError

_QUALIFIED = '''object Forks {{
  val org = "io.github.someone-else"
}}

val org = "org.typelevel"

lazy val root = (project in file("."))
  .settings(
    scalaVersion := "3.3.4",
    libraryDependencies += {use} %% "cats-core" % "{version}"
  )
'''
_SHADOWED = '''val org = "io.github.someone-else"

lazy val core = project.settings {{
  val org = "org.typelevel"
  name := "core"
}}

lazy val app = project.settings(
  libraryDependencies += {use} %% "cats-core" % "{version}"
)
'''
_VERSION = '''object V {{
  val cats = "{version}"
}}

object Next {{
  val cats = "3.0.0-M1"
}}

libraryDependencies += "org.typelevel" %% "cats-core" % {use}
'''
_ONE_LINE = '''object Forks {{ val org = "io.github.someone-else" }}
val org = "org.typelevel"
libraryDependencies += {use} %% "cats-core" % "{version}"
'''
CASES = {  # name: (template, base's use, head's use, base version, head version)
    "qualified-group": (_QUALIFIED, '"org.typelevel"', "Forks.org", "2.10.0", "2.10.1"),
    "shadowed-group": (_SHADOWED, '"org.typelevel"', "org", "2.10.0", "2.10.1"),
    "one-line-object": (_ONE_LINE, '"org.typelevel"', "Forks.org", "2.10.0", "2.10.1"),
    "qualified-version": (_VERSION, "V.cats", "Next.cats", "2.10.0", "2.10.1"),
}


@each_case("case", sorted(CASES))
def test_a_name_another_scope_defines_is_reviewed_not_an_upgrade(tmp_path: Path, case: str) -> None:
    template, was, now, old_version, new_version = CASES[case]
    base = {"build.sbt": template.format(use=was, version=old_version), "src/main/scala/App.scala": "object App\n"}
    head = {**base, "build.sbt": template.format(use=now, version=new_version)}
    repo, old, new = two_commits(tmp_path / "repo", base, head)
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    assert code == 3, decision
    assert any("build.sbt" in reason.get("paths", ()) for reason in decision["reasons"])


def test_one_definition_per_name_still_reads_as_an_upgrade() -> None:
    body = b'val org = "org.typelevel"\nlibraryDependencies += org %% "cats-core" % "2.10.1"\n'
    assert [(d.name, d.version) for d in sbt.parse_build("build.sbt", body)] == [("org.typelevel:cats-core", "2.10.1")]


def test_a_hunk_showing_two_values_for_a_name_refuses_the_line() -> None:
    side = [('object Forks { val org = "io.github.someone-else" }', False), ('val org = "org.typelevel"', False),
            ('libraryDependencies += Forks.org %% "cats-core" % "2.10.1"', True)]
    with pytest.raises(ManifestError):
        sbt.sbt_line(side, 2)
    side = [('object A { val v = "2.10.0" }', False), ('object B { val v = "3.0.0" }', False),
            ('libraryDependencies += "org.typelevel" %% "cats-core" % B.v', True)]
    with pytest.raises(ManifestError):
        sbt.sbt_line(side, 2)


_MEMBER = '''object Build {{
  val Extractor = """(\\d+)\\.(\\d+)[-.].*""".r
  object V {{ // dependency versions
    val cats = "2.11.0"
    val circe = "0.14.8"
  }}
{more}
  lazy val cats = Def.setting("org.typelevel" %%% "cats-core" % V.cats)
  lazy val circe = "io.circe" %% "circe-core" % V.circe
}}
'''


def test_a_qualified_name_is_the_member_of_its_object() -> None:
    # http4s' idiom: the module's own `lazy val cats` is named like the version `V.cats` it uses
    body = _MEMBER.format(more="").encode()
    assert sorted((d.name, d.version) for d in sbt.parse_build("project/Build.scala", body)) == [
        ("io.circe:circe-core", "0.14.8"), ("org.typelevel:cats-core", "2.11.0")]


@each_case("more", [
    '  object V {\n    val cats = "9.9.9"\n  }',  # a second `object V` giving another value: which one is not read
    '  val s = """\n  }\n  """',  # a string over lines may hide a brace: the blocks are not read
    '}\n}',  # more braces closed than opened: the blocks are not what they seem
])
def test_a_member_the_reader_cannot_settle_is_refused(more: str) -> None:
    with pytest.raises(ManifestError):
        sbt.parse_build("project/Build.scala", _MEMBER.format(more=more).encode())
