"""The CI glue people copy: docs/ci.md's tables, the GitLab and GitHub examples, and the pre-commit
hook — each checked against the real CLI and action.yml. (The commands of docs/ci.md, shell completion
included, are run by tests/test_docs.py, with every other page's.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from conftest import POLICY_DIR, REPO_ROOT
from gitrepo import GitRepo
from incli import run_cli
from mdtables import table_rows
from tables import each_case
from test_action import ACTION, HAVE_GATE, needs_gate
from warmcli import served_python

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
    from gatekeeper.ci.gitlab import REPORTS

    job = GITLAB["gatekeeper"]
    assert job["artifacts"]["when"] == "always"
    assert job["artifacts"]["reports"] == {"junit": REPORTS["junit"], "codequality": REPORTS["codequality"]}
    script = "\n".join(job["script"])
    assert "--format json --output gatekeeper-decision.json" in script
    assert "-I -m gatekeeper.ci.gitlab gatekeeper-decision.json" in script
    assert 'exit "$status"' in script
    assert "changes" not in str(job["rules"])  # a required pipeline must always report


def test_gitlab_job_binds_the_patch_and_reads_the_configuration_from_the_target_branch() -> None:
    script = "\n".join(GITLAB["gatekeeper"]["script"])
    assert GITLAB["variables"]["GIT_DEPTH"] == "0"
    assert 'refs/heads/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME' in script  # the tip, not the merge base
    assert '--tree "$BASE..$HEAD"' in script and "--policy" not in script  # --tree reads BASE's bundle


def test_gitlab_job_installs_a_pinned_gate_isolated_outside_the_checkout() -> None:
    job = GITLAB["gatekeeper"]
    install = "\n".join(job["before_script"])
    assert "python -I -m venv" in install and '-I -m pip install --isolated' in install
    assert 'GATEKEEPER_VENV="$(mktemp -d)/gatekeeper-venv"' in install
    assert '"$GATEKEEPER_VENV/bin/python" -I -m gatekeeper gate' in "\n".join(job["script"])
    source = GITLAB["variables"]["GATEKEEPER_SOURCE"]
    assert re.search(r"@[0-9a-f]{40}$", source), "the example pins a commit"


class MergeRequest:
    """A project whose target branch holds the bundle, and a merge request made as an agent's job makes it."""

    def __init__(self, tmp: Path) -> None:
        self.repo = GitRepo(tmp / "repo")
        self.repo.write("src/main.go", "package main\n")
        shutil.copytree(POLICY_DIR, self.repo.root / "policies")
        self.base = self.repo.commit("base")
        self.repo.git("remote", "add", "origin", str(self.repo.root))  # what the job fetches the target from
        self.repo.git("checkout", "-q", "-b", "mr")

    def change(self, files: dict[str, str]) -> None:
        for path, text in files.items():
            self.repo.write(path, text)
        agent = self.repo.root / ".agent"
        agent.mkdir()
        patch = self.repo.staged_patch()
        self.repo.commit("agent change")
        (agent / "patch.diff").write_bytes(patch)
        made = run_cli(["packet", ".agent/patch.diff", "--out", ".agent/packet.json", "--policy", str(POLICY_DIR)],
                       cwd=self.repo.root)  # setup, in-process: the jobs under test run the real commands
        assert made.returncode == 0, made.stderr
        self.repo.commit("agent patch and packet")


def stand_in_venv(folder: Path, warm: Path | None = None) -> Path:
    """What the install step leaves: a virtualenv outside the checkout whose python has gatekeeper (ours); with
    `warm`, that python is the served one (the `warm` fixture), else a real interpreter started cold."""
    python = folder / "bin" / "python"
    python.parent.mkdir(parents=True)
    if warm is not None:
        python.symlink_to(warm)
        return folder
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    return folder


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A `python` serving the jobs' `-I -m gatekeeper ...` and `-I -m gatekeeper.ci.gitlab` from one interpreter that
    imported gatekeeper (tests/warmcli.py): a cold start costs ~0.25 CPU-seconds, twice a job. What `-I` keeps out of
    a starting interpreter (a planted `gatekeeper/`, sitecustomize, PYTHON* variables) only a cold start can show:
    one case of each job plants the hijack attempts and runs the real interpreter (`cold`), the others are served."""
    root = tmp_path_factory.mktemp("warm-python")
    with served_python(root, {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(root)}) as python:
        yield python


ALLOWED_CORE = "package gatekeeper.policies.core\n\nimport rego.v1\n\nreview contains f if { false; f := {} }\n"


@needs_gate
@pytest.mark.parametrize(
    ("files", "sneaked", "status", "cold"),
    [
        ({"src/main.go": "package main\n// ok\n"}, {}, ExitCode.OK, False),
        ({".gitlab-ci.yml": "test:\n  script: [true]\n"}, {}, ExitCode.REVIEW, False),
        # The change rewrites the bundle in ./policies to wave itself through: the target branch's decides.
        ({".gitlab-ci.yml": "x:\n  script: [true]\n", "policies/core/policy.rego": ALLOWED_CORE}, {}, ExitCode.REVIEW,
         True),
        # ... or switches the core policy off in gatekeeper.yaml.
        ({".gitlab-ci.yml": "x:\n  script: [true]\n", "gatekeeper.yaml": "disable: [core]\n"}, {}, ExitCode.REVIEW,
         False),
        # The patch is harmless; the merge request's commits also edit CI.
        ({"src/main.go": "package main\n// ok\n"}, {".gitlab-ci.yml": "steal:\n  script: [env]\n"}, ExitCode.FAILED,
         False),
    ],
)
def test_gitlab_job_script_runs_and_fails_on_review_and_deny(
    tmp_path: Path, files: dict[str, str], sneaked: dict[str, str], status: int, cold: bool, warm: Path
) -> None:
    from test_action import VECTORS, plant

    mr = MergeRequest(tmp_path)
    mr.change(files)
    for path, text in sneaked.items():
        mr.repo.write(path, text)
    if sneaked:
        mr.repo.commit("more")
    # In the checkout the job runs in (a commit the patch does not show would be denied anyway), for the real
    # interpreter: a served one has imported gatekeeper already.
    hostile = plant(mr.repo.root, VECTORS) if cold else {}
    head = mr.repo.git("rev-parse", "HEAD").decode().strip()
    job = GITLAB["gatekeeper"]
    env = {
        **_env(tmp_path),
        **{key: str(value) for key, value in GITLAB["variables"].items()},
        **hostile,
        "GITHUB_OUTPUT": str(tmp_path / "hijack-output"),
        "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
        "CI_COMMIT_SHA": head,
        "GATEKEEPER_VENV": str(stand_in_venv(tmp_path / "venv", None if cold else warm)),
    }
    done = subprocess.run(
        ["sh", "-e", "-c", "\n".join(job["script"])], cwd=mr.repo.root, env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert "HIJACKED" not in done.stdout + done.stderr
    assert done.returncode == status, done.stdout + done.stderr
    root = ET.parse(mr.repo.root / job["artifacts"]["reports"]["junit"]).getroot()
    failures = root.findall(".//failure")
    assert (len(failures) > 0) == (status != ExitCode.OK)
    if status == ExitCode.FAILED:
        assert "gatekeeper.tree_mismatch" in (failures[0].get("message") or "")
    _check_codequality_and_log(mr.repo.root, done.stdout, status)


def _check_codequality_and_log(root: Path, log: str, status: int) -> None:
    """Every issue has what GitLab needs; the job log names every rule that fired."""
    issues = json.loads((root / GITLAB["gatekeeper"]["artifacts"]["reports"]["codequality"]).read_text())
    decision = json.loads((root / "gatekeeper-decision.json").read_text())
    assert (len(issues) > 0) == (status != ExitCode.OK)
    for issue in issues:
        assert {"description", "check_name", "fingerprint", "severity"} <= set(issue)
        assert issue["location"]["path"] and issue["location"]["lines"]["begin"] >= 1
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)
    for reason in decision["reasons"]:
        assert reason["rule"] in log


@needs_gate
@pytest.mark.parametrize(("files", "status"), [
    ({".gitlab-ci.yml": "x:\n  script: [true]\n"}, ExitCode.REVIEW),
    ({"src/main.go": "package main\n// ok\n"}, ExitCode.OK),
])
def test_gitlab_job_without_a_packet_judges_the_merge_request_commits(
    tmp_path: Path, files: dict[str, str], status: int, warm: Path
) -> None:
    mr = MergeRequest(tmp_path)
    for path, text in files.items():
        mr.repo.write(path, text)
    head = mr.repo.commit("hosted agent change")
    env = {**_env(tmp_path), **{key: str(value) for key, value in GITLAB["variables"].items()},
           "GATEKEEPER_PACKET": "", "GATEKEEPER_PATCH": "", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
           "CI_COMMIT_SHA": head, "GATEKEEPER_VENV": str(stand_in_venv(tmp_path / "venv", warm))}
    done = subprocess.run(["sh", "-e", "-c", "\n".join(GITLAB["gatekeeper"]["script"])], cwd=mr.repo.root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == status, done.stdout + done.stderr
    decision = json.loads((mr.repo.root / "gatekeeper-decision.json").read_text())
    assert decision["packet"]["run_id"] == f"pr-{head}"
    _check_codequality_and_log(mr.repo.root, done.stdout, status)


def _run_before_script(tmp_path: Path, workdir: Path, source: str) -> tuple[subprocess.CompletedProcess[str], list]:
    """The job's before_script with `python` a recording interpreter (test_action.PROBE): no network."""
    from test_action import HOSTILE_JOB_ENV, PROBE

    bin_dir = tmp_path / "probe-bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "probe.jsonl"
    (bin_dir / "python").write_text(PROBE.format(python=sys.executable, log=str(log)))
    (bin_dir / "python").chmod(0o755)
    (bin_dir / "git").write_text("#!/bin/sh\nexit 0\n")  # `git config --global` must not touch the real HOME
    (bin_dir / "git").chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
           "TMPDIR": str(tmp_path), "CI_PROJECT_DIR": str(workdir), "GATEKEEPER_SOURCE": source,
           **HOSTILE_JOB_ENV}
    done = subprocess.run(["sh", "-e", "-c", "\n".join(GITLAB["gatekeeper"]["before_script"])], cwd=workdir,
                          env=env, capture_output=True, text=True, timeout=60)
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return done, calls


def test_gitlab_before_script_installs_isolated_outside_the_checkout(tmp_path: Path) -> None:
    workdir = tmp_path / "project"
    workdir.mkdir()
    source = GITLAB["variables"]["GATEKEEPER_SOURCE"]
    done, calls = _run_before_script(tmp_path, workdir, source)
    assert done.returncode == 0, done.stdout + done.stderr
    venv_call, pip_call, reference_call = calls
    assert venv_call["argv"][:4] == ["-I", "-m", "venv", venv_call["argv"][-1]]
    assert not venv_call["argv"][-1].startswith(str(workdir))
    assert pip_call["argv"][:5] == ["-I", "-m", "pip", "install", "--isolated"] and pip_call["argv"][-1] == source
    assert reference_call["argv"][:5] == ["-I", "-m", "pip", "install", "--isolated"]
    assert reference_call["argv"][-1].startswith("opa-golib-python-bindings==")  # the reference engine, pinned
    for call in calls:
        assert call["cwd"] == "/" and call["env"] == []


@each_case("source", [".", "./", "{project}", "sub/..", "gatekeeper @ file://{project}/sub",
                                    "git+file://{project}@main#egg=gatekeeper"])
def test_gitlab_before_script_refuses_to_install_the_checkout(source: str, tmp_path: Path) -> None:
    workdir = tmp_path / "project"
    (workdir / "sub").mkdir(parents=True)
    done, calls = _run_before_script(tmp_path, workdir, source.format(project=workdir))
    assert done.returncode == 2 and calls == []
    assert "GATEKEEPER_SOURCE is inside the checkout" in done.stderr


def _other_ci_snippet() -> str:
    section = DOC.split("## Other CI", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


@needs_gate
@pytest.mark.parametrize(
    ("files", "status", "cold"),
    [({"src/main.go": "package main\n// ok\n"}, ExitCode.OK, False),
     ({".gitlab-ci.yml": "x:\n  script: [true]\n", "gatekeeper.yaml": "disable: [core]\n"}, ExitCode.REVIEW, True)],
)
def test_other_ci_snippet_runs_the_installed_gate_in_a_hostile_checkout(
    tmp_path: Path, files: dict[str, str], status: int, cold: bool, warm: Path
) -> None:
    from test_action import VECTORS, plant

    snippet = _other_ci_snippet()
    assert '"$venv/bin/python" -I -m gatekeeper gate' in snippet
    mr = MergeRequest(tmp_path)
    mr.change(files)
    hostile = plant(mr.repo.root, VECTORS) if cold else {}  # for the real interpreter (see `warm`)
    head = mr.repo.git("rev-parse", "HEAD").decode().strip()
    env = {**_env(tmp_path), **hostile, "GITHUB_OUTPUT": str(tmp_path / "hijack-output"),
           "venv": str(stand_in_venv(tmp_path / "venv", None if cold else warm)), "BASE": mr.base, "HEAD": head}
    done = subprocess.run(["sh", "-e", "-c", snippet], cwd=mr.repo.root, env=env, capture_output=True, text=True,
                          timeout=120)
    assert "HIJACKED" not in done.stdout + done.stderr
    assert done.returncode == status, done.stdout + done.stderr
    assert (mr.repo.root / "gatekeeper-junit.xml").is_file()


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


@needs_gate
def test_github_workflow_binds_the_patch_and_takes_the_bundle_from_the_base(tmp_path: Path) -> None:
    from test_action import VECTORS, plant, run_action

    steps = WORKFLOW["jobs"]["gate"]["steps"]
    checkout = next(step for step in steps if str(step.get("uses", "")).startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    assert checkout["with"]["ref"] == "${{ github.event.pull_request.head.sha }}"
    gate = next(step for step in steps if step.get("id") == "gatekeeper")
    assert gate["with"]["base"] == "${{ github.event.pull_request.base.sha }}"
    assert gate["with"]["head"] == "${{ github.event.pull_request.head.sha }}"
    assert "policy" not in gate["with"]  # with base and head the gate reads base's own bundle
    # The action as the workflow calls it, in a pull request's checkout that switched core off, rewrote
    # the bundle and plants a replacement gate: the base's bundle reviews the workflow it adds.
    mr = MergeRequest(tmp_path)
    mr.change({".github/workflows/x.yml": "on: push\n", "gatekeeper.yaml": "disable: [core]\n",
               "policies/core/policy.rego": ALLOWED_CORE})
    hostile = plant(mr.repo.root, VECTORS)
    head = mr.repo.git("rev-parse", "HEAD").decode().strip()
    inputs = {key: str(value) for key, value in gate["with"].items() if "${{" not in str(value)}
    inputs.update(base=mr.base, head=head)
    run = run_action(inputs, mr.repo.root, tmp_path, hostile)
    assert run.exit_code == ExitCode.REVIEW and run.outputs["outcome"] == "review", run.stdout + run.stderr
    assert (mr.repo.root / inputs["output"]).is_file()


# -- .pre-commit-hooks.yaml ------------------------------------------------------------------------


def test_pre_commit_hook_runs_gatekeeper_test_on_policy_changes(tmp_path: Path) -> None:
    [hook] = HOOKS
    assert hook["id"] == "gatekeeper-test" and hook["language"] == "python"
    assert hook["pass_filenames"] is False
    files = re.compile(hook["files"])
    assert files.search("policies/core/policy.rego") and files.search("policies/classification.yaml")
    assert not files.search("src/policies.go") and not files.search("docs/policies.md")
    command = hook["entry"].split()
    assert command[:4] == ["python", "-I", "-m", "gatekeeper"]  # pre-commit's venv python, isolated
    workdir = tmp_path / "repo"
    workdir.mkdir()
    from test_action import VECTORS, plant

    hostile = plant(workdir, VECTORS)
    env = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
           "GITHUB_OUTPUT": str(tmp_path / "o"), **hostile}
    done = subprocess.run(
        [str(BIN / command[0]), *command[1:], "--help"], cwd=workdir, env=env, capture_output=True, text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "--policy" in done.stdout and "HIJACKED" not in done.stdout


# -- every shipped entry point: the installed gate, isolated -------------------------------------------------

ENTRY_POINT_FILES = ["action.yml", "examples/gitlab-ci.yml", "examples/github-workflow.yml", ".pre-commit-hooks.yaml"]


def _commands(text: str) -> list[str]:
    """Lines that run something (comments dropped), with continuation lines joined."""
    lines = [line.split(" #", 1)[0] for line in text.replace("\\\n", " ").splitlines()]
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


@each_case("name", ENTRY_POINT_FILES)
def test_no_shipped_entry_point_runs_python_or_pip_unisolated(name: str) -> None:
    for line in _commands((REPO_ROOT / name).read_text(encoding="utf-8")):
        if re.search(r"python3?\"?\s", line) and " -m " in line:
            assert " -I " in line, f"{name}: {line}"
        if re.search(r"(-m pip|^-? ?pip3?) install\b", line):
            assert "--isolated" in line and "-I -m pip" in line, f"{name}: {line}"
            assert not re.search(r"install[^\n]*\s\.(\s|$)", line), f"{name}: installs the checkout: {line}"
        assert not re.match(r"(entry: )?gatekeeper\s", line), f"{name}: the gatekeeper script honours PYTHON*: {line}"


def test_docs_ci_pipeline_snippets_run_python_isolated() -> None:
    section = DOC.split("## Install and run the gate", 1)[1].split("\n## ", 1)[0]
    for block in [*re.findall(r"```sh\n(.*?)```", section, re.S), _other_ci_snippet()]:
        for line in _commands(block):
            if "python" in line and " -m " in line:
                assert " -I " in line, line
            if re.search(r"(-m pip|^pip3?) install\b", line):
                assert "--isolated" in line, line
