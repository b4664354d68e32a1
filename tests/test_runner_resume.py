"""Durability: a run SIGKILLed mid-generator keeps its last checkpoint, and `--resume` finishes it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import RUN_STATE, gk_in, use_bundle

from gatekeeper.errors import InputFileError, RunError
from gatekeeper.runner import checkpoint, rundir, state, workspace

# Restartable on purpose: it continues from the steps already in work.txt, tagging each line with a
# token of this process start so the test can tell the attempts apart. Its first attempt never ends by
# itself: it writes a step per recorded checkpoint up to the third, then waits to be killed, so the kill lands
# mid-generator however slow the machine (a timed one could finish before its third checkpoint).
GENERATOR = RUN_STATE + """
import os, sys, time
token = os.urandom(4).hex()
path = "work.txt"
done = open(path).read().splitlines() if os.path.exists(path) else []
first = run_state()["attempts"] == 1
for step in range(len(done), int(sys.argv[1])):
    if first:
        wait_for_state(lambda state: len(state["checkpoints"]) >= step)
        if step == 3:
            time.sleep(600)  # three checkpoints recorded: the test kills the run now
    with open(path, "a") as handle:
        handle.write(f"step {step} by {token}\\n")
open("blob.bin", "wb").write(bytes(range(256)) * 4)
"""


pytestmark = pytest.mark.usefixtures("runner_bundle")


def origin(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "origin")
    repo.write("README.md", "# sample\n")
    repo.write("old.bin", bytes(range(200)))
    repo.commit()
    return repo.root


def wait_for(predicate, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("condition not reached in time")


def running(script: Path) -> bool:
    """Whether any process on the machine (in any PID namespace) runs this script."""
    wanted = str(script).encode()
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and wanted in (proc / "cmdline").read_bytes().split(b"\0"):
                return True
        except OSError:  # gone meanwhile
            continue
    return False


def only_run(out: Path) -> rundir.RunDir:
    (path,) = [p for p in out.iterdir() if p.is_dir()]
    return rundir.RunDir(out, path.name)


def test_sigkill_mid_generator_then_resume(tmp_path: Path) -> None:
    script = tmp_path / "gen.py"
    script.write_text(GENERATOR)
    out = tmp_path / "runs"
    runner = subprocess.Popen(
        [sys.executable, "-m", "gatekeeper", "run", "--repo", str(origin(tmp_path)), "--out", str(out),
         "--checkpoint-interval", "0.2", "--format", "json", "--", sys.executable, str(script), "40"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        wait_for(lambda: out.exists() and any(out.iterdir()))
        run = only_run(out)
        wait_for(lambda: run.state.exists() and len(json.loads(run.state.read_text())["checkpoints"]) >= 3)
    finally:
        os.killpg(runner.pid, signal.SIGKILL)  # the machine goes away: the runner's whole group at once
        runner.wait()
    recorded = json.loads(run.state.read_text())
    assert recorded["stage"] == "generating"
    last = checkpoint.last(run, recorded["checkpoints"])
    assert last is not None and last.name == f"{recorded['checkpoints'][-1]['seq']:04d}.diff"
    # The generator dies with the runner (the kernel tears the sandbox down right after), short of its 40 steps.
    wait_for(lambda: not running(script), timeout=10)
    assert len((run.workspace / "work.txt").read_text().splitlines()) < 40

    # The kill needs a process of its own; the resumes run in-process (runbundle.gk_in).
    done = gk_in("run", "--resume", run.run_id, "--out", str(out), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "restoring the workspace from checkpoint" in done.stderr
    summary = json.loads(done.stdout)
    assert summary["run_id"] == run.run_id and summary["attempts"] == 2
    patch = Path(summary["patch"]).read_text()
    lines = [ln[1:] for ln in patch.splitlines() if ln.startswith("+step ")]
    assert [ln.split()[1] for ln in lines] == [str(i) for i in range(40)]  # contiguous work
    tokens = {ln.split()[-1] for ln in lines}
    assert len(tokens) == 2  # work from before and after the kill
    assert "GIT binary patch" in patch
    packet = json.loads(Path(summary["packet"]).read_text())
    assert packet["generator"]["exit_code"] == 0
    assert [c["seq"] for c in packet["checkpoints"]] == [
        c["seq"] for c in json.loads(run.state.read_text())["checkpoints"]
    ]
    assert json.loads(run.state.read_text())["stage"] == "done"
    again = gk_in("run", "--resume", run.run_id, "--out", str(out))
    assert again.returncode == 0 and run.run_id in again.stdout  # resuming a finished run just reports it


def test_checkpoints_leave_the_workspace_index_alone_and_restore_exactly(tmp_path: Path) -> None:
    run = rundir.create(tmp_path / "runs")
    repo = workspace.clone(workspace.repo_url(str(origin(tmp_path))), None, run)
    (run.workspace / "new.txt").write_text("new\n")
    (run.workspace / "old.bin").write_bytes(bytes(range(100, 200)))
    (run.workspace / "README.md").unlink()
    first = checkpoint.take(run, repo.base_commit, [])
    assert first is not None and first["seq"] == 1
    assert checkpoint.take(run, repo.base_commit, [first]) is None  # unchanged: not written again
    status = subprocess.run(["git", "status", "--porcelain"], cwd=run.workspace, capture_output=True, text=True).stdout
    assert "?? new.txt" in status  # the workspace index never saw the checkpoint's `git add`
    (run.workspace / "later.txt").write_text("later\n")
    workspace.restore(run, repo, checkpoint.last(run, [first]))
    assert (run.workspace / "new.txt").read_text() == "new\n"
    assert (run.workspace / "old.bin").read_bytes() == bytes(range(100, 200))
    assert not (run.workspace / "README.md").exists() and not (run.workspace / "later.txt").exists()
    # A workspace that is gone entirely is cloned again at the base commit.
    shutil.rmtree(run.workspace)
    workspace.restore(run, repo, checkpoint.last(run, [first]))
    assert (run.workspace / "new.txt").exists()
    head = subprocess.run(["git", "rev-parse", "--abbrev-ref", "HEAD"], cwd=run.workspace, capture_output=True,
                          text=True).stdout.strip()
    assert head == repo.run_branch


def test_state_round_trips_and_refuses_what_it_does_not_understand(tmp_path: Path) -> None:
    run = rundir.create(tmp_path / "runs")
    request = state.Request(repo=".", repo_url="file:///r", ref="main", command=("gen", "--x"), model="m",
                            sandbox="auto", timeout=5.0, checkpoint_interval=0.5, pass_env=("A",), policy_dir="/p")
    saved = state.save(run, state.RunState(run_id=run.run_id, stage="cloned", created_at="t", request=request,
                                           checkpoints=({"seq": 1, "at": "t", "sha256": "0" * 64, "bytes": 3},)))
    assert state.load(run) == saved
    doc = json.loads(run.state.read_text())
    doc["stage"] = "flying"
    run.state.write_text(json.dumps(doc))
    with pytest.raises(RunError, match="not one this version understands"):
        state.load(run)
    run.state.write_text("{")
    with pytest.raises(InputFileError):
        state.load(run)


def test_a_damaged_last_checkpoint_falls_back_to_the_one_before(tmp_path: Path) -> None:
    run = rundir.create(tmp_path / "runs")
    (run.checkpoints / "0001.diff").write_bytes(b"one")
    (run.checkpoints / "0002.diff").write_bytes(b"torn")
    entries = [{"seq": 1, "sha256": hashlib.sha256(b"one").hexdigest()},
               {"seq": 2, "sha256": hashlib.sha256(b"two").hexdigest()}]
    assert checkpoint.last(run, entries) == run.checkpoints / "0001.diff"


def test_resume_refuses_a_run_in_use(tmp_path: Path) -> None:
    run = rundir.create(tmp_path / "runs")
    request = state.Request(repo=".", repo_url="file:///nowhere", ref=None, command=("true",), model=None,
                            sandbox="unshare", timeout=None, checkpoint_interval=1.0, pass_env=(), policy_dir=".")
    state.save(run, state.RunState(run_id=run.run_id, stage="generating", created_at="", request=request))
    # In-process: the lock is an flock, held per open file, so this process's second open cannot take it either (a
    # real process holding a run against this one: test_runnerreview_process's concurrent resumes).
    with rundir.Lock(run):
        done = gk_in("run", "--resume", run.run_id, "--out", str(tmp_path / "runs"))
    assert done.returncode == 2 and "in use" in done.stderr


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished run (its `--out` folder), made once: each stage test resumes its own copy of it. The run
    records only absolute paths outside that folder (the origin, the bundle), which stay where they are."""
    folder = tmp_path_factory.mktemp("finished-run")
    with pytest.MonkeyPatch.context() as patch:
        use_bundle(folder, patch)
        first = gk_in("run", "--repo", str(origin(folder)), "--out", str(folder / "runs"), "--format", "json", "--",
                      "sh", "-c", "echo run >> ran.txt")
    assert first.returncode == 0, first.stderr
    return folder / "runs"


@pytest.mark.parametrize("stage", ["created", "cloned", "captured", "packeted"])
def test_resume_from_every_recorded_stage(tmp_path: Path, stage: str, finished_run: Path) -> None:
    out = tmp_path / "runs"
    shutil.copytree(finished_run, out, symlinks=True)
    run = only_run(out)
    patch_before = run.patch.read_bytes()
    # Put the run back as a kill at that stage would have left it.
    doc = json.loads(run.state.read_text())
    doc["stage"] = stage
    run.state.write_text(json.dumps(doc))
    if stage in ("created", "cloned", "captured"):
        run.packet.unlink()
    if stage == "created":
        shutil.rmtree(run.workspace)
    done = gk_in("run", "--resume", run.run_id, "--out", str(out), "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["stage"] == "done" and run.packet.exists()
    reran = stage in ("created", "cloned")
    assert summary["attempts"] == (2 if reran else 1)
    assert ("generator starting" in done.stderr) == reran
    # The generator ran again on a fresh base, not on top of the first attempt's work.
    assert run.patch.read_bytes() == patch_before
    assert json.loads(run.packet.read_text())["diff"]["sha256"] == hashlib.sha256(patch_before).hexdigest()


def test_a_resumed_attempt_that_reports_no_model_is_null(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    # The first attempt reports a model only when no marker exists yet; the second attempt reports nothing.
    # The marker lives in the exchange folder: the generator's HOME is a private tmpfs, gone between attempts.
    script = (
        'M="$(dirname "$GATEKEEPER_MODEL_REPORT")/attempted"; if [ ! -e "$M" ]; then touch "$M"; '
        'echo \'{"model": "served-1"}\' > "$GATEKEEPER_MODEL_REPORT"; fi; echo x >> work.txt'
    )
    first = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(out), "--model", "asked", "--", "sh", "-c",
                  script)
    assert first.returncode == 0, first.stderr
    run = only_run(out)
    assert json.loads(run.packet.read_text())["model"]["reported"] == "served-1"
    doc = json.loads(run.state.read_text())
    doc["stage"] = "cloned"  # as a kill during the generator would have left it
    run.state.write_text(json.dumps(doc))
    run.packet.unlink()
    done = gk_in("run", "--resume", run.run_id, "--out", str(out))
    assert done.returncode == 0, done.stderr
    model = json.loads(run.packet.read_text())["model"]
    assert model == {"requested": "asked", "reported": None, "reported_by": None}
