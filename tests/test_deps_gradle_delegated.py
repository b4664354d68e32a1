"""A plugin applied at a Kotlin property delegated to the build's properties (round 56: kotlinx-datetime's
`settings.gradle.kts` declares `val dokkaVersion: String by settings` in `pluginManagement` and applies
`id("org.jetbrains.dokka") version dokkaVersion`; "Update Dokka to 1.8.20" moved only `gradle.properties`). The plugin
was not read at all (its version is neither a literal nor `extra["…"]`), so `--tree` named nothing and raised no
problem. A bare identifier after `version` is now the variable of that name, from the script or the properties above
it; an identifier followed by `.`, `(` or `[` (a catalog accessor, a call) is not one."""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps.gradle import parse_build_script
from tests.deltas import both_edited, moves

SETTINGS = """\
pluginManagement {
    repositories {
        gradlePluginPortal()
    }
    val dokkaVersion: String by settings
    val kotlinVersion: String by settings
    plugins {
        id("org.jetbrains.dokka") version dokkaVersion
        kotlin("multiplatform") version kotlinVersion
    }
}

rootProject.name = "Kotlin-DateTime-library"
include(":core")
"""

PROPERTIES = """\
group=org.jetbrains.kotlinx
version=0.4.0
versionSuffix=SNAPSHOT

kotlinVersion=1.9.0
dokkaVersion=1.8.10
serializationVersion=1.5.0
"""


@pytest.mark.parametrize("edit,want", [
    ({"dokkaVersion=1.8.10": "dokkaVersion=1.8.20"}, ("maven", "org.jetbrains.dokka", "1.8.10", "1.8.20")),
    ({"kotlinVersion=1.9.0": "kotlinVersion=1.9.20"},
     ("maven", "org.jetbrains.kotlin.multiplatform", "1.9.0", "1.9.20")),
])
def test_a_property_moved_moves_the_plugin_that_reads_it(tmp_path: Path, edit: dict[str, str],
                                                          want: tuple[str, str, str, str]) -> None:
    tree, _ = both_edited(tmp_path, {"settings.gradle.kts": SETTINGS, "gradle.properties": PROPERTIES},
                          {"gradle.properties": edit})
    assert moves(tree) == {want}, tree


@pytest.mark.parametrize("line,want", [
    ('id("org.jetbrains.dokka") version dokkaVersion', ("org.jetbrains.dokka", "1.8.10")),
    ("id 'org.jetbrains.dokka' version dokkaVersion", ("org.jetbrains.dokka", "1.8.10")),
    ('id("org.jetbrains.dokka") version dokkaVersion apply false', ("org.jetbrains.dokka", "1.8.10")),
    ('kotlin("jvm") version dokkaVersion', ("org.jetbrains.kotlin.jvm", "1.8.10")),
    ('id("org.jetbrains.dokka") version unknownVersion', ("org.jetbrains.dokka", "$unknownVersion")),
])
def test_an_identifier_version_is_the_variable(line: str, want: tuple[str, str]) -> None:
    deps = parse_build_script("build.gradle.kts", f"plugins {{\n    {line}\n}}\n".encode(), {"dokkaVersion": "1.8.10"})
    assert [(d.name, d.version) for d in deps] == [want]


@pytest.mark.parametrize("line", [
    'id("org.jetbrains.dokka") version libs.versions.dokka.get()',  # a catalog accessor: not a variable
    'id("org.jetbrains.dokka") version versionOf("dokka")',  # a call
    'id("org.jetbrains.dokka") version props["dokka"]',
    'id("org.jetbrains.dokka")',  # no version: the one the build already has
])
def test_other_expressions_are_not_a_variable(line: str) -> None:
    deps = parse_build_script("build.gradle.kts", f"plugins {{\n    {line}\n}}\n".encode(), {"dokkaVersion": "1.8.10"})
    assert all(d.version != "1.8.10" for d in deps), deps
