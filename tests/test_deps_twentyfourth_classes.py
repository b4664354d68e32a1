"""Classes of misses the twenty-fourth blind set of bot update commits found (bench/deps_bumps_twentyfourth.tsv): a
Renovate-annotated tool pinned as a shell default (`ENV BUILDX_VERSION="${BUILDX_VERSION:-v0.6.2}"` under
`# renovate: datasource=github-releases depName=docker/buildx`, woodpecker-ci/plugin-docker-buildx's three
Dockerfiles, 2 commits in both modes) was kept as the raw value `"${BUILDX_VERSION:-v0.6.2}"`, so the move read as a
`changed` string and not buildx 0.6.3 — now a default that is the whole value and holds no variable pins its version
(the one a build without that argument gets, the one Renovate's regex manager moves), in every reader of annotated
lines, both modes; a Dockerfile's unannotated `<TOOL>_VERSION` reads such a default too. And scala-steward's commit
that adds `libraryDependencySchemes += "org.scala-lang.modules" %% "scala-xml" % "always"` beside its bump
(scalacenter/scalafix, "Update sbt-scoverage to 2.0.5"): from the patch the setting's line, a module with a scheme
where a version goes, was refused as build code and the whole plugins.sbt named nothing (`partial`) — now an eviction
scheme line names nothing, as the whole-file reader reads it, and the bump beside it is read. Real-shaped files,
look-alikes and malformed input."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import tools
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sbt import sbt_line
from tests.deltas import each_fast, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

ANNOTATION = "# renovate: datasource=github-releases depName=docker/buildx"
DOCKERFILE = f"""\
FROM docker:20.10-dind

LABEL maintainer="Release Team <release@example.org>"
LABEL org.opencontainers.image.title="buildx plugin"

ARG BUILDX_VERSION

{ANNOTATION}
ENV BUILDX_VERSION="${{BUILDX_VERSION:-v0.6.2}}"

ENV DOCKER_HOST=unix:///var/run/docker.sock

RUN apk add --no-cache curl git && \\
    mkdir -p /usr/lib/docker/cli-plugins && \\
    curl -sSLo /usr/lib/docker/cli-plugins/docker-buildx \\
      "https://github.com/docker/buildx/releases/download/${{BUILDX_VERSION}}/buildx-${{BUILDX_VERSION}}.linux-amd64"

ADD release/linux/amd64/plugin /bin/
ENTRYPOINT ["/usr/local/bin/dockerd-entrypoint.sh", "plugin"]
"""
BUILDX = ("tool", "docker/buildx")


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


def test_a_shell_default_under_an_annotation_is_the_pinned_version_in_both_modes(tmp_path: Path) -> None:
    files = {f"docker/Dockerfile.{arch}": DOCKERFILE for arch in ("amd64", "arm", "arm64")}
    edits = {path: {":-v0.6.2}": ":-v0.6.3}"} for path in files}
    tree, patch = _bumped(tmp_path, files, edits)
    for delta in (tree, patch):
        assert moves(delta) == {(*BUILDX, "v0.6.2", "v0.6.3")}, delta
        change = next(c for c in delta.changes if c.name == "docker/buildx")
        assert change.change == "upgraded", change
        assert not delta.problems, delta.problems


@each_case(("line", "version"), [
    ('ENV BUILDX_VERSION="${BUILDX_VERSION:-v0.6.3}"', "v0.6.3"),
    ("ENV BUILDX_VERSION=${BUILDX_VERSION:-0.6.3}", "0.6.3"),
    ("ARG HELM_VERSION='${HELM_VERSION-3.15.2}'", "3.15.2"),  # `-` without the colon: a default too
    ('HELM_VERSION: "${HELM_VERSION:-v3.15.2}"  # set by the pipeline', "v3.15.2"),
    ("  - HELM_VERSION=${HELM_VERSION:-3.15.2}", "3.15.2"),
    ('ENV BUILDX_VERSION="v0.6.3"', "v0.6.3"),  # a plain value reads as before
])
def test_the_default_pinned_is_read(line: str, version: str) -> None:
    dep = tools.annotated(line, ("tool", "docker/buildx"), "Dockerfile")
    assert dep is not None and dep.version == version, dep


@each_case("line", [
    'ENV BUILDX_VERSION="${BUILDX_VERSION}"',  # no default: nothing pinned
    'ENV BUILDX_VERSION="${BUILDX_VERSION:+v0.6.3}"',  # `:+` is the value used when it IS set: no default
    'ENV BUILDX_VERSION="${BUILDX_VERSION:=v0.6.3}"',  # an assignment form, kept as written, never guessed
    'ENV BUILDX_VERSION="${BUILDX_VERSION:-${UPSTREAM_VERSION}}"',  # a default that is a variable itself
    'ENV BUILDX_VERSION="${BUILDX_VERSION:-v0.6.3}-rc"',  # more beside the variable
    'ENV BUILDX_VERSION="prefix-${BUILDX_VERSION:-v0.6.3}"',
    'ENV BUILDX_VERSION="${BUILDX_VERSION:-latest}"',  # a default that names no version
    "ENV BUILDX_VERSION=\"${BUILDX_VERSION:-v0.6.3}'",  # quotes that do not pair
    "ENV BUILDX_VERSION=${BUILDX_VERSION:-v0.6.3",  # an unclosed brace
])
def test_look_alikes_are_kept_as_written(line: str) -> None:
    dep = tools.annotated(line, ("tool", "docker/buildx"), "Dockerfile")
    assert dep is not None and "$" in dep.version, dep  # raw: a move of it is `changed`, which the policy reviews


def test_a_look_alike_move_stays_changed_in_both_modes(tmp_path: Path) -> None:
    body = DOCKERFILE.replace("${BUILDX_VERSION:-v0.6.2}", "${BUILDX_VERSION:-${BASE_VERSION}}")
    tree, patch = _bumped(tmp_path, {"Dockerfile": body}, {"Dockerfile": {"${BASE_VERSION}": "${NEXT_VERSION}"}})
    for delta in (tree, patch):
        change = next(c for c in delta.changes if c.name == "docker/buildx")
        assert change.change == "changed", change


def test_long_and_malformed_defaults_are_read_fast() -> None:
    big = 200_000
    named = ("tool", "docker/buildx")
    each_fast([
        (lambda: tools.annotated("ENV V=${" + "A" * big + ":-1.0}", named, "D"), "a long variable name"),
        (lambda: tools.annotated("ENV V=${A:-" + "1." * big + "}", named, "D"), "a long default"),
        (lambda: tools.annotated("ENV V=" + "${A:-" * big, named, "D"), "nested openings"),
        (lambda: tools.read_annotations("D", [ANNOTATION, "ENV V=\"${A:-" + "v" * big + "\""] * 50), "many lines"),
    ], 2.0)  # 10 MB of lines cost up to 1.04 CPU-s on the restarted VM; a quadratic reading of one costs minutes


def test_an_unannotated_tool_version_default_is_read_in_both_modes(tmp_path: Path) -> None:
    # the same Dockerfile where a renovate.json customManager, not a comment, finds the line (kind in an ENV: an
    # ARG whose FROM use the hunk does not show fails closed from the patch, whatever its value)
    body = DOCKERFILE.replace(ANNOTATION + "\n", "").replace(
        "ARG BUILDX_VERSION\n", "ARG BUILDX_VERSION\nENV KIND_VERSION=${KIND_VERSION-0.23.0}\n")
    tree, patch = _bumped(tmp_path, {"Dockerfile": body},
                          {"Dockerfile": {":-v0.6.2}": ":-v0.6.3}", "-0.23.0}": "-0.24.0}"}})
    for delta in (tree, patch):
        assert moves(delta) == {(*BUILDX, "v0.6.2", "v0.6.3"), ("tool", "kubernetes-sigs/kind", "0.23.0", "0.24.0")}, \
            delta
        assert not delta.problems, delta.problems


@each_case(("value", "default"), [
    ("${BUILDX_VERSION:-v0.6.3}", "v0.6.3"), ("${V-1.2}", "1.2"),
    ("${V}", "${V}"), ("${V:+1.2}", "${V:+1.2}"), ("${V:-${W}}", "${V:-${W}}"), ("${V:-1.2}x", "${V:-1.2}x"),
    ("x${V:-1.2}", "x${V:-1.2}"), ("${V:-}", "${V:-}"), ("${1V:-1.2}", "${1V:-1.2}"), ("1.2", "1.2"),
])
def test_shell_default_takes_only_a_whole_plain_default(value: str, default: str) -> None:
    assert tools.shell_default(value) == default


def test_an_unannotated_look_alike_names_no_tool(tmp_path: Path) -> None:
    from gatekeeper.deps.docker import parse_dockerfile
    body = "FROM alpine:3.20\nENV HELM_VERSION=${HELM_VERSION:-${PINNED}}\nENV YQ_VERSION=${YQ_VERSION:+4.44.2}\n"
    assert [d.name for d in parse_dockerfile("Dockerfile", body.encode())] == ["alpine"]
    each_fast([(lambda: tools.shell_default("${" + "A" * 300_000 + ":-1"), "a long unclosed default")], 1.0)


PLUGINS_PATH = "project/plugins.sbt"
PLUGINS = """\
addSbtPlugin("com.github.sbt" % "sbt-ci-release" % "1.5.12")
addSbtPlugin("com.eed3si9n" % "sbt-buildinfo" % "0.11.0")
addSbtPlugin("org.scalameta" % "sbt-mdoc" % "2.3.6")
addSbtPlugin("org.scoverage" % "sbt-scoverage" % "2.0.0")
addSbtPlugin("ch.epfl.scala" % "sbt-scalafix" % "0.10.4")
addSbtPlugin("com.eed3si9n" % "sbt-projectmatrix" % "0.9.0")
"""
SCOVERAGE = ("maven", "org.scoverage:sbt-scoverage", "2.0.0", "2.0.5")


@pytest.mark.parametrize("scheme", [
    '\n// https://github.com/scala/bug/issues/12632\n'
    'libraryDependencySchemes += "org.scala-lang.modules" %% "scala-xml" % "always"\n',
    '\nThisBuild / libraryDependencySchemes += "org.scala-lang.modules" %% "scala-xml" % VersionScheme.Always\n',
    '\nlibraryDependencySchemes ++= Seq(\n  "org.scala-lang.modules" %% "scala-xml" % "early-semver",\n'
    '  "org.typelevel" %% "cats-core" % VersionScheme.EarlySemVer\n)\n',
])
def test_an_eviction_scheme_added_beside_a_bump_names_nothing_and_the_bump_is_read(tmp_path: Path, scheme: str) -> None:
    edit = {'"sbt-scoverage" % "2.0.0")\n': '"sbt-scoverage" % "2.0.5")\n'}
    repo, base, head = edited_commits(tmp_path, {PLUGINS_PATH: PLUGINS}, {PLUGINS_PATH: edit})
    body = PLUGINS.replace("2.0.0", "2.0.5") + scheme
    repo.write(PLUGINS_PATH, body)
    head = repo.commit()
    tree, patch = _tree(repo, base, head), _patch(repo, base, head)
    assert moves(tree) == {SCOVERAGE}, tree
    if ")\n" in scheme:  # a Seq over lines: its closing `)` is build code, refused from the patch as before
        assert partial(patch, PLUGINS_PATH), patch
    else:
        assert moves(patch) == {SCOVERAGE} and not patch.problems, patch


def _changed_line(line: str) -> list[tuple[str, bool]]:
    return [("addSbtPlugin(\"a.b\" % \"c\" % \"1.0\")", False), (line, True)]


@each_case("line", [
    '"org.scala-lang.modules" %% "scala-xml" % "latest.release"',  # a dynamic version: a dependency, not a scheme
    '"org.scala-lang.modules" %% "scala-xml" % "always-1.0"',
    'libraryDependencySchemes += "org.scala-lang.modules" %% "scala-xml" % schemeFor("xml")',
    'libraryDependencySchemes += "org.scala-lang.modules" %% "scala-xml" % Schemes.Always',  # not sbt's object
    "libraryDependencySettings += compute()",
])
def test_scheme_look_alikes_are_still_refused_from_the_patch(line: str) -> None:
    with pytest.raises(ManifestError):
        sbt_line(_changed_line(line), 1)


def test_a_scheme_line_beside_a_real_module_keeps_the_module() -> None:
    line = '"org.scala-lang.modules" %% "scala-xml" % "always", "org.typelevel" %% "cats-core" % "2.12.0"'
    assert [p[:2] for p in sbt_line(_changed_line(line), 1)] == [("org.typelevel:cats-core", "2.12.0")]
    long = "libraryDependencySchemes += " + '"a" %% "b" % "always", ' * 20_000
    assert sbt_line(_changed_line(long[:3990].rsplit(",", 1)[0]), 1) == []  # many schemes on one line: none a version

    def too_long() -> None:
        with pytest.raises(ManifestError):
            sbt_line(_changed_line(long), 1)
    each_fast([(lambda: sbt_line(_changed_line(long[:3990].rsplit(",", 1)[0]), 1), "many schemes"),
               (too_long, "a line over MAX_LINE")], 1.0)
