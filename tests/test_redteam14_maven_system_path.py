"""Red team 14, second round: a Maven dependency moved to `<scope>system</scope>` under a patch bump was an upgrade.

With `<scope>system</scope>` Maven takes the jar at `<systemPath>` (a file of the checkout, `${project.basedir}/lib/
guava.jar`) and downloads nothing: the code is whatever that file holds. The POM reader named such a dependency
by its coordinates and version alone, so `guava 32.1.2-jre -> 32.1.3-jre` with a systemPath added was a patch
upgrade and `gate --tree --enable deps` said allow (exit 0); the patch gate reviewed it (the hunk's added lines are
no version line). Where it comes from is part of its version now (`32.1.3-jre from systemPath …`, as Cargo's
`path` is): `changed`, `deps.unordered`. Controls: a system dependency left as it was, and a plain bump, stay allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, gate

from gatekeeper.deps.jvm import parse_pom

GUAVA = ("    <dependency>\n      <groupId>com.google.guava</groupId>\n      <artifactId>guava</artifactId>\n"
         "      <version>{v}</version>{extra}\n    </dependency>\n")
SLF4J = ("    <dependency>\n      <groupId>org.slf4j</groupId>\n      <artifactId>slf4j-api</artifactId>\n"
         "      <version>2.0.13</version>\n    </dependency>\n")
HEAD = ("<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>a</groupId>\n  <artifactId>a</artifactId>\n"
        "  <version>1</version>\n  <properties>\n    <lib>${project.basedir}/lib</lib>\n  </properties>\n")
SYSTEM = "\n      <scope>system</scope>\n      <systemPath>${lib}/guava.jar</systemPath>"


def _pom(version: str, extra: str = "", managed: bool = False) -> str:
    guava = GUAVA.format(v=version, extra=extra)
    if managed:  # the version and the system path come from dependencyManagement
        return (f"{HEAD}  <dependencyManagement>\n  <dependencies>\n{guava}  </dependencies>\n"
                f"  </dependencyManagement>\n  <dependencies>\n{SLF4J}  </dependencies>\n</project>\n")
    return f"{HEAD}  <dependencies>\n{guava}{SLF4J}  </dependencies>\n</project>\n"


ATTACKS = {
    "system path added under a bump": (_pom("32.1.2-jre"), _pom("32.1.3-jre", SYSTEM)),
    "system path, scope elsewhere": (_pom("32.1.2-jre"),
                                     _pom("32.1.3-jre", "\n      <systemPath>${lib}/g.jar</systemPath>"
                                                        "\n      <scope>system</scope>")),
    "managed system path": (_pom("32.1.2-jre", managed=True), _pom("32.1.3-jre", SYSTEM, managed=True)),
    "system path moved": (_pom("32.1.2-jre", SYSTEM), _pom("32.1.3-jre", SYSTEM.replace("guava.jar", "g2.jar"))),
}
CONTROLS = {
    "system dependency unchanged beside a bump": (
        _pom("32.1.2-jre", SYSTEM).replace("2.0.13", "2.0.12"), _pom("32.1.2-jre", SYSTEM)),
    "plain bump": (_pom("32.1.2-jre"), _pom("32.1.3-jre")),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_jar_of_the_checkout_under_a_bump_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          name: str, tree: bool) -> None:
    old, new = ATTACKS[name]
    decision = gate(capsys, Case(tmp_path, {"pom.xml": old}, {"pom.xml": new}), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    assert any("pom.xml" in r.get("paths", ()) for r in decision["reasons"]), decision["reasons"]


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_without_a_new_system_path_a_bump_is_allowed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     name: str) -> None:
    old, new = CONTROLS[name]
    decision = gate(capsys, Case(tmp_path, {"pom.xml": old}, {"pom.xml": new}), True)
    assert decision["outcome"] == "allow", decision["reasons"]


def test_the_system_path_is_part_of_the_version() -> None:
    found = {d.name: d.version for d in parse_pom("pom.xml", _pom("32.1.3-jre", SYSTEM).encode())}
    assert found["com.google.guava:guava"] == "32.1.3-jre from systemPath ${project.basedir}/lib/guava.jar"
    assert found["org.slf4j:slf4j-api"] == "2.0.13"
