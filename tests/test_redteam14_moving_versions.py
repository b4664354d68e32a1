"""Red team 14, second round: a move to a version that names no fixed code was read as an in-level upgrade.

Maven's (and Gradle's, sbt's) `-SNAPSHOT` is the latest build deployed under that name: Maven fetches it again as it
moves (daily by default), so `32.1.3-SNAPSHOT` is a branch, not a release. Composer's `3.5.1-dev` is a branch
version (the head of branch `3.5.1`; an explicit root requirement allows its dev stability). The version orderings
(Maven's ComparableVersion, SemVer) rank both just above the release before them, so `guava 32.1.2-jre ->
32.1.3-SNAPSHOT` was a patch upgrade and `gate --enable deps` said allow (exit 0), from the patch and with `--tree`
— while `3.5.x-dev`, `dev-main`, `LATEST` were reviewed. A move to such a version is `changed` now (`deps.unordered`,
reviewed). Controls: a move from a snapshot to a release, and plain bumps, stay allowed upgrades.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_deps_gate import Case, gate

from gatekeeper.deps.versions import moving

POM = ("<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>a</groupId>\n  <artifactId>a</artifactId>\n"
       "  <version>1</version>\n  <dependencies>\n    <dependency>\n      <groupId>com.google.guava</groupId>\n"
       "      <artifactId>guava</artifactId>\n      <version>{v}</version>\n    </dependency>\n  </dependencies>\n"
       "  <build>\n    <plugins>\n      <plugin>\n        <groupId>org.apache.maven.plugins</groupId>\n"
       "        <artifactId>maven-surefire-plugin</artifactId>\n        <version>{p}</version>\n      </plugin>\n"
       "    </plugins>\n  </build>\n</project>\n")
GRADLE = 'dependencies {{\n    implementation "com.google.guava:guava:{v}"\n}}\n'
KTS = 'dependencies {{\n    implementation("com.squareup.okhttp3:okhttp:{v}")\n}}\n'
CATALOG = '[libraries]\nokhttp = {{ module = "com.squareup.okhttp3:okhttp", version = "{v}" }}\n'
SBT = 'libraryDependencies += "org.typelevel" %% "cats-core" % "{v}"\n'


def _composer(version: str) -> str:
    return json.dumps({"require": {"monolog/monolog": version}}, indent=4) + "\n"


def _pom(v: str, p: str = "3.2.5") -> str:
    return POM.format(v=v, p=p)


ATTACKS = {
    "pom dependency": ("pom.xml", _pom("32.1.2-jre"), _pom("32.1.3-SNAPSHOT")),
    "pom dependency, lower case": ("pom.xml", _pom("32.1.2-jre"), _pom("32.1.3-snapshot")),
    "pom plugin": ("pom.xml", _pom("32.1.2-jre"), _pom("32.1.2-jre", "3.2.6-SNAPSHOT")),
    "gradle": ("build.gradle", GRADLE.format(v="32.1.2-jre"), GRADLE.format(v="32.1.3-SNAPSHOT")),
    "gradle kts": ("build.gradle.kts", KTS.format(v="4.12.0"), KTS.format(v="4.12.1-SNAPSHOT")),
    "version catalog": ("gradle/libs.versions.toml", CATALOG.format(v="4.12.0"), CATALOG.format(v="4.13.0-SNAPSHOT")),
    "sbt": ("build.sbt", SBT.format(v="2.10.0"), SBT.format(v="2.10.1-SNAPSHOT")),
    "composer branch version": ("composer.json", _composer("3.5.0"), _composer("3.5.1-dev")),
}
CONTROLS = {
    "pom snapshot to release": ("pom.xml", _pom("32.1.3-SNAPSHOT"), _pom("32.1.3-jre")),
    "pom bump": ("pom.xml", _pom("32.1.2-jre"), _pom("32.1.3-jre")),
    "gradle bump": ("build.gradle", GRADLE.format(v="32.1.2-jre"), GRADLE.format(v="32.1.3-jre")),
    "composer bump": ("composer.json", _composer("3.5.0"), _composer("3.5.1")),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_move_to_a_moving_version_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str,
                                                  tree: bool) -> None:
    path, old, new = ATTACKS[name]
    decision = gate(capsys, Case(tmp_path, {path: old}, {path: new}), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    assert any(r["rule"] == "deps.unordered" and path in r.get("paths", ()) for r in decision["reasons"]), \
        decision["reasons"]


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_release_stays_an_upgrade(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str,
                                    tree: bool) -> None:
    path, old, new = CONTROLS[name]
    decision = gate(capsys, Case(tmp_path, {path: old}, {path: new}), tree)
    assert decision["outcome"] == "allow", decision["reasons"]


def test_what_moves() -> None:
    assert [v for v in ("1.0-SNAPSHOT", "1.0-snapshot", "1.0", "1.0-20240101.123456-1", "SNAPSHOT-1")
            if moving("maven", v)] == ["1.0-SNAPSHOT", "1.0-snapshot"]
    assert [v for v in ("3.5.1-dev", "dev-main", "3.5.1", "3.5.1-beta", "1.0-SNAPSHOT")
            if moving("composer", v)] == ["3.5.1-dev", "dev-main"]
    assert not moving("npm", "1.0.0-SNAPSHOT") and not moving("pip", "1.0.dev0")
