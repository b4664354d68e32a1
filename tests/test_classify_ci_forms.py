"""The CI forms the walk of what CI runs did not read (ciforms.py): what an Earthfile runs, Buildkite hooks and the
hooks of local plugins and uploaded pipelines, and paths with GitHub expressions in them. Each changed script was
`src` (the gate allowed an edit of what the job runs) before; the look-alikes beside them stay `src`. A real
repository checks them with the commits and from the patch (a patch that shows the definition beside the script)."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify import ciforms, ciruns, walkpaths
from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

EARTHFILE = """VERSION 0.8
FROM golang:1.22-bookworm
WORKDIR /src

deps:
    COPY go.mod go.sum ./
    RUN go mod download

build:
    FROM +deps
    COPY --dir scripts hack ./
    RUN --secret GH_TOKEN ./scripts/build.sh --release
    RUN hack/gen-version
    SAVE ARTIFACT bin/app

integration:
    FROM +build
    COPY tests/integration ./tests/integration
    RUN --privileged bash tests/integration/run
    DO ./ci+PUBLISH --tag=latest

dev:
    LOCALLY
    RUN tools/dev/up
"""
CI_EARTHFILE = """VERSION 0.8
PUBLISH:
    FUNCTION
    ARG tag
    RUN ./release/push.sh $tag
"""
SERVICE_EARTHFILE = """VERSION 0.8
image:
    FROM alpine:3.20
    COPY docker/entrypoint.sh /usr/local/bin/entrypoint.sh
    RUN /usr/local/bin/entrypoint.sh --self-check
    SAVE IMAGE api:latest
"""
PIPELINE = """steps:
  - label: ":go: test"
    command: ".buildkite/steps/test"
    plugins:
      - ./tools/buildkite/cache#v1.2.0:
          key: go-mod
      - docker-compose#v5.0.0:
          run: app
  - label: ":pipeline: deploy"
    command: buildkite-agent pipeline upload ops/bk/deploy.yml
"""
DEPLOY_PIPELINE = """steps:
  - label: ":rocket: deploy"
    command: ops/rollout.sh production
"""
PRE_COMMAND = """#!/usr/bin/env bash
set -euo pipefail
source scripts/env/setup.sh
export GOFLAGS=-mod=mod
"""
WORKFLOW = """name: build
on: [push]
jobs:
  build:
    strategy:
      matrix:
        os: [linux, darwin]
        include:
          - os: linux
            tool: vet
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: ./scripts/${{ matrix.os }}/build.sh
      - run: bash ${{ github.workspace }}/ci-tools/setup.sh
      - run: python "${{ github.workspace }}/tools/${{ matrix.tool }}.py"
  packages:
    needs: build
    strategy:
      matrix:
        pkg: ${{ fromJSON(needs.build.outputs.packages) }}
    runs-on: ubuntu-latest
    steps:
      - run: ./${{ matrix.pkg }}/release.sh
      - run: node tasks/${{ inputs.task }}.mjs
"""
OLD = "#!/bin/sh\necho old\n"
NEW = "#!/bin/sh\necho new\n"
RUN_BY_CI = [
    # Earthly: COPY then RUN (relative and absolute), an extension-less program, an interpreter's file, a function
    # another Earthfile runs, a LOCALLY target's command
    "scripts/build.sh", "hack/gen-version", "tests/integration/run", "release/push.sh",
    "services/api/docker/entrypoint.sh", "tools/dev/up",
    # Buildkite: what a repository hook sources, a local plugin's hooks, what an uploaded pipeline runs
    "scripts/env/setup.sh", "tools/buildkite/cache/hooks/pre-command", "tools/buildkite/cache/hooks/post-checkout",
    "ops/rollout.sh",
    # GitHub expressions: listed matrix values, the workspace root, a computed first folder, a variable file name
    "scripts/linux/build.sh", "scripts/darwin/build.sh", "ci-tools/setup.sh", "tools/vet.py",
    "packages/web/release.sh", "release.sh", "tasks/lint.mjs",
]
LEFT_ALONE = [
    "scripts/windows/build.sh",  # not a value the matrix lists
    "other/setup.sh", "tools/buildkite/cache/README.sh", "hack/verify.sh", "tasks/lint/other.sh",
    "docs/hooks/pre-command",  # a `hooks/` folder outside .buildkite/ that no pipeline names
]


def _repository(git_repo: GitRepo) -> None:
    definitions = {
        "Earthfile": EARTHFILE, "ci/Earthfile": CI_EARTHFILE, "services/api/Earthfile": SERVICE_EARTHFILE,
        ".buildkite/pipeline.yml": PIPELINE, "ops/bk/deploy.yml": DEPLOY_PIPELINE,
        ".buildkite/hooks/pre-command": PRE_COMMAND, ".github/workflows/build.yml": WORKFLOW,
    }
    for path, text in definitions.items():
        git_repo.write(path, text)


def test_what_earthfiles_hooks_and_templated_paths_run_is_ci_under_tree(git_repo: GitRepo) -> None:
    _repository(git_repo)
    for path in RUN_BY_CI + LEFT_ALONE:
        git_repo.write(path, OLD)
    git_repo.commit("base")
    for path in RUN_BY_CI + LEFT_ALONE:
        git_repo.write(path, NEW)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in RUN_BY_CI} == dict.fromkeys(RUN_BY_CI, "ci")
    assert {path: files[path].bucket for path in LEFT_ALONE} == dict.fromkeys(LEFT_ALONE, "src")
    assert files["tools/dev/up"].rule == "ci.context.ci-run" and "Earthfile runs" in files["tools/dev/up"].evidence
    assert ".buildkite/hooks/pre-command runs" in files["scripts/env/setup.sh"].evidence


def test_a_patch_that_shows_the_definition_classifies_what_it_runs(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# service\n")
    git_repo.commit("base")
    _repository(git_repo)
    for path in RUN_BY_CI + LEFT_ALONE:
        git_repo.write(path, NEW)
    git_repo.commit("head")
    files = patch_files(git_repo, tmp_path)
    # what the definitions the patch adds name; not what the scripts they run run in turn (a sourced helper of a
    # hook is named by the hook: shown)
    assert {path: files[path].bucket for path in RUN_BY_CI} == dict.fromkeys(RUN_BY_CI, "ci")
    assert {path: files[path].bucket for path in LEFT_ALONE} == dict.fromkeys(LEFT_ALONE, "src")
    assert files["ops/rollout.sh"].evidence == "ops/bk/deploy.yml runs ops/rollout.sh"


def test_a_patch_of_the_scripts_alone_leaves_them_to_tree_context(git_repo: GitRepo, tmp_path: Path) -> None:
    _repository(git_repo)
    git_repo.write("scripts/build.sh", OLD)
    git_repo.commit("base")
    git_repo.write("scripts/build.sh", NEW)
    git_repo.commit("head")
    assert patch_files(git_repo, tmp_path)["scripts/build.sh"].bucket == "src"
    assert tree_files(git_repo)["scripts/build.sh"].bucket == "ci"


@each_case(("path", "hook"), [
    (".buildkite/hooks/pre-command", True), (".buildkite/hooks/post-checkout.ps1", True),
    (".buildkite/plugins/cache/hooks/command", True), ("hooks/command", False), (".buildkite/pipeline.yml", False),
    ("docs/.buildkite/hooks/x", False), (".buildkite-hooks/pre-command", False),
])
def test_buildkite_hooks_are_walked_from(path: str, hook: bool) -> None:
    assert ciforms.is_hook(path) is hook


def test_earthfiles_are_definitions_and_their_instructions_are_commands() -> None:
    assert ciruns.is_definition("Earthfile") and ciruns.is_definition("services/api/Earthfile")
    assert not ciruns.is_definition("docs/earthfile.md")
    stripped = ciforms.earthly_commands("build:\n    RUN --push --secret=X ./deploy.sh\n    RUN go test ./...\n")
    assert stripped == "build:\n    ./deploy.sh\n    go test ./...\n"


@each_case(("text", "named", "not_named"), [
    # listed values: each, and no other
    ("jobs:\n  a:\n    strategy:\n      matrix:\n        os: [linux, mac]\n    steps:\n"
     "      - run: ./ci/${{ matrix.os }}.sh\n", ["ci/linux.sh", "ci/mac.sh"], ["ci/win.sh"]),
    # a computed matrix: a variable part
    ("jobs:\n  a:\n    strategy:\n      matrix:\n        os: ${{ fromJSON(x) }}\n    steps:\n"
     "      - run: ./ci/${{ matrix.os }}.sh\n", ["ci/win.sh", "ci/a/b.sh"], ["tools/win.sh"]),
    # a key only an include row sets is empty elsewhere
    ("jobs:\n  a:\n    strategy:\n      matrix:\n        v: [1]\n        include:\n          - v: 1\n"
     "            dir: extra\n    steps:\n      - run: ./ci/${{ matrix.dir }}/x.sh\n", ["ci/extra/x.sh", "ci/x.sh"],
     ["ci/other/x.sh"]),
    # the workspace and an action's folder are the root (the definition's folder: ciruns.bases)
    ("runs:\n  using: composite\n  steps:\n    - run: ${{ github.action_path }}/setup.sh\n"
     "    - run: $GITHUB_WORKSPACE/ci/x.sh\n", ["setup.sh", "ci/x.sh"], ["a/ci/x.sh"]),
    # a variable first folder: below any folder; a variable stem in a written folder: that folder's files of the type
    ("steps:\n  - run: ./${{ inputs.dir }}/release.sh\n  - run: node tasks/${{ inputs.t }}.mjs\n",
     ["release.sh", "pkgs/a/release.sh", "tasks/x.mjs"], ["release.sh.bak", "tasks/x.js", "other/x.mjs"]),
    # a variable alone names nothing (every file of the tree)
    ("steps:\n  - run: ./${{ inputs.script }}.sh\n  - run: ${{ inputs.cmd }}\n", [], ["x.sh", "a/b.sh"]),
])
def test_templated_paths_reach_what_their_values_allow(text: str, named: list[str], not_named: list[str]) -> None:
    scripts, _composed, _tasks = walkpaths.shown_names(".github/workflows/a.yml", text)
    assert [path for path in named if not any(walkpaths.reaches(p, path) for p in scripts)] == []
    assert [path for path in not_named if any(walkpaths.reaches(p, path) for p in scripts)] == []


def test_paths_below_the_runner_s_folders_add_no_variable_patterns() -> None:
    # a workflow generator's steps load scripts it unpacked below the runner's temp folder: those name no folder of the
    # repository, and each must not count among the 64 variable patterns of a tree (past them: every script is ci)
    steps = "".join(f"      - run: node ${{{{ runner.temp }}}}/gh-aw/actions/step{n}.cjs\n" for n in range(80))
    scripts = walkpaths.shown_names(".github/workflows/agent.lock.yml", "jobs:\n  a:\n    steps:\n" + steps)[0]
    assert [pattern for pattern in scripts if ciruns.ANY in pattern] == []
    assert "gh-aw/actions/step3.cjs" in scripts  # read below the root, as before


def test_matrix_expansion_is_bounded() -> None:
    keys = "\n".join(f"        k{n}: [a, b, c]" for n in range(5))
    text = (f"jobs:\n  a:\n    strategy:\n      matrix:\n{keys}\n    steps:\n      - run: ./x/"
            + "/".join(f"${{{{ matrix.k{n} }}}}" for n in range(5)) + "/y.sh\n")
    assert text.splitlines()[-1] in ciforms.expand_matrix(text).splitlines()  # 243 copies: left variable
