"""Classes of misses the thirty-fourth blind set found, continued (tests/test_deps_thirtyfourth_classes.py has the
first three): a Gradle code-quality extension's `toolVersion`, and a pnpm importer moved onto a copy the lockfile
already held, read from a patch.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps.gradle import gradle_line, parse_build_script
from gatekeeper.deps.model import ManifestError
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 4. a Gradle code-quality extension's toolVersion -----------------------------------------------------------------

CONVENTION = """\
plugins {
  `java-library`
  checkstyle
  jacoco
  id("otel.errorprone-conventions")
}

java {
  toolchain {
    languageVersion.set(JavaLanguageVersion.of(21))
  }
  withJavadocJar()
}

checkstyle {
  configDirectory.set(file("$rootDir/buildscripts/"))
  toolVersion = "13.11.0"
  isIgnoreFailures = false
  configProperties["rootDir"] = rootDir
}

jacoco {
  toolVersion = "0.8.13"
}

dependencies {
  implementation("com.google.guava:guava:33.4.8-jre")
}
"""
CONVENTION_PATH = "buildSrc/src/main/kotlin/otel.java-conventions.gradle.kts"


def test_a_checkstyle_tool_version_is_read(tmp_path: Path) -> None:
    # opentelemetry-java f033047c5fbe: Renovate's "update dependency checkstyle to v14"
    tree, patch = _bumped(tmp_path, {CONVENTION_PATH: CONVENTION}, {CONVENTION_PATH: {'"13.11.0"': '"14.0.0"'}})
    want = {("maven", "com.puppycrawl.tools:checkstyle", "13.11.0", "14.0.0")}
    assert moves(tree) == want and not tree.problems, tree  # type: ignore[attr-defined]
    assert moves(patch) == want and not patch.problems, patch  # type: ignore[attr-defined]
    assert {c.alias for c in tree.changes} == {"checkstyle"}  # type: ignore[attr-defined]


def test_a_jacoco_tool_version_is_read(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {CONVENTION_PATH: CONVENTION}, {CONVENTION_PATH: {'"0.8.13"': '"0.8.14"'}})
    want = {("maven", "org.jacoco:jacoco", "0.8.13", "0.8.14")}
    assert moves(tree) == want and moves(patch) == want, (tree, patch)


@pytest.mark.parametrize(("script", "read"), [
    ("checkstyle {\n    toolVersion '10.12.5'\n}\n", ("com.puppycrawl.tools:checkstyle", "10.12.5")),  # Groovy
    ("pmd {\n    toolVersion = \"7.9.0\"\n    ruleSets = []\n}\n", ("net.sourceforge.pmd:pmd-java", "7.9.0")),
    ("spotbugs {\n  toolVersion.set(\"4.9.3\")\n}\n", ("com.github.spotbugs:spotbugs", "4.9.3")),
    ("codenarc {\n    toolVersion = '3.6.0'\n}\n", ("org.codenarc:CodeNarc", "3.6.0")),
    ('checkstyle.toolVersion = "10.21.4"\n', ("com.puppycrawl.tools:checkstyle", "10.21.4")),
    ('jacoco { toolVersion = "0.8.12" }\n', ("org.jacoco:jacoco", "0.8.12")),
    ('subprojects {\n  checkstyle {\n    toolVersion = "10.0"\n  }\n}\n', ("com.puppycrawl.tools:checkstyle", "10.0")),
    # look-alikes: another block's toolVersion, one nested inside the extension, one after the block closed, a
    # variable (the catalog or property holds the version), a comment
    ('java {\n  toolVersion = "17.0.1"\n}\n', None),
    ('checkstyle {\n  reports {\n    toolVersion = "1.0"\n  }\n}\n', None),
    ('checkstyle {\n  isIgnoreFailures = false\n}\ntoolVersion = "1.0"\n', None),
    ("checkstyle {\n  toolVersion = libs.versions.checkstyle.get()\n}\n", None),
    ('// checkstyle { toolVersion = "10.0" }\n', None),
])
def test_tool_version_forms(script: str, read: tuple[str, str] | None) -> None:
    found = [(d.name, d.version) for d in parse_build_script("build.gradle", script.encode())]
    assert found == ([read] if read else [])


@pytest.mark.parametrize(("lines", "read"), [
    (["checkstyle {", '  toolVersion = "14.0.0"'], ("com.puppycrawl.tools:checkstyle", "14.0.0")),
    (["checkstyle {", "  configDirectory.set(file(\"x\"))", "  reports { html.required.set(true) }",
      '  toolVersion = "14.0.0"'], ("com.puppycrawl.tools:checkstyle", "14.0.0")),
    (['  toolVersion = "14.0.0"'], None),  # the block's opening is not in the hunk
    (["java {", '  toolVersion = "14.0.0"'], None),
    (["checkstyle {", "  reports {", '    toolVersion = "14.0.0"'], None),  # a nested block's
])
def test_tool_version_lines_of_a_hunk(lines: list[str], read: tuple[str, str] | None) -> None:
    side = [(line, i == len(lines) - 1) for i, line in enumerate(lines)]
    if read is None:
        with pytest.raises(ManifestError):
            gradle_line(side, len(lines) - 1)
    else:
        assert [pair[:2] for pair in gradle_line(side, len(lines) - 1)] == [read]


def test_a_tool_version_the_hunk_cannot_place_is_partial(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {CONVENTION_PATH: CONVENTION},
                                      {CONVENTION_PATH: {'"13.11.0"': '"14.0.0"'}})
    patch = _patch(repo, base, head, "-U0")
    assert not patch.changes and partial(patch, CONVENTION_PATH), patch


def test_build_logic_beside_a_tool_bump_is_still_a_problem(tmp_path: Path) -> None:
    edits = {CONVENTION_PATH: {'"13.11.0"': '"14.0.0"', "isIgnoreFailures = false": "isIgnoreFailures = true"}}
    tree, _ = _bumped(tmp_path, {CONVENTION_PATH: CONVENTION}, edits)
    assert partial(tree, CONVENTION_PATH), tree  # type: ignore[arg-type]


# --- 5. a pnpm importer moved onto a copy the lockfile held ----------------------------------------------------------

PNPM_LOCK = """\
lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    devDependencies:
      eslint:
        specifier: ^9.18.0
        version: 9.18.0
      typescript:
        specifier: ^5.4.2
        version: 5.4.2

  docs:
    dependencies:
      vite:
        specifier: ^5.4.14
        version: 5.4.14(@types/node@20.14.9)

  packages/core:
    devDependencies:
      '@types/node':
        specifier: ^20.14.9
        version: 20.14.9
      histoire:
        specifier: ^0.17.17
        version: 0.17.17(@types/node@20.14.9)(vite@4.5.3(@types/node@20.14.9))
      shared:
        specifier: workspace:*
        version: link:../shared
      vite:
        specifier: ^4.5.3
        version: 4.5.3(@types/node@20.14.9)
      vue:
        specifier: ^3.5.13
        version: 3.5.13(typescript@5.4.2)

packages:

  '@types/node@20.14.9':
    resolution: {integrity: sha512-AAAA}

  histoire@0.17.17:
    resolution: {integrity: sha512-BBBB}
    hasBin: true

  vite@4.5.3:
    resolution: {integrity: sha512-CCCC}
    engines: {node: ^14.18.0 || >=16.0.0}
    hasBin: true

  vite@5.4.14:
    resolution: {integrity: sha512-DDDD}
    engines: {node: ^18.0.0 || >=20.0.0}
    hasBin: true

snapshots:

  histoire@0.17.17(@types/node@20.14.9)(vite@4.5.3(@types/node@20.14.9)):
    dependencies:
      vite: 4.5.3(@types/node@20.14.9)

  vite@4.5.3(@types/node@20.14.9):
    optionalDependencies:
      '@types/node': 20.14.9

  vite@5.4.14(@types/node@20.14.9):
    optionalDependencies:
      '@types/node': 20.14.9
"""
IMPORTER = "        specifier: ^4.5.3\n        version: 4.5.3(@types/node@20.14.9)\n"


def test_an_importer_moved_onto_a_held_copy_is_read_from_the_patch(tmp_path: Path) -> None:
    # radix-vue 8a530ba61624: Dependabot moved the importer's version and left its specifier (as it wrote it)
    edits = {"pnpm-lock.yaml": {IMPORTER: IMPORTER.replace("version: 4.5.3", "version: 5.4.14")}}
    tree, patch = _bumped(tmp_path, {"pnpm-lock.yaml": PNPM_LOCK}, edits)
    want = {("npm", "vite", "4.5.3", "5.4.14")}
    assert moves(tree) == want, tree
    assert moves(patch) == want and not patch.problems, patch  # type: ignore[attr-defined]


def test_an_importer_moved_with_its_specifier_is_read_once(tmp_path: Path) -> None:
    edits = {"pnpm-lock.yaml": {IMPORTER: IMPORTER.replace("4.5.3", "5.4.14")}}
    tree, patch = _bumped(tmp_path, {"pnpm-lock.yaml": PNPM_LOCK}, edits)
    assert moves(tree) == moves(patch) == {("npm", "vite", "4.5.3", "5.4.14")}, (tree, patch)


def test_an_importer_line_the_hunk_cannot_name_is_partial(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"pnpm-lock.yaml": PNPM_LOCK}, {"pnpm-lock.yaml": {
        IMPORTER: IMPORTER.replace("version: 4.5.3", "version: 5.4.14")}})
    patch = _patch(repo, base, head, "-U0")
    assert not patch.changes and partial(patch, "pnpm-lock.yaml"), patch


@pytest.mark.parametrize(("old", "new"), [
    # a workspace link and an alias name no registry version: each is the whole-file reader's
    ("        version: link:../shared\n", "        version: link:../shared2\n"),
    ("        specifier: ^3.5.13\n        version: 3.5.13(typescript@5.4.2)\n",
     "        specifier: npm:vue@3.5.13\n        version: vue@3.5.13(typescript@5.4.2)\n"),
])
def test_importer_values_of_no_registry_version_add_nothing(tmp_path: Path, old: str, new: str) -> None:
    _, patch = _bumped(tmp_path, {"pnpm-lock.yaml": PNPM_LOCK}, {"pnpm-lock.yaml": {old: new}})
    assert not any(c.name in ("shared", "vue") and c.to_version for c in patch.changes), patch  # type: ignore[attr-defined]


def test_a_single_project_v6_lockfile_importer(tmp_path: Path) -> None:
    body = ("lockfileVersion: '6.0'\n\ndependencies:\n  vite:\n    specifier: ^4.5.3\n    version: 4.5.3\n  vue:\n"
            "    specifier: ^3.5.13\n    version: 3.5.13\n\npackages:\n\n  /vite@4.5.3:\n    resolution: {integrity: "
            "sha512-CCCC}\n\n  /vite@5.4.14:\n    resolution: {integrity: sha512-DDDD}\n\n  /vue@3.5.13:\n"
            "    resolution: {integrity: sha512-EEEE}\n")
    edits = {"pnpm-lock.yaml": {"    version: 4.5.3\n": "    version: 5.4.14\n"}}
    _, patch = _bumped(tmp_path, {"pnpm-lock.yaml": body}, edits)
    assert moves(patch) == {("npm", "vite", "4.5.3", "5.4.14")}, patch
