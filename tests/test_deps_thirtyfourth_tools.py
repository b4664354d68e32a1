"""Classes of misses the thirty-fourth blind set found, continued (tests/test_deps_thirtyfourth_classes.py has the
first three): a Gradle code-quality extension's `toolVersion`, a pnpm importer moved onto a copy the lockfile
already held, read from a patch, and Maven's core extensions in `.mvn/extensions.xml` (hibernate-validator's
Dependabot group bumped `com.gradle:common-custom-user-data-maven-extension` there: no format the delta read, so the
group's third update was named nowhere, in both modes).

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.gradle import gradle_line, parse_build_script
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
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


@each_case(("script", "read"), [
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


@each_case(("lines", "read"), [
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


# --- 6. Maven's core extensions ---------------------------------------------------------------------------------------

EXTENSIONS = """\
<extensions>
    <extension>
        <groupId>com.gradle</groupId>
        <artifactId>develocity-maven-extension</artifactId>
        <version>2.5.0</version>
    </extension>
    <extension>
        <groupId>com.gradle</groupId>
        <artifactId>common-custom-user-data-maven-extension</artifactId>
        <version>2.3.0</version>
    </extension>
</extensions>
"""


def test_a_core_extension_bump_is_read(tmp_path: Path) -> None:
    # hibernate-validator e1f271a7ad42
    tree, patch = _bumped(tmp_path, {".mvn/extensions.xml": EXTENSIONS},
                          {".mvn/extensions.xml": {"<version>2.3.0<": "<version>2.4.0<"}})
    want = {("maven", "com.gradle:common-custom-user-data-maven-extension", "2.3.0", "2.4.0")}
    assert moves(tree) == want and not tree.problems, tree  # type: ignore[attr-defined]
    assert moves(patch) == want and not patch.problems, patch  # type: ignore[attr-defined]


def test_a_core_extension_added_is_named(tmp_path: Path) -> None:
    added = ("    <extension>\n        <groupId>org.example</groupId>\n        <artifactId>build-hook</artifactId>\n"
             "        <version>1.0.0</version>\n    </extension>\n</extensions>\n")
    edits = {".mvn/extensions.xml": {"</extensions>\n": added}}
    tree, _ = _bumped(tmp_path, {".mvn/extensions.xml": EXTENSIONS}, edits)
    assert ("maven", "org.example:build-hook", None, "1.0.0") in moves(tree), tree


def test_coordinates_swapped_beside_a_bump_are_a_problem(tmp_path: Path) -> None:
    edits = {".mvn/extensions.xml": {"<version>2.3.0<": "<version>2.4.0<", "com.gradle</groupId>\n        <artifactId>"
                                     "develocity": "org.evil</groupId>\n        <artifactId>develocity"}}
    tree, patch = _bumped(tmp_path, {".mvn/extensions.xml": EXTENSIONS}, edits)
    assert ("maven", "org.evil:develocity-maven-extension", None, "2.5.0") in moves(tree), tree
    assert ("maven", "org.evil:develocity-maven-extension", None, "2.5.0") in moves(patch) \
        or partial(patch, ".mvn/extensions.xml"), patch


@pytest.mark.parametrize("body", [
    "<project/>",  # another root
    "<extensions><extension><groupId>g</groupId><version>1</version></extension></extensions>",  # no artifactId
    '<!DOCTYPE extensions [<!ENTITY v "1">]><extensions/>',
])
def test_a_malformed_extensions_file_is_a_problem(tmp_path: Path, body: str) -> None:
    tree, _ = _bumped(tmp_path, {".mvn/extensions.xml": EXTENSIONS}, {".mvn/extensions.xml": {EXTENSIONS: body}})
    assert any(p.manifest == ".mvn/extensions.xml" for p in tree.problems), tree  # type: ignore[attr-defined]


@each_case(("path", "read"), [
    (".mvn/extensions.xml", True), ("server/.mvn/extensions.xml", True), ("extensions.xml", False),
    ("src/main/resources/extensions.xml", False), (".mvn/extensions.xml.bak", False),
])
def test_only_maven_s_extensions_file_is_read(path: str, read: bool) -> None:
    fmt = format_for(path)
    assert (fmt is not None and fmt.name == "maven-extensions") == read


# --- 7. a catalog entry moved onto a version another entry of its artifact had ---------------------------------------

CATALOG = """\
[versions]
kotlin = "2.1.20"

[libraries]
# tomcat libraries
tomcat-catalina = { module = "org.apache.tomcat:tomcat-catalina", version = "9.0.108" }
tomcat-embed-jasper = { module = "org.apache.tomcat.embed:tomcat-embed-jasper", version = "9.0.108" }
tomcat-catalina-jakarta = { module = "org.apache.tomcat:tomcat-catalina", version = "11.0.22" }
tomcat-embed-jasper-jakarta = { module = "org.apache.tomcat.embed:tomcat-embed-jasper", version = "11.0.22" }
"""


def test_an_entry_moved_onto_a_held_version_is_an_upgrade(tmp_path: Path) -> None:
    # sentry-java 802a29491a0f: Dependabot's "bump org.apache.tomcat:tomcat-catalina" read as 9.0.108's removal
    tree, patch = _bumped(tmp_path, {"gradle/libs.versions.toml": CATALOG},
                          {"gradle/libs.versions.toml": {'"9.0.108" }': '"11.0.22" }'}})
    want = {("maven", "org.apache.tomcat:tomcat-catalina", "9.0.108", "11.0.22"),
            ("maven", "org.apache.tomcat.embed:tomcat-embed-jasper", "9.0.108", "11.0.22")}
    assert moves(tree) == want and not tree.problems, tree  # type: ignore[attr-defined]
    assert moves(patch) == want, patch


def test_an_entry_removed_whole_is_still_a_removal(tmp_path: Path) -> None:
    line = 'tomcat-catalina = { module = "org.apache.tomcat:tomcat-catalina", version = "9.0.108" }\n'
    tree, _ = _bumped(tmp_path, {"gradle/libs.versions.toml": CATALOG}, {"gradle/libs.versions.toml": {line: ""}})
    assert moves(tree) == {("maven", "org.apache.tomcat:tomcat-catalina", "9.0.108", None)}, tree


def test_an_entry_renamed_onto_a_held_version_is_no_move_of_the_old_key(tmp_path: Path) -> None:
    # the old key is gone: its version left, and nothing says the other entry took its place
    old = 'tomcat-catalina = { module = "org.apache.tomcat:tomcat-catalina", version = "9.0.108" }\n'
    new = 'tomcat-catalina-legacy = { module = "org.apache.tomcat:tomcat-catalina", version = "11.0.22" }\n'
    tree, _ = _bumped(tmp_path, {"gradle/libs.versions.toml": CATALOG}, {"gradle/libs.versions.toml": {old: new}})
    assert moves(tree) == {("maven", "org.apache.tomcat:tomcat-catalina", "9.0.108", None)}, tree


# --- 8. a BOM dropped from a NuGet file's XML declaration beside a bump -----------------------------------------------

PACKAGES_CONFIG = ('\ufeff<?xml version="1.0" encoding="utf-8"?>\n<packages>\n'
                   '  <package id="Antlr" version="3.5.0.2" targetFramework="net48" />\n'
                   '  <package id="jQuery" version="3.4.1" targetFramework="net48" />\n</packages>\n')


CSPROJ = ('\ufeff<?xml version="1.0" encoding="utf-8"?>\n<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n'
          '    <PackageReference Include="Antlr" Version="3.5.0.2" />\n'
          '    <PackageReference Include="jQuery" Version="3.4.1" />\n  </ItemGroup>\n</Project>\n')


@pytest.mark.parametrize(("path", "body"), [("samples/App/packages.config", PACKAGES_CONFIG),
                                            ("src/App/App.csproj", CSPROJ)])
def test_a_bom_dropped_beside_a_bump_is_no_problem(tmp_path: Path, path: str, body: str) -> None:
    # sentry-dotnet bc0e17eb47ae: Dependabot's "bump jQuery from 3.4.1 to 3.5.0" rewrote the declaration without it
    edits = {path: {"\ufeff": "", '"3.4.1"': '"3.5.0"'}}
    tree, patch = _bumped(tmp_path, {path: body}, edits)
    assert moves(tree) == moves(patch) == {("nuget", "jQuery", "3.4.1", "3.5.0")}, (tree, patch)
    assert not patch.problems, patch  # type: ignore[attr-defined]


@each_case("declaration", [
    '<?xml version="1.0" encoding="utf-16"?>', '<?xml version="1.1"?>', "<?xml-stylesheet href='x'?>",
    '<?xml version="1.0" encoding="utf-8"?><packages>',
])
def test_another_declaration_beside_a_bump_is_refused(tmp_path: Path, declaration: str) -> None:
    path = "samples/App/packages.config"
    edits = {path: {'\ufeff<?xml version="1.0" encoding="utf-8"?>': declaration, '"3.4.1"': '"3.5.0"'}}
    _, patch = _bumped(tmp_path, {path: PACKAGES_CONFIG}, edits)
    assert partial(patch, path), patch  # type: ignore[arg-type]
