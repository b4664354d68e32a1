"""Gradle versions defined in another file of the build (gradleprops.py): an `ext {}` block of the root
build.gradle used as `$rootProject.roomVersion` in app/build.gradle (android/sunflower's shape), `ext.kotlin_version`
of android/build.gradle used by android/app/build.gradle (ente's Flutter shell), and gradle.properties. Before this
reader a commit moving only the definition showed no change and no problem. Attack cases first: the new files the
delta reads (gradle.properties, the scripts above a script, the untouched scripts below) are hostile input:
bounded, no traceback, fail closed. Real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import within_cpu
from deltas import both_edited

from gatekeeper.deps import gradleprops
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sources import Delta, tree_delta
from tests.gitrepo import GitRepo

ROOT = """\
// Top-level build file where you can add configuration options common to all sub-projects/modules.
buildscript {
    // Define versions in a single place
    ext {
        // Sdk and tools
        compileSdkVersion = 29
        minSdkVersion = 21

        // App dependencies
        appCompatVersion = '1.1.0'
        coroutinesVersion = "1.3.0-M2"
        roomVersion = '2.1.0-beta01'
        workVersion = '2.1.0'
    }

    repositories {
        google()
        jcenter()
    }
    dependencies {
        classpath 'com.android.tools.build:gradle:3.5.0'
    }
}
"""
APP = """\
apply plugin: 'com.android.application'
apply plugin: 'kotlin-kapt'

android {
    compileSdkVersion rootProject.compileSdkVersion
}

dependencies {
    kapt "androidx.room:room-compiler:$rootProject.roomVersion"
    implementation "androidx.appcompat:appcompat:$rootProject.appCompatVersion"
    implementation "androidx.room:room-runtime:${rootProject.ext.roomVersion}"
    implementation "androidx.work:work-runtime-ktx:$rootProject.workVersion"
    implementation "org.jetbrains.kotlinx:kotlinx-coroutines-android:$coroutinesVersion"
    testImplementation "junit:junit:$junitVersion"
}
"""
PROPERTIES = """\
# Project-wide Gradle settings.
org.gradle.jvmargs=-Xmx1536m
android.useAndroidX=true
junitVersion=4.12
"""
FILES = {"build.gradle": ROOT, "app/build.gradle": APP, "gradle.properties": PROPERTIES,
         "settings.gradle": "include ':app'\n"}


def _delta(tmp_path: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[Delta, Delta]:
    return both_edited(tmp_path, files, edits)


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.manifest, c.name, c.from_version, c.to_version, c.scope) for c in delta.changes}


# --- attack cases: the files this reader opens are the change's author's ---

@pytest.mark.parametrize("body", [
    b"junitVersion=4.12\n\xff\xfe not utf-8\n",  # not UTF-8
    b"junitVersion=4.12\n" + b"x" * (33 << 20),  # past MAX_BYTES
])
def test_an_unreadable_gradle_properties_leaves_the_script_unread_not_guessed(tmp_path: Path, body: bytes) -> None:
    repo = GitRepo(tmp_path / "repo")
    for path, text in FILES.items():
        repo.write(path, text)
    repo.write("gradle.properties", body)
    base = repo.commit()
    repo.write("app/build.gradle", APP.replace("$junitVersion", "4.13.2"))
    head = repo.commit("bump")
    with repo.objects() as git:
        delta = tree_delta(git, base, head)
    assert not any(c.name == "junit:junit" for c in delta.changes)  # 4.12 → 4.13.2 would be a guess of the base
    # (a gradle.properties past the bound says so: `too-large`, of the script it leaves unread)
    assert {p.manifest for p in delta.problems} == {"app/build.gradle"}  # at both sides
    assert delta.problems[0].kind in ("unparsable", "too-large") and "gradle.properties" in delta.problems[0].msg


def test_a_symlinked_gradle_properties_is_not_followed(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    for path, text in FILES.items():
        if path != "gradle.properties":
            repo.write(path, text)
    repo.write("elsewhere.txt", PROPERTIES)
    repo.symlink("gradle.properties", "elsewhere.txt")
    base = repo.commit()
    repo.write("app/build.gradle", APP.replace("$junitVersion", "4.13.2"))
    head = repo.commit("bump")
    with repo.objects() as git:
        delta = tree_delta(git, base, head)
    assert not any(c.name == "junit:junit" for c in delta.changes)
    assert any(p.manifest == "app/build.gradle" and "symlink" in p.msg for p in delta.problems)


def test_a_hostile_gradle_properties_is_read_in_linear_time(tmp_path: Path) -> None:
    # continuation lines without end, keys without values, 200,000 entries: bounded, no traceback; past the
    # 10,000 keys read the file is refused (attack 32: a later binding wins in Gradle, so none may go unread)
    body = ("a\\\n" * 100_000 + "".join(f"k{n}Version=1.{n}\n" for n in range(200_000)) + "= =\n" * 1000)
    def timed() -> None:
        with pytest.raises(ManifestError, match="more than 10000 properties"):
            gradleprops.parse_properties(body.encode())
    within_cpu(5, timed)


def test_a_build_deeper_than_the_bound_is_a_problem_not_a_walk(tmp_path: Path) -> None:
    deep = "/".join(f"d{n}" for n in range(20)) + "/build.gradle"
    files = {**FILES, deep: APP}
    tree, _ = _delta(tmp_path, files, {deep: {"$junitVersion": "4.13.2"}})
    assert {(p.manifest, p.kind) for p in tree.problems} == {(deep, "unparsable")}
    assert "folders deep" in tree.problems[0].msg


def test_more_untouched_scripts_than_are_read_is_a_partial_problem(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gradleprops, "_MAX_SCRIPTS", 3)
    files = {**FILES, **{f"m{n}/build.gradle": APP for n in range(5)}}
    tree, _ = _delta(tmp_path, files, {"build.gradle": {"roomVersion = '2.1.0-beta01'": "roomVersion = '2.1.0'"}})
    assert [(p.manifest, p.kind) for p in tree.problems] == [("build.gradle", "partial")]
    assert "roomVersion" in tree.problems[0].msg


def test_an_unreadable_untouched_user_is_a_problem_of_the_touched_file(tmp_path: Path) -> None:
    files = {**FILES, "lib/build.gradle": APP.replace("dependencies {", "dependencies { // \udcff", 1)}
    repo = GitRepo(tmp_path / "repo")
    for path, text in files.items():
        repo.write(path, text.encode("utf-8", "surrogateescape"))
    base = repo.commit()
    repo.write("build.gradle", ROOT.replace("'2.1.0-beta01'", "'2.1.0-rc01'"))
    head = repo.commit("bump")
    with repo.objects() as git:
        delta = tree_delta(git, base, head)
    assert ("build.gradle", "partial") in {(p.manifest, p.kind) for p in delta.problems}
    assert any("lib/build.gradle" in p.msg for p in delta.problems)
    assert ("build.gradle", "androidx.room:room-runtime", "2.1.0-beta01", "2.1.0-rc01", "runtime") in _rows(delta)


# --- the classes ---

def test_a_root_ext_bump_moves_the_app_scripts_dependencies(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, FILES, {"build.gradle": {"'2.1.0-beta01'": "'2.1.0-rc01'"}})
    assert _rows(tree) == {
        ("build.gradle", "androidx.room:room-compiler", "2.1.0-beta01", "2.1.0-rc01", "build"),
        ("build.gradle", "androidx.room:room-runtime", "2.1.0-beta01", "2.1.0-rc01", "runtime")}
    assert tree.problems == ()
    # from the patch: the definition's line alone, its users unseen: reviewed, nothing named
    assert patch.changes == ()
    assert [(p.manifest, p.kind) for p in patch.problems] == [("build.gradle", "partial")]


def test_a_gradle_properties_bump_moves_its_users(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, FILES, {"gradle.properties": {"junitVersion=4.12": "junitVersion=4.13.2"}})
    assert _rows(tree) == {("gradle.properties", "junit:junit", "4.12", "4.13.2", "dev")}
    assert tree.problems == ()
    # round 55: the property itself, as the patch shows it (the scripts using it are not in the patch)
    assert [(c.name, c.to_version, c.partial) for c in patch.changes] == [("${junitVersion}", "4.13.2", True)]
    assert [(p.manifest, p.kind) for p in patch.problems] == [("gradle.properties", "partial")]
    assert "junitVersion" in patch.problems[0].msg and "--tree" in patch.problems[0].msg


def test_a_gradle_properties_setting_is_no_dependency_either_way(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, FILES, {"gradle.properties": {"-Xmx1536m": "-Xmx4g"}})
    assert (tree.changes, tree.problems) == ((), ())
    assert (patch.changes, patch.problems) == ((), ())


def test_a_touched_script_resolves_what_the_folders_above_define(tmp_path: Path) -> None:
    # ente's shape: `ext.kotlin_version` in android/build.gradle, used by android/app/build.gradle, both touched
    root = "buildscript {\n    ext.kotlin_version = '1.8.22'\n    dependencies {\n" \
           "        classpath \"org.jetbrains.kotlin:kotlin-gradle-plugin:$kotlin_version\"\n    }\n}\n"
    app = "dependencies {\n    implementation \"org.jetbrains.kotlin:kotlin-stdlib-jdk7:$kotlin_version\"\n" \
          "    implementation 'com.google.android.material:material:1.9.0'\n}\n"
    files = {"android/build.gradle": root, "android/app/build.gradle": app}
    tree, _ = _delta(tmp_path, files, {"android/build.gradle": {"1.8.22": "1.9.22"},
                                       "android/app/build.gradle": {"1.9.0": "1.10.0"}})
    assert _rows(tree) == {
        ("android/build.gradle", "org.jetbrains.kotlin:kotlin-gradle-plugin", "1.8.22", "1.9.22", "build"),
        # a touched script reports its own moves, what it inherits included
        ("android/app/build.gradle", "org.jetbrains.kotlin:kotlin-stdlib-jdk7", "1.8.22", "1.9.22", "runtime"),
        ("android/app/build.gradle", "com.google.android.material:material", "1.9.0", "1.10.0", "runtime")}


def test_a_scripts_own_variable_wins_over_the_one_above(tmp_path: Path) -> None:
    app = APP.replace("dependencies {", "ext.roomVersion = '2.0.0'\n\ndependencies {", 1)
    tree, _ = _delta(tmp_path, {**FILES, "app/build.gradle": app},
                     {"build.gradle": {"'2.1.0-beta01'": "'2.1.0-rc01'"}})
    assert tree.changes == ()


# --- look-alikes: a variable of the same name elsewhere moves nothing here ---

def test_a_sibling_folders_definition_is_not_inherited(tmp_path: Path) -> None:
    # a script in another folder (`other/build.gradle`) is no project above app/
    files = {"other/build.gradle": ROOT, "app/build.gradle": APP}
    tree, _ = _delta(tmp_path, files, {"other/build.gradle": {"'2.1.0-beta01'": "'2.1.0-rc01'"}})
    assert tree.changes == ()


def test_an_applied_script_is_read_as_before(tmp_path: Path) -> None:
    # `gradle/dependencies.gradle` is applied by some project: whose, the delta does not follow
    files = {**FILES, "gradle/dependencies.gradle": APP}
    tree, _ = _delta(tmp_path, files, {"gradle/dependencies.gradle": {"$junitVersion": "4.13.2"}})
    assert _rows(tree) == {("gradle/dependencies.gradle", "junit:junit", "$junitVersion", "4.13.2", "dev")}


def test_a_properties_file_elsewhere_is_not_gradles(tmp_path: Path) -> None:
    files = {**FILES, "config/app.properties": "junitVersion=5.0\n"}
    tree, _ = _delta(tmp_path, files, {"config/app.properties": {"5.0": "5.1"}})
    assert (tree.changes, tree.problems) == ((), ())


# --- an `ext.versions = [...]` map (JakeWharton/timber's root build.gradle) ---

TIMBER = """\
buildscript {
  ext.versions = [
      'minSdk': 9,
      'kotlin': '1.3.21',
      'androidTools': '26.3.2',
  ]

  ext.deps = [
      'kotlin': [
          'stdlib': "org.jetbrains.kotlin:kotlin-stdlib:${versions.kotlin}",
      ],
      'lint': [
          'core': "com.android.tools.lint:lint:${versions.androidTools}",
          'api': "com.android.tools.lint:lint-api:$versions.androidTools",
      ],
      junit: 'junit:junit:4.12',
  ]
}
"""


def test_a_version_map_entry_moves_the_coordinates_that_use_it(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, {"build.gradle": TIMBER}, {"build.gradle": {"'26.3.2'": "'26.4.0'"}})
    assert _rows(tree) == {("build.gradle", "com.android.tools.lint:lint", "26.3.2", "26.4.0", "runtime"),
                           ("build.gradle", "com.android.tools.lint:lint-api", "26.3.2", "26.4.0", "runtime")}
    assert patch.changes == () and [p.kind for p in patch.problems] == ["partial"]  # the entry's users unseen


def test_a_nested_map_entry_or_a_list_is_no_version_variable() -> None:
    from gatekeeper.deps.gradle import script_variables
    found = script_variables(TIMBER.encode() + b"ext.names = [\n  'a',\n  'b',\n]\n")
    assert found == {"versions.kotlin": "1.3.21", "versions.androidTools": "26.3.2"}  # minSdk: a number


def test_an_unclosed_map_is_read_in_linear_time() -> None:
    from gatekeeper.deps.gradle import parse_build_script
    body = "ext.versions = [\n" + "  'a': '1.0', [[[[\n" * 100_000 + 'implementation "g:a:${versions.a}"\n'
    within_cpu(5, lambda: parse_build_script("build.gradle", body.encode()))
