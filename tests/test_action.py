"""The composite GitHub Action (action.yml), run the way the runner runs it.

Each `run:` step of action.yml is executed with `bash --noprofile --norc -eo pipefail` (the
runner's bash), its `${{ }}` expressions filled in from the inputs, with a temporary
$GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY and $RUNNER_TEMP. The install step needs a package index
(pip), which tests may not reach: in the action runs it is syntax-checked, and the virtualenv it
would create is stood in for by a launcher of this test run's own interpreter, where gatekeeper is
installed (outside the workspace, as the real one). The install step itself runs against a
recording interpreter: what venv and pip are asked to do, from where, with which variables.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import POLICY_DIR, REPO_ROOT
from gitrepo import GitRepo
from incli import run_cli
from tables import each_case
from test_reports_github import parse as parse_annotations
from warmcli import served_python

from gatekeeper.ci.github_action import StepResult, gate_argv, read_inputs, run_step, set_outputs
from gatekeeper.errors import UsageError

ACTION = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def _gate_importable() -> bool:
    try:
        importlib.import_module("gatekeeper.gate")
    except ImportError:
        return False
    return True


HAVE_GATE = _gate_importable()
needs_gate = pytest.mark.skipif(not HAVE_GATE, reason="gatekeeper.gate is not importable yet (engineer 'gate')")


@dataclass(frozen=True)
class ActionRun:
    exit_code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


def read_output_file(path: Path) -> dict[str, str]:
    """Parse $GITHUB_OUTPUT as the runner does: `name=value` lines and `name<<DELIM` blocks."""
    values: dict[str, str] = {}
    if not path.exists():
        return values
    lines = iter(path.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, marker = line.split("<<", 1)
            body = []
            for item in lines:
                if item == marker:
                    break
                body.append(item)
            values[name] = "\n".join(body)
        elif line:
            name, value = line.split("=", 1)
            values[name] = value
    return values


def run_action(
    inputs: Mapping[str, str], workdir: Path, tmp: Path, extra_env: Mapping[str, str] | None = None,
    python: Path | None = None,
) -> ActionRun:
    """Run action.yml's steps in order in `workdir` with `inputs`; stop at the first failing step.

    `python`: the virtualenv's interpreter the install step would leave, a warm one (the `warm` fixture) where
    the subject is what the gate step reports, not the start of its interpreters; without it, a launcher of this
    test run's own interpreter, started cold as the runner starts it.
    """
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    unknown = set(inputs) - set(values)
    assert not unknown, f"not inputs of action.yml: {unknown}"
    values.update(inputs)
    runner_temp = tmp / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    summary = tmp / "step-summary.md"
    summary.touch()
    base_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp),
        "LANG": "C.UTF-8",
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workdir),
        "GITHUB_ACTION_PATH": str(REPO_ROOT),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(runner_temp),
        **(extra_env or {}),
    }
    step_outputs: dict[str, dict[str, str]] = {}
    stdout, stderr, exit_code = [], [], 0

    def evaluate(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            expr = match.group(1)
            if expr.startswith("inputs."):
                return values[expr.removeprefix("inputs.")]
            if expr == "github.action_path":
                return str(REPO_ROOT)
            found = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
            if found:
                return step_outputs.get(found[1], {}).get(found[2], "")
            raise AssertionError(f"the test runner does not know the expression {expr!r}")

        return EXPRESSION.sub(one, text)

    for index, step in enumerate(ACTION["runs"]["steps"]):
        assert step["shell"] == "bash"
        script = tmp / f"step-{index}.sh"
        script.write_text(evaluate(step["run"]), encoding="utf-8")
        if step.get("id") == "install":
            subprocess.run(["bash", "-n", str(script)], check=True)
            _stand_in_for_install(runner_temp, python)
            continue
        output_file = tmp / f"output-{index}"
        env = {**base_env, "GITHUB_OUTPUT": str(output_file)}
        env.update({key: evaluate(str(value)) for key, value in (step.get("env") or {}).items()})
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workdir,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        stdout.append(done.stdout)
        stderr.append(done.stderr)
        step_outputs[step.get("id", str(index))] = read_output_file(output_file)
        if done.returncode != 0:
            exit_code = done.returncode
            break
    outputs = {name: evaluate(str(spec["value"])) for name, spec in ACTION["outputs"].items()}
    return ActionRun(exit_code, "".join(stdout), "".join(stderr), outputs, summary.read_text(encoding="utf-8"))


def _stand_in_for_install(runner_temp: Path, warm: Path | None = None) -> None:
    python = runner_temp / "gatekeeper-venv" / "bin" / "python"
    python.parent.mkdir(parents=True, exist_ok=True)
    if warm is not None:
        python.symlink_to(warm)
        return
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A `python` that serves the gate step's two interpreters from one that imported gatekeeper (tests/warmcli.py):
    a cold start costs ~0.25 CPU-seconds each, twice a run. The hijack tests start them cold, as the runner does."""
    root = tmp_path_factory.mktemp("warm-python")
    with served_python(root, {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(root)}) as python:
        yield python


# -- the action file itself ---------------------------------------------------------------------


def test_action_is_composite_with_the_documented_interface() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {"packet", "patch", "policy", "enable", "disable", "dry-run", "format", "output", "source"} <= set(
        ACTION["inputs"]
    )
    # Optional: without them the action judges the pull request's commits alone.
    assert not ACTION["inputs"]["packet"]["required"] and not ACTION["inputs"]["patch"]["required"]
    assert set(ACTION["outputs"]) == {"outcome", "findings", "report"}
    install = ACTION["runs"]["steps"][0]
    assert "$GITHUB_ACTION_PATH" in install["run"]  # installs the action's own checkout by default


def test_inputs_never_reach_the_shell_text() -> None:
    # `${{ inputs.x }}` inside `run:` would be spliced into the script before bash parses it.
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step["run"], step["id"]


def test_every_gate_input_is_passed_to_the_script() -> None:
    gate = next(step for step in ACTION["runs"]["steps"] if step["id"] == "gate")
    passed = {EXPRESSION.search(value)[1] for value in gate["env"].values()}  # type: ignore[index]
    expected = {f"inputs.{name}" for name in ACTION["inputs"] if name not in ("source", "python")}
    assert passed == expected


# -- the step script, unit by unit ----------------------------------------------------------------


def test_read_inputs_splits_lists_and_parses_booleans() -> None:
    inputs = read_inputs(
        {
            "INPUT_PACKET": " out/packet.json ",
            "INPUT_PATCH": "out/patch.diff",
            "INPUT_ENABLE": "deps  size\nguardrails\n",
            "INPUT_DISABLE": "",
            "INPUT_DRY_RUN": "True",
            "INPUT_FORMAT": "sarif",
        }
    )
    assert inputs.packet == "out/packet.json"
    assert inputs.enable == ("deps", "size", "guardrails") and inputs.disable == ()
    assert inputs.dry_run is True
    assert inputs.report_file == "gatekeeper-report.sarif"
    argv = gate_argv(inputs, Path("/t/d.json"))
    assert argv[:8] == [
        "gate",
        "out/packet.json",
        "--patch",
        "out/patch.diff",
        "--format",
        "json",
        "--output",
        "/t/d.json",
    ]
    assert argv.count("--enable") == 3 and argv[-1] == "--dry-run"


@each_case(
    ("env", "message"),
    [
        ({"INPUT_PATCH": "p"}, "the 'packet' input is needed with the other one"),
        ({"INPUT_PACKET": "k"}, "the 'patch' input is needed with the other one"),
        ({}, "without packet and patch the gate judges a pull request's commits, and there are none"),
        ({"INPUT_PACKET": "k", "INPUT_PATCH": "p", "INPUT_DRY_RUN": "yes"}, "not a boolean: 'yes'"),
        ({"INPUT_PACKET": "k", "INPUT_PATCH": "p", "INPUT_FORMAT": "pdf"}, "unknown report format 'pdf'"),
    ],
)
def test_bad_inputs_are_usage_errors(env: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        read_inputs(env)


def test_no_policy_flag_unless_the_policy_input_names_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The gate chooses (gatekeeper.yaml, ./policies, its own bundle) and guards what it chose: a
    # `--policy policies` from the action would hide from it that a patch deletes ./policies.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / ".manifest").write_text("{}")
    assert "--policy" not in gate_argv(read_inputs({"INPUT_PACKET": "k", "INPUT_PATCH": "p"}), Path("d"))
    explicit = read_inputs({"INPUT_PACKET": "k", "INPUT_PATCH": "p", "INPUT_POLICY": "../trusted/policies"})
    argv = gate_argv(explicit, Path("d"))
    assert argv[argv.index("--policy") + 1] == "../trusted/policies"


def _event(tmp_path: Path, payload: object) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return str(path)


PR_EVENT = {"action": "synchronize", "pull_request": {"base": {"sha": "b" * 40}, "head": {"sha": "h" * 40}}}


def test_tree_defaults_to_the_pull_request_commits(tmp_path: Path) -> None:
    env = {"INPUT_PACKET": "k", "INPUT_PATCH": "p", "GITHUB_EVENT_PATH": _event(tmp_path, PR_EVENT)}
    argv = gate_argv(read_inputs(env), Path("d"))
    assert argv[argv.index("--tree") + 1] == f"{'b' * 40}..{'h' * 40}"
    argv = gate_argv(read_inputs({**env, "INPUT_BASE": "origin/main", "INPUT_HEAD": "HEAD"}), Path("d"))
    assert argv[argv.index("--tree") + 1] == "origin/main..HEAD"


def test_no_tree_outside_pull_request_events_unless_asked(tmp_path: Path) -> None:
    env = {"INPUT_PACKET": "k", "INPUT_PATCH": "p", "GITHUB_EVENT_PATH": _event(tmp_path, {"ref": "refs/heads/x"})}
    assert "--tree" not in gate_argv(read_inputs(env), Path("d"))
    assert "--tree" not in gate_argv(read_inputs({"INPUT_PACKET": "k", "INPUT_PATCH": "p"}), Path("d"))
    argv = gate_argv(read_inputs({**env, "INPUT_BASE": "v1", "INPUT_HEAD": "v2"}), Path("d"))
    assert argv[argv.index("--tree") + 1] == "v1..v2"


@each_case(("extra", "message"), [
        ({"INPUT_BASE": "main"}, "the 'head' input is needed"),
        ({"INPUT_HEAD": "HEAD"}, "the 'base' input is needed"),
        ({"GITHUB_EVENT_PATH": "/nonexistent/event.json"}, "cannot read the event payload"),
    ])
def test_bad_tree_inputs_are_usage_errors(extra: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        read_inputs({"INPUT_PACKET": "k", "INPUT_PATCH": "p", **extra})


def test_set_outputs_uses_a_delimiter_for_multiline_values(tmp_path: Path) -> None:
    target = tmp_path / "out"
    set_outputs(str(target), {"outcome": "review", "note": "two\nlines"})
    assert read_output_file(target) == {"outcome": "review", "note": "two\nlines"}
    set_outputs(None, {"ignored": "x"})  # outside Actions there is no output file


def test_step_with_a_missing_input_fails_closed_and_says_why(tmp_path: Path) -> None:
    out = io.StringIO()
    result = run_step({"INPUT_PATCH": "p"}, out, io.StringIO())
    assert result == StepResult("error", 0, 2)
    [(kind, props, message)] = parse_annotations(out.getvalue())
    assert kind == "error" and props["title"] == "gatekeeper could not decide"
    assert "the 'packet' input is needed" in message


# -- the whole action, as the runner runs it -------------------------------------------------------


def test_action_fails_closed_when_the_gate_cannot_decide(tmp_path: Path, warm: Path) -> None:
    workdir = tmp_path / "ws"
    workdir.mkdir()
    run = run_action({"packet": "missing.json", "patch": "missing.diff", "dry-run": "true"}, workdir, tmp_path,
                     python=warm)
    assert run.exit_code == 2  # even in dry-run: no decision is not an allow
    assert run.outputs["outcome"] == "error" and run.outputs["findings"] == "0"
    [(kind, props, message)] = parse_annotations(run.stdout)  # one annotation, no doubled prefix
    assert kind == "error" and props["title"] == "gatekeeper could not decide"
    assert not message.startswith(("gatekeeper", "the gate could not decide")) and "missing.json" in message
    assert "gatekeeper could not decide" in run.summary and "missing.json" in run.summary


def test_action_reports_a_bad_input_as_an_error(tmp_path: Path, warm: Path) -> None:
    workdir = tmp_path / "ws"
    workdir.mkdir()
    run = run_action({"packet": "k.json", "patch": "p.diff", "dry-run": "maybe"}, workdir, tmp_path, python=warm)
    assert run.exit_code == 2 and run.outputs["outcome"] == "error"
    assert "not a boolean" in run.stdout


# -- allow, review, deny with the real gate --------------------------------------------------------


@pytest.fixture
def change(tmp_path: Path) -> Change:
    return Change(tmp_path)


class Change:
    """A repository with a base commit; makes real patches and packets from staged changes."""

    def __init__(self, tmp: Path) -> None:
        self.repo = GitRepo(tmp / "repo")
        self.repo.write("src/main.go", "package main\n\nfunc main() {}\n")
        self.repo.write("README.md", "hello\n")
        self.repo.commit()
        self.workdir = tmp / "ws"
        self.workdir.mkdir()

    def patch(self, files: Mapping[str, str]) -> Path:
        for path, text in files.items():
            self.repo.write(path, text)
        name = f"{uuid.uuid4().hex[:8]}.diff"
        patch = self.repo.save_patch(self.workdir / name)
        self.repo.git("reset", "-q", "--hard", "HEAD")
        for path in files:
            if (self.repo.root / path).exists() and not self.repo.git("ls-files", path):
                (self.repo.root / path).unlink()
        return patch

    def packet(self, patch: Path) -> Path:
        out = patch.with_suffix(".packet.json")
        made = run_cli(["packet", str(patch), "--out", str(out), "--policy", str(POLICY_DIR)])  # setup: in-process
        assert made.returncode == 0, made.stderr
        return out


SRC_CHANGE = {"src/main.go": "package main\n\nfunc main() { println(1) }\n"}
CI_CHANGE = {".github/workflows/ci.yml": "on: push\njobs: {}\n", "Jenkinsfile": "pipeline {}\n"}


@needs_gate
def test_allow_passes_with_no_annotations(change: Change, tmp_path: Path, warm: Path) -> None:
    patch = change.patch(SRC_CHANGE)
    inputs = {"packet": str(change.packet(patch)), "patch": str(patch), "policy": str(POLICY_DIR), "log": "d.jsonl"}
    run = run_action(inputs, change.workdir, tmp_path, python=warm)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.outputs["outcome"] == "allow" and run.outputs["findings"] == "0"
    assert run.outputs["report"] == ""
    (tmp_path / "sarif").mkdir()
    sarif_run = run_action({**inputs, "log": "", "format": "sarif"}, change.workdir, tmp_path / "sarif", python=warm)
    assert sarif_run.exit_code == 0 and assert_valid_sarif(change.workdir / "gatekeeper-report.sarif") == []
    assert parse_annotations(run.stdout) == []
    assert "gatekeeper: allow" in run.summary
    [record] = (change.workdir / "d.jsonl").read_text().splitlines()  # the decision was logged
    assert "allow" in record


@needs_gate
def test_review_fails_the_step_and_annotates_each_file(change: Change, tmp_path: Path, warm: Path) -> None:
    patch = change.patch(CI_CHANGE)
    inputs = {"packet": str(change.packet(patch)), "patch": str(patch), "policy": str(POLICY_DIR), "format": "sarif"}
    run = run_action(inputs, change.workdir, tmp_path, python=warm)
    assert run.exit_code == 3, run.stdout + run.stderr
    assert run.outputs["outcome"] == "review" and int(run.outputs["findings"]) >= 1
    files = {props.get("file") for kind, props, _ in parse_annotations(run.stdout) if kind == "warning"}
    assert {".github/workflows/ci.yml", "Jenkinsfile"} <= files
    assert "review required" in run.summary and "<code>Jenkinsfile</code>" in run.summary
    assert run.outputs["report"] == "gatekeeper-report.sarif"
    assert assert_valid_sarif(change.workdir / "gatekeeper-report.sarif")


@needs_gate
def test_review_in_dry_run_reports_but_passes(change: Change, tmp_path: Path, warm: Path) -> None:
    patch = change.patch(CI_CHANGE)
    inputs = {"packet": str(change.packet(patch)), "patch": str(patch), "policy": str(POLICY_DIR), "dry-run": "true"}
    run = run_action(inputs, change.workdir, tmp_path, python=warm)
    assert run.exit_code == 0
    assert run.outputs["outcome"] == "review"
    assert any(kind == "warning" for kind, _, _ in parse_annotations(run.stdout))
    assert "would have failed this step" in run.stdout


@needs_gate
def test_deny_when_the_patch_is_not_the_one_the_packet_describes(change: Change, tmp_path: Path, warm: Path) -> None:
    honest = change.patch(SRC_CHANGE)
    packet = change.packet(honest)
    swapped = change.patch(CI_CHANGE)  # the packet claims a harmless change; the patch touches CI
    run = run_action(
        {"packet": str(packet), "patch": str(swapped), "policy": str(POLICY_DIR), "format": "sarif"},
        change.workdir, tmp_path, python=warm)
    assert run.exit_code == 1, run.stdout + run.stderr
    assert run.outputs["outcome"] == "deny"
    assert_valid_sarif(change.workdir / run.outputs["report"])
    errors = [(props, message) for kind, props, message in parse_annotations(run.stdout) if kind == "error"]
    assert any("integrity" in props["title"] for props, _ in errors)
    assert "gatekeeper: deny" in run.summary


@needs_gate
def test_enable_input_switches_on_optional_policies(change: Change, tmp_path: Path, warm: Path) -> None:
    patch = change.patch({"go.mod": "module example.com/x\n\ngo 1.22\n"})
    inputs = {"packet": str(change.packet(patch)), "patch": str(patch), "policy": str(POLICY_DIR)}
    (tmp_path / "default").mkdir()
    (tmp_path / "enabled").mkdir()
    assert run_action(inputs, change.workdir, tmp_path / "default", python=warm).outputs["outcome"] == "allow"
    run = run_action({**inputs, "enable": "deps\nsize"}, change.workdir, tmp_path / "enabled", python=warm)
    assert run.outputs["outcome"] == "review" and run.exit_code == 3


# -- the pull request's commits must be the patch; the gate chooses and guards its bundle ---------------


@needs_gate
def test_pull_request_event_binds_the_patch_to_the_commits(tmp_path: Path, warm: Path) -> None:
    from test_treecheck import WORKFLOW, PullRequest

    pr = PullRequest(GitRepo(tmp_path / "repo")).change({"src/app.py": "print(2)\n"})

    def event() -> dict[str, str]:
        sha = {ref: pr.repo.git("rev-parse", ref).decode().strip() for ref in ("main", "pr")}
        payload = {"pull_request": {"base": {"sha": sha["main"]}, "head": {"sha": sha["pr"]}}}
        return {"GITHUB_EVENT_PATH": _event(tmp_path, payload)}

    inputs = {"packet": ".agent/packet.json", "patch": ".agent/patch.diff", "policy": str(POLICY_DIR)}
    (tmp_path / "honest").mkdir()
    run = run_action(inputs, pr.repo.root, tmp_path / "honest", event(), python=warm)
    assert run.exit_code == 0 and run.outputs["outcome"] == "allow", run.stdout + run.stderr
    pr.sneak({WORKFLOW: "on: push\njobs: {steal: {}}\n"})
    (tmp_path / "sneaky").mkdir()
    run = run_action(inputs, pr.repo.root, tmp_path / "sneaky", event(), python=warm)
    assert run.exit_code == 1 and run.outputs["outcome"] == "deny", run.stdout + run.stderr
    errors = [(props, message) for kind, props, message in parse_annotations(run.stdout) if kind == "error"]
    assert any("gatekeeper.tree_mismatch" in props["title"] and WORKFLOW in message for props, message in errors)


def assert_valid_sarif(path: Path) -> list[dict]:
    """The results of the SARIF file at `path`, after checking the schema and GitHub's ingestion rules."""
    from test_reports_sarif import VALIDATOR, github_problems

    log = json.loads(path.read_text(encoding="utf-8"))
    assert not list(VALIDATOR.iter_errors(log)) and not github_problems(log)
    results: list[dict] = log["runs"][0]["results"]
    return results


def _pr_event(tmp_path: Path, repo: GitRepo, user: str = "Copilot") -> dict[str, str]:
    sha = {ref: repo.git("rev-parse", ref).decode().strip() for ref in ("main", "pr")}
    payload = {"pull_request": {"base": {"sha": sha["main"]}, "head": {"sha": sha["pr"]}, "user": {"login": user}}}
    return {"GITHUB_EVENT_PATH": _event(tmp_path, payload)}


@needs_gate
@pytest.mark.parametrize(("files", "outcome", "status"), [
    ({"src/app.py": "print(2)\n"}, "allow", 0),
    ({".github/workflows/ci.yml": "on: push\njobs: {x: {}}\n"}, "review", 3),
])
def test_packet_less_mode_judges_the_pull_request_from_its_commits(
    files: dict[str, str], outcome: str, status: int, tmp_path: Path, warm: Path
) -> None:
    from test_reports_sarif import VALIDATOR, github_problems

    repo = GitRepo(tmp_path / "repo")
    repo.write("src/app.py", "print(1)\n")
    repo.write("README.md", "hello\n")
    repo.commit()
    repo.git("checkout", "-q", "-b", "pr")
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("agent change")
    (tmp_path / "plain").mkdir()
    run = run_action({"policy": str(POLICY_DIR), "format": "sarif"}, repo.root, tmp_path / "plain",
                     _pr_event(tmp_path, repo), python=warm)
    assert (run.exit_code, run.outputs["outcome"]) == (status, outcome), run.stdout + run.stderr
    log = json.loads((repo.root / "gatekeeper-report.sarif").read_text())
    assert not list(VALIDATOR.iter_errors(log)) and not github_problems(log)
    # With the sandbox policy on, the absent runner claims go to a human, in the summary with their reason.
    (tmp_path / "sandbox").mkdir()
    run = run_action({"policy": str(POLICY_DIR), "enable": "sandbox", "format": "sarif"}, repo.root,
                     tmp_path / "sandbox", _pr_event(tmp_path, repo), python=warm)
    assert (run.exit_code, run.outputs["outcome"]) == (3, "review"), run.stdout + run.stderr
    assert "not signed by a trusted runner key" in run.summary and "no packet" in run.summary
    log = json.loads((repo.root / "gatekeeper-report.sarif").read_text())
    assert not list(VALIDATOR.iter_errors(log)) and not github_problems(log)
    assert "sandbox.unverified" in {r["ruleId"] for r in log["runs"][0]["results"]}


def test_packet_less_mode_outside_a_pull_request_cannot_decide(tmp_path: Path, warm: Path) -> None:
    workdir = tmp_path / "ws"
    workdir.mkdir()
    run = run_action({}, workdir, tmp_path, python=warm)
    assert run.exit_code == 2 and run.outputs["outcome"] == "error"
    [(kind, _, message)] = parse_annotations(run.stdout)
    assert kind == "error" and "pull request" in message and "could not decide" in run.summary


@needs_gate
def test_packet_less_mode_with_an_unfetched_base_says_why(tmp_path: Path, warm: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "hello\n")
    repo.commit()
    repo.git("checkout", "-q", "-b", "pr")
    event = {"pull_request": {"base": {"sha": "1" * 40}, "head": {"sha": repo.git("rev-parse", "pr").decode().strip()}}}
    run = run_action({"policy": str(POLICY_DIR)}, repo.root, tmp_path, {"GITHUB_EVENT_PATH": _event(tmp_path, event)},
                     python=warm)
    assert run.exit_code == 2 and run.outputs["outcome"] == "error"
    [(kind, props, message)] = parse_annotations(run.stdout)
    assert "unknown revision" in message and "fetch-depth" in message and not message.startswith("gatekeeper")
    assert "unknown revision" in run.summary


@needs_gate
def test_a_patch_deleting_the_repository_bundle_is_refused_not_judged_by_the_fallback(
    tmp_path: Path, warm: Path
) -> None:
    repo = GitRepo(tmp_path / "repo")
    shutil.copytree(POLICY_DIR, repo.root / "policies")
    repo.write("src/main.go", "package main\n")
    repo.commit()
    shutil.rmtree(repo.root / "policies")  # the pull request's checkout: the patch's change is in it
    patch = repo.save_patch(tmp_path / "change.diff")
    packet = tmp_path / "packet.json"
    assert run_cli(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]).returncode == 0
    run = run_action({"packet": str(packet), "patch": str(patch)}, repo.root, tmp_path, python=warm)
    assert run.exit_code == 2 and run.outputs["outcome"] == "error", run.stdout + run.stderr
    assert "cannot be judged by configuration it brings along" in run.stdout + run.stderr


# -- the change cannot replace the gate: hostile workspaces and job environments -------------------------

# What a hijacked entry point does: report allow and stop, before the real gate could run.
FAKE_ALLOW = (
    "import os\n"
    "with open(os.environ['GITHUB_OUTPUT'], 'a') as out:\n"
    "    out.write('outcome=allow\\nfindings=0\\n')\n"
    "print('HIJACKED')\n"
    "os._exit(0)\n"
)


def plant(ws: Path, vectors: tuple[str, ...]) -> dict[str, str]:
    """Plant hijack attempts in the workspace (the change under review); the job environment they need."""
    env: dict[str, str] = {}
    site = ws / ".local" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    if "package" in vectors:  # a `gatekeeper/` package where `python -m` looks first
        for name in ("gatekeeper/__init__.py", "gatekeeper/ci/__init__.py", "gatekeeper/ci/github_action.py",
                     "gatekeeper/__main__.py"):
            (ws / name).parent.mkdir(parents=True, exist_ok=True)
            (ws / name).write_text(FAKE_ALLOW)
    if "sitecustomize" in vectors:
        (ws / "sitecustomize.py").write_text(FAKE_ALLOW)
        site.mkdir(parents=True, exist_ok=True)
        (site / "sitecustomize.py").write_text(FAKE_ALLOW)
    if "usercustomize" in vectors:
        (ws / "usercustomize.py").write_text(FAKE_ALLOW)
        site.mkdir(parents=True, exist_ok=True)
        (site / "usercustomize.py").write_text(FAKE_ALLOW)
        env["PYTHONUSERBASE"] = str(ws / ".local")
    if "pth" in vectors:
        line = "import os; exec(open(os.path.join(os.path.dirname(__file__) or '.', 'evil_pth.py')).read())\n"
        for folder in (ws, site):
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "zz-evil.pth").write_text(line)
            (folder / "evil_pth.py").write_text(FAKE_ALLOW)
        env["PYTHONUSERBASE"] = str(ws / ".local")
    if "PYTHONPATH" in vectors:
        env["PYTHONPATH"] = f"{ws}{os.pathsep}{site}"
    if "PYTHONSTARTUP" in vectors:
        (ws / "startup.py").write_text(FAKE_ALLOW)
        env["PYTHONSTARTUP"] = str(ws / "startup.py")
    if "PYTHONHOME" in vectors:
        env["PYTHONHOME"] = str(ws)  # no standard library there: an interpreter that honours it fails to start
    if "PYTHONSAFEPATH" in vectors:
        env["PYTHONSAFEPATH"] = ""
        env["PYTHONNOUSERSITE"] = ""
    return env


VECTORS = ("package", "sitecustomize", "usercustomize", "pth", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME",
           "PYTHONSAFEPATH")
# Each vector alone, the pairs a job is likely to combine, and everything at once.
COMBINATIONS = [(v,) for v in VECTORS] + [
    ("package", "PYTHONPATH"), ("sitecustomize", "PYTHONPATH"), ("usercustomize", "pth"),
    ("package", "sitecustomize", "usercustomize", "pth", "PYTHONPATH", "PYTHONSTARTUP"), VECTORS,
]


@pytest.fixture(scope="module")
def ci_change(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """One CI change's patch and packet (bytes), made once: each hijack test plants its own fresh workspace."""
    change = Change(tmp_path_factory.mktemp("ci-change"))
    patch = change.patch(CI_CHANGE)
    return patch.read_bytes(), change.packet(patch).read_bytes()


@needs_gate
@pytest.mark.parametrize("vectors", COMBINATIONS, ids=["+".join(c) for c in COMBINATIONS])
def test_a_workspace_cannot_replace_the_gate(
    vectors: tuple[str, ...], ci_change: tuple[bytes, bytes], tmp_path: Path
, warm: Path) -> None:
    workdir = tmp_path / "ws"
    workdir.mkdir()
    patch, packet = workdir / "change.diff", workdir / "change.packet.json"
    patch.write_bytes(ci_change[0])
    packet.write_bytes(ci_change[1])
    inputs = {"packet": str(packet), "patch": str(patch), "policy": str(POLICY_DIR)}
    env = plant(workdir, vectors)
    run = run_action(inputs, workdir, tmp_path, env, python=warm)
    assert "HIJACKED" not in run.stdout + run.stderr
    assert run.exit_code == 3 and run.outputs["outcome"] == "review", run.stdout + run.stderr
    assert "review required" in run.summary


@needs_gate
def test_the_planted_workspace_does_hijack_an_interpreter_without_isolation(change: Change, tmp_path: Path) -> None:
    # The attack is real: the same workspace and environment take over a plain `python -m`.
    env = {**os.environ, **plant(change.workdir, VECTORS[:2] + ("PYTHONPATH",)), "GITHUB_OUTPUT": str(tmp_path / "o")}
    done = subprocess.run([sys.executable, "-m", "gatekeeper.ci.github_action"], cwd=change.workdir, env=env,
                          capture_output=True, text=True, timeout=60)
    assert "HIJACKED" in done.stdout and read_output_file(tmp_path / "o")["outcome"] == "allow"


def test_the_gate_step_starts_the_gate_isolated(tmp_path: Path) -> None:
    # run_step's own child: -I, and no PYTHON*/PIP_* variables handed down.
    from gatekeeper.ci.github_action import interpreter_env

    env = {"PYTHONPATH": ".", "PYTHONSTARTUP": "x", "PYTHONHOME": "/", "PIP_INDEX_URL": "http://127.0.0.1:9/",
           "VIRTUAL_ENV": "/x", "PATH": "/usr/bin", "GITHUB_OUTPUT": "o", "INPUT_PACKET": "p"}
    assert interpreter_env(env) == {"PATH": "/usr/bin", "GITHUB_OUTPUT": "o", "INPUT_PACKET": "p"}
    source = Path(REPO_ROOT / "gatekeeper" / "ci" / "github_action.py").read_text(encoding="utf-8")
    assert '[python, "-I", "-m", "gatekeeper"' in source


# -- the install step: outside the workspace, isolated, never the workspace's code ---------------------------

# An interpreter that records how it was started (argv, cwd, the PYTHON*/PIP_* it received) and, asked
# to make a virtualenv, leaves one more such recorder as its python: what each step hands pip and venv.
PROBE = """#!{python} -I
import json, os, sys
from pathlib import Path
steering = sorted(k for k in os.environ if k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV")))
with open({log!r}, "a") as log:
    log.write(json.dumps({{"argv": sys.argv[1:], "cwd": os.getcwd(), "env": steering}}) + "\\n")
if sys.argv[1:4] == ["-I", "-m", "venv"]:
    target = Path(sys.argv[-1]) / "bin" / "python"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(Path(__file__).read_text())
    target.chmod(0o755)
"""


def run_install(workdir: Path, tmp: Path, source: str, env: Mapping[str, str]) -> tuple[int, str, list[dict]]:
    install = next(step for step in ACTION["runs"]["steps"] if step["id"] == "install")
    log = tmp / "probe.jsonl"
    probe = tmp / "probe-python"
    probe.write_text(PROBE.format(python=sys.executable, log=str(log)))
    probe.chmod(0o755)
    runner_temp = tmp / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp), "GITHUB_WORKSPACE": str(workdir),
            "GITHUB_ACTION_PATH": str(REPO_ROOT), "RUNNER_TEMP": str(runner_temp),
            "GATEKEEPER_SOURCE": source, "GATEKEEPER_PYTHON": str(probe), **env}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", install["run"]], cwd=workdir,
                          env=full, capture_output=True, text=True, timeout=60)
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return done.returncode, done.stdout + done.stderr, calls


HOSTILE_JOB_ENV = {"PYTHONPATH": ".", "PYTHONSTARTUP": "startup.py", "PYTHONHOME": ".", "PYTHONUSERBASE": ".local",
                   "PIP_FIND_LINKS": ".", "PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_CONSTRAINT": "c.txt",
                   "PIP_EDITABLE": "1", "VIRTUAL_ENV": "."}


def test_install_step_installs_the_action_isolated_from_outside_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    plant(ws, VECTORS)
    code, output, calls = run_install(ws, tmp_path, "", HOSTILE_JOB_ENV)
    assert code == 0, output
    venv_call, pip_call, reference_call = calls
    runner_temp = str(tmp_path / "runner-temp")
    assert venv_call["argv"] == ["-I", "-m", "venv", "--clear", f"{runner_temp}/gatekeeper-venv"]
    assert pip_call["argv"][:5] == ["-I", "-m", "pip", "install", "--isolated"]
    assert pip_call["argv"][-1] == str(REPO_ROOT)  # the action's own checkout: the ref pinned in `uses:`
    # The reference engine, hash-pinned, from the action's own checkout too.
    assert reference_call["argv"][:5] == ["-I", "-m", "pip", "install", "--isolated"]
    assert "--require-hashes" in reference_call["argv"]
    assert reference_call["argv"][-1] == str(REPO_ROOT / "requirements-reference.txt")
    for call in calls:
        assert call["cwd"] == runner_temp and call["env"] == []  # nothing of the job's PYTHON*/PIP_* reaches them


@each_case("source", [".", "./", "{ws}", "{ws}/sub/..", "sub", "{link}", "gatekeeper @ file://{ws}/sub",
                                    "git+file://{ws}/sub@main#egg=gatekeeper", "file://{ws}/", "git+file://{ws}@main"])
def test_install_step_refuses_to_install_the_workspace(source: str, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(ws / "sub")
    code, output, calls = run_install(ws, tmp_path, source.format(ws=ws, link=tmp_path / "link"), {})
    assert code == 2 and calls == []
    assert "::error title=gatekeeper could not decide::the source input is inside the workspace" in output


def test_install_step_accepts_a_pinned_requirement_or_a_folder_outside(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    for source in ("gatekeeper @ git+https://example.invalid/gatekeeper.git@" + "0" * 40, str(tmp_path)):
        code, output, calls = run_install(ws, tmp_path, source, {})
        assert code == 0 and calls[-2]["argv"][-1] == source, output  # then the reference engine
