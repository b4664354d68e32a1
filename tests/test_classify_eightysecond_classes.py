"""The eighty-second set's classes (issue 12; bench/classify_accuracy/eightysecond.tsv, a held-out-like mixed set).

- **A script a container runs as its entrypoint** (`ci.context.ci-run`). A job that starts a container with the
  checkout mounted and hands it a repository script as the entrypoint (`docker run -v $PWD:/workspace
  --workdir=/workspace --entrypoint=/workspace/tests/charts/test.sh helm`: deliverybot/helm's test workflow) runs
  that script as surely as `docker run img bash /workspace/tests/charts/test.sh` does. The walk read absolute paths
  where a command or an interpreter's script stands (checkoutpaths.py), not the value of `--entrypoint`, and the
  script stayed `src`. Now `--entrypoint PATH` and `--entrypoint=PATH` of `docker`, `podman` and `nerdctl` `run`
  (also `docker container run`, `docker compose run`) name their path as a command does: by its last parts when
  absolute (a tail the tree holds), as itself when relative.
"""

from __future__ import annotations

import json
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from conftest import POLICY_DIR
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import run_cli
from tables import each_case

from gatekeeper.classify import checkoutpaths

# (the command line, the script it runs): the separate and the glued option, quoted, relative to the work folder,
# docker, podman, nerdctl, `docker container run` and `docker compose run`, the option before and after the mounts
ENTRYPOINT_RUNS = [
    ("docker run --rm -i -v $PWD:/workspace --workdir=/workspace --entrypoint=/workspace/tests/charts/test.sh helm",
     "tests/charts/test.sh"),
    ('docker run --rm -v "$(pwd)":/src --entrypoint /src/ci/lint.sh alpine', "ci/lint.sh"),
    ('docker run --rm --entrypoint="/app/tools/check.sh" -v "$PWD:/app" img:1', "tools/check.sh"),
    ("podman run --rm -v .:/w:Z --entrypoint '/w/hack/verify.sh' quay.io/x/y", "hack/verify.sh"),
    ("nerdctl run --rm -v $PWD:/src --entrypoint=/src/build/e2e/run.py python:3.12", "build/e2e/run.py"),
    ("docker container run --rm -v $PWD:/w -w /w --entrypoint=./scripts/e2e.sh img", "scripts/e2e.sh"),
    ("docker compose run --rm --entrypoint /code/bin/migrate.sh web", "bin/migrate.sh"),
]
SCRIPTS = {path: "#!/bin/sh\necho run\n" for _, path in ENTRYPOINT_RUNS}


def _files(definition: str, text: str, line: str) -> dict[str, str]:
    return {definition: text.format(line=line), **SCRIPTS, "run-tests.sh": "#!/bin/sh\n", "main.go": "package main\n"}


@each_case("definition, text", BLOCK_DEFINITIONS, ids=lambda d: d if isinstance(d, str) and "/" in d else None)
@each_case("line, script", ENTRYPOINT_RUNS)
def test_a_script_a_container_runs_as_its_entrypoint_is_ci(definition: str, text: str, line: str,
                                                          script: str) -> None:
    runs = one_tree_runs(_files(definition, text, line))
    assert isinstance(runs, dict)
    assert script in runs, (definition, line)
    assert not (set(SCRIPTS) - {script}) & set(runs), line  # the other scripts stay unnamed


# Look-alikes: an entrypoint that is a system program or a single name, a path no file of the tree has, another
# program's `--entrypoint` (a Go flag of the project's own tool), and the option printed
LOOKALIKE_LINES = [
    "docker run --rm --entrypoint=/usr/local/bin/run-tests.sh img",
    "docker run --rm --entrypoint /bin/sh img -c 'echo hi'",
    "docker run --rm -v $PWD:/w --entrypoint=/w/tools/missing.sh img",
    "go run . --entrypoint=/src/ci/lint.sh",
]


@each_case("definition, text", BLOCK_DEFINITIONS, ids=lambda d: d if isinstance(d, str) and "/" in d else None)
@each_case("line", LOOKALIKE_LINES)
def test_entrypoints_that_name_no_checkout_script_name_nothing(definition: str, text: str, line: str) -> None:
    runs = one_tree_runs(_files(definition, text, line))
    assert isinstance(runs, dict)
    assert "run-tests.sh" not in runs and "main.go" not in runs
    assert not set(SCRIPTS) & set(runs), line


def test_an_entrypoint_on_a_continued_line_of_a_script_ci_runs() -> None:
    script = ("#!/bin/bash\nset -e\ndocker run --rm \\\n  -v \"$PWD:/repo\" \\\n"
              "  --entrypoint /repo/deploy/smoke/check.sh \\\n  img:1\n")
    files = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="bash ci/build.sh"),
             "ci/build.sh": script, "deploy/smoke/check.sh": "#!/bin/sh\n", "deploy/smoke/other.sh": "#!/bin/sh\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "deploy/smoke/check.sh" in runs
    assert "deploy/smoke/other.sh" not in runs


def test_the_test_workflow_of_a_container_action_runs_its_chart_test(tmp_path: Path) -> None:
    # deliverybot/helm's shape, with the commits, through classify --tree on a real repository
    workflow = ("name: Test\non: ['push']\njobs:\n  test:\n    runs-on: 'ubuntu-latest'\n    steps:\n"
                "    - uses: actions/checkout@v1\n    - name: build\n      run: 'docker build -t helm .'\n"
                "    - name: charts\n      run: 'docker run --rm -i -v $PWD:/workspace --workdir=/workspace"
                " --entrypoint=/workspace/tests/charts/test.sh helm'\n")
    files = {".github/workflows/test.yml": workflow, "Dockerfile": "FROM alpine:3.10\n",
             "tests/charts/test.sh": "#!/bin/bash\nset -e\nhelm lint charts/app --strict\n",
             "tests/charts/other.sh": "#!/bin/bash\necho unused\n", "index.js": "console.log(1)\n"}
    repo, base, head = two_commits(tmp_path / "r", {"README.md": "x\n"}, files)
    done = run_cli(["classify", "--tree", f"{base}..{head}", "--repo", repo.root, "--policy", POLICY_DIR,
                    "--format", "json"], text=True)
    got = {f["path"]: (f["bucket"], f["rule"]) for f in json.loads(str(done.stdout))["files"]}
    assert got["tests/charts/test.sh"] == ("ci", "ci.context.ci-run")
    assert got["tests/charts/other.sh"][0] == "src"
    assert got["index.js"][0] == "src"


# Hostile lines for the entrypoint reader: one line of many engine and `run` words and options (each option once read
# from the line's `run`), and many lines each holding the option
@each_case("unit, head", [
    ("docker run --entrypoint=/w/a/b.sh ", "x "),
    ("docker podman nerdctl run run --entrypoint ", ""),
    ("docker run -v $PWD:/w --entrypoint /w/t/x.sh img\n", ""),
    ("--entrypoint=/a/b/c ", "docker run "),
])
def test_the_entrypoint_reader_is_linear(unit: str, head: str) -> None:
    assert_linear(checkoutpaths.commanded, repeated(unit, head), budget=0.5)
