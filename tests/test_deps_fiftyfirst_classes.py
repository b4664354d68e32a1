"""Classes of misses the fifty-first blind set (bench/deps_bumps_fiftyfirst.tsv) showed, each with look-alikes that
must not match and malformed variants that are a finding, never a crash or a silent pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.nixflake import parse_flake_lock
from gatekeeper.deps.registry import format_for
from tests.deltas import moves, partial
from tests.deltas import patch as patch_of
from tests.deltas import tree as tree_of
from tests.gitrepo import edited_commits

# Drone's and Woodpecker's pipelines run each step in the image it names (grafana/synthetic-monitoring-agent's "Update
# grafana-build-tools to 0.23.1" moved eight `image: ghcr.io/grafana/grafana-build-tools:v0.23.0` lines of its
# `.drone.yml`), and Renovate's droneci and woodpecker managers bump them; no reader read either file, so the move
# named nothing and no problem.
DRONE = """---
kind: pipeline
type: docker
name: build

platform:
  os: linux
  arch: amd64

steps:
- name: deps
  image: ghcr.io/grafana/grafana-build-tools:v0.23.0
  commands:
  - make deps
- name: lint
  image: ghcr.io/grafana/grafana-build-tools:v0.23.0
  depends_on:
  - deps
- name: docker publish
  image: plugins/docker:20.14
  settings:
    repo: grafana/synthetic-monitoring-agent

services:
- name: database
  image: mysql:8.0.36

trigger:
  ref:
  - refs/heads/main

---
kind: secret
name: gcr_admin

get:
  name: service-account
  path: infra/data/ci/gcr-admin
"""
WOODPECKER = """when:
  - event: [push, pull_request]

steps:
  build:
    image: golang:1.22.5
    commands:
      - go build ./...
  publish:
    image: woodpeckerci/plugin-docker-buildx:4.1.0
    settings:
      repo: example/app

services:
  database:
    image: postgres:16.3
"""


@each_case("path", [".drone.yml", "deploy/.drone.yml", ".woodpecker.yml", ".woodpecker.yaml", ".woodpecker/build.yml",
                    ".woodpecker/release.yaml"])
def test_drone_and_woodpecker_pipelines_are_read(path: str) -> None:
    assert format_for(path) is not None, path


@each_case("path", ["drone.yml", ".drone.yml.example", "docs/drone.md", ".woodpecker/scripts/x.yml",
                    ".woodpecker.yml.bak", "woodpecker.yml"])
def test_look_alike_names_are_not_pipelines(path: str) -> None:
    assert format_for(path) is None, path


@each_case("path, body, old, new, moved", [
    (".drone.yml", DRONE, "grafana-build-tools:v0.23.0", "grafana-build-tools:v0.23.1",
     ("docker", "ghcr.io/grafana/grafana-build-tools", "v0.23.0", "v0.23.1")),
    (".drone.yml", DRONE, "mysql:8.0.36", "mysql:8.4.0", ("docker", "mysql", "8.0.36", "8.4.0")),
    (".drone.yml", DRONE, "plugins/docker:20.14", "plugins/docker:20.18",
     ("docker", "plugins/docker", "20.14", "20.18")),
    (".woodpecker.yml", WOODPECKER, "golang:1.22.5", "golang:1.23.0", ("docker", "golang", "1.22.5", "1.23.0")),
    (".woodpecker/ci.yaml", WOODPECKER, "plugin-docker-buildx:4.1.0", "plugin-docker-buildx:5.0.0",
     ("docker", "woodpeckerci/plugin-docker-buildx", "4.1.0", "5.0.0")),
    (".woodpecker.yml", WOODPECKER, "postgres:16.3", "postgres:17.0", ("docker", "postgres", "16.3", "17.0")),
])
def test_a_pipeline_image_bump_both_ways(tmp_path: Path, path: str, body: str, old: str, new: str,
                                         moved: tuple[str, str, str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {path: body}, {path: {old: new}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert moves(delta) == {moved}, delta
        assert not delta.problems, delta


# A secret's `get: name:`/`path:`, a step's `name:` and its plugin `settings: repo:` name no image: nothing moves.
@each_case("old, new", [
    ("path: infra/data/ci/gcr-admin", "path: infra/data/ci/gcr-writer"),
    ("repo: grafana/synthetic-monitoring-agent", "repo: grafana/sm-agent:latest"),
    ("- name: docker publish", "- name: docker/publish:1"),
])
def test_what_names_no_image_moves_nothing(tmp_path: Path, old: str, new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {".drone.yml": DRONE}, {".drone.yml": {old: new}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert moves(delta) == set(), delta


# An image defined under a YAML anchor and merged into a step is read both ways (the hunk shows the anchor's key); such
# a file that no longer parses is a problem, never a silent pass.
ANCHORED = """x-step: &step
  image: ghcr.io/grafana/grafana-build-tools:v0.23.0
  pull: always

kind: pipeline
type: docker
name: build

steps:
- name: lint
  <<: *step
  commands:
  - make lint
"""


def test_an_anchored_pipeline_image(tmp_path: Path) -> None:
    edit = {".drone.yml": {"tools:v0.23.0": "tools:v0.23.1"}}
    repo, base, head = edited_commits(tmp_path, {".drone.yml": ANCHORED}, edit)
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert moves(delta) == {("docker", "ghcr.io/grafana/grafana-build-tools", "v0.23.0", "v0.23.1")}, delta
    broken = {".drone.yml": {"tools:v0.23.0": "tools:v0.23.1", "  <<: *step": "  <<: *step\n - : [unclosed"}}
    repo, base, head = edited_commits(tmp_path / "broken", {".drone.yml": ANCHORED}, broken)
    assert tree_of(repo, base, head).problems, "a pipeline that does not parse is a problem"


# Nix flakes' flake.lock (NixOS/nixfmt's "bump nixpkgs to 3eb07eeafb"; cachix/devenv's inputs in round 50): no reader
# read it, so a moved input named nothing and no problem. Each node is named by where it comes from, its key kept as
# the alias people call it by, at the commit its lock pins.
_OLD_REV, _NEW_REV = "9222ae36b208d1c6b55d88e10aa68f969b5b5244", "3eb07eeafb52bcbf02ce800f032f18d666a9498d"
FLAKE_LOCK = """{
  "nodes": {
    "flake-utils": {
      "locked": {
        "lastModified": 1644229661,
        "narHash": "sha256-1YdnJAsNy69bpcjuoKdOYQX0YxZBiCYZo4Twxerqv7k=",
        "owner": "numtide",
        "repo": "flake-utils",
        "rev": "3cecb5b042f7f209c56ffd8371b2711a290ec797",
        "type": "github"
      },
      "original": {
        "owner": "numtide",
        "repo": "flake-utils",
        "type": "github"
      }
    },
    "nix": {
      "inputs": {
        "nixpkgs": [
          "nixpkgs"
        ]
      },
      "locked": {
        "lastModified": 1761648602,
        "narHash": "sha256-H97KSB/luq/aGobKRuHahOvT1r7C03BgB6D5HBZsbN8=",
        "owner": "cachix",
        "repo": "nix",
        "rev": "3e5644da6830ef65f0a2f7ec22830c46285bfff6",
        "type": "github"
      },
      "original": {
        "owner": "cachix",
        "ref": "devenv-2.30",
        "repo": "nix",
        "type": "github"
      }
    },
    "nixpkgs": {
      "locked": {
        "lastModified": 1645623357,
        "narHash": "sha256-vAaI91QFn/kY/uMiebW+kG2mPmxirMSJWYtkqkBKdDc=",
        "owner": "NixOS",
        "repo": "nixpkgs",
        "rev": "OLD_REV",
        "type": "github"
      },
      "original": {
        "owner": "NixOS",
        "ref": "nixpkgs-unstable",
        "repo": "nixpkgs",
        "type": "github"
      }
    },
    "pre-commit-hooks": {
      "flake": false,
      "locked": {
        "lastModified": 1700000000,
        "narHash": "sha256-abcdefabcdefabcdefabcdefabcdefabcdefabcdefa=",
        "type": "git",
        "url": "https://github.com/cachix/pre-commit-hooks.nix",
        "rev": "0123456789abcdef0123456789abcdef01234567"
      },
      "original": {
        "type": "git",
        "url": "https://github.com/cachix/pre-commit-hooks.nix"
      }
    },
    "root": {
      "inputs": {
        "flake-utils": "flake-utils",
        "nix": "nix",
        "nixpkgs": "nixpkgs",
        "pre-commit-hooks": "pre-commit-hooks"
      }
    }
  },
  "root": "root",
  "version": 7
}
""".replace("OLD_REV", _OLD_REV)


def test_a_flake_lock_names_each_input_by_its_source() -> None:
    named = {(d.name, d.version, d.alias, d.tag, d.direct) for d in parse_flake_lock("flake.lock", FLAKE_LOCK.encode())}
    assert named == {
        ("github:numtide/flake-utils", "3cecb5b042f7f209c56ffd8371b2711a290ec797", "flake-utils", "", True),
        ("github:cachix/nix", "3e5644da6830ef65f0a2f7ec22830c46285bfff6", "nix", "devenv-2.30", True),
        ("github:NixOS/nixpkgs", _OLD_REV, "nixpkgs", "nixpkgs-unstable", True),
        ("git+https://github.com/cachix/pre-commit-hooks.nix", "0123456789abcdef0123456789abcdef01234567",
         "pre-commit-hooks", "", True)}


def test_a_flake_input_bump_with_tree_and_from_a_patch(tmp_path: Path) -> None:
    edit = {"flake.lock": {_OLD_REV: _NEW_REV, '"lastModified": 1645623357': '"lastModified": 1647350163'}}
    repo, base, head = edited_commits(tmp_path, {"flake.lock": FLAKE_LOCK}, edit)
    tree = tree_of(repo, base, head)
    assert moves(tree) == {("nix", "github:NixOS/nixpkgs", _OLD_REV, _NEW_REV)}, tree
    assert not tree.problems, tree
    assert [c.alias for c in tree.changes] == ["nixpkgs"]
    patch = patch_of(repo, base, head)  # round 56: a `locked` object the hunk shows whole is read from the patch
    assert moves(patch) == moves(tree) and not partial(patch, "flake.lock"), patch


# Another owner or repository under the same key is a new dependency, never the old one's bump; a transitive node
# (another flake's input) is named too, not direct.
def test_a_flake_input_moved_to_another_source_is_new(tmp_path: Path) -> None:
    edit = {"flake.lock": {'"owner": "NixOS",\n        "repo": "nixpkgs",\n        "rev"':
                           '"owner": "evil",\n        "repo": "nixpkgs",\n        "rev"'}}
    repo, base, head = edited_commits(tmp_path, {"flake.lock": FLAKE_LOCK}, edit)
    tree = tree_of(repo, base, head)
    assert {(c.name, c.from_version, c.to_version) for c in tree.changes} == {
        ("github:NixOS/nixpkgs", _OLD_REV, None), ("github:evil/nixpkgs", None, _OLD_REV)}, tree
    transitive = FLAKE_LOCK.replace('"nixpkgs": "nixpkgs",\n', "")
    assert {d.alias: d.direct for d in parse_flake_lock("flake.lock", transitive.encode())}["nixpkgs"] is False


@each_case("body", [
    FLAKE_LOCK.replace('"version": 7', '"version": 3'),
    FLAKE_LOCK.replace('"version": 7', '"version": "7"'),
    FLAKE_LOCK.replace('"root": "root",', '"root": "top",'),
    FLAKE_LOCK.replace('"locked": {\n        "lastModified": 1644229661',
                       '"pinned": {\n        "lastModified": 1644229661'),
    FLAKE_LOCK.replace('"type": "git",\n        "url"', '"type": "mercurial",\n        "url"'),
    FLAKE_LOCK.replace(f'"rev": "{_OLD_REV}",', ""),
    FLAKE_LOCK.replace('"url": "https://github.com/cachix/pre-commit-hooks.nix",\n        "rev"', '"rev"'),
    FLAKE_LOCK.replace('"nodes": {', '"nodes": [', 1),
    FLAKE_LOCK[:-10],
])
def test_malformed_flake_locks_are_problems(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_flake_lock("flake.lock", body.encode())


# A Cargo.lock whose format moved (`version = 3` → `version = 4`, the top-level key above every `[[package]]`) beside
# a bump (imsnif/bandwhich's Dependabot group, tokio 1.52.1 → 1.52.3): from the patch the whole file was a `partial`
# problem naming nothing, though the hunks show tokio's entry. The lockfile's own format version is an integer where
# every entry's version is a string; it is no dependency. uv.lock's top-level `version = 1` likewise.
_SUM = "b67dee974fe86fd92cc45b7a95fdd2f99a36a6d7b0d431a231178d3d670bbcc6"
CARGO_LOCK = ("# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\n"
              "version = 3\n\n"
              + "".join(f'[[package]]\nname = "{n}"\nversion = "{v}"\n'
                        f'source = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{_SUM}"\n\n'
                        for n, v in [("anyhow", "1.0.98"), ("bytes", "1.10.1"), ("cfg-if", "1.0.0"),
                                     ("libc", "0.2.172"), ("log", "0.4.27"), ("memchr", "2.7.4"),
                                     ("pin-project-lite", "0.2.16"), ("tokio", "1.52.1"), ("zip", "5.1.1")]))


@each_case("edit, moved", [
    ({"version = 3\n": "version = 4\n", 'name = "tokio"\nversion = "1.52.1"': 'name = "tokio"\nversion = "1.52.3"'},
     {("cargo", "tokio", "1.52.1", "1.52.3")}),
    ({"version = 3\n": "version = 4\n"}, set()),
])
def test_a_cargo_lock_format_move_beside_a_bump(tmp_path: Path, edit: dict[str, str],
                                                moved: set[tuple[str, str, str, str]]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Cargo.lock": CARGO_LOCK}, {"Cargo.lock": edit})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert moves(delta) == moved, delta
        assert not delta.problems, delta


# Look-alikes: an integer `version` inside an entry the hunk shows, or a string one whose entry it does not show
# (`-U0`), stays refused: only the top-level integer is the lockfile's own.
@each_case("edit, extra", [
    ({'name = "tokio"\nversion = "1.52.1"': 'name = "tokio"\nversion = 2'}, ()),
    ({'version = "1.52.1"': 'version = "1.52.3"'}, ("-U0",)),
])
def test_other_cargo_lock_version_lines_stay_refused(tmp_path: Path, edit: dict[str, str], extra: tuple[str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Cargo.lock": CARGO_LOCK}, {"Cargo.lock": edit})
    assert partial(patch_of(repo, base, head, *extra), "Cargo.lock")


# A modified file whose one hunk runs from the first line of both sides to the end of the file shows both sides whole,
# as an added file's patch does (`git apply` holds a hunk at line 1 to the file's start and one with no trailing context
# to its end): a file no edits reader reads (its hunks were a `partial` problem naming nothing) is read whole. A
# `rust-toolchain` file (the known one-line miss), in its TOML form or one line without a final newline.
@each_case("base, old, new", [
    ('[toolchain]\nchannel = "1.80.0"\n', '"1.80.0"', '"1.81.0"'),
    ('[toolchain]\nchannel = "1.80.0"\ncomponents = ["rustfmt", "clippy"]\n', '"1.80.0"\ncomponents',
     '"1.81.0"\ncomponents'),
    ("1.80.0", "1.80.0", "1.81.0"),
])
def test_a_whole_file_hunk_is_read_whole(tmp_path: Path, base: str, old: str, new: str) -> None:
    if "components" in old:  # the hunk must reach the file's end: move its last line too
        old, new = old + ' = ["rustfmt", "clippy"]', new + ' = ["rustfmt", "clippy", "rust-src"]'
    repo, base_rev, head = edited_commits(tmp_path, {"rust-toolchain": base}, {"rust-toolchain": {old: new}})
    tree, patch = tree_of(repo, base_rev, head), patch_of(repo, base_rev, head)
    assert ("tool", "rust", "1.80.0", "1.81.0") in moves(tree), tree
    # and what --tree adds beside a move (the components moved too: reviewed both ways)
    assert moves(patch) == moves(tree) and [p.kind for p in patch.problems] == [p.kind for p in tree.problems], patch


# A patch written with the whole file as context (`git diff -U200`) does not show it whole: `git apply` holds a hunk
# with trailing context to no end, so the file may go on below it (hunkends); a flake.lock bump so written is read as
# hunks (round 56: the `locked` object it shows whole), never as the whole file.
def test_a_patch_with_the_whole_file_as_context_is_still_hunks(tmp_path: Path) -> None:
    edit = {"flake.lock": {_OLD_REV: _NEW_REV}}
    repo, base, head = edited_commits(tmp_path, {"flake.lock": FLAKE_LOCK}, edit)
    delta = patch_of(repo, base, head, "-U200")
    assert moves(delta) == {("nix", "github:NixOS/nixpkgs", _OLD_REV, _NEW_REV)}, delta
    assert all(c.partial for c in delta.changes), "read from hunks: partial"


# Look-alikes: a hunk from line 1 with the file going on below it (trailing context), two hunks, a hunk reaching the end
# but starting below line 1, a hunk with no context at all (`-U0`), one line with its final newline (no context either):
# none shows the file whole, each stays `partial`.
_TOML = '[toolchain]\nchannel = "1.80.0"\n'


@each_case("body, edit, extra", [
    (_TOML + 'components = ["rustfmt"]\n', {'"1.80.0"': '"1.81.0"'}, ()),
    (_TOML + "\n" * 8 + 'targets = ["wasm32-unknown-unknown"]\n', {'"1.80.0"': '"1.81.0"', "wasm32": "x86_64"}, ()),
    ("# pinned\n" * 6 + _TOML, {'"1.80.0"': '"1.81.0"'}, ()),
    (_TOML, {'"1.80.0"': '"1.81.0"'}, ("-U0",)),
    ("1.80.0\n", {"1.80.0": "1.81.0"}, ()),
])
def test_hunks_that_do_not_show_the_whole_file(tmp_path: Path, body: str, edit: dict[str, str],
                                               extra: tuple[str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"rust-toolchain": body}, {"rust-toolchain": edit})
    assert partial(patch_of(repo, base, head, *extra), "rust-toolchain")
