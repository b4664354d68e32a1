"""From a patch, a shared version whose uses the patch does not show (round 55; deps54's "Left"): a Gradle catalog's
`[versions]` key (square/wire's and LeoColman/Petals' `jimfs = "1.3.2"`, a hunk of `[versions]` keys whose header is
far above) and a pom.xml property (OpenFeign's `<okhttp3.version>`, jOOQ's `<jackson.version>`, a hunk of properties
whose `<properties>` is far above). The patch named nothing (a `partial` problem alone); it now names what it shows —
the key (`[versions].jimfs`) or the property (`${okhttp3.version}`) at its old and new value, its name kept as
`version_ref` — beside the `partial` problem saying the uses are not in the patch. Look-alikes (a hunk that shows a
dependency's lines, a `<scope>` element, a library table's string, a hunk of no context) name nothing new. Real git
writes every patch."""

from __future__ import annotations

from pathlib import Path

from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.deps import edits, nugetedits, refedits
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sources import Delta
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

CATALOG_PATH = "gradle/libs.versions.toml"
POM_PATH = "pom.xml"

# a catalog with a long [versions] table (wire's shape): a bumped key's hunk shows keys only, not the header
KEYS = ["androidx-activity", "assertk", "coroutines", "grpc", "gson", "guava", "javapoet", "jimfs", "jmh", "jsr305",
        "junit", "kotlin", "kotlinpoet", "moshi", "okhttp", "okio", "protobuf", "swiftpoet"]
CATALOG = ("[versions]\n" + "".join(f'{k} = "1.{n}.0"\n' for n, k in enumerate(KEYS)) + "\n[libraries]\n"
           + "".join(f'{k}-lib = {{ module = "org.example.{k}:{k}", version.ref = "{k}" }}\n' for k in KEYS)
           + '\n[plugins]\nkotlin-jvm = { id = "org.jetbrains.kotlin.jvm", version.ref = "kotlin" }\n')

# a parent POM with a long <properties> (OpenFeign's, jOOQ's, error-prone's shape): the hunk shows properties only, or
# its `<properties>` with nothing above it, or its `</properties>` and blank lines below
PROPS = ["main.java.version", "okhttp3.version", "guava.version", "googlehttpclient.version", "gson.version",
         "moshi.version", "jackson.version", "lib.json-unit.version", "version.kafka", "jspecify.version",
         "flatten-maven-plugin.version"]
POM = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
       "  <modelVersion>4.0.0</modelVersion>\n  <groupId>io.example</groupId>\n  <artifactId>parent</artifactId>\n"
       "  <version>1.0-SNAPSHOT</version>\n  <packaging>pom</packaging>\n  <properties>\n"
       + "".join(f"    <{p}>2.{n}.0</{p}>\n" for n, p in enumerate(PROPS))
       + "  </properties>\n\n\n  <modules>\n    <module>core</module>\n  </modules>\n</project>\n")


def _deltas(tmp_path: Path, path: str, body: str, edit: dict[str, str], *extra: str) -> tuple[Delta, Delta]:
    repo, base, head = edited_commits(tmp_path, {path: body}, {path: edit})
    return _tree(repo, base, head), _patch(repo, base, head, *extra)


@each_case(("key",), [(k,) for k in KEYS[4:14]])
def test_a_versions_key_far_below_its_header_is_named_by_the_key(tmp_path: Path, key: str) -> None:
    old = f'{key} = "1.{KEYS.index(key)}.0"'
    tree, patch = _deltas(tmp_path, CATALOG_PATH, CATALOG, {old: f'{key} = "9.9.9"'})
    assert moves(patch) == {("maven", f"[versions].{key}", f"1.{KEYS.index(key)}.0", "9.9.9")}, patch
    assert all(c.partial and c.version_ref == key for c in patch.changes)
    assert partial(patch, CATALOG_PATH)
    # what the patch names by the key, the whole files name through the key's uses
    assert {(c.version_ref, c.to_version) for c in patch.changes} <= {(c.version_ref, c.to_version)
                                                                       for c in tree.changes}


def test_catalog_keys_shown_with_their_header_and_no_use_are_named_by_the_key(tmp_path: Path) -> None:
    edit = {'gson = "1.4.0"': 'gson = "1.4.1"', 'coroutines = "1.2.0"': 'coroutines = "1.3.0"'}
    _, patch = _deltas(tmp_path, CATALOG_PATH, CATALOG, edit, "-U4")
    assert moves(patch) == {("maven", "[versions].gson", "1.4.0", "1.4.1"),
                            ("maven", "[versions].coroutines", "1.2.0", "1.3.0")}
    assert "not in the patch" in " ".join(p.msg for p in patch.problems)


@each_case(("prop",), [(p,) for p in PROPS[1:]])
def test_a_property_far_below_its_properties_is_named_by_the_property(tmp_path: Path, prop: str) -> None:
    n = PROPS.index(prop)
    tree, patch = _deltas(tmp_path, POM_PATH, POM, {f"<{prop}>2.{n}.0<": f"<{prop}>2.{n}.7<"})
    assert moves(patch) == {("maven", f"${{{prop}}}", f"2.{n}.0", f"2.{n}.7")}, patch
    assert all(c.partial and c.version_ref == prop for c in patch.changes)
    assert partial(patch, POM_PATH)
    assert not tree.changes  # a parent POM's property no module of it uses here: nothing to name


def test_a_property_shown_with_its_properties_and_no_use_is_named_by_the_property(tmp_path: Path) -> None:
    _, patch = _deltas(tmp_path, POM_PATH, POM, {"<okhttp3.version>2.1.0<": "<okhttp3.version>2.2.0<"})
    assert moves(patch) == {("maven", "${okhttp3.version}", "2.1.0", "2.2.0")}


LIB_POM = POM.replace("  <modules>\n    <module>core</module>\n  </modules>\n",
                      "  <dependencies>\n    <dependency>\n      <groupId>g</groupId>\n"
                      "      <artifactId>a</artifactId>\n"
                      "      <version>1.0</version>\n      <scope>test</scope>\n      <type>jar</type>\n"
                      "      <classifier>x</classifier>\n    </dependency>\n  </dependencies>\n")


@each_case(("body", "edit", "context"), [
    (POM, {"<gson.version>2.4.0<": "<gson.version>2.4.1<"}, "-U0"),  # nothing shown around the line
    (LIB_POM, {"<scope>test</scope>": "<scope>compile</scope>"}, "-U1"),  # a dependency's element, no version
    (LIB_POM, {"<classifier>x</classifier>": "<classifier>y</classifier>"}, "-U0"),
    (POM, {"<gson.version>2.4.0<": "<gson.version>${other}<"}, "-U3"),  # built of another property
    (POM, {"<gson.version>2.4.0<": "<gson.version>&#50;.4.1<"}, "-U3"),  # a character reference
    (POM, {"    <gson.version>2.4.0</gson.version>\n": "    <!--\n    <gson.version>2.4.1</gson.version>\n"
           "    -->\n"}, "-U3"),  # inside a comment spanning lines
    (POM, {"<gson.version>2.4.0</gson.version>": "<gson.version>2.4.1</gson.version>\n    "
           "<gson.version>2.4.2</gson.version>"}, "-U3"),  # set twice
    (CATALOG, {'gson = "1.4.0"': 'gson = "1.4.1"'}, "-U0"),
    (CATALOG, {'gson = "1.4.0"': 'gson = "org.evil:gson:1.4.1"'}, "-U2"),  # a library's string notation, elsewhere
    (CATALOG, {'gson = "1.4.0"': 'gson = { strictly = "1.4.1" }'}, "-U2"),  # a rich version
    (CATALOG, {'gson = "1.4.0"\n': 'gson = """\n1.4.1\n"""\n'}, "-U2"),  # a multi-line string
    (CATALOG, {'gson = "1.4.0"': 'gson = "1.4.1"\ngson = "1.4.2"'}, "-U2"),  # set twice
])
def test_look_alikes_and_malformed_lines_name_no_key(tmp_path: Path, body: str, edit: dict[str, str],
                                                     context: str) -> None:
    _, patch = _deltas(tmp_path, CATALOG_PATH if body is CATALOG else POM_PATH, body, edit, context)
    assert not any(c.name.startswith(("[versions].", "${")) for c in patch.changes), patch
    assert patch.problems, patch  # never a silent pass


def test_a_library_line_of_a_shown_table_is_still_named_by_its_coordinates(tmp_path: Path) -> None:
    body = CATALOG.replace('gson-lib = { module = "org.example.gson:gson", version.ref = "gson" }',
                           'gson-lib = "org.example.gson:gson:1.4.0"')
    _, patch = _deltas(tmp_path, CATALOG_PATH, body, {"gson:gson:1.4.0": "gson:gson:1.4.1"})
    assert moves(patch) == {("maven", "org.example.gson:gson", "1.4.0", "1.4.1")}


# --- MSBuild: a version property of a PropertyGroup whose uses the hunk does not show --------------------------------
# FakeItEasy's tools/Directory.Build.props and GitTools/GitVersion's Directory.Packages.props shapes: a property set in
# a `<PropertyGroup>`, used as `Version="$(SimpleExecVersion)"` by items the hunk does not show

PROPS_FILE = "tools/Directory.Build.props"
MSBUILD_PROPS = ["SimpleExecVersion", "NuGetVersion", "OctokitVersion", "XunitVersion", "MicrosoftCodeAnalysisVersion"]
MSBUILD = ("<Project>\n\n  <Import Project=\"..\\Directory.Build.props\" />\n\n  <PropertyGroup>\n"
           "    <NoWarn>$(NoWarn),SA0001</NoWarn>\n"
           + "".join(f"    <{p}>3.{n}.0</{p}>\n" for n, p in enumerate(MSBUILD_PROPS))
           + "  </PropertyGroup>\n\n  <ItemGroup>\n    <!-- common packages -->\n"
           + "".join(f"    <PackageVersion Include=\"P{n}\" Version=\"$({p})\" />\n"
                     for n, p in enumerate(MSBUILD_PROPS))
           + "    <PackageVersion Include=\"Other\" Version=\"1.0.0\" />\n  </ItemGroup>\n\n</Project>\n")


@each_case(("prop", "new", "context"), [(p, v, c) for p in MSBUILD_PROPS for v in ("3.9.1", "4.0.0-beta.1")
                                        for c in ("-U3", "-U1")])
def test_an_msbuild_version_property_is_named_by_itself(tmp_path: Path, prop: str, new: str, context: str) -> None:
    n = MSBUILD_PROPS.index(prop)
    tree, patch = _deltas(tmp_path, PROPS_FILE, MSBUILD, {f"<{prop}>3.{n}.0<": f"<{prop}>{new}<"}, context)
    assert moves(patch) == {("nuget", f"$({prop})", f"3.{n}.0", new)}, patch
    assert all(c.partial for c in patch.changes) and partial(patch, PROPS_FILE)
    assert {c.to_version for c in tree.changes} == {new}  # the whole file names P{n} at it


@each_case(("edit", "context"), [
    ({"<NoWarn>$(NoWarn),SA0001</NoWarn>": "<NoWarn>$(NoWarn),SA0002</NoWarn>"}, "-U3"),  # not a version
    ({"<SimpleExecVersion>3.0.0<": "<SimpleExecVersion>$(Other)<"}, "-U3"),  # built of another property
    ({"<SimpleExecVersion>3.0.0<": "<SimpleExecVersion>&#51;.1.0<"}, "-U3"),  # a character reference
    ({"<SimpleExecVersion>3.0.0<": "<SimpleExecVersion>3.1.0<"}, "-U0"),  # nothing shown around it
    ({"<PropertyGroup>\n": "<PropertyGroup>\n    <LangVersion>12</LangVersion>\n    <Version>1.0.0</Version>\n"},
     "-U3"),  # MSBuild's own settings, added
    ({"<NoWarn>$(NoWarn),SA0001</NoWarn>": "<LangVersion>12</LangVersion>"}, "-U3"),
    ({"<SimpleExecVersion>3.0.0</SimpleExecVersion>":
      "<!--\n    <SimpleExecVersion>3.1.0</SimpleExecVersion>\n    -->"}, "-U3"),  # in a comment spanning lines
])
def test_msbuild_look_alikes_name_no_property(tmp_path: Path, edit: dict[str, str], context: str) -> None:
    _, patch = _deltas(tmp_path, PROPS_FILE, MSBUILD, edit, context)
    assert not any(c.name.startswith("$(") for c in patch.changes), patch
    assert patch.problems, patch


def test_an_item_version_element_is_not_a_property(tmp_path: Path) -> None:
    body = MSBUILD.replace('    <PackageVersion Include="Other" Version="1.0.0" />\n',
                           '    <PackageReference Include="Other">\n      <XVersion>1.0.0</XVersion>\n'
                           '      <PrivateAssets>all</PrivateAssets>\n    </PackageReference>\n')
    _, patch = _deltas(tmp_path, PROPS_FILE, body, {"<XVersion>1.0.0<": "<XVersion>1.1.0<"}, "-U1")
    assert not patch.changes and partial(patch, PROPS_FILE)


def _read(reader: object, path: str) -> object:
    def read(data: str) -> object:
        try:
            return reader(path, data.encode())  # type: ignore[operator]
        except ManifestError:
            return None
    return read


def _msbuild(data: bytes) -> object:
    return edits_read(data)


def edits_read(data: bytes) -> object:
    try:
        return edits.read("nuget", nugetedits.msbuild_line, PROPS_FILE, data)
    except ManifestError:
        return None


@each_case(("read", "unit", "head"), [
    # many changed version lines in one hunk, no group edge: each walk stops at _REACH
    (_msbuild, "-<AVersion>1.0</AVersion>\n+<AVersion>1.1</AVersion>\n", "@@ -1 +1 @@\n <X>1</X>\n"),
    (_msbuild, " <AVersion>1.0</AVersion>\n", "@@ -1 +1 @@\n-<BVersion>1.0</BVersion>\n+<BVersion>1.1</BVersion>\n"),
    (lambda d: _read(refedits.catalog_edits, CATALOG_PATH)(d.decode()),
     '-k = "1"\n+k = "2"\n', '@@ -1 +1 @@\n a = "1"\n'),
    (lambda d: _read(refedits.pom_edits, POM_PATH)(d.decode()),
     "-<kVersion>1</kVersion>\n+<kVersion>2</kVersion>\n", "@@ -1 +1 @@\n <aVersion>1</aVersion>\n"),
])
def test_hunks_of_keys_and_properties_only_are_read_in_linear_time(read: object, unit: str, head: str) -> None:
    assert_linear(lambda text: read(text.encode()), repeated(unit, head), budget=0.5)  # type: ignore[operator]


# --- gradle.properties: a version property the build scripts use (google/ksp's `intellijVersion=233.13135.128`) -----

GRADLE_PROPS = "gradle.properties"
GRADLE_KEYS = ["kotlinBaseVersion", "agpBaseVersion", "intellijVersion", "junitVersion", "junit5Version",
               "aaKotlinBaseVersion", "aaGuavaVersion"]
PROPERTIES = ("# Copyright\norg.gradle.jvmargs=-Xmx4096m\norg.gradle.parallel=true\n"
              + "".join(f"{k}={n}.{n}.0\n" for n, k in enumerate(GRADLE_KEYS)) + "\nkotlin.code.style=official\n")


@each_case(("key", "new"), [(k, v) for k in GRADLE_KEYS[1:6] for v in ("9.9.9", "2.4.20-dev-835", "233.13135.128")])
def test_a_gradle_properties_version_is_named_by_itself(tmp_path: Path, key: str, new: str) -> None:
    n = GRADLE_KEYS.index(key)
    _, patch = _deltas(tmp_path, GRADLE_PROPS, PROPERTIES, {f"\n{key}={n}.{n}.0\n": f"\n{key}={new}\n"})
    assert moves(patch) == {("maven", f"${{{key}}}", f"{n}.{n}.0", new)}, patch
    assert all(c.partial for c in patch.changes) and partial(patch, GRADLE_PROPS)


@each_case(("edit", "context"), [
    ({"parallel=true": "parallel=false"}, "-U3"),  # a setting: nothing, as before
    ({"junitVersion=3.3.0": "junitVersion=3.3.0 \\\n  4.0"}, "-U3"),  # a continued line
    ({"agpBaseVersion=1.1.0\n": "agpBaseVersion=1.1.0\\\n"}, "-U3"),  # the next line now continues this one
    ({"junitVersion=3.3.0": "junitVersion=${other}"}, "-U3"),  # not a version
    ({"junitVersion=3.3.0": "junitVersion=3.4.0"}, "-U0"),  # the line above is not shown: it may continue it
])
def test_gradle_properties_look_alikes_name_no_key(tmp_path: Path, edit: dict[str, str], context: str) -> None:
    _, patch = _deltas(tmp_path, GRADLE_PROPS, PROPERTIES, edit, context)
    assert not any(c.name.startswith("${") for c in patch.changes), patch
