"""Classes of misses the eighteenth blind set of bot update commits found (bench/deps_bumps_eighteenth.tsv): an
annotated image tag whose digest the line below pins (cilium/hubble's Makefile, `GOLANG_IMAGE_VERSION` over
`GOLANG_IMAGE_SHA`, which a Renovate regex manager bumps as currentValue and currentDigest) moved only in its digest
was no change in both modes (6 commits); a go.mod `replace` whose target a bot wrote at a bare commit id was read as
no version, with a `partial` problem (1); the Spotless Maven plugin's formatter version
(`<palantirJavaFormat><version>`) was read by nobody (jenkinsci/plugin-pom, 1); and, from the hunk alone, a central
package version carrying the project's own metadata attribute (VerifyTests/Verify's `Pinned="true"`, 3) and a
composer.json wildcard `*` pinned to a release (nextcloud/activity, 2) were refused. Real-shaped files, look-alikes
and attacks; one git repository per case."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import golang, jvm, tools
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.nugetedits import msbuild_line
from tests.deltas import each_fast, moves, partial, refused
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

OLD_DIGEST = "c2a1f7b2095d046ae14b286b18413a05bb82c9bca9b25fe7ff5efef0f0826166"
NEW_DIGEST = "f85330846cde1e57ca9ec309382da3b8e6ae3ab943d2739500e08c86393a21b1"

# The shape of a Go project's Makefile that builds in a pinned toolchain image: the annotation names the image, the
# version variable its tag, the variable below it the tag's digest; the recipe runs `image:tag@digest`.
MAKEFILE = f"""\
GO ?= go
TEST_TIMEOUT ?= 5s

# renovate: datasource=docker depName=library/golang
GOLANG_IMAGE_VERSION = 1.26.2-alpine
GOLANG_IMAGE_SHA = sha256:{OLD_DIGEST}

# Add the ability to override variables
-include Makefile.override

release:
\t$(CONTAINER_ENGINE) run --rm --workdir /app --volume `pwd`:/app \\
\t\tdocker.io/library/golang:$(GOLANG_IMAGE_VERSION)@$(GOLANG_IMAGE_SHA) \\
\t\tsh -c "make local-release"
"""


def test_a_digest_only_move_of_an_annotated_image_is_a_change(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"Makefile": MAKEFILE}, {"Makefile": {OLD_DIGEST: NEW_DIGEST}})
    want = {("docker", "library/golang", f"1.26.2-alpine@sha256:{OLD_DIGEST}", f"1.26.2-alpine@sha256:{NEW_DIGEST}")}
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == want and not delta.problems, delta


def test_a_tag_and_digest_moved_together_name_both(tmp_path: Path) -> None:
    edit = {"1.26.2-alpine": "1.26.3-alpine", OLD_DIGEST: NEW_DIGEST}
    repo, base, head = edited_commits(tmp_path, {"Makefile": MAKEFILE}, {"Makefile": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("docker", "library/golang", f"1.26.2-alpine@sha256:{OLD_DIGEST}",
                                 f"1.26.3-alpine@sha256:{NEW_DIGEST}")}, delta


def test_a_digest_dropped_from_below_the_tag_is_a_move_to_the_bare_tag(tmp_path: Path) -> None:
    """Unpinning the digest is a change a policy sees, never nothing."""
    repo, base, head = edited_commits(tmp_path, {"Makefile": MAKEFILE},
                                      {"Makefile": {f"GOLANG_IMAGE_SHA = sha256:{OLD_DIGEST}\n": ""}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("docker", "library/golang", f"1.26.2-alpine@sha256:{OLD_DIGEST}",
                                 "1.26.2-alpine")}, delta


def test_a_dockerfile_arg_pair_reads_the_same() -> None:
    body = (f"# renovate: datasource=docker depName=node\nARG NODE_VERSION=22.12.0-alpine\n"
            f"ARG NODE_DIGEST=\"sha256:{NEW_DIGEST}\"\nFROM node:${{NODE_VERSION}}\n").splitlines()
    assert [(d.name, d.version) for d in tools.read_annotations("Dockerfile", body)] == [
        ("node", f"22.12.0-alpine@sha256:{NEW_DIGEST}")]


@each_case("below", [
    # a release's checksum is a file's, no image digest
    pytest.param(f"HELM_SHA256 = {NEW_DIGEST}", id="checksum-without-sha256-prefix"),
    # another variable's digest
    pytest.param(f"OTHER_IMAGE_SHA = sha256:{NEW_DIGEST}", id="another-stem"),
    # not a digest: a short one, a tag, a variable
    pytest.param(f"GOLANG_IMAGE_SHA = sha256:{NEW_DIGEST[:12]}", id="short-digest"),
    pytest.param("GOLANG_IMAGE_SHA = $(shell cat digest)", id="a-variable"),
    pytest.param(f"GOLANG_IMAGE_TAG = sha256:{NEW_DIGEST}", id="a-key-naming-no-digest"),
    # a comment, then the digest: not the line right below
    pytest.param(f"# pinned\nGOLANG_IMAGE_SHA = sha256:{NEW_DIGEST}", id="not-adjacent"),
])
def test_look_alike_digest_lines_are_not_joined(below: str) -> None:
    lines = ["# renovate: datasource=docker depName=library/golang", "GOLANG_IMAGE_VERSION = 1.26.2-alpine",
             *below.splitlines()]
    assert [(d.name, d.version) for d in tools.read_annotations("Makefile", lines)] == [
        ("library/golang", "1.26.2-alpine")]


def test_a_release_annotation_keeps_its_checksum_apart() -> None:
    lines = ["# renovate: datasource=github-releases depName=helm/helm", "HELM_VERSION = v3.19.0",
             f"HELM_SHA = sha256:{NEW_DIGEST}"]
    assert [(d.ecosystem, d.name, d.version) for d in tools.read_annotations("Makefile", lines)] == [
        ("tool", "helm/helm", "v3.19.0")]


def test_hostile_digest_lines_are_read_quickly() -> None:
    big = 1 << 20
    head = ["# renovate: datasource=docker depName=a", "A_VERSION = 1.0"]
    calls = [
        (lambda: tools.read_annotations("M", [*head, "A_SHA" + " " * big + "x"]), "blanks after the key"),
        (lambda: tools.read_annotations("M", [*head, "A_SHA = " + "sha256:" * (big // 7)]), "repeated prefixes"),
        (lambda: tools.read_annotations("M", [*head, "A" + "_A" * big + " = sha256:" + "0" * 64]), "a long key"),
        (lambda: tools.read_annotations("M", [*head, "A_SHA = '@sha256:" + "0" * big]), "a long digest"),
        (lambda: tools.read_annotations("M", [*head, "A_SHA = sha256:" + "0" * 64 + " " * big + "x"]),
         "blanks after the digest"),
        (lambda: tools.read_annotations("M", (head + ["A_SHA = sha256:" + "0" * 64]) * (big // 64)), "many pairs"),
    ]
    each_fast(calls, 2.0)


# cilium/hubble's go.mod: a private fork replaces a module; Renovate bumps the fork's digest, writing the commit id.
GO_MOD = """\
module github.com/cilium/hubble

go 1.25.0

require (
\tgithub.com/cilium/cilium v1.19.0
\tgithub.com/osrg/gobgp/v3 v3.37.0 // indirect
)

replace sigs.k8s.io/controller-tools => github.com/cilium/controller-tools v0.16.5-1

// Using private fork of gobgp.
replace github.com/osrg/gobgp/v3 => github.com/cilium/gobgp/v3 v3.0.0-20250717193620-26a4abb75464
"""


def test_a_replace_moved_to_a_bare_commit_names_it(tmp_path: Path) -> None:
    edit = {"v3.0.0-20250717193620-26a4abb75464": "2c4e905b1198"}
    repo, base, head = edited_commits(tmp_path, {"go.mod": GO_MOD}, {"go.mod": edit})
    want = {("go", "github.com/osrg/gobgp/v3 => github.com/cilium/gobgp/v3", "v3.0.0-20250717193620-26a4abb75464",
             "2c4e905b1198")}
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == want and not delta.problems, delta


@each_case(("line", "name", "version"), [
    ("replace a.io/x => b.io/x 2c4e905b1198", "a.io/x => b.io/x", "2c4e905b1198"),
    ("replace a.io/x v1.0.0 => b.io/x master", "a.io/x => b.io/x", "master"),
    ("replace a.io/x => ../x", "a.io/x => ../x", ""),  # a local path has no version
    ("replace a.io/x => b.io/x v1.2.3 // a fork", "a.io/x => b.io/x", "v1.2.3"),
])
def test_replace_targets_read_as_written(line: str, name: str, version: str) -> None:
    assert [(d.name, d.version) for d in golang.parse_go_mod("go.mod", f"module m\n\n{line}\n".encode())] == [
        (name, version)]


def test_a_malformed_replace_stays_residue() -> None:
    """Three words after the arrow are no replace go reads: kept for the residue comparison, not a dependency."""
    body = b"module m\n\nreplace a.io/x => b.io/x v1 extra\n"
    assert golang.parse_go_mod("go.mod", body) == []
    assert "replace a.io/x => b.io/x v1 extra" in golang.residue(body)


# jenkinsci/plugin-pom's shape: Spotless in pluginManagement, its Java step pinning the formatter.
POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>plugin</artifactId>
  <version>1.0</version>
  <properties>
    <spotless.version>3.9.0</spotless.version>
  </properties>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>com.diffplug.spotless</groupId>
          <artifactId>spotless-maven-plugin</artifactId>
          <version>${spotless.version}</version>
          <configuration>
            <java>
              <endWithNewline />
              <!-- Declare version so that spotless does not choose a version based on JDK version -->
              <palantirJavaFormat>
                <version>2.96.0</version>
              </palantirJavaFormat>
              <removeUnusedImports />
            </java>
            <kotlin>
              <ktfmt>
                <version>0.59</version>
              </ktfmt>
            </kotlin>
          </configuration>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
"""


def test_a_spotless_formatter_version_is_a_build_dependency(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"pom.xml": POM}, {"pom.xml": {"2.96.0": "2.97.0"}})
    delta = _tree(repo, base, head)
    assert moves(delta) == {("maven", "com.palantir.javaformat:palantir-java-format", "2.96.0", "2.97.0")}, delta
    found = {(d.name, d.version, d.scope) for d in jvm.parse_pom("pom.xml", POM.encode())}
    assert ("com.facebook:ktfmt", "0.59", "build") in found


@pytest.mark.parametrize("body", [
    # another plugin's element of the same name
    POM.replace("spotless-maven-plugin", "formatter-maven-plugin"),
    # a step without a version lets Spotless choose: nothing pinned
    POM.replace("<version>2.96.0</version>", "").replace("<version>0.59</version>", ""),
])
def test_spotless_look_alikes_pin_nothing(body: str) -> None:
    formatters = {"com.palantir.javaformat:palantir-java-format", "com.facebook:ktfmt"}
    assert not [d for d in jvm.parse_pom("pom.xml", body.encode()) if d.name in formatters]


PROPS = """\
<Project>
  <PropertyGroup>
    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>
  </PropertyGroup>
  <ItemGroup>
    <PackageVersion Include="TUnit" Version="1.65.38" />
    <PackageVersion Include="xunit.v3" Version="3.2.2" Pinned="true" />
    <PackageVersion Include="xunit.v3.extensibility.core" Version="3.2.2" Pinned="true" />
    <PackageVersion Include="YoloDev.Expecto.TestSdk" Version="0.16.1" />
  </ItemGroup>
</Project>
"""


def test_a_central_version_with_the_projects_own_metadata_reads_from_its_hunk(tmp_path: Path) -> None:
    path = "src/Directory.Packages.props"
    edit = {'"xunit.v3.extensibility.core" Version="3.2.2"': '"xunit.v3.extensibility.core" Version="4.0.0"'}
    repo, base, head = edited_commits(tmp_path, {path: PROPS}, {path: edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("nuget", "xunit.v3.extensibility.core", "3.2.2", "4.0.0")}, delta


@each_case("line", [
    # a condition spelled in another case (`Condition` itself is the line's section since round 22:
    # tests/test_deps_twentysecond_classes.py)
    '<PackageVersion Include="x" Version="1.0.0" condition="true" />',
    # an item operation
    '<PackageReference Remove="x" Version="1.0.0" />',
    '<PackageReference Include="x" Version="1.0.0" Exclude="y" />',
    # a key NuGet reads spelled in another case beside it, or twice: which wins is not the hunk's to say
    '<PackageVersion Include="x" Version="1.0.0" version="9.9.9" />',
    '<PackageVersion Include="x" Version="1.0.0" Version="9.9.9" />',
    '<PackageVersion Include="x" Version="1.0.0" INCLUDE="y" />',
])
def test_significant_or_ambiguous_attributes_are_refused_from_a_hunk(line: str) -> None:
    with pytest.raises(ManifestError):
        msbuild_line([(f"    {line}", True)], 0)


def test_the_projects_own_metadata_is_read_past() -> None:
    line = '    <PackageReference Include="x" Version="1.0.0" Pinned="true" GeneratePathProperty="true" />'
    assert msbuild_line([(line, True)], 0) == [("x", "1.0.0")]


COMPOSER = """\
{
\t"config": {
\t\t"platform": {
\t\t\t"php": "8.1"
\t\t},
\t\t"sort-packages": true
\t},
\t"require-dev": {
\t\t"nextcloud/coding-standard": "^1.4.0",
\t\t"friendsofphp/php-cs-fixer": "*"
\t}
}
"""


@pytest.mark.parametrize(("path", "body", "eco", "name"), [
    ("vendor-bin/cs-fixer/composer.json", COMPOSER, "composer", "friendsofphp/php-cs-fixer"),
    ("package.json", '{\n  "name": "a",\n  "devDependencies": {\n    "left-pad": "*"\n  }\n}\n', "npm", "left-pad"),
])
def test_a_wildcard_pinned_to_a_release_reads_from_its_hunk(tmp_path: Path, path: str, body: str, eco: str,
                                                           name: str) -> None:
    repo, base, head = edited_commits(tmp_path, {path: body}, {path: {'"*"': '"3.95.10"'}})
    assert moves(_patch(repo, base, head)) == {(eco, name, "*", "3.95.10")}


@each_case("value", ['"**"', '"* || evil"', '"*x"', '"latest"'])
def test_wildcard_look_alikes_stay_refused_from_a_hunk(tmp_path: Path, value: str) -> None:
    path = "vendor-bin/cs-fixer/composer.json"
    repo, base, head = edited_commits(tmp_path, {path: COMPOSER}, {path: {'"*"': value}})
    delta = _patch(repo, base, head)
    assert partial(delta, path) and not delta.changes, delta


def test_hostile_msbuild_lines_are_read_quickly() -> None:
    big = 1 << 20
    calls = [
        (lambda: refused(lambda: msbuild_line([('<PackageVersion Include="x"' + ' A="b"' * (big // 6) + " />",
                                                True)], 0)), "many attributes"),
        (lambda: refused(lambda: msbuild_line([('<PackageVersion Include="x" Version="1"' + " " * big + "x",
                                                True)], 0)), "blanks then no close"),
    ]
    each_fast(calls, 2.0)
