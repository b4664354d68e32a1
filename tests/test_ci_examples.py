"""The CI glue people copy: docs/ci.md's tables, the GitLab and GitHub examples, and the pre-commit
hook — each checked against the real CLI and action.yml. (The commands of docs/ci.md, shell completion
included, are run by tests/test_docs.py, with every other page's.)"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from conftest import POLICY_DIR, REPO_ROOT
from gitrepo import GitRepo
from mdtables import table_rows
from test_action import ACTION, HAVE_GATE, needs_gate

from gatekeeper.errors import ExitCode
from gatekeeper.reports import FORMATS

DOC = (REPO_ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
GITLAB = yaml.safe_load((REPO_ROOT / "examples" / "gitlab-ci.yml").read_text(encoding="utf-8"))
WORKFLOW = yaml.safe_load((REPO_ROOT / "examples" / "github-workflow.yml").read_text(encoding="utf-8"))
HOOKS = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
BIN = Path(sys.executable).parent


# -- docs/ci.md says what the code does ------------------------------------------------------------


def test_exit_code_table_matches_the_exit_code_enum() -> None:
    rows = {int(row[0]): row[1] for row in table_rows(DOC, "| code |")}
    assert rows == {
        ExitCode.OK: "allow",
        ExitCode.FAILED: "deny",
        ExitCode.REVIEW: "review",
        ExitCode.ERROR: "could not decide",
    }


def test_format_table_lists_exactly_the_registered_formats() -> None:
    names = [row[0].split()[0].strip("`") for row in table_rows(DOC, "| format |")]
    assert sorted(names) == sorted(FORMATS)


def test_action_tables_match_action_yml() -> None:
    documented: set[str] = set()
    for row in table_rows(DOC, "| input |"):
        documented |= set(re.findall(r"`([\w-]+)`", row[0]))
    assert documented == set(ACTION["inputs"])
    outputs = {row[0].strip("`") for row in table_rows(DOC, "| output |")}
    assert outputs == set(ACTION["outputs"])


def test_documented_path_limits_match_the_reporters() -> None:
    from gatekeeper.reports import github, markdown, text

    assert f"text ({text.MAX_PATHS} per finding)" in DOC
    assert f"GitHub annotations ({github.MAX_FILE_ANNOTATIONS} files per finding" in DOC
    assert f"Markdown ({markdown.MAX_PATHS})" in DOC


def test_format_choice_completes_from_the_registry(tmp_path: Path) -> None:
    if not HAVE_GATE:
        pytest.skip("gatekeeper.gate is not importable yet")
    env = {
        **os.environ,
        "COMP_WORDS": "gatekeeper gate p --format ",
        "COMP_CWORD": "4",
        "_GATEKEEPER_COMPLETE": "bash_complete",
    }
    done = subprocess.run([str(BIN / "gatekeeper")], env=env, capture_output=True, text=True, timeout=60)
    assert {line.split(",", 1)[1] for line in done.stdout.split()} == set(FORMATS)


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


# -- examples/gitlab-ci.yml ------------------------------------------------------------------------


def test_gitlab_job_publishes_the_junit_file_the_gate_writes() -> None:
    job = GITLAB["gatekeeper"]
    report = job["artifacts"]["reports"]["junit"]
    assert job["artifacts"]["when"] == "always"
    script = "\n".join(job["script"])
    assert f"--format junit --output {report}" in script
    assert 'exit "$status"' in script


@needs_gate
@pytest.mark.parametrize(
    ("files", "status"),
    [
        ({"src/main.go": "package main\n// ok\n"}, ExitCode.OK),
        ({".gitlab-ci.yml": "test:\n  script: [true]\n"}, ExitCode.REVIEW),
    ],
)
def test_gitlab_job_script_runs_and_fails_on_review(tmp_path: Path, files: dict[str, str], status: int) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("src/main.go", "package main\n")
    repo.commit()
    for path, text in files.items():
        repo.write(path, text)
    ws = tmp_path / "ws"
    (ws / ".agent").mkdir(parents=True)
    repo.save_patch(ws / ".agent" / "patch.diff")
    shutil.copytree(POLICY_DIR, ws / "policies")
    subprocess.run(
        [sys.executable, "-m", "gatekeeper", "packet", ".agent/patch.diff", "--out", ".agent/packet.json"],
        cwd=ws,
        check=True,
        capture_output=True,
    )
    job = GITLAB["gatekeeper"]
    env = {**_env(tmp_path), **{key: str(value) for key, value in GITLAB["variables"].items()}}
    done = subprocess.run(
        ["sh", "-e", "-c", "\n".join(job["script"])], cwd=ws, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == status, done.stdout + done.stderr
    root = ET.parse(ws / job["artifacts"]["reports"]["junit"]).getroot()
    failed = len(root.findall(".//failure"))
    assert (failed > 0) == (status != ExitCode.OK)


# -- examples/github-workflow.yml ------------------------------------------------------------------


def test_github_workflow_uses_only_inputs_and_outputs_the_action_has() -> None:
    steps = WORKFLOW["jobs"]["gate"]["steps"]
    gate = next(step for step in steps if step.get("id") == "gatekeeper")
    assert set(gate["with"]) <= set(ACTION["inputs"])
    required = {name for name, spec in ACTION["inputs"].items() if spec.get("required")}
    assert required <= set(gate["with"])
    text = (REPO_ROOT / "examples" / "github-workflow.yml").read_text(encoding="utf-8")
    used = set(re.findall(r"steps\.gatekeeper\.outputs\.([\w-]+)", text))
    assert used and used <= set(ACTION["outputs"])
    assert gate["with"]["format"] in FORMATS


# -- .pre-commit-hooks.yaml ------------------------------------------------------------------------


def test_pre_commit_hook_runs_gatekeeper_test_on_policy_changes(tmp_path: Path) -> None:
    [hook] = HOOKS
    assert hook["id"] == "gatekeeper-test" and hook["language"] == "python"
    assert hook["pass_filenames"] is False
    files = re.compile(hook["files"])
    assert files.search("policies/core/policy.rego") and files.search("policies/classification.yaml")
    assert not files.search("src/policies.go") and not files.search("docs/policies.md")
    command = hook["entry"].split()
    assert command[0] == "gatekeeper"
    done = subprocess.run(
        [str(BIN / command[0]), *command[1:], "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "--policy" in done.stdout
