"""Classes of misses the twenty-sixth blind set of bot update commits found (bench/deps_bumps_twentysixth.tsv).

- A version a repository's own Renovate custom regex manager reads (gotify/server: `GO_VERSION` holds `1.26.0`, and
  its `customManagers` entry names it the `docker.io/gotify/build` image; Renovate's "update docker.io/gotify/build
  docker tag to v1.26.0", 1 commit with --tree): no reader reads such a file, so nothing was named. Now BASE's
  regex managers (renovatecustom.py) read the changed files they select, at both sides.
- A Dockerfile hunk that moves an `ARG` whose `FROM` it does not show beside a `FROM` it does show (PHP-CS-Fixer's
  `ARG ALPINE_VERSION=3.24` with `FROM alpine:3.24 AS sphinx-lint`, 2 commits from the patch): the whole file failed
  closed and named nothing. Now the images the hunk shows are named beside the `partial` problem; the unseen ARG's
  own line still names nothing (round 7's class: it is no tool bump).
- One name edited in two places of a line-read file in different ways (JasperFx/marten's csproj: a conditional
  `Microsoft.Extensions.Hosting.Abstractions` 6.0.0 → 8.0.0 and 7.0.0 → 8.0.0 beside Dependabot's `System.Text.Json`
  8.0.0 → 8.0.4, 1 commit from the patch): the file was refused whole. Now that name alone is left to the `partial`
  problem and the others are named.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import renovatecustom
from gatekeeper.deps.docker import dockerfile_hunks
from gatekeeper.deps.model import ManifestError, PartlyRead
from tests.deltas import each_fast, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import GitRepo, edited_commits

# --- 1. a Renovate custom regex manager's version -------------------------------------------------------------------

GO_MANAGER = {
    "customType": "regex",
    "managerFilePatterns": ["/^GO_VERSION$/"],
    "depTypeTemplate": "language",
    "matchStrings": ["^(?<currentValue>[0-9.]+)"],
    "extractVersionTemplate": "^(?<version>.+)-linux-amd64$",
    "depNameTemplate": "docker.io/example/build",
    "datasourceTemplate": "docker",
    "versioningTemplate": "docker",
}
MAKE_MANAGER = {  # the older spelling: `regexManagers`, `fileMatch` regexes, the name and source from the match
    "fileMatch": ["(^|/)versions\\.txt$"],
    "matchStrings": ["# renovate: datasource=(?<datasource>\\S+) depName=(?<depName>\\S+)\\n\\w+_VERSION \\?= "
                     "(?<currentValue>v?[\\d.]+)"],
}
VERSIONS = """\
# Versions of the tools CI installs (read by hack/install-tools.sh)
# renovate: datasource=github-releases depName=golangci/golangci-lint
GOLANGCI_VERSION ?= v2.1.0
# renovate: datasource=go depName=github.com/a-h/templ
TEMPL_VERSION ?= 0.3.857
"""


def _config(*managers: dict[str, object], key: str = "customManagers") -> str:
    return json.dumps({"$schema": "https://docs.renovatebot.com/renovate-schema.json",
                       "extends": ["config:recommended"], key: list(managers)}, indent=2) + "\n"


def _renovate(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, {"README.md": "app\n", **files}, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


def test_a_version_file_a_custom_manager_names_is_that_image_with_tree(tmp_path: Path) -> None:
    files = {"renovate.json": _config(GO_MANAGER), "GO_VERSION": "1.25.1\n",
             "go.mod": "module example.com/app\n\ngo 1.24.0\n\ntoolchain go1.25.1\n"}
    tree, patch = _renovate(tmp_path, files, {"GO_VERSION": {"1.25.1": "1.26.0"}, "go.mod": {"go1.25.1": "go1.26.0"}})
    assert ("docker", "docker.io/example/build", "1.25.1", "1.26.0") in moves(tree)  # type: ignore[arg-type]
    change = next(c for c in tree.changes if c.name == "docker.io/example/build")  # type: ignore[attr-defined]
    assert change.manifest == "GO_VERSION" and change.scope == "build" and change.direct
    # the patch holds no config: the go.mod toolchain only, as before
    assert not any(c.name == "docker.io/example/build" for c in patch.changes)  # type: ignore[attr-defined]


def test_the_older_spelling_with_names_from_the_match(tmp_path: Path) -> None:
    for place in ("renovate.json", ".github/renovate.json", ".renovaterc.json"):
        tree, _ = _renovate(tmp_path / place.replace("/", "_"), {place: _config(MAKE_MANAGER, key="regexManagers"),
                                                                 "ci/versions.txt": VERSIONS},
                            {"ci/versions.txt": {"v2.1.0": "v2.2.1", "0.3.857": "0.3.865"}})
        assert moves(tree) >= {("tool", "golangci/golangci-lint", "v2.1.0", "v2.2.1"),  # type: ignore[arg-type]
                               ("go", "github.com/a-h/templ", "0.3.857", "0.3.865")}, place


def test_a_glob_file_pattern(tmp_path: Path) -> None:
    manager = {**GO_MANAGER, "managerFilePatterns": ["**/.go-build-version"]}
    tree, _ = _renovate(tmp_path, {"renovate.json": _config(manager), "ci/.go-build-version": "1.25.1\n"},
                        {"ci/.go-build-version": {"1.25.1": "1.25.3"}})
    assert ("docker", "docker.io/example/build", "1.25.1", "1.25.3") in moves(tree)  # type: ignore[arg-type]


@each_case("config, why", [
    (_config({**GO_MANAGER, "depNameTemplate": "{{{replace 'x' 'y' depName}}}"}), "a template is not a name"),
    (_config({**GO_MANAGER, "matchStrings": ["^(?<currentValue>[0-9.+)"]}), "a pattern that does not compile"),
    (_config({**GO_MANAGER, "matchStrings": ["^(?<version>[0-9.]+)"]}), "no currentValue group"),
    (_config({**GO_MANAGER, "managerFilePatterns": ["/^OTHER_VERSION$/"]}), "another file"),
    (_config({**GO_MANAGER, "customType": "jsonata"}), "another kind of custom manager"),
    (_config({**GO_MANAGER, "managerFilePatterns": ["/^GO_VERSION$/q"]}), "flags JavaScript does not have"),
    ("{\n  // JSON5 comments\n  customManagers: [],\n}\n", "JSON5 beyond JSON"),
    ('{"customManagers": {"not": "a list"}}\n', "a malformed config"),
    ("[1, 2]\n", "not an object"),
    (_config(GO_MANAGER).replace("customManagers", "packageRules"), "no custom managers"),
])
def test_look_alikes_and_malformed_configs_name_nothing(tmp_path: Path, config: str, why: str) -> None:
    tree, _ = _renovate(tmp_path, {"renovate.json": config, "GO_VERSION": "1.25.1\n"},
                        {"GO_VERSION": {"1.25.1": "1.26.0"}})
    assert not tree.changes and not tree.problems, why  # type: ignore[attr-defined]


def test_the_config_is_read_at_base_only(tmp_path: Path) -> None:
    # a change that adds the manager with the version cannot choose what the gate reads: nothing is named
    repo = GitRepo(tmp_path)
    repo.write("GO_VERSION", "1.25.1\n")
    base = repo.commit()
    repo.write("renovate.json", _config(GO_MANAGER))
    repo.write("GO_VERSION", "1.26.0\n")
    head = repo.commit("bump")
    assert not _tree(repo, base, head).changes


def test_only_moves_are_named_and_a_version_the_delta_names_is_not_repeated(tmp_path: Path) -> None:
    # the manager reads the Dockerfile the docker reader reads too: one change, the reader's
    manager = {"customType": "regex", "managerFilePatterns": ["/(^|/)Dockerfile$/"], "datasourceTemplate": "docker",
               "matchStrings": ["FROM (?<depName>[\\w./-]+):(?<currentValue>[\\w.-]+)"]}
    tree, _ = _renovate(tmp_path, {"renovate.json": _config(manager), "Dockerfile": "FROM golang:1.25.1\n"},
                        {"Dockerfile": {"1.25.1": "1.26.0"}})
    assert [(c.name, c.to_version) for c in tree.changes] == [("golang", "1.26.0")]  # type: ignore[attr-defined]
    # a value that is not a version, and a file that is removed, name nothing
    tree, _ = _renovate(tmp_path / "b", {"renovate.json": _config(GO_MANAGER), "GO_VERSION": "latest\n"},
                        {"GO_VERSION": {"latest": "stable"}})
    assert not tree.changes  # type: ignore[attr-defined]


def test_a_larger_file_is_not_read(tmp_path: Path) -> None:
    body = "1.25.1\n" + "#\n" * (renovatecustom._MAX_FILE // 2)
    tree, _ = _renovate(tmp_path, {"renovate.json": _config(GO_MANAGER), "GO_VERSION": body},
                        {"GO_VERSION": {"1.25.1": "1.26.0"}})
    assert not tree.changes  # type: ignore[attr-defined]


def test_hostile_configs_are_bounded() -> None:
    many = _config(*[GO_MANAGER] * 10_000).encode()
    assert len(renovatecustom.managers(many)) == renovatecustom._MAX_MANAGERS
    long_pattern = _config({**GO_MANAGER, "matchStrings": ["(?<currentValue>" + "a" * 5000 + ")"]}).encode()
    assert renovatecustom.managers(long_pattern) == []
    each_fast([(lambda: renovatecustom.managers(b"[" * 100_000), "deep nesting"),
               (lambda: renovatecustom.managers(many), "many managers")], 2.0)


# --- 2. a Dockerfile hunk: an unseen ARG beside a FROM it shows ------------------------------------------------------

DOCKERFILE = """\
ARG PHP_VERSION=8.5
ARG ALPINE_VERSION=3.23

FROM alpine:3.23 AS sphinx-lint

RUN apk add python3 py3-pip git \\
    && pip install --break-system-packages sphinx-lint

FROM php:${PHP_VERSION}-cli-alpine${ALPINE_VERSION} AS base

RUN apk add --no-cache git
COPY --from=composer/composer:2-bin /composer /usr/bin/composer
WORKDIR /app
"""


def test_an_image_the_hunk_shows_is_named_beside_an_unseen_arg(tmp_path: Path) -> None:
    edits = {"Dockerfile": {"ALPINE_VERSION=3.23": "ALPINE_VERSION=3.24", "FROM alpine:3.23": "FROM alpine:3.24"}}
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": DOCKERFILE}, edits)
    delta = _patch(repo, base, head)
    assert moves(delta) == {("docker", "alpine", "3.23", "3.24")}
    assert partial(delta, "Dockerfile")  # the php image's ARG: still reviewed
    assert all(c.partial for c in delta.changes)
    tree = _tree(repo, base, head)
    assert ("docker", "alpine", "3.23", "3.24") in moves(tree) and not tree.problems


def test_the_unseen_arg_alone_still_names_nothing(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": DOCKERFILE},
                                      {"Dockerfile": {"ALPINE_VERSION=3.23": "ALPINE_VERSION=3.24"}})
    delta = _patch(repo, base, head)
    assert not delta.changes and partial(delta, "Dockerfile")


def test_the_hunk_reader_names_what_it_shows_and_says_what_it_cannot() -> None:
    side = "\0ARG GO_VERSION=1.25\nWORKDIR /src\n\0FROM node:22.1.0 AS web\n@@\n\0FROM golang:1.25 AS go\n"
    with pytest.raises(PartlyRead) as caught:
        dockerfile_hunks("Dockerfile", side.encode())
    assert [(d.name, d.version) for d in caught.value.found] == [("node", "22.1.0"), ("golang", "1.25")]
    assert "GO_VERSION=1.25" in str(caught.value)
    # the same ARG used by a FROM its hunk shows is read as before, with no problem
    assert [d.name for d in dockerfile_hunks("Dockerfile", b"\0ARG GO_VERSION=1.25\n\0FROM golang:${GO_VERSION}\n")] \
        == ["golang"]


@each_case("side", [
    b"\0ARG\n\0FROM alpine:3.24\n", b"\0ARG =1\n@@\n@@\n\0FROM\n", b"\0ARG X=1\n" * 2000 + b"\0FROM alpine:3.24\n",
    "\0ARG Ä=1\n\0FROM ålpine:3\n".encode(), b"\0ARG X=${X}\n\0FROM ${X}\n",
])
def test_malformed_hunks_do_not_crash(side: bytes) -> None:
    try:
        dockerfile_hunks("Dockerfile", side)
    except PartlyRead as exc:
        assert isinstance(exc.found, list)
    except ManifestError:
        pass  # refused: an answer too


# --- 3. one name edited in two places beside other names ------------------------------------------------------------

CSPROJ = """\
<Project Sdk="Microsoft.NET.Sdk">

    <PropertyGroup>
        <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>
        <Nullable>enable</Nullable>
    </PropertyGroup>

    <ItemGroup Condition="'$(TargetFramework)' == 'net6.0'">
        <PackageReference Include="Microsoft.Extensions.Hosting.Abstractions" Version="6.0.0" />
    </ItemGroup>

    <ItemGroup Condition="'$(TargetFramework)' == 'net7.0'">
        <PackageReference Include="Microsoft.Extensions.Hosting.Abstractions" Version="7.0.0" />
    </ItemGroup>

    <ItemGroup Condition="'$(TargetFramework)' == 'net8.0'">
        <PackageReference Include="Microsoft.Extensions.Hosting.Abstractions" Version="8.0.0" />
    </ItemGroup>

    <ItemGroup>
        <PackageReference Include="Npgsql" Version="8.0.3" />
        <PackageReference Include="Polly.Core" Version="8.3.1" />
        <PackageReference Include="System.Text.Json" Version="8.0.0" />
        <PackageReference Include="Weasel.Postgresql" Version="7.4.1" />
    </ItemGroup>

    <ItemGroup>
        <None Include="README.md" Pack="true" PackagePath="\\" />
    </ItemGroup>
</Project>
"""
TWO_PLACES = {'Abstractions" Version="6.0.0"': 'Abstractions" Version="8.0.0"',
              'Abstractions" Version="7.0.0"': 'Abstractions" Version="8.0.0"'}


def test_the_other_names_of_a_file_are_named_beside_a_name_edited_in_two_places(tmp_path: Path) -> None:
    edits = {"src/App/App.csproj": {**TWO_PLACES, '"System.Text.Json" Version="8.0.0"': '"System.Text.Json" '
                                    'Version="8.0.4"'}}
    repo, base, head = edited_commits(tmp_path, {"src/App/App.csproj": CSPROJ}, edits)
    delta = _patch(repo, base, head)
    assert moves(delta) == {("nuget", "System.Text.Json", "8.0.0", "8.0.4")}
    assert partial(delta, "src/App/App.csproj")
    assert any("edited in two places" in p.msg for p in delta.problems)
    tree = _tree(repo, base, head)  # the whole file: both moves
    assert ("nuget", "System.Text.Json", "8.0.0", "8.0.4") in moves(tree)


def test_the_name_edited_in_two_places_alone_still_names_nothing(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"src/App/App.csproj": CSPROJ}, {"src/App/App.csproj": TWO_PLACES})
    delta = _patch(repo, base, head)
    assert not delta.changes and partial(delta, "src/App/App.csproj")


def test_the_same_edit_in_two_places_is_still_one_move(tmp_path: Path) -> None:
    same = {'Abstractions" Version="6.0.0"': 'Abstractions" Version="6.0.1"'}  # net6.0's and net8.0's
    body = CSPROJ.replace('Abstractions" Version="8.0.0"', 'Abstractions" Version="6.0.0"')
    repo, base, head = edited_commits(tmp_path, {"src/App/App.csproj": body}, {"src/App/App.csproj": same})
    delta = _patch(repo, base, head)
    assert moves(delta) == {("nuget", "Microsoft.Extensions.Hosting.Abstractions", "6.0.0", "6.0.1")}
    assert not delta.problems
