"""Red team 49: a report file the change committed, published as the gate's when the gate could not decide.

CI publishes the report files at fixed paths in the checkout whatever the gate's status (GitLab's `artifacts: when:
always`, Jenkins' `junit` step, an upload step with `if: always()`). A change controls the checkout: it can commit a
`gatekeeper-junit.xml` whose every case passes, an empty `gl-code-quality-report.json` and a `gatekeeper-decision.json`
saying `allow`, and make the gate exit 2 (a packet that is not JSON). Before, the gate wrote nothing on exit 2 and the
job published the change's files as the gate's reports (the merge request's test and code quality widgets showed the
forged results). Now `gate --output FILE` removes FILE (a file or a link; never a device, a pipe or a folder) when it
cannot decide, and the shipped jobs remove the files they publish before the gate runs.
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
from pathlib import Path

import pytest
from incli import run_cli
from test_action import needs_gate
from test_ci_examples import DOC, GITLAB, MergeRequest, _env, _other_ci_snippet, stand_in_venv

from gatekeeper.ci.github_action import run_step
from gatekeeper.errors import ExitCode

FORGED = {
    "gatekeeper-junit.xml": '<testsuites><testsuite name="gatekeeper" tests="1" failures="0">'
                            '<testcase name="core 1.1.3"/></testsuite></testsuites>\n',
    "gl-code-quality-report.json": "[]\n",
    "gatekeeper-decision.json": '{"outcome": "allow", "reasons": []}\n',
}


def _bad_packet(folder: Path) -> tuple[Path, Path]:
    packet, patch = folder / "packet.json", folder / "patch.diff"
    packet.write_text("{not json\n")
    patch.write_bytes(b"")
    return packet, patch


@pytest.mark.parametrize("fmt", ["json", "junit", "sarif", "codequality", "text", "markdown"])
@pytest.mark.parametrize("kind", ["file", "link", "dangling link"])
def test_no_decision_leaves_no_report_behind(tmp_path: Path, fmt: str, kind: str) -> None:
    packet, patch = _bad_packet(tmp_path)
    output = tmp_path / "report.out"
    forged = tmp_path / "forged.txt"
    forged.write_text(FORGED["gatekeeper-decision.json"])
    if kind == "file":
        output.write_text(forged.read_text())
    else:
        output.symlink_to(forged if kind == "link" else tmp_path / "nowhere")
    done = run_cli(["gate", str(packet), "--patch", str(patch), "--format", fmt, "--output", str(output)], text=True)
    assert done.returncode == ExitCode.ERROR, done.stderr
    assert not os.path.lexists(output), f"{kind} left as the report"
    assert forged.read_text() == FORGED["gatekeeper-decision.json"]  # a link's target is not touched


def test_a_device_or_folder_named_as_output_stays(tmp_path: Path) -> None:
    packet, patch = _bad_packet(tmp_path)
    folder = tmp_path / "folder"
    folder.mkdir()
    for output in (Path(os.devnull), folder):
        done = run_cli(["gate", str(packet), "--patch", str(patch), "--output", str(output)], text=True)
        assert done.returncode == ExitCode.ERROR
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode) and folder.is_dir()


def test_a_decision_replaces_the_forged_file(tmp_path: Path) -> None:
    packet, patch = tmp_path / "packet.json", tmp_path / "patch.diff"
    patch.write_bytes(b"")
    made = run_cli(["packet", str(patch), "--out", str(packet)], text=True)
    assert made.returncode == 0, made.stderr
    output = tmp_path / "decision.json"
    output.write_text(FORGED["gatekeeper-decision.json"])
    done = run_cli(["gate", str(packet), "--patch", str(patch), "--format", "json", "--output", str(output)],
                   text=True)
    assert done.returncode != ExitCode.ERROR, done.stderr
    assert "tool" in json.loads(output.read_text())  # this run's decision, not the forged one


def _forging_merge_request(tmp_path: Path) -> MergeRequest:
    mr = MergeRequest(tmp_path)
    mr.change({"src/main.go": "package main\n// ok\n"})
    (mr.repo.root / ".agent" / "packet.json").write_text("{not json\n")
    for name, text in FORGED.items():
        mr.repo.write(name, text)
    mr.repo.commit("forged reports, a packet the gate cannot read")
    return mr


@needs_gate
def test_gitlab_job_publishes_no_forged_report(tmp_path: Path) -> None:
    mr = _forging_merge_request(tmp_path)
    head = mr.repo.git("rev-parse", "HEAD").decode().strip()
    env = {**_env(tmp_path), **{key: str(value) for key, value in GITLAB["variables"].items()},
           "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_COMMIT_SHA": head,
           "GATEKEEPER_VENV": str(stand_in_venv(tmp_path / "venv"))}
    done = subprocess.run(["sh", "-e", "-c", "\n".join(GITLAB["gatekeeper"]["script"])], cwd=mr.repo.root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == ExitCode.ERROR, done.stdout + done.stderr
    for name in GITLAB["gatekeeper"]["artifacts"]["paths"]:
        path = mr.repo.root / name
        assert not path.exists() or path.read_text() != FORGED.get(name), f"{name}: the change's own file published"


@needs_gate
def test_other_ci_snippet_publishes_no_forged_report(tmp_path: Path) -> None:
    assert "gatekeeper-junit.xml" in DOC
    mr = _forging_merge_request(tmp_path)
    head = mr.repo.git("rev-parse", "HEAD").decode().strip()
    env = {**_env(tmp_path), "venv": str(stand_in_venv(tmp_path / "venv")), "BASE": mr.base, "HEAD": head}
    done = subprocess.run(["sh", "-e", "-c", _other_ci_snippet()], cwd=mr.repo.root, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == ExitCode.ERROR, done.stdout + done.stderr
    junit = mr.repo.root / "gatekeeper-junit.xml"
    assert not junit.exists() or junit.read_text() != FORGED["gatekeeper-junit.xml"]


@pytest.mark.parametrize("exit_status", ["exit 2", "echo '{\"outcome\": 1' > /dev/null; exit 1"])
def test_action_leaves_no_forged_extra_report(tmp_path: Path, exit_status: str) -> None:
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\n{exit_status}\n")  # a gate that could not decide (or wrote no decision)
    python.chmod(0o755)
    report = tmp_path / "gatekeeper.sarif"
    report.write_text('{"runs": []}\n')  # the change's own file at the report's path
    env = {"INPUT_PACKET": "p.json", "INPUT_PATCH": "p.diff", "INPUT_FORMAT": "sarif", "INPUT_OUTPUT": str(report)}
    result = run_step(env, io.StringIO(), io.StringIO(), python=str(python))
    assert result.exit_code == ExitCode.ERROR and result.report is None
    assert not report.exists()


@pytest.mark.parametrize("named", [True, False])
def test_no_decision_leaves_no_signed_summary_behind(tmp_path: Path, named: bool) -> None:
    # A signed summary of an earlier decision (the gate's own key, another change) committed where --sign writes.
    keys = tmp_path / "keys"
    assert run_cli(["keys", "generate", "--name", "gate", "--out", str(keys)], cwd=tmp_path).returncode == 0
    key = next(p for p in keys.iterdir() if not p.name.endswith(".pub"))
    packet, patch = _bad_packet(tmp_path)
    output = tmp_path / "report.json"
    summary = tmp_path / ("report.json.intoto.json" if named else "decision.intoto.json")
    summary.write_text('{"payloadType": "application/vnd.in-toto+json", "signatures": []}\n')
    done = run_cli(["gate", str(packet), "--patch", str(patch), "--sign", str(key),
                    *(["--output", str(output)] if named else [])], cwd=tmp_path, text=True)
    assert done.returncode == ExitCode.ERROR, done.stderr
    assert not summary.exists()
