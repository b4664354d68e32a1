"""Classes of misses the twentieth blind set of bot update commits found (bench/deps_bumps_twentieth.tsv): Renovate's
update of the Gradle catalog entries that share one `[versions]` key, named by that key (skydoves/sandwich: "Update
agp to v9.3.1" moves `agp`, which `android-application`, `android-library` and `android-test` use as `version.ref`:
2 with `--tree`) — the entries now carry the key as `version_ref`, with `--tree` and, where the hunk shows a use, from
the patch; and two of the benchmark's naming classes (bench/bench_deps_accuracy.py): Renovate's display name for the
Node.js runtime (`.nvmrc`, zio/zio-json: "Update Node.js to v18.16.1", 7) and scala-steward's names for a Scala
toolchain's artifacts released together under one build setting (circe/circe, zio/zio-json: "Update
scala-compiler, scala-library, ... to 2.13.15" for `scalaVersion`, "Update auxlib, clib, javalib, nativelib, ... to
0.5.5" for `addSbtPlugin(… "sbt-scala-native" …)`: 9). Then the Scala versions a workflow's build matrix lists
(`scala: ['2.12.19', '2.13.15', '3.3.4']`, sbt-github-actions' generated workflow, the only place zio/zio-json writes
them), read by nobody (6 with `--tree`), now the Scala library at each (scalamatrix.py); and circe/circe's
`val Scala213V: String = "2.13.15"`, named from the patch by its own name (3), now the Scala library, as `Scala213`
already was; and a Gradle wrapper bump that writes Gradle 9.5's `retries` and `retryBackOffMs` keys beside the URL
(skydoves/sandwich, 1 from the patch: "build logic beside versions", no change) — the bump, as `networkTimeout`
already was. Real-shaped files, look-alikes and attacks."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import facts, sbt
from gatekeeper.deps.jvm import parse_version_catalog
from gatekeeper.deps.model import Change
from gatekeeper.deps.scalamatrix import scala_versions
from tests.deltas import accuracy_bench as _bench
from tests.deltas import bench_change as _change
from tests.deltas import each_fast, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

CATALOG_PATH = "gradle/libs.versions.toml"
# The shape of an Android library's catalog: the Android Gradle plugin's three plugin ids share `agp`.
CATALOG = """\
[versions]
agp = "9.3.0"
kotlin = "2.4.10"
okio = "3.18.0"
jvmTarget = "11"

[libraries]
okio = { module = "com.squareup.okio:okio", version.ref = "okio" }
okio-fakefilesystem = { module = "com.squareup.okio:okio-fakefilesystem", version.ref = "okio" }
junit = { module = "junit:junit", version = "4.13.2" }
strict = { module = "org.example:strict", version = { strictly = "1.2.0" } }
dangling = { module = "org.example:dangling", version.ref = "nowhere" }

[plugins]
android-application = { id = "com.android.application", version.ref = "agp" }
android-library = { id = "com.android.library", version.ref = "agp" }
kotlin-android = { id = "org.jetbrains.kotlin.android", version.ref = "kotlin" }
android-test = { id = "com.android.test", version.ref = "agp" }
"""


def _refs(changes: list[Change]) -> dict[str, str | None]:
    return {c.name: c.version_ref for c in changes}


def test_entries_sharing_a_versions_key_carry_it_with_tree(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {CATALOG_PATH: CATALOG},
                                      {CATALOG_PATH: {'agp = "9.3.0"': 'agp = "9.3.1"'}})
    delta = _tree(repo, base, head)
    assert moves(delta) == {("maven", f"com.android.{p}", "9.3.0", "9.3.1") for p in ("application", "library", "test")}
    assert set(_refs(delta.changes).values()) == {"agp"}
    shown = [c.to_dict() for c in delta.changes]
    assert all(d["version_ref"] == "agp" and d["alias"] in ("android-application", "android-library", "android-test")
               for d in shown), shown


def test_only_an_entry_naming_a_key_that_exists_carries_it() -> None:
    found = {d.name: d for d in parse_version_catalog(CATALOG_PATH, CATALOG.encode())}
    assert found["com.squareup.okio:okio"].version_ref == "okio"
    assert found["org.jetbrains.kotlin.android"].version_ref == "kotlin"
    # a version written in the entry, a rich version and a reference to no key name no shared version
    assert (found["junit:junit"].version, found["junit:junit"].version_ref) == ("4.13.2", "")
    assert (found["org.example:strict"].version, found["org.example:strict"].version_ref) == ("1.2.0", "")
    assert (found["org.example:dangling"].version, found["org.example:dangling"].version_ref) == ("", "")


def test_a_change_without_a_shared_version_has_no_version_ref_key(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {CATALOG_PATH: CATALOG},
                                      {CATALOG_PATH: {'version = "4.13.2"': 'version = "4.13.3"'}})
    delta = _tree(repo, base, head)
    assert moves(delta) == {("maven", "junit:junit", "4.13.2", "4.13.3")}
    assert "version_ref" not in delta.changes[0].to_dict()


def test_from_the_patch_the_entries_a_hunk_shows_carry_the_key(tmp_path: Path) -> None:
    # okio's key is three lines above its entries: the hunk shows both uses, the build scripts stay unread
    small = '[versions]\nokio = "3.18.0"\n\n[libraries]\nokio = { module = "com.squareup.okio:okio", ' \
            'version.ref = "okio" }\n'
    repo, base, head = edited_commits(tmp_path, {CATALOG_PATH: small},
                                      {CATALOG_PATH: {'okio = "3.18.0"': 'okio = "3.18.1"'}})
    delta = _patch(repo, base, head)
    assert moves(delta) == {("maven", "com.squareup.okio:okio", "3.18.0", "3.18.1")}
    assert _refs(delta.changes) == {"com.squareup.okio:okio": "okio"}
    assert partial(delta, CATALOG_PATH)


@each_case(("want", "ecosystem", "name", "same"), [
    ("Node.js", "tool", "node", True),  # Renovate's display name of the runtime `.nvmrc` pins
    ("node.js", "tool", "node", True),
    # an image is named by its repository, but Renovate names the official `node` image by the runtime's display name
    # too (novuhq/novu's "Update Node.js to v15.14.0" moves only `FROM node:15.11.0` lines: round 25)
    ("Node.js", "docker", "node", True),
    ("Node.js", "docker", "nodered/node-red", False),
    ("Deno.js", "tool", "deno", False),
    ("scala-compiler", "maven", "org.scala-lang:scala-library", True),  # scalaVersion's library
    ("scala-reflect", "maven", "org.scala-lang:scala-library", True),
    ("scala3-compiler", "maven", "org.scala-lang:scala3-library", True),
    ("scala3-compiler", "maven", "org.scala-lang:scala-library", False),  # Scala 3 is another line
    ("scala3-library_sjs1", "maven", "org.scala-lang:scala-library", False),  # Scala 3's (Scala.js) build, not 2's
    ("scala-compiler", "maven", "com.example:scala-library", False),  # another group's artifact of that name
    ("auxlib", "maven", "org.scala-native:sbt-scala-native", True),  # Scala Native's runtime, by its plugin
    ("nativelib", "maven", "org.scala-native:sbt-scala-native", True),
    ("nativelib_native0.5_3", "maven", "org.scala-native:sbt-scala-native", False),
    ("scalajs-library", "maven", "org.scala-js:sbt-scalajs", True),
    ("auxlib", "maven", "org.scala-js:sbt-scalajs", False),
    ("auxlib", "cargo", "org.scala-native:sbt-scala-native", False),
])
def test_the_benchmark_names_a_toolchain_by_its_bots_names(want: str, ecosystem: str, name: str, same: bool) -> None:
    assert _bench()._same_name(want, _change(ecosystem, name)) is same


def test_the_benchmark_names_shared_catalog_entries_by_their_key() -> None:
    bench = _bench()
    entry = _change("maven", "com.android.application", alias="android-application", version_ref="agp")
    assert bench._same_name("agp", entry)
    assert bench._same_name("android-application", entry)
    assert not bench._same_name("agp", _change("maven", "com.android.application", alias="android-application"))
    assert not bench._same_name("kotlin", entry)


WORKFLOW_PATH = ".github/workflows/ci.yml"
# The shape of the workflow sbt-github-actions generates for a cross-built Scala library, its versions written by the
# build's plugin (the build files name none of them).
WORKFLOW = """\
name: CI
on:
  pull_request:
  push:
    branches: [series/2.x]
jobs:
  bench:
    runs-on: ubuntu-24.04
    strategy:
      matrix:
        java: ['17', '21']
        scala: ['2.13.13']
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-java@v4
        with:
          distribution: temurin
          java-version: ${{ matrix.java }}
      - run: sbt ++${{ matrix.scala }}! jmh:compile
  test:
    runs-on: ubuntu-24.04
    strategy:
      fail-fast: false
      matrix:
        java: ['17', '21']
        scala: ['2.12.19', '2.13.13', '3.3.4']
        platform: ['JVM', 'JS', 'Native']
    steps:
      - uses: actions/checkout@v4
      - run: sbt ++${{ matrix.scala }}! test${{ matrix.platform }}
"""


def test_a_workflows_scala_matrix_names_the_scala_library(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {WORKFLOW_PATH: WORKFLOW},
                                      {WORKFLOW_PATH: {"'2.13.13'": "'2.13.15'"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert ("maven", "org.scala-lang:scala-library", "2.13.13", "2.13.15") in moves(delta), delta
        assert {c.name for c in delta.changes} == {"org.scala-lang:scala-library"}, delta
        assert all(c.scope == "build" for c in delta.changes)


def test_a_scala_3_release_names_the_scala_3_library(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {WORKFLOW_PATH: WORKFLOW},
                                      {WORKFLOW_PATH: {"'3.3.4'": "'3.3.5'"}})
    assert moves(_tree(repo, base, head)) == {("maven", "org.scala-lang:scala3-library", "3.3.4", "3.3.5")}


@each_case(("line", "found"), [
    ("        scala: ['2.12.19', '2.13.15', '3.3.4']",
     {("org.scala-lang:scala-library", "2.12.19"), ("org.scala-lang:scala-library", "2.13.15"),
      ("org.scala-lang:scala3-library", "3.3.4")}),
    ("        scala: [2.13.15]", {("org.scala-lang:scala-library", "2.13.15")}),
    ("          - scala: 2.13.15", {("org.scala-lang:scala-library", "2.13.15")}),  # an `include:` entry
    ('        scala: "3.8.0-RC1" # next', {("org.scala-lang:scala3-library", "3.8.0-RC1")}),
    ("        scala: ${{ matrix.x }}", set()),  # an expression names no version
    ("        scala: [2.13.x, 3.3.4]", set()),  # a wildcard: the line is left unread, not half read
    ('        scala: ["2.13.15",]', set()),
    ("        scala: [1.0.0]", set()),  # no Scala 2 or 3 release
    ("        scalac: [2.13.1]", set()),
    ("        scala-version: 2.13.1", set()),
    ("        # scala: [2.13.1]", set()),
    ("        scala: [" + ", ".join(["2.13.1"] * 17) + "]", set()),  # more than a build cross-compiles for
])
def test_scala_matrix_lines(line: str, found: set[tuple[str, str]]) -> None:
    assert {(d.name, d.version) for d in scala_versions(WORKFLOW_PATH, line)} == found


def test_a_scala_matrix_is_no_action_of_the_workflow_facts() -> None:
    uses = facts._uses(WORKFLOW.encode())
    assert {u["name"] for u in uses} >= {"actions/checkout", "actions/setup-java"}
    assert not any(str(u["name"]).startswith("org.scala-lang") for u in uses)


def test_hostile_scala_lines_are_read_quickly() -> None:
    each_fast([(lambda: scala_versions(WORKFLOW_PATH, "  scala: [" + "2.1," * 5000), "an unclosed long list"),
               (lambda: scala_versions(WORKFLOW_PATH, "  scala: " + " " * 20000 + "x"), "padding"),
               (lambda: scala_versions(WORKFLOW_PATH, "  scala: [" + "'2.13.1" * 3000 + "]"), "unclosed quotes")],
              0.5)


@each_case(("name", "named"), [
    ("Scala213V", "org.scala-lang:scala-library"),  # circe/circe's definitions
    ("Scala3V", "org.scala-lang:scala3-library"),
    ("Scala212Version", "org.scala-lang:scala-library"),
    ("ScalaV", "ScalaV"),  # no major: its own name, as before
    ("Scala213v2", "Scala213v2"),
])
def test_a_scala_versions_short_definition_names_the_library(name: str, named: str) -> None:
    version = "3.3.4" if name.startswith("Scala3") else "2.13.15"
    build = f'val {name}: String = "{version}"\n'.encode()
    assert [d.name for d in sbt.parse_build("build.sbt", build)] == [named]


WRAPPER_PATH = "gradle/wrapper/gradle-wrapper.properties"
WRAPPER = """\
distributionBase=GRADLE_USER_HOME
distributionPath=wrapper/dists
distributionUrl=https\\\\://services.gradle.org/distributions/gradle-9.4.1-all.zip
networkTimeout=10000
validateDistributionUrl=true
zipStoreBase=GRADLE_USER_HOME
zipStorePath=wrapper/dists
"""


@pytest.mark.parametrize("added", ["retries=0\nretryBackOffMs=500\n", "retries=3\n", "retryBackOffMs = 1000\n"])
def test_gradle_9_5_wrapper_retry_keys_ride_on_the_bump(tmp_path: Path, added: str) -> None:
    # skydoves/sandwich: Renovate's "Update Gradle to v9.6.1" runs the wrapper task, which writes Gradle 9.5's keys
    repo, base, head = edited_commits(tmp_path, {WRAPPER_PATH: WRAPPER}, {WRAPPER_PATH: {
        "gradle-9.4.1": "gradle-9.6.1", "networkTimeout=10000\n": "networkTimeout=10000\n" + added}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("tool", "gradle", "9.4.1", "9.6.1")}, delta
        assert not delta.problems, delta.problems


@each_case("added", ["retries=-1\n", "retries=1e9\n", "retryBackOffMs=soon\n", "retries=1\\\n  0\n",
                                   "distributionSha256Sum=0\n", "retriesUrl=https\\\\://mirror.example/\n"])
def test_other_wrapper_edits_beside_a_bump_stay_partial(tmp_path: Path, added: str) -> None:
    repo, base, head = edited_commits(tmp_path, {WRAPPER_PATH: WRAPPER}, {WRAPPER_PATH: {
        "gradle-9.4.1": "gradle-9.6.1", "networkTimeout=10000\n": "networkTimeout=10000\n" + added}})
    assert partial(_tree(repo, base, head), WRAPPER_PATH)
    assert partial(_patch(repo, base, head), WRAPPER_PATH)
