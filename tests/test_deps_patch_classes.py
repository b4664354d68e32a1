"""Classes of the patch-only delta's misses (issue 14, `gatekeeper deps PATCH`): what a hunk shows is named, what it
cannot show is said, and the `deps` policy reviews it.

- A pubspec entry `dio: ^5.4.1` whose `dependencies:` / `dev_dependencies:` header is above the hunk (very_good_cli,
  dart_frog, riverpod, dart-lang/build, plus_plugins: 34 commits of the mirrored sets read nothing from the patch):
  package and constraint are on the changed line; whether the map is `dependencies`, `dev_dependencies` or
  `dependency_overrides` is not. Named, with a `partial` problem saying the scope is unknown. Only a line indented as
  a top-level map's entry (two spaces) with nothing shallower above it in the hunk; `sdk:` / `flutter:` (the keys of
  `environment:`) and a deeper `version:` of a hosted entry are no package.
- `environment:`'s `sdk` / `flutter` constraints moved under the header the hunk shows, beside bumps (plus_plugins'
  SDK raises): not a dependency (the whole-file reader reads none) but build settings, as `--tree`'s residue says;
  the bumps beside it are named, the file is a `partial` problem.
- A mise.toml tool line whose `[tools]` header is above the hunk (jdx/fnox, jdx/pitchfork): named as a tool with a
  `partial` problem; an `[env]` variable's shape (upper case), `version` and `min_version` are not read as tools.
- An sbt version definition (`val circeVersion = "0.14.10"`, scala-steward's bumps of zio-json, circe, sttp, fs2):
  from a patch it was named by its own name **with no problem**, so the policy allowed it as an upgrade of a "package"
  the patch never showed. Now the modules whose unchanged lines near it in the hunk use it are named, else its own
  name, beside a `partial` problem: its other uses are not in the patch.
- A pom.xml `<version>` whose `<artifactId>` holds a property the hunk does not define (jenkinsci's
  `bom-${jenkins.baseline}.x`): it was named as written with no problem, a name no advisory matches, so an in-level
  bump was allowed; now beside a `partial` problem.
- A section sorted anew beside bumps (plus_plugins) and Cargo's `default_features` spelling (tokio-rs/tracing).
- Unchanged, by design: a Gradle `[versions]` key or a POM property whose uses are outside the hunk is a `partial`
  problem naming the key alone (no library is guessed from a key's name).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.hunklines import pubspec_line
from gatekeeper.deps.mise import mise_line
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.deps.sbt import sbt_line
from gatekeeper.deps.sources import Delta, patch_delta
from tests.deltas import moves, partial


def _patch(path: str, hunk: list[str], eol: str = "\n", start: int = 20) -> Delta:
    """The delta of a patch of one modified file with one hunk (`hunk`: lines with their ' ', '-', '+' mark)."""
    old = sum(1 for line in hunk if line[0] in " -")
    new = sum(1 for line in hunk if line[0] in " +")
    text = (f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n"
            f"@@ -{start},{old} +{start},{new} @@ dependencies:\n" + "".join(line + eol for line in hunk))
    return patch_delta(None, io.BytesIO(text.encode()))


def _problem(delta: Delta, path: str) -> str:
    return " ".join(p.msg for p in delta.problems if p.manifest == path and p.kind == "partial")


# A pubspec's dev_dependencies, the header five lines above the bump (git's three lines of context do not reach it).
PUB_BUMP = ["   build_runner: ^2.4.0", "   build_test: ^2.2.0", "-  very_good_analysis: ^6.0.0",
            "+  very_good_analysis: ^7.0.0", "   test: ^1.25.0", " ", " flutter:"]


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_a_pubspec_entry_under_a_header_above_the_hunk_is_named_with_its_scope_unknown(eol: str) -> None:
    delta = _patch("pubspec.yaml", PUB_BUMP, eol)
    assert moves(delta) == {("pub", "very_good_analysis", "^6.0.0", "^7.0.0")}
    assert all(c.partial for c in delta.changes)
    assert "scope unknown" in _problem(delta, "pubspec.yaml")


def test_a_pubspec_entry_under_a_header_the_hunk_shows_needs_no_problem() -> None:
    delta = _patch("pubspec.yaml", [" dev_dependencies:", *PUB_BUMP])
    assert moves(delta) == {("pub", "very_good_analysis", "^6.0.0", "^7.0.0")}
    assert not delta.problems


def test_a_pubspec_entry_under_dependency_overrides_the_hunk_shows_is_still_refused() -> None:
    delta = _patch("pubspec.yaml", [" dependency_overrides:", *PUB_BUMP])
    assert not delta.changes and partial(delta, "pubspec.yaml")


@each_case("hunk", [
    # a hosted entry's `version:`, its key above the hunk: a nested key, no package named `version`
    ["     hosted: https://pub.example.invalid", "-    version: ^5.4.0", "+    version: ^5.4.1", "   http: ^1.2.0"],
    # environment's SDK constraint, its header above the hunk
    ["-  sdk: \">=3.4.0 <4.0.0\"", "+  sdk: \">=3.5.0 <4.0.0\"", "-  flutter: \">=3.22.0\"", "+  flutter: \">=3.24.0\"",
     " ", " dependencies:"],
    # four spaces: not the two a top-level map's entries have, so not known to be one
    ["     build_runner: ^2.4.0", "-    lints: ^5.0.0", "+    lints: ^6.0.0"],
    # not a plain constraint
    ["   build_runner: ^2.4.0", "-  lints: ^5.0.0", "+  lints: [6.0.0]"],
], ids=["nested-version", "environment", "deeper-indent", "malformed"])
def test_pubspec_look_alikes_above_an_unseen_header_name_nothing(hunk: list[str]) -> None:
    delta = _patch("pubspec.yaml", hunk)
    assert not delta.changes
    assert partial(delta, "pubspec.yaml")


def test_an_sdk_raise_under_a_shown_environment_names_the_bumps_beside_it_and_is_reviewed() -> None:
    hunk = [" dependencies:", "-  meta: ^1.8.0", "+  meta: ^1.17.0", "   path: ^1.9.1", " ", " environment:",
            "-  sdk: \">=3.3.0 <4.0.0\"", "+  sdk: \">=3.11.0 <4.0.0\"", "-  flutter: \">=3.19.0\"",
            "+  flutter: \">=3.41.0\""]
    delta = _patch("pubspec.yaml", hunk, start=1)
    assert moves(delta) == {("pub", "meta", "^1.8.0", "^1.17.0")}
    assert "environment's sdk constraint moves" in _problem(delta, "pubspec.yaml")


def test_pubspec_line_says_what_it_cannot_show() -> None:
    side = [("  build_runner: ^2.4.0", False), ("  lints: ^6.0.0", True)]
    with pytest.raises(PartlyShown) as shown:
        pubspec_line(side, 1)
    assert shown.value.pairs == [("lints", "^6.0.0")]
    with pytest.raises(ManifestError) as refused:
        pubspec_line([("dependency_overrides:", False), ("  lints: ^6.0.0", True)], 1)
    assert not isinstance(refused.value, PartlyShown)


# plus_plugins' SDK raise: its `dependencies:` sorted anew beside the bumps (`clock` moved from last to first).
PUB_SORTED = [" dependencies:", "+  clock: ^1.1.2", "-  ffi: ^2.0.1", "+  ffi: ^2.2.0", "   flutter:",
              "     sdk: flutter", "-  win32: ^5.5.3", "-  clock: ^1.1.1", "+  win32: ^6.0.0", " "]


def test_a_pubspec_section_sorted_anew_beside_bumps_is_one_edit_per_name() -> None:
    delta = _patch("pubspec.yaml", PUB_SORTED, start=30)
    assert moves(delta) == {("pub", "clock", "^1.1.1", "^1.1.2"), ("pub", "ffi", "^2.0.1", "^2.2.0"),
                            ("pub", "win32", "^5.5.3", "^6.0.0")}
    assert not delta.problems


def test_a_name_moved_between_places_whose_section_is_not_shown_on_both_sides_is_refused() -> None:
    # `clock` leaves dependencies and comes back under dev_dependencies: a scope move, never a bump
    across = [" dependencies:", "-  clock: ^1.1.1", "   ffi: ^2.2.0", " dev_dependencies:", "+  clock: ^1.1.2"]
    # the first place's header is above the hunk: its section is not known to be the second's
    hidden = ["-  clock: ^1.1.1", "   ffi: ^2.2.0", " ", " dependencies:", "+  clock: ^1.1.2"]
    for hunk in (across, hidden):
        delta = _patch("pubspec.yaml", hunk)
        assert not delta.changes and partial(delta, "pubspec.yaml"), hunk


def test_a_cargo_inline_table_with_the_old_default_features_spelling_is_read() -> None:
    hunk = [" [dev-dependencies]", "-criterion = { version = \"0.3.6\", default_features = false }",
            "+criterion = { version = \"0.5.1\", default_features = false }", " log = \"0.4.17\""]
    delta = _patch("Cargo.toml", hunk)
    assert moves(delta) == {("cargo", "criterion", "0.3.6", "0.5.1")} and not delta.problems
    swapped = [hunk[0], hunk[1], "+criterion = { git = \"https://example.invalid/c\", default_features = false }"]
    assert not _patch("Cargo.toml", swapped).changes


MISE_BUMP = ["  # pinned: the measuring instrument", "-\"github:jdx/tak\" = \"0.0.4\"",
             "+\"github:jdx/tak\" = \"v0.0.5\"", " aube = \"latest\""]


def test_a_mise_tool_under_a_tools_header_above_the_hunk_is_named_with_a_problem() -> None:
    delta = _patch("mise.toml", MISE_BUMP)
    assert moves(delta) == {("tool", "github:jdx/tak", "0.0.4", "v0.0.5")}
    assert "does not show the table" in _problem(delta, "mise.toml")
    shown = _patch("mise.toml", [" [tools]", *MISE_BUMP])
    assert moves(shown) == moves(delta) and not shown.problems


@each_case("line", ['GO_VERSION = "1.23.4"', 'version = "22.11.0"', 'min_version = "2024.9.0"'])
def test_mise_look_alikes_above_an_unseen_header_are_no_tools(line: str) -> None:
    old = line.replace('"', '"0', 1)
    delta = _patch("mise.toml", [" # a comment", f"-{old}", f"+{line}"])
    assert not delta.changes and partial(delta, "mise.toml")
    with pytest.raises(ManifestError) as refused:
        mise_line([(line, True)], 0)
    assert not isinstance(refused.value, PartlyShown)


SBT_DEFINITIONS = [" val shapelessVersion = \"2.3.12\"", "-val circeVersion = \"0.14.9\"",
                   "+val circeVersion = \"0.14.10\"", " val munitVersion = \"1.0.2\""]


def test_an_sbt_definition_without_its_uses_is_its_own_name_and_a_problem() -> None:
    delta = _patch("build.sbt", SBT_DEFINITIONS)
    assert moves(delta) == {("maven", "circeVersion", "0.14.9", "0.14.10")}
    assert "which modules use it is not in the hunk" in _problem(delta, "build.sbt")


def test_an_sbt_definition_names_the_modules_the_hunk_shows_using_it() -> None:
    uses = [" ", " libraryDependencies ++= Seq(", "   \"io.circe\" %%% \"circe-core\" % circeVersion,",
            "   \"io.circe\" %% \"circe-parser\" % V.circeVersion % Test,",
            "   \"io.circe\" %%% \"circe-core\" % circeVersion,", "   \"org.scalameta\" %% \"munit\" % munitVersion",
            " )"]
    delta = _patch("build.sbt", SBT_DEFINITIONS + uses)
    assert moves(delta) == {("maven", "io.circe:circe-core", "0.14.9", "0.14.10"),
                            ("maven", "io.circe:circe-parser", "0.14.9", "0.14.10")}
    assert "its other uses are not in the hunk" in _problem(delta, "build.sbt")
    side = [(line[1:], line[0] != " ") for line in SBT_DEFINITIONS + uses if line[0] != "-"]
    with pytest.raises(PartlyShown):
        sbt_line(side, 1)


def test_a_pom_dependency_whose_artifact_id_holds_a_property_is_named_as_written_and_reviewed() -> None:
    hunk = ["       <dependency>", "         <groupId>io.jenkins.tools.bom</groupId>",
            "         <artifactId>bom-${jenkins.baseline}.x</artifactId>",
            "-        <version>6166.va_a_8b_5eda_8ef5</version>", "+        <version>6453.v115ff6f496dd</version>",
            "         <scope>import</scope>"]
    delta = _patch("pom.xml", hunk)
    assert moves(delta) == {("maven", "io.jenkins.tools.bom:bom-${jenkins.baseline}.x", "6166.va_a_8b_5eda_8ef5",
                             "6453.v115ff6f496dd")}
    assert "hold a property the hunk does not define" in _problem(delta, "pom.xml")
    plain = [line.replace("bom-${jenkins.baseline}.x", "bom-2.541.x") for line in hunk]
    assert not _patch("pom.xml", plain).problems


def test_a_gradle_versions_key_without_its_entries_still_names_no_library() -> None:
    delta = _patch("gradle/libs.versions.toml", [' kotlin = "2.4.10"', '-okio = "3.18.0"', '+okio = "3.18.1"',
                                                 ' jvmTarget = "11"'])
    # no library; since round 55 the key itself, as the hunk of keys only shows it
    assert [c.name for c in delta.changes] == ["[versions].okio"] and partial(delta, "gradle/libs.versions.toml")


# The gate: a partial entry is reviewed (deps.unreadable), never allowed as an upgrade on what the patch hides.
PUBSPEC = ("name: app\ndescription: An app.\nversion: 1.0.0\n\nenvironment:\n  sdk: \">=3.4.0 <4.0.0\"\n\n"
           "dependencies:\n  collection: ^1.18.0\n  http: ^1.2.0\n  meta: ^1.15.0\n  path: ^1.9.0\n"
           "  dio: ^5.4.0\n  yaml: ^3.1.0\n")
BUILD_SBT = ("val circeVersion = \"0.14.9\"\nval munitVersion = \"1.0.2\"\n\nlazy val root = project\n"
             "  .in(file(\".\"))\n  .settings(\n    name := \"app\",\n    scalacOptions += \"-deprecation\",\n"
             "    fork := true,\n"
             "    libraryDependencies ++= Seq(\n      \"io.circe\" %% \"circe-core\" % circeVersion,\n"
             "      \"org.scalameta\" %% \"munit\" % munitVersion % Test\n    )\n  )\n")


@pytest.mark.parametrize("name, path, text, old, new", [
    ("pubspec", "pubspec.yaml", PUBSPEC, "dio: ^5.4.0", "dio: ^5.4.1"),
    ("sbt", "build.sbt", BUILD_SBT, "\"0.14.9\"", "\"0.14.10\""),
])
def test_the_gate_reviews_a_partial_entry_from_the_patch_and_tree_mode_reads_it_whole(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, path: str, text: str, old: str,
        new: str) -> None:
    case = Case(tmp_path, {path: text}, {path: text.replace(old, new)})
    from_patch = gate(capsys, case, False)
    assert from_patch["outcome"] == "review", from_patch["reasons"]
    assert [r["rule"] for r in from_patch["reasons"]] == ["deps.unreadable"]
    assert all(c["partial"] for c in from_patch["dependencies"]["changes"])
    assert from_patch["dependencies"]["changes"], "the entry is still named"
    with_tree = gate(capsys, case, True)
    assert with_tree["outcome"] == "allow", with_tree["reasons"]
