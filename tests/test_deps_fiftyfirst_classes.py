"""Classes of misses the fifty-first blind set (bench/deps_bumps_fiftyfirst.tsv) showed, each with look-alikes that
must not match and malformed variants that are a finding, never a crash or a silent pass."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps.registry import format_for
from tests.deltas import moves
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
