"""Review of what the probe file must say before the runner trusts the sandbox."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import gk_in

from gatekeeper.errors import RunError
from gatekeeper.runner import mounts, rundir, sandbox
from gatekeeper.runner.inside import EXIT_NOT_PROTECTED

pytestmark = pytest.mark.usefixtures("runner_bundle")


def test_a_filesystem_that_cannot_be_confined_stops_the_shim(tmp_path: Path) -> None:
    box = sandbox.select("unshare")
    probe = tmp_path / "probe.json"
    marker = tmp_path / "generator-ran"
    plan = mounts.Plan((*mounts.BASE.mounts, mounts.Mount("rw", str(tmp_path), str(tmp_path)))).bind(
        tmp_path / "missing", tmp_path / "missing")
    argv = sandbox.wrap(box, probe, ("touch", str(marker)), plan)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert done.returncode == EXIT_NOT_PROTECTED and "cannot confine the filesystem" in done.stderr
    assert not marker.exists()
    assert json.loads(probe.read_text())["protected"] is False


@pytest.mark.parametrize("backend", ["unshare", "bwrap"])
@pytest.mark.parametrize("protected", [False, None])
def test_the_runner_refuses_a_probe_without_protection(tmp_path: Path, protected: bool | None, backend: str) -> None:
    run = rundir.create(tmp_path / "runs")
    doc: dict[str, object] = {"network": "denied", "egress_checked": True}
    if protected is not None:
        doc["protected"] = protected
    run.probe.write_text(json.dumps(doc))
    with pytest.raises(RunError, match="could not confine the filesystem"):
        sandbox.read_probe(sandbox.Sandbox(backend, (backend,)), run.probe, run.logs / "stderr.log")
    assert sandbox.read_probe(sandbox.Sandbox("none", ()), run.probe, run.logs / "stderr.log")["network"] == "denied"


def test_a_missing_probe_names_the_sandboxs_last_words(tmp_path: Path) -> None:
    run = rundir.create(tmp_path / "runs")
    run.logs.mkdir(parents=True, exist_ok=True)
    box = sandbox.Sandbox("bwrap", ("bwrap",))
    with pytest.raises(RunError) as silent:
        sandbox.read_probe(box, run.probe, run.logs / "stderr.log")
    assert silent.value.what.endswith("no egress check was recorded")  # no log: nothing more to say
    noise = "x" * 5000 + "\n"
    last = "bwrap: Can't mkdir /a/b: Read-only file system\x1b[2J\n\n"
    (run.logs / "stderr.log").write_bytes((noise + last).encode())
    with pytest.raises(RunError) as told:
        sandbox.read_probe(box, run.probe, run.logs / "stderr.log")
    assert told.value.what.endswith("(the log ends: bwrap: Can't mkdir /a/b: Read-only file system\\x1b[2J)")
    assert told.value.where == str(run.logs / "stderr.log")


def _gk_run(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """`gatekeeper run` in-process (runbundle.gk_in): the planted files are read by the runner's own code either way.
    The run goes on in a thread the test waits on for at most 60 s: a runner that blocks on a planted FIFO fails the
    test, as the subprocess's timeout did, instead of hanging the suite."""
    repo = GitRepo(tmp_path / "origin")
    repo.write("README.md", "# sample\n")
    repo.commit()
    args = ("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", "unshare", "--format",
            "json", "--", "sh", "-c", script)
    ended: list[subprocess.CompletedProcess[str] | BaseException] = []

    def run() -> None:
        try:
            ended.append(gk_in(*args))
        except BaseException as exc:  # raised again in the test's own thread
            ended.append(exc)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(timeout=60)
    assert ended, "the run did not end within 60 s"
    if isinstance(ended[0], BaseException):
        raise ended[0]
    return ended[0]


@pytest.mark.parametrize("plant", ['mkfifo "$R"', 'ln -s /dev/zero "$R"', 'ln -s /proc/self/environ "$R"'])
def test_a_planted_model_report_neither_hangs_nor_floods_the_runner(tmp_path: Path, plant: str) -> None:
    done = _gk_run(tmp_path, f'R="$GATEKEEPER_MODEL_REPORT"; rm -f "$R"; {plant}; echo x > x.txt')
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["model"]["reported"] is None
    assert any("model report" in w for w in summary["warnings"]), summary["warnings"]


@pytest.mark.parametrize("plant", ['mkfifo "$P"', 'ln -s /dev/zero "$P"'])
def test_a_planted_probe_file_stops_the_run_without_hanging(tmp_path: Path, plant: str) -> None:
    done = _gk_run(tmp_path, f'P="$(dirname "$GATEKEEPER_MODEL_REPORT")/sandbox-probe.json"; rm -f "$P"; {plant}')
    assert done.returncode == 2 and "no egress check was recorded" in done.stderr, done.stderr
