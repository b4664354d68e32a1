"""Classes of misses the twenty-seventh blind set of bot update commits found (bench/deps_bumps_twentyseventh.tsv).

All four from the patch alone (with --tree every commit named its version but the bare-sha action moves):
- A pnpm catalog entry bumped in pnpm-workspace.yaml (rolldown/rolldown: Renovate's "update dependency glob to v13",
  `'glob': '^13.0.0'` under `catalog:`, 7 commits): the file had no hunk reader at all. Now a `name: range` line under a
  `catalog:`, a named catalog or `overrides:` the hunk shows is read, and one whose map the hunk does not show is named
  as shown beside a `partial` problem (PartlyShown), as an override always is.
- A job container's `image:` under `container:` (rolldown's semgrep workflow, 1): `container:` opened a "value on the
  lines below", so its `image:` line was refused as a YAML form. A key whose first line below is a `key:` line holds
  a block mapping, and its lines are read one by one.
- A Gemfile.lock hunk in `GEM` below a hunk showing a `PATH` section (dependabot/dependabot-core's `parallel (2.1.0)`,
  2): the sections ran on from one hunk to the next, so the gem read `2.1.0 from PATH ../cargo`, a `changed`. Each
  hunk is now read under the section it shows, none it does not.
- A Renovate-annotated `ARG DEFAULT_OPENTOFU_VERSION=1.12.5` whose use the hunk does not show (runatlantis/atlantis,
  1): the whole Dockerfile was refused. The annotation names the tool; it is named beside the problem, which stays.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.bundler import gemfile_lock_hunks, parse_gemfile_lock
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.deps.pnpmcatalog import workspace_line
from gatekeeper.deps.yamlforms import refuse_changed
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. pnpm-workspace.yaml's catalogs from a patch -----------------------------------------------------------------

WORKSPACE = """\
packages:
  - packages/*
  - examples/*
  - '!packages/bench'

catalog:
  '@napi-rs/cli': 3.4.1
  '@oxc-project/runtime': '=0.98.0'
  'cac': '^6.7.14'
  'chalk': '^5.3.0'
  'consola': '^3.4.2'
  'execa': '^9.2.0'
  'glob': '^12.0.0'
  'pathe': '^2.0.3'
  'remeda': '^2.10.0'
  'signal-exit': '4.1.0'
  'tsdown': 0.15.9
  'typescript': ^5.9.3
  'valibot': '1.1.0'
  'vitest': ^4.0.8

catalogs:
  react17:
    react: ^17.0.2
    react-dom: ^17.0.2
  react18:
    react: ^18.3.1
    react-dom: ^18.3.1

overrides:
  'rollup': 4.52.5
  'esbuild': ^0.25.0

onlyBuiltDependencies:
  - esbuild
"""


@pytest.mark.parametrize(("old", "new", "name"), [
    ("'glob': '^12.0.0'", "'glob': '^13.0.0'", "glob"),  # rolldown 55371fff7a09
    ("'valibot': '1.1.0'", "'valibot': '1.2.0'", "valibot"),
    ("'tsdown': 0.15.9", "'tsdown': 0.15.10", "tsdown"),
])
def test_a_catalog_bump_is_named_from_the_patch_beside_a_problem(tmp_path: Path, old: str, new: str,
                                                                  name: str) -> None:
    tree, patch = _bumped(tmp_path, {"pnpm-workspace.yaml": WORKSPACE}, {"pnpm-workspace.yaml": {old: new}})
    before, after = old.split(": ")[1].strip("'"), new.split(": ")[1].strip("'")
    assert moves(tree) == moves(patch) == {("npm", name, before, after)}, (tree, patch)
    # three context lines show entries only: whether the map is a catalog or `overrides` is not shown
    assert partial(patch, "pnpm-workspace.yaml") and not tree.problems


def test_a_named_catalog_and_a_catalog_the_hunk_shows_are_read_whole(tmp_path: Path) -> None:
    files = {"pnpm-workspace.yaml": WORKSPACE}
    _, patch = _bumped(tmp_path, files, {"pnpm-workspace.yaml": {"react: ^17.0.2": "react: ^17.0.3"}})
    assert moves(patch) == {("npm", "react", "^17.0.2", "^17.0.3")} and not patch.problems, patch
    # the second named catalog's `catalogs:` is four lines up: named as shown, beside the problem
    _, patch = _bumped(tmp_path / "c", files, {"pnpm-workspace.yaml": {"react: ^18.3.1": "react: ^18.3.2"}})
    assert moves(patch) == {("npm", "react", "^18.3.1", "^18.3.2")} and partial(patch, "pnpm-workspace.yaml")
    cli = {"'@napi-rs/cli': 3.4.1": "'@napi-rs/cli': 3.5.0"}
    _, patch = _bumped(tmp_path / "b", files, {"pnpm-workspace.yaml": cli})
    assert moves(patch) == {("npm", "@napi-rs/cli", "3.4.1", "3.5.0")} and not patch.problems, patch


def test_an_override_is_named_and_stays_a_problem(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"pnpm-workspace.yaml": WORKSPACE},
                          {"pnpm-workspace.yaml": {"'rollup': 4.52.5": "'rollup': 4.52.6"}})
    assert moves(tree) == moves(patch) == {("npm", "rollup", "4.52.5", "4.52.6")}
    assert partial(tree, "pnpm-workspace.yaml") and partial(patch, "pnpm-workspace.yaml")


def _read(*lines: str) -> object:
    side = [(line.removeprefix("+"), line.startswith("+")) for line in lines]
    index = next(i for i, (_, changed) in enumerate(side) if changed)
    try:
        return workspace_line(side, index)
    except PartlyShown as exc:
        return ("shown", exc.pairs)
    except ManifestError:
        return "refused"


@each_case(("lines", "read"), [
    (("catalog:", "  a: ^1.0.0", "+  'glob': '^13.0.0'"), [("catalog|glob", "^13.0.0")]),
    (("  a: ^1.0.0", "+  \"@scope/x\": \"2.0.0\""), ("shown", [("@scope/x", "2.0.0")])),
    (("catalogs:", "  old:", "    x: 1.0.0", "  react18:", "+    react: ^18.3.2"),
     [("catalogs.react18|react", "^18.3.2")]),
    (("  react18:", "+    react: ^18.3.2"), ("shown", [("react", "^18.3.2")])),
    (("catalog:", "+  debug: 'npm:obug@^2.1.1'"), [("catalog|obug", "^2.1.1", "npm", "", "debug")]),
    (("overrides:", "+  rollup: 4.52.6"), ("shown", [("overrides|rollup", "4.52.6")])),
    # look-alikes: an alias where no catalog is shown, a selector, a path, a list, nested maps, other sections
    (("overrides:", "+  debug: 'npm:obug@^2.1.1'"), "refused"),
    (("+  debug: 'npm:obug@^2.1.1'",), "refused"),
    (("overrides:", "+  'a>b': 1.0.0"), "refused"),
    (("patchedDependencies:", "+  left-pad@1.3.0: patches/left-pad.patch"), "refused"),
    (("packages:", "+  - packages/*"), "refused"),
    (("catalog:", "+  a: ^1.0.0", "    b: 1"), "refused"),
    (("peerDependencyRules:", "  allowedVersions:", "+    react: '18'"), "refused"),
    (("packageExtensions:", "  foo@1.0.0:", "    dependencies:", "+      bar: ^1.0.0"), "refused"),
    (("packageExtensions:", "  foo@1.0.0:", "+    bar: ^1.0.0"), "refused"),
    (("catalogs:", "+  react: ^18.3.2"), "refused"),
    (("catalog:", "+  glob: github:isaacs/node-glob"), "refused"),
    (("catalog:", "+  glob: latest"), "refused"),
    (("catalog:", "+\tglob: ^13.0.0"), "refused"),
    (("catalog:", "+glob: ^13.0.0"), "refused"),
    (("catalog:", "+  glob: '^13.0.0"), "refused"),  # malformed: an unclosed quote
])
def test_which_workspace_lines_are_read(lines: tuple[str, ...], read: object) -> None:
    assert _read(*lines) == read


# --- 2. a job container's image under `container:` ------------------------------------------------------------------

SEMGREP = """\
name: Semgrep
on:
  pull_request:
  push:
    branches: [main]
permissions: {}
jobs:
  semgrep:
    name: Semgrep
    runs-on: ubuntu-latest
    container:
      image: semgrep/semgrep:1.172.0
    steps:
      - uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0
      - run: semgrep ci
"""


def test_a_job_containers_image_is_read_from_its_hunk(tmp_path: Path) -> None:
    path = ".github/workflows/semgrep.yml"
    tree, patch = _bumped(tmp_path, {path: SEMGREP}, {path: {"semgrep:1.172.0": "semgrep:1.173.0"}})
    assert moves(tree) == moves(patch) == {("docker", "semgrep/semgrep", "1.172.0", "1.173.0")}, patch
    assert not patch.problems


def _hunk(*lines: str) -> str:
    return "\n".join([HUNK, *(CHANGED + line[1:] if line.startswith("+") else line for line in lines)])


@each_case("lines", [
    ("    container:", "+      node:20"),  # a plain scalar continued on the next line: no key
    ("    container: |", "+      image: evil/x:1"),  # a block scalar's text
    ("    container: >-", "      options: --cpus 1", "+      image: evil/x:1"),
    ("    container: !!str", "+      image: evil/x:1"),
    ("      - uses:", "+          evil/action@v1"),
])
def test_a_value_continued_below_its_key_stays_refused(lines: tuple[str, ...]) -> None:
    with pytest.raises(ManifestError):
        refuse_changed(_hunk(*lines), ("uses", "image", "container"))


def test_a_block_mappings_lines_are_lines_of_their_own() -> None:
    body = _hunk("    container:", "      # the scanner's own image", "+      image: semgrep/semgrep:1.173.0",
                 "+      options: --user root")
    assert refuse_changed(body, ("uses", "image", "container"))[2] == "      image: semgrep/semgrep:1.173.0"


# --- 3. Gemfile.lock hunks under the section each shows --------------------------------------------------------------

LOCK_HUNKS = "\n".join([
    HUNK, "PATH", "  remote: ../cargo", "  specs:", "    dependabot-cargo (0.1.0)", "      dependabot-common (= 0.1.0)",
    CHANGED + "      parallel (>= 1.24, < 3.0)",
    HUNK, "    ostruct (0.6.3)", CHANGED + "    parallel (2.1.0)", "    parser (3.3.10.0)",
    HUNK, "GIT", "  remote: https://github.com/example/fork.git",
    "  revision: 1f0e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6", "  specs:", CHANGED + "    toxiproxy (2.0.3)",
])


def test_each_gemfile_lock_hunk_reads_its_own_section() -> None:
    found = {(d.name, d.version) for d in gemfile_lock_hunks("updater/Gemfile.lock", LOCK_HUNKS.encode())}
    assert found == {("dependabot-cargo", "0.1.0 from PATH ../cargo"), ("parallel", "2.1.0"), ("ostruct", "0.6.3"),
                     ("parser", "3.3.10.0"),
                     ("toxiproxy", "2.0.3 from GIT https://github.com/example/fork.git revision:"
                                   "1f0e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6")}


def test_the_whole_file_reader_keeps_a_line_that_looks_like_a_hunk_marker() -> None:
    """`@@` in a real Gemfile.lock opens an unknown section (no spec read), never a fresh start."""
    body = "GIT\n  remote: https://github.com/example/fork.git\n  specs:\n    rails (7.0.2)\n@@\n    rake (13.0.0)\n"
    assert {(d.name, d.version) for d in parse_gemfile_lock("Gemfile.lock", body.encode())} == {
        ("rails", "7.0.2 from GIT https://github.com/example/fork.git")}


GEMFILE_LOCK = """\
PATH
  remote: ../bundler
  specs:
    dependabot-bundler (0.1.0)
      dependabot-common (= 0.1.0)
      parallel (~> 1.24)

PATH
  remote: ../cargo
  specs:
    dependabot-cargo (0.1.0)
      dependabot-common (= 0.1.0)
      toml-rb (>= 4.1.1, < 5.0)

GEM
  remote: https://rubygems.org/
  specs:
    ast (2.4.3)
    json (2.15.1)
    language_server-protocol (3.17.0.5)
    lint_roller (1.1.0)
    ostruct (0.6.3)
    parallel (1.28.0)
    parser (3.3.10.0)
      ast (~> 2.4.1)
      racc
    racc (1.8.1)

PLATFORMS
  ruby

DEPENDENCIES
  dependabot-bundler!
  dependabot-cargo!
  parallel

BUNDLED WITH
   2.6.9
"""


def test_a_gem_bumped_below_a_path_section_is_an_upgrade_from_the_patch(tmp_path: Path) -> None:
    edits = {"updater/Gemfile.lock": {"parallel (~> 1.24)": "parallel (>= 1.24, < 3.0)",
                                      "parallel (1.28.0)": "parallel (2.1.0)"}}
    tree, patch = _bumped(tmp_path, {"updater/Gemfile.lock": GEMFILE_LOCK}, edits)
    assert moves(tree) == moves(patch) == {("bundler", "parallel", "1.28.0", "2.1.0")}, patch
    assert [c.change for c in patch.changes] == ["upgraded"]


# --- 4. a Renovate-annotated ARG whose use the hunk does not show ----------------------------------------------------

DOCKERFILE = """\
# syntax=docker/dockerfile:1
# what distro is the image being built for
ARG ALPINE_TAG=3.22.2@sha256:4b7ce07002c69e8f3d704a9c5d6fd3053be500b7f1c69fc0d80990c2ad8dd412
ARG DEBIAN_TAG=12.12-slim@sha256:7e490910eea2861b9664577a96b54ce68ea3e02ce7f51d89cb0103a6f9c386e0
ARG GOLANG_TAG=1.25.4-alpine3.22@sha256:d3f0cf7723f3429e3f9ed846243970b20a2de7bae6a5b66fc5914e228d831bbb

# renovate: datasource=github-releases depName=hashicorp/terraform versioning=hashicorp
ARG DEFAULT_TERRAFORM_VERSION=1.13.5
# renovate: datasource=github-releases depName=opentofu/opentofu versioning=hashicorp
ARG DEFAULT_OPENTOFU_VERSION=1.10.6
# renovate: datasource=github-releases depName=open-policy-agent/conftest
ARG DEFAULT_CONFTEST_VERSION=0.63.0

# Stage 1: build artifact and download deps

FROM golang:${GOLANG_TAG} AS builder

WORKDIR /app
RUN go build -o atlantis .
"""


def test_an_annotated_arg_is_named_from_its_hunk_beside_the_problem(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"Dockerfile": DOCKERFILE},
                          {"Dockerfile": {"OPENTOFU_VERSION=1.10.6": "OPENTOFU_VERSION=1.10.7"}})
    assert moves(tree) == moves(patch) == {("tool", "opentofu/opentofu", "1.10.6", "1.10.7")}, patch
    assert partial(patch, "Dockerfile") and not tree.problems  # a FROM below may use it: reviewed


def test_an_unannotated_arg_beside_it_still_names_nothing(tmp_path: Path) -> None:
    edits = {"Dockerfile": {"OPENTOFU_VERSION=1.10.6": "OPENTOFU_VERSION=1.10.7",
                            "GOLANG_TAG=1.25.4": "GOLANG_TAG=1.25.5"}}
    _, patch = _bumped(tmp_path, {"Dockerfile": DOCKERFILE}, edits)
    assert not patch.changes and partial(patch, "Dockerfile"), patch
    # an annotation the hunk shows above another line, not the ARG's own: nothing named either
    moved = DOCKERFILE.replace("ARG DEFAULT_OPENTOFU_VERSION=1.10.6\n", "ARG DEFAULT_OPENTOFU_VERSION=1.10.6\n"
                               "ARG GO_VERSION=1.25\n")
    _, patch = _bumped(tmp_path / "b", {"Dockerfile": moved}, {"Dockerfile": {"GO_VERSION=1.25": "GO_VERSION=6.66"}})
    assert not patch.changes and partial(patch, "Dockerfile"), patch
