"""Classes of misses the thirty-fourth blind set of bot update commits found (bench/deps_bumps_thirtyfourth.tsv).

- A POM whose build configuration writes `<!DOCTYPE` as text inside a CDATA section (hibernate/hibernate-validator's
  license-header regex) was refused whole as a DTD: every bump of it was unreadable, 5 commits with `--tree`. A DTD
  is now looked for where the XML parser reads one, the prolog before the root element, in the document's own
  encoding; that also refuses a UTF-16 document's DTD, which the byte pattern let through to entity expansion.
- A Maven profile property set to itself (getsentry/sentry-java's `pitest` profile, `<junit.version>${junit.version}
  </junit.version>`) expanded without end once the profiles' values were joined in: the whole POM unreadable, 3.
- global.json's `sdk.workloadVersion` (the .NET workload set, which Dependabot moves with the SDK: sentry-dotnet)
  was a key the patch reader refused, so 8 SDK bumps were `partial` from the patch and a problem with `--tree` too.
Continued in tests/test_deps_thirtyfourth_tools.py:
- A Gradle code-quality extension's `toolVersion` (`checkstyle { toolVersion = "14.0.0" }`, OpenTelemetry Java's
  buildSrc convention, Renovate's "update dependency checkstyle to v14") was no dependency at all, in both modes.
- A pnpm importer's `version:` line moved onto a copy the lockfile already held (unovue/radix-vue's "bump vite from
  4.5.3 to 5.4.14") changed no package key, so the patch reader named nothing and saw no problem.

Real-shaped files written for these tests, look-alikes, attacks and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.globaljson import global_json_line
from gatekeeper.deps.jvm import parse_pom
from gatekeeper.deps.loaders import load_xml
from gatekeeper.deps.model import ManifestError
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import GitRepo, edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


def _unparsable(delta: object, path: str) -> bool:
    return any(p.manifest == path and p.kind == "unparsable" for p in delta.problems)  # type: ignore[attr-defined]


# --- 1. a DTD is looked for in the prolog, as the parser reads it -----------------------------------------------------

HIBERNATE = """\
<?xml version="1.0" encoding="UTF-8"?>
<!--
    SPDX-License-Identifier: Apache-2.0
-->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/maven-v4_0_0.xsd">
    <modelVersion>4.0.0</modelVersion>
    <groupId>org.example.validator</groupId>
    <artifactId>validator-parent</artifactId>
    <version>9.1.4-SNAPSHOT</version>
    <packaging>pom</packaging>
    <properties>
        <version.org.apache.groovy>5.0.7</version.org.apache.groovy>
    </properties>
    <dependencies>
        <dependency>
            <groupId>org.apache.groovy</groupId>
            <artifactId>groovy-jsr223</artifactId>
            <version>${version.org.apache.groovy}</version>
        </dependency>
    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>com.mycila</groupId>
                <artifactId>license-maven-plugin</artifactId>
                <version>4.6</version>
                <configuration>
                    <mapping>
                        <xml>XML_STYLE</xml>
                    </mapping>
                    <headerDefinitions>
                        <headerDefinition>
                            <skipLine><![CDATA[(\\n)*^(<[^!?]+|<!DOCTYPE.+)$]]></skipLine>
                            <firstLine><![CDATA[<!--]]></firstLine>
                        </headerDefinition>
                    </headerDefinitions>
                </configuration>
            </plugin>
        </plugins>
    </build>
</project>
"""

GROOVY = {"pom.xml": {"<version.org.apache.groovy>5.0.7<": "<version.org.apache.groovy>5.0.8<"}}


def test_a_doctype_written_in_cdata_is_no_dtd(tmp_path: Path) -> None:
    # hibernate-validator da117de95641: Dependabot's groovy bump through the property
    tree, _ = _bumped(tmp_path, {"pom.xml": HIBERNATE}, GROOVY)
    assert moves(tree) == {("maven", "org.apache.groovy:groovy-jsr223", "5.0.7", "5.0.8")}, tree
    assert not tree.problems, tree  # type: ignore[attr-defined]


ENTITY_POM = ('<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE project [<!ENTITY v "6.6.6">]>\n'
              "<project><modelVersion>4.0.0</modelVersion><dependencies><dependency><groupId>g</groupId>"
              "<artifactId>a</artifactId><version>&v;</version></dependency></dependencies></project>\n")


def test_a_utf16_documents_dtd_is_refused(tmp_path: Path) -> None:
    # attack: the byte pattern looked for ASCII `<!DOCTYPE`, which UTF-16 does not write: the entity was expanded
    with pytest.raises(ManifestError, match="DOCTYPE"):
        load_xml(ENTITY_POM.encode("utf-16"))
    with pytest.raises(ManifestError, match="DOCTYPE"):
        parse_pom("pom.xml", ENTITY_POM.encode("utf-16-le"))
    repo = GitRepo(tmp_path)
    repo.write("pom.xml", HIBERNATE)
    base = repo.commit()
    repo.write("pom.xml", ENTITY_POM.encode("utf-16"))
    tree = _tree(repo, base, repo.commit("bump"))
    assert _unparsable(tree, "pom.xml") and not any(c.to_version == "6.6.6" for c in tree.changes), tree


@each_case("document", [
    b'<!DOCTYPE project [<!ENTITY v "1">]><project>&v;</project>',
    b'<?xml version="1.0"?>\n<!-- a comment -->\n<?pi data?>\n<!DOCTYPE project SYSTEM "file:///etc/passwd"><project/>',
    b'<!-- <project> is the root --><!DOCTYPE project [<!ENTITY v "1">]><project>&v;</project>',  # a `<` in a comment
    b"\xef\xbb\xbf<!doctype project><project/>",  # a BOM, lower case: expat refuses that spelling, the bytes do too
    b'<?xml version="1.0" encoding="no-such-codec"?><!DOCTYPE p><project/>',  # a prolog expat cannot read
])
def test_a_dtd_in_the_prolog_is_refused(document: bytes) -> None:
    with pytest.raises(ManifestError, match="DOCTYPE"):
        load_xml(document)


@each_case(("document", "tag"), [
    (b"<project><d><![CDATA[<!DOCTYPE html>]]></d></project>", "project"),
    (b"<!-- <!DOCTYPE project> was here --><project/>", "project"),  # in a comment: no declaration
    (b"<project><d>&lt;!DOCTYPE html&gt;</d></project>", "project"),
])
def test_a_doctype_that_declares_nothing_is_read(document: bytes, tag: str) -> None:
    assert load_xml(document).tag == tag


@each_case("document", [
    b"<project/><!DOCTYPE project>",  # after the root: no DTD, and no XML either
    b'<project><!ENTITY v "1"></project>',
    b"<project>&undeclared;</project>",
    # an encoding the parser does not read: its DTD is never reached, the document is no XML to it
    '<?xml version="1.0" encoding="UTF-32"?><!DOCTYPE p [<!ENTITY v "1">]><project>&v;</project>'.encode("utf-32"),
])
def test_a_declaration_out_of_place_is_unreadable(document: bytes) -> None:
    with pytest.raises(ManifestError):
        load_xml(document)


# --- 2. a profile's property set to itself ----------------------------------------------------------------------------

SENTRY_POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <groupId>io.example</groupId>
    <artifactId>example-all</artifactId>
    <version>1.7.31-SNAPSHOT</version>
    <properties>
        <junit.version>4.12</junit.version>
    </properties>
    <dependencies>
        <dependency>
            <groupId>junit</groupId>
            <artifactId>junit</artifactId>
            <version>${junit.version}</version>
            <scope>test</scope>
        </dependency>
    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-jxr-plugin</artifactId>
                <version>2.5</version>
            </plugin>
        </plugins>
    </build>
    <profiles>
        <profile>
            <id>pitest</id>
            <properties>
                <junit.version>${junit.version}</junit.version>
            </properties>
        </profile>
    </profiles>
</project>
"""


def test_a_profile_property_set_to_itself_is_the_projects(tmp_path: Path) -> None:
    # sentry-java 29f3fa07417e: "bump maven-jxr-plugin from 2.5 to 3.0.0"
    tree, patch = _bumped(tmp_path, {"pom.xml": SENTRY_POM}, {"pom.xml": {"<version>2.5</version>": "<version>3.0.0"
                                                                          "</version>"}})
    want = {("maven", "org.apache.maven.plugins:maven-jxr-plugin", "2.5", "3.0.0")}
    assert moves(tree) == want and not tree.problems, tree  # type: ignore[attr-defined]
    assert moves(patch) == want, patch
    junit = [d for d in parse_pom("pom.xml", SENTRY_POM.encode()) if d.name == "junit:junit"]
    assert [d.version for d in junit] == ["4.12"]


def test_a_profile_that_sets_another_value_still_joins_in() -> None:
    body = SENTRY_POM.replace("<junit.version>${junit.version}</junit.version>", "<junit.version>4.13</junit.version>")
    assert [d.version for d in parse_pom("pom.xml", body.encode()) if d.name == "junit:junit"] == ["4.12|4.13"]


@pytest.mark.parametrize("profile", [
    "<junit.version>${other.version}</junit.version><other.version>${junit.version}</other.version>",  # a cycle
    "<junit.version>${junit.version}.1</junit.version>",  # itself and more: no value of its own either
])
def test_a_profile_property_that_expands_without_end_is_still_unreadable(profile: str) -> None:
    body = SENTRY_POM.replace("<junit.version>${junit.version}</junit.version>", profile)
    with pytest.raises(ManifestError, match="without end"):
        parse_pom("pom.xml", body.encode())


def test_a_root_property_set_to_itself_stays_as_written() -> None:
    # as before: the project's own value is no profile's, and a reference it cannot resolve is kept as written
    body = SENTRY_POM.replace("<junit.version>4.12</junit.version>", "<junit.version>${junit.version}</junit.version>")
    assert [d.version for d in parse_pom("pom.xml", body.encode()) if d.name == "junit:junit"] == ["${junit.version}"]


# --- 3. global.json's workload set ------------------------------------------------------------------------------------

GLOBAL_JSON = """\
{
  "sdk": {
    "version": "10.0.302",
    "workloadVersion": "10.0.302",
    "rollForward": "disable",
    "allowPrerelease": false
  },
  "msbuild-sdks": {
    "Microsoft.Build.NoTargets": "3.7.134"
  }
}
"""


def test_the_workload_set_moves_with_the_sdk(tmp_path: Path) -> None:
    # sentry-dotnet 74c89a847ada: Dependabot's "bump dotnet-sdk from 10.0.302 to 10.0.400" writes both
    tree, patch = _bumped(tmp_path, {"global.json": GLOBAL_JSON}, {"global.json": {"10.0.302": "10.0.400"}})
    want = {("tool", "dotnet", "10.0.302", "10.0.400"), ("tool", "dotnet-workload-set", "10.0.302", "10.0.400")}
    assert moves(tree) == want and not tree.problems, tree  # type: ignore[attr-defined]
    assert moves(patch) == want and not patch.problems, patch  # type: ignore[attr-defined]


def test_the_workload_set_alone_is_a_change(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"global.json": GLOBAL_JSON},
                          {"global.json": {'"workloadVersion": "10.0.302"': '"workloadVersion": "10.0.301"'}})
    want = {("tool", "dotnet-workload-set", "10.0.302", "10.0.301")}
    assert moves(tree) == want and moves(patch) == want, (tree, patch)


def test_a_workload_set_that_is_no_string_is_a_problem(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"global.json": GLOBAL_JSON},
                          {"global.json": {'"workloadVersion": "10.0.302"': '"workloadVersion": 10'}})
    assert _unparsable(tree, "global.json"), tree
    assert partial(patch, "global.json"), patch  # type: ignore[arg-type]


@each_case("lines", [
    ['    "workloadVersion": "10.0.400",'],  # its object not shown
    ["{", '  "msbuild-sdks": {', '    "workloadVersion": "10.0.400",'],  # another object's: a project SDK so named
    ["{", '  "sdk": {', '    "workloadSet": "10.0.400",'],  # a key the reader does not know
])
def test_workload_lines_the_hunk_cannot_place(lines: list[str]) -> None:
    side = [(line, i == len(lines) - 1) for i, line in enumerate(lines)]
    if lines[1:2] == ['  "msbuild-sdks": {']:
        assert global_json_line(side, len(lines) - 1) == [("workloadVersion", "10.0.400", "nuget")]
        return
    with pytest.raises(ManifestError):
        global_json_line(side, len(lines) - 1)


def test_another_sdk_key_beside_the_bump_is_still_a_problem(tmp_path: Path) -> None:
    # `paths` has dotnet run an SDK from the repository: never explained by the bump beside it
    edits = {"global.json": {"10.0.302": "10.0.400", '"rollForward": "disable",': '"rollForward": "disable",\n'
                             '    "paths": [".dotnet", "$host$"],'}}
    tree, patch = _bumped(tmp_path, {"global.json": GLOBAL_JSON}, edits)
    assert partial(tree, "global.json") and partial(patch, "global.json"), (tree, patch)  # type: ignore[arg-type]
