"""Classes of misses the thirty-fifth blind set of bot update commits found (bench/deps_bumps_thirtyfifth.tsv).

- A Gradle code-quality plugin's tool version (spotbugs/spotbugs' Renovate "update dependency checkstyle to v14",
  `checkstyle { toolVersion = '12.3.1' }` → `'14.0.0'` in gradle/checkstyle.gradle, 1 both modes): the block's
  `toolVersion` names the tool the plugin downloads, and was no line the Gradle reader read (nothing with `--tree`, a
  `partial` problem from the patch). It is read now inside `checkstyle`, `pmd`, `jacoco`, `codenarc`, `spotbugs` and
  `detekt` blocks, as the tool's artifact with the block as its alias; from a patch only when the hunk shows the block.
- Renovate names sbt itself by its repository, `sbt/sbt` (slick's and pgjdbc's "update dependency sbt/sbt to
  v1.12.15", `sbt.version` in project/build.properties, 7 in both modes): the delta named it already, as
  org.scala-sbt:sbt; the benchmark's matcher takes the name now.
- A multi-line `bazel_dep(` call's version from a patch (aspect-build/bazel-lib's Renovate updates of rules_go and
  gazelle, buildifier's layout of a long call, 2 from the patch): every argument line of such a call was refused
  (`partial`). Its `version = "…",` line is read now when the hunk shows the whole call and nothing else of it changed.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.gradle import gradle_line, parse_build_script
from gatekeeper.deps.hunklines import bazel_line
from gatekeeper.deps.model import ManifestError
from tests.deltas import accuracy_bench, bench_change, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. a code-quality plugin's toolVersion -------------------------------------------------------------------------

SPOTBUGS_CHECKSTYLE = """\
// Checkstyle configuration applied by the root project
apply plugin: 'checkstyle'

checkstyle {
  toolVersion = '12.3.1'
  ignoreFailures = false
  configFile = file("${rootDir}/spotbugs/etc/checkstyle.xml")
}

tasks.withType(Checkstyle).configureEach {
  reports {
    xml.required = true
    html.required = false
  }
}
"""

KTS = """\
plugins {
    java
    jacoco
    pmd
    id("io.gitlab.arturbosch.detekt") version "1.23.6"
}

val pmdVersion = "7.2.0"

jacoco {
    toolVersion = "0.8.11"
}

pmd {
    toolVersion = pmdVersion
    isConsoleOutput = true
}

detekt {
    toolVersion.set("1.23.6")
    buildUponDefaultConfig = true
}

dependencies {
    implementation("com.google.guava:guava:33.2.0-jre")
}
"""


def test_a_checkstyle_tool_version_is_read_in_both_modes(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"gradle/checkstyle.gradle": SPOTBUGS_CHECKSTYLE},
                          {"gradle/checkstyle.gradle": {"'12.3.1'": "'14.0.0'"}})
    want = {("maven", "com.puppycrawl.tools:checkstyle", "12.3.1", "14.0.0")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch
    assert {c.alias for c in tree.changes} == {"checkstyle"}  # Renovate names it by the block
    assert {c.scope for c in tree.changes} == {"build"}


def test_kotlin_dsl_blocks_are_read(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"build.gradle.kts": KTS},
                          {"build.gradle.kts": {'"0.8.11"': '"0.8.12"', 'toolVersion.set("1.23.6")':
                                                'toolVersion.set("1.23.7")'}})
    want = {("maven", "org.jacoco:jacoco", "0.8.11", "0.8.12"),
            ("maven", "io.gitlab.arturbosch.detekt:detekt-core", "1.23.6", "1.23.7")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


def test_a_tool_version_from_a_variable_of_the_script(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"build.gradle.kts": KTS},
                          {"build.gradle.kts": {'val pmdVersion = "7.2.0"': 'val pmdVersion = "7.3.0"'}})
    assert moves(tree) == {("maven", "net.sourceforge.pmd:pmd-java", "7.2.0", "7.3.0")}, tree
    assert not tree.problems, tree
    # from the patch the variable's line is not tied to its user: refused, as any other script variable
    assert not patch.changes and partial(patch, "build.gradle.kts"), patch


def test_a_one_line_block_is_read(tmp_path: Path) -> None:
    body = "apply plugin: 'codenarc'\n\ncodenarc { toolVersion = '3.4.0' }\n"
    tree, patch = _bumped(tmp_path, {"build.gradle": body}, {"build.gradle": {"'3.4.0'": "'3.5.0'"}})
    want = {("maven", "org.codenarc:CodeNarc", "3.4.0", "3.5.0")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


@pytest.mark.parametrize("line", ["checkstyle.toolVersion = '10.12.5'", 'checkstyle.toolVersion = "10.12.5" // pinned',
                                  "checkstyle . toolVersion = '10.12.5'"])
def test_the_extension_setting_on_its_own_line_is_read(tmp_path: Path, line: str) -> None:
    # `checkstyle.toolVersion = …` sets the same property outside a block (round 34 found it written so)
    body = f"apply plugin: 'checkstyle'\n\n{line}\n\nrepositories {{ mavenCentral() }}\n"
    tree, patch = _bumped(tmp_path, {"build.gradle": body}, {"build.gradle": {"10.12.5": "10.17.0"}})
    want = {("maven", "com.puppycrawl.tools:checkstyle", "10.12.5", "10.17.0")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


def test_a_tool_version_whose_block_the_hunk_does_not_show_is_refused(tmp_path: Path) -> None:
    # git's three lines of context above `toolVersion` do not reach `checkstyle {`: whose version it is is unknown
    body = SPOTBUGS_CHECKSTYLE.replace("checkstyle {\n", "checkstyle {\n  // one\n  // two\n  // three\n")
    tree, patch = _bumped(tmp_path, {"build.gradle": body}, {"build.gradle": {"'12.3.1'": "'14.0.0'"}})
    assert moves(tree) == {("maven", "com.puppycrawl.tools:checkstyle", "12.3.1", "14.0.0")}, tree
    assert not patch.changes and partial(patch, "build.gradle"), patch


@each_case("body", [
    # another plugin's block, a nested block of a quality block, a task's setting, a comment
    "ktlint {\n  toolVersion = '1.2.0'\n}\n",
    "checkstyle {\n  reports {\n    toolVersion = '1.2.0'\n  }\n}\n",
    "tasks.named('jacocoTestReport') {\n  toolVersion = '1.2.0'\n}\n",
    "checkstyle {\n  // toolVersion = '1.2.0'\n}\n",
    "// checkstyle {\n//   toolVersion = '1.2.0'\n// }\n",
    "checkstyleMain {\n  toolVersion = '1.2.0'\n}\n",
    "checkstyle {\n  toolVersion = \"$undefined\"\n}\n",
])
def test_look_alikes_name_nothing(body: str) -> None:
    assert parse_build_script("build.gradle", body.encode()) == []


@each_case(("lines", "index"), [
    (["ktlint {", "  toolVersion = '1.2.0'", "}"], 1),  # another block
    (["checkstyle {", "  reports {", "    toolVersion = '1.2.0'", "  }"], 2),  # nested one level deeper
    (["  toolVersion = '1.2.0'", "}"], 0),  # no block above in the hunk
    (["checkstyle {", "  toolVersion = \"${v}\"", "}"], 1),  # not written in the line
    (["} checkstyle {", "  toolVersion = '1.2.0'"], 1),  # a block opened after another closes on one line
])
def test_patch_lines_of_other_blocks_are_refused(lines: list[str], index: int) -> None:
    side = [(line, n == index) for n, line in enumerate(lines)]
    with pytest.raises(ManifestError):
        gradle_line(side, index)


def test_a_patch_line_inside_the_block_is_read() -> None:
    side = [("spotbugs {", False), ("    ignoreFailures = true", False), ('    toolVersion = "4.8.6"', True),
            ("}", False)]
    assert gradle_line(side, 2) == [("com.github.spotbugs:spotbugs", "4.8.6", "maven", "", "spotbugs")]


def test_other_settings_beside_the_tool_version_still_count_as_code(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"gradle/checkstyle.gradle": SPOTBUGS_CHECKSTYLE},
                          {"gradle/checkstyle.gradle": {"'12.3.1'": "'14.0.0'",
                                                        "ignoreFailures = false": "ignoreFailures = true"}})
    assert partial(tree, "gradle/checkstyle.gradle") and partial(patch, "gradle/checkstyle.gradle"), (tree, patch)


# --- 2. sbt by Renovate's name ---------------------------------------------------------------------------------------

@each_case(("want", "name", "same"), [
    ("sbt/sbt", "org.scala-sbt:sbt", True), ("sbt", "org.scala-sbt:sbt", True),
    ("sbt/sbt", "org.scala-sbt:zinc", False), ("sbt/io", "org.scala-sbt:sbt", False),
])
def test_the_benchmark_names_sbt_by_renovates_repository(want: str, name: str, same: bool) -> None:
    bench = accuracy_bench()
    change = dataclasses.replace(bench_change("maven", name), to_version="1.12.15")
    assert bench._same_name(want, change) is same
    assert not bench._same_name(want, bench_change("tool", name))


PGJDBC_SPOTBUGS = """\
import com.github.spotbugs.snom.SpotBugsTask

plugins {
    id("java-base")
    id("com.github.spotbugs")
}

spotbugs {
    // Renovate reads the line below; toolVersion.set(..) it does not
    val toolVersion = "4.9.3"
    this.toolVersion.set(toolVersion)

    providers.gradleProperty("spotbugs.version")
        .orNull?.let { toolVersion.set(it) }
}
"""


def test_a_local_named_tool_version_inside_the_block_is_read(tmp_path: Path) -> None:
    # pgjdbc be15d68258b8: Renovate's "update dependency spotbugs to v4.9.4" moves the block's local
    tree, patch = _bumped(tmp_path, {"build-logic.spotbugs.gradle.kts": PGJDBC_SPOTBUGS},
                          {"build-logic.spotbugs.gradle.kts": {'"4.9.3"': '"4.9.4"'}})
    want = {("maven", "com.github.spotbugs:spotbugs", "4.9.3", "4.9.4")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


# --- 3. a multi-line bazel_dep from a patch ---------------------------------------------------------------------------

BAZEL_LIB = """\
"aspect-build/bazel-lib"

module(
    name = "aspect_bazel_lib",
    compatibility_level = 1,
)

# Lower-bounds (minimum) versions for direct runtime dependencies
bazel_dep(name = "bazel_skylib", version = "1.4.2")
bazel_dep(name = "platforms", version = "0.0.7")

# Development dependencies which are not exposed to users
bazel_dep(name = "buildifier_prebuilt", version = "6.1.2", dev_dependency = True)
bazel_dep(
    name = "gazelle",
    version = "0.33.0",
    dev_dependency = True,
    repo_name = "bazel_gazelle",
)
bazel_dep(
    name = "rules_go",
    version = "0.41.0",
    repo_name = "io_bazel_rules_go",
    # In released versions: dev_dependency = True
)

single_version_override(
    module_name = "rules_cc",
    version = "0.0.9",
)
"""


def test_a_multi_line_bazel_dep_is_read_from_the_patch(tmp_path: Path) -> None:
    # bazel-lib 87eee5d76aca and afc4b2afc697: Renovate's "update dependency rules_go to v0.46.0", gazelle's
    tree, patch = _bumped(tmp_path, {"MODULE.bazel": BAZEL_LIB},
                          {"MODULE.bazel": {'"0.41.0"': '"0.46.0"', '"0.33.0"': '"0.35.0"'}})
    want = {("bazel", "rules_go", "0.41.0", "0.46.0"), ("bazel", "gazelle", "0.33.0", "0.35.0")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


@each_case("edits", [
    {'"0.0.9"': '"0.0.10"'},  # an override's version: an override section, never a bump
    {'"0.41.0"': '"0.46.0"', '"io_bazel_rules_go"': '"rules_go"'},  # another argument of the call changed beside it
    {'name = "rules_go"': 'name = "rules_go2"'},  # the call's module renamed
    {'"0.33.0",\n    dev_dependency = True,': '"0.35.0",\n    dev_dependency = False,'},  # its scope moved beside it
])
def test_other_edits_of_multi_line_calls_stay_refused_from_the_patch(tmp_path: Path, edits: dict[str, str]) -> None:
    tree, patch = _bumped(tmp_path, {"MODULE.bazel": BAZEL_LIB}, {"MODULE.bazel": edits})
    assert partial(patch, "MODULE.bazel"), patch


def test_a_multi_line_call_the_hunk_does_not_show_whole_is_refused(tmp_path: Path) -> None:
    # five more argument lines between the opening and the version: git's three lines of context do not reach it
    body = BAZEL_LIB.replace('    name = "rules_go",\n',
                             '    name = "rules_go",\n' + "".join(f"    # note {n}\n" for n in range(5)))
    tree, patch = _bumped(tmp_path, {"MODULE.bazel": body}, {"MODULE.bazel": {'"0.41.0"': '"0.46.0"'}})
    assert moves(tree) == {("bazel", "rules_go", "0.41.0", "0.46.0")} and not tree.problems, tree
    assert not patch.changes and partial(patch, "MODULE.bazel"), patch


@each_case(("lines", "index"), [
    (["bazel_dep(", '    name = "x",', '    version = "1.0",'], 2),  # no closing line in the hunk
    (['    name = "x",', '    version = "1.0",', ")"], 1),  # no opening line
    (["maven.artifact(", '    artifact = "x",', '    version = "1.0",', ")"], 2),  # another call
    (["bazel_dep(", '    name = "x",', '    version = "1.0", foo()', ")"], 2),  # more than the argument
    (["bazel_dep(", '    name = x_name,', '    version = "1.0",', ")"], 2),  # a non-literal argument
    (["bazel_dep(", '    name = "x",', '    version = "1.0",', "), bazel_dep(", ")"], 2),  # not a closing line alone
])
def test_patch_lines_that_are_not_a_whole_shown_call_are_refused(lines: list[str], index: int) -> None:
    side = [(line, n == index) for n, line in enumerate(lines)]
    with pytest.raises(ManifestError):
        bazel_line(side, index)
