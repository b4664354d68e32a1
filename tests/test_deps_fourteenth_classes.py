"""Classes of misses the fourteenth blind set of bot update commits found (bench/deps_bumps_fourteenth.tsv): a Compose
image written as a variable's default (FOSSBilling's `.ddev/docker-compose.phpmyadmin.yaml`:
`image: ${PHPMYADMIN_DOCKER_IMAGE:-phpmyadmin:5@sha256:…}`, whose digest Renovate moves; read as nothing and no
problem before) and an MSBuild project SDK fetched by version (Dapper's `Build.csproj`:
`<Project Sdk="Microsoft.Build.Traversal/2.2.3">`, a `partial` problem with `--tree` and from a patch before).
Real-shaped files, look-alikes and attacks that must not match; one git repository per class, the line readers
in-process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.nuget import parse_msbuild
from gatekeeper.deps.nugetedits import msbuild_line
from gatekeeper.deps.residue import xml_residue
from gatekeeper.deps.toolfiles import parse_compose
from tests.deltas import each_fast, moves, refused
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

OLD_DIGEST, NEW_DIGEST = "5e2289bc" + "d5" * 28, "6db6e0bc" + "9e" * 28
COMPOSE = f"""\
#ddev-generated
services:
  phpmyadmin:
    container_name: ddev-${{DDEV_SITENAME}}-phpmyadmin
    image: ${{PHPMYADMIN_DOCKER_IMAGE:-phpmyadmin:5@sha256:{OLD_DIGEST}}}
    working_dir: "/root"
    restart: "no"
    labels:
      com.ddev.site-name: ${{DDEV_SITENAME}}
    environment:
      - PMA_USER=root
  cache:
    image: "${{CACHE_IMAGE-redis:7.2.4}}"
"""
COMPOSE_PATH = ".ddev/docker-compose.phpmyadmin.yaml"


def test_compose_image_default_bump_tree_and_patch(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {COMPOSE_PATH: COMPOSE},
                                      {COMPOSE_PATH: {OLD_DIGEST: NEW_DIGEST, "redis:7.2.4": "redis:7.2.5"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("docker", "phpmyadmin", f"5@sha256:{OLD_DIGEST}", f"5@sha256:{NEW_DIGEST}"),
                                ("docker", "redis", "7.2.4", "7.2.5")}, delta
        assert not delta.problems


@each_case("line", [
    "image: ${IMAGE:+redis:7}",  # the value when the variable IS set: not what the file pins by default
    "image: ${IMAGE:?redis:7 is required}",  # an error message
    "image: ${IMAGE}",  # no default
    "image: ${IMAGE:-redis:${TAG}}",  # a default that holds a variable itself
    "image: ${IMAGE:-redis:7}-debug",  # more beside the variable
    "image: ${1IMAGE:-redis:7}",  # no variable's name
    "image: $IMAGE:-redis:7",
])
def test_compose_variable_look_alikes_name_no_image(line: str) -> None:
    assert parse_compose("compose.yaml", f"services:\n  a:\n    {line}\n".encode()) == []


def test_compose_plain_images_unchanged() -> None:
    found = parse_compose("compose.yaml", b"services:\n  a:\n    image: postgres:16.2\n  b:\n    - image: 'a/b@sha256:"
                          + b"0" * 64 + b"'\n")
    assert [(d.name, d.version) for d in found] == [("postgres", "16.2"), ("a/b", "@sha256:" + "0" * 64)]


TRAVERSAL = """\
<Project Sdk="Microsoft.Build.Traversal/2.2.3">
  <ItemGroup>
    <ProjectReference Include="benchmarks/**/*.csproj" />
    <ProjectReference Include="Dapper*/*.csproj" />
    <ProjectReference Include="tests/**/*.csproj" />
  </ItemGroup>
</Project>
"""
SDK_ELEMENT = """\
<Project>
  <Sdk Name="Microsoft.Build.NoTargets" Version="3.7.0" />
  <Import Project="Sdk.props" Sdk="Microsoft.NET.Sdk" />
  <PropertyGroup>
    <TargetFramework>net9.0</TargetFramework>
  </PropertyGroup>
</Project>
"""


def test_project_sdks_are_build_dependencies() -> None:
    found = parse_msbuild("Build.csproj", b'<Project Sdk="Microsoft.NET.Sdk;Microsoft.Build.NoTargets/3.7.0">'
                          b'<Sdk Name="Arcade.Sdk" Version="9.0.0" /><Sdk Name="Other.Sdk" />'
                          b'<Sdk Name="Prop.Sdk" Version="$(V)" />'
                          b'<Sdk Name="More.Sdk" Version="1.0" MinimumVersion="1.0" />'
                          b"</Project>")  # the last three: no version, a property's, an attribute beside
    assert [(d.name, d.version, d.scope) for d in found] == [("Microsoft.Build.NoTargets", "3.7.0", "build"),
                                                             ("Arcade.Sdk", "9.0.0", "build")]


@pytest.mark.parametrize(("files", "edit"), [
    ({"Build.csproj": TRAVERSAL}, {"Build.csproj": {"Traversal/2.2.3": "Traversal/4.1.82"}}),
    ({"src/Directory.Build.props": SDK_ELEMENT},
     {"src/Directory.Build.props": {'Version="3.7.0"': 'Version="3.8.0"'}}),
])
def test_project_sdk_bump_tree_and_patch(tmp_path: Path, files: dict[str, str],
                                         edit: dict[str, dict[str, str]]) -> None:
    repo, base, head = edited_commits(tmp_path, files, edit)
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.from_version, c.to_version, c.change) for c in delta.changes] in (
            [("Microsoft.Build.Traversal", "2.2.3", "4.1.82", "upgraded")],
            [("Microsoft.Build.NoTargets", "3.7.0", "3.8.0", "upgraded")]), delta
        assert not delta.problems


@pytest.mark.parametrize("edit", [
    {'<Project Sdk="Microsoft.Build.Traversal/2.2.3">':
     '<Project Sdk="Microsoft.Build.Traversal/4.1.82" InitialTargets="Fetch">'},  # a target beside the bump
    {"Traversal/2.2.3": "Traversal/$(TraversalVersion)"},
    {"Traversal/2.2.3": "Traversal/latest"},
])
def test_project_sdk_look_alikes_fail_closed(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Build.csproj": TRAVERSAL}, {"Build.csproj": edit})
    assert _partial(_patch(repo, base, head), "Build.csproj")
    assert _partial(_tree(repo, base, head), "Build.csproj")


def test_project_sdk_moved_to_another_package_is_a_removal_and_an_addition(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"Build.csproj": TRAVERSAL},
                                      {"Build.csproj": {"Microsoft.Build.Traversal/2.2.3": "Evil.Traversal/2.2.3"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert {(c.name, c.change) for c in delta.changes} == {("Microsoft.Build.Traversal", "removed"),
                                                               ("Evil.Traversal", "added")}, delta


@each_case("line", [
    '<Sdk Name="X" Version="1.0" MinimumVersion="0.1" />',  # an attribute the reader does not read
    '<Sdk Name="X" Version="$(V)" />',
    '<Project Sdk="X/1.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">',  # the other side unseen
    '<Project Sdk="X/1.0/2">',
])
def test_sdk_line_look_alikes_are_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        msbuild_line([(line, True)], 0)


def test_sdk_residue_blanks_only_versions() -> None:
    before = xml_residue(b'<Project Sdk="A/1.0"><Sdk Name="B" Version="2.0" /><Sdk Name="C" Version="3.0" X="y" />'
                         b"</Project>")
    after = xml_residue(b'<Project Sdk="A/1.1"><Sdk Name="B" Version="2.1" /><Sdk Name="C" Version="3.1" X="y" />'
                        b"</Project>")
    assert before[:2] == after[:2] and before[2] != after[2]  # a `<Sdk>` with more than its name and version: kept


def test_new_readers_are_linear_on_hostile_lines() -> None:
    # each pattern added here, fed 1 MiB input built against it: a linear reader takes milliseconds
    mib = 1_000_000
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: parse_compose("c.yaml", b"image: ${" + b"A" * mib + b":-x"), "compose variable"),
        (lambda: parse_compose("c.yaml", b"image: ${A:-" + b"a:" * mib), "compose default"),
        (lambda: xml_residue(b'<Project Sdk="' + b"a/1;" * (mib // 4) + b'>'), "project sdk residue"),
        (lambda: xml_residue(b'<Sdk Name="a" ' + b'Version="1" ' * (mib // 12) + b"/>"), "sdk residue"),
        (lambda: refused(lambda: msbuild_line([('<Project Sdk="' + "a/1;" * (mib // 4), True)], 0)), "sdk line"),
    ]
    each_fast(calls, 2)
