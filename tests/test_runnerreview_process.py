"""Review of process control: timeouts and leftovers inside the PID namespace, bounded logs, resume."""

from __future__ import annotations

import json
import secrets
import shutil
import time
from datetime import datetime
from pathlib import Path

import pytest
from forkcli import fork_cli
from runbundle import BACKENDS, DeadlineClock, gk_in, origin_repo

from gatekeeper.runner import generator
from gatekeeper.runner import run as runner

# A grandchild that leaves the generator's session and process group, and keeps writing; its command line
# carries the test's own tag, so the test finds it among the machine's processes (and no other test's).
DAEMON = "setsid sh -c 'while :; do echo x >> alive; sleep 0.05; done; : {tag}' </dev/null >/dev/null 2>&1 &"
# The generator goes on only once the grandchild has written (within 20 s, else it ends and the test fails).
AFTER_FIRST_WRITE = "i=0; until [ -s alive ] || [ $i -ge 400 ]; do sleep 0.05; i=$((i+1)); done;"


pytestmark = pytest.mark.usefixtures("runner_bundle")


def origin(tmp_path: Path) -> Path:
    return origin_repo(tmp_path).root


def running(tag: str) -> bool:
    """Whether any process on the machine (in any PID namespace) has `tag` in its command line."""
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and tag.encode() in (proc / "cmdline").read_bytes():
                return True
        except OSError:  # gone meanwhile
            continue
    return False


def wait_for(predicate, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    until = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < until, "condition not reached in time"
        time.sleep(0.05)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("ending", ["timeout", "exit"])
def test_a_setsid_grandchild_dies_with_the_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str,
                                                    ending: str) -> None:
    tag = f"gk-daemon-{secrets.token_hex(6)}"
    # The timeout strikes once the grandchild has written (runbundle.DeadlineClock; the generator waits for that,
    # says so, then sleeps past it), however long a loaded machine takes to get there; the other ending needs no
    # timeout at all.
    clock = DeadlineClock(lambda: any(p.stat().st_size for p in (tmp_path / "runs").glob("*/workspace/alive")), 20)
    if ending == "timeout":
        monkeypatch.setattr(generator, "time", clock)
    limit = ["--timeout", "20"] if ending == "timeout" else []
    rest = "echo written; sleep 60" if ending == "timeout" else "exit 0"
    began = time.monotonic()
    # In-process (runbundle.gk_in): the sandbox, the runner's child either way, is what must take the grandchild.
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                 *limit, "--format", "json", "--", "sh", "-c", f"{DAEMON.format(tag=tag)} {AFTER_FIRST_WRITE} {rest}")
    took = time.monotonic() - began
    summary = json.loads(done.stdout)
    assert summary["generator"]["timed_out"] is (ending == "timeout"), done.stderr
    alive = Path(summary["run_dir"]) / "workspace" / "alive"  # the generator's HOME is a private tmpfs
    assert alive.stat().st_size > 0  # it did run
    wait_for(lambda: not running(tag), timeout=10)  # gone with the sandbox, not merely quiet for a while
    assert took < 45  # no wait for the 60 s sleep
    if ending == "timeout":  # SIGTERM ended it: no wait for the KILL_GRACE of a group that ignores SIGTERM
        ran = json.loads(Path(summary["packet"]).read_text())["generator"]
        assert clock.jumped_at is not None
        took = datetime.fromisoformat(ran["finished_at"]) - clock.jumped_at
        assert took.total_seconds() < generator.KILL_GRACE, ran


def test_300_mb_on_stdout_keeps_the_log_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generator, "LOG_CAP", 1 << 20)
    request = runner.RunRequest(command=("sh", "-c", "head -c 300000000 /dev/zero; echo done >&2"),
                                repo=str(origin(tmp_path)), sandbox="unshare", timeout=60)
    result = runner.start(request, out=tmp_path / "runs", environ={"PATH": "/usr/bin:/bin"}, progress=lambda _: None)
    stdout = result.run.logs / "stdout.log"
    assert stdout.stat().st_size < (1 << 20) + 200
    tail = stdout.read_bytes()[-120:].decode()
    assert "log truncated at 1048576 bytes" in tail
    assert int(tail.rsplit("; ", 1)[1].split()[0]) > 298_900_000  # the final line says how much was dropped
    assert result.state.logs_truncated == ("stdout.log",) and result.exit_code == 0
    assert "done" in (result.run.logs / "stderr.log").read_text()


def test_resume_after_the_workspace_was_deleted_mid_generator(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    # It ends once the runner has recorded a checkpoint of its step (20 s at most), however slow the machine.
    gen = ("echo step >> steps.txt; i=0; until grep -q '\"seq\"' ../state.json || [ $i -ge 400 ]; do sleep 0.05; "
           "i=$((i+1)); done")
    first = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(out), "--sandbox", "unshare",
                  "--checkpoint-interval", "0.2", "--format", "json", "--", "sh", "-c", gen)
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert summary["checkpoints"] >= 1
    run_dir = Path(summary["run_dir"])
    # As a kill while generating on a reclaimed machine would leave it: no workspace, no patch or packet.
    doc = json.loads((run_dir / "state.json").read_text())
    doc["stage"] = "generating"
    (run_dir / "state.json").write_text(json.dumps(doc))
    for name in ("patch.diff", "packet.json"):
        (run_dir / name).unlink()
    shutil.rmtree(run_dir / "workspace")
    shutil.rmtree(run_dir / "checkpoint.git")
    done = gk_in("run", "--resume", summary["run_id"], "--out", str(out), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stage"] == "done"
    patch = (run_dir / "patch.diff").read_text()
    assert patch.count("+step") == 2, patch  # the checkpoint's step, then the second attempt's
    again = gk_in("run", "--resume", summary["run_id"], "--out", str(out), "--format", "json")
    assert again.returncode == 0 and "generator starting" not in again.stderr


def test_concurrent_resumes_of_one_run_one_wins(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    # The generator holds on while the run directory has a `hold` file (60 s at most): the first resume stays
    # in its generator, holding the run, until the second has tried.
    gen = "i=0; while [ -e ../hold ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo x > x.txt"
    first = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(out), "--sandbox", "unshare",
                  "--format", "json", "--", "sh", "-c", gen)  # the resume holding the run is a real process
    run_id = json.loads(first.stdout)["run_id"]
    state = out / run_id / "state.json"
    doc = json.loads(state.read_text())
    doc["stage"] = "cloned"
    state.write_text(json.dumps(doc))
    hold = out / run_id / "hold"
    hold.touch()
    cmd = ["run", "--resume", run_id, "--out", str(out)]
    slow = fork_cli(cmd, tmp_path / "forked")  # a process of its own (tests/forkcli.py), not a cold one
    try:
        # Its new attempt is recorded under the lock, just before its generator starts.
        wait_for(lambda: json.loads(state.read_text())["attempts"] == doc["attempts"] + 1)
        # The second in-process: the lock is an flock that the slow resume's process holds; no other process takes it.
        second = gk_in(*cmd)
    finally:
        hold.unlink()
    slow_done = slow.wait()
    codes = sorted([slow_done.returncode, second.returncode])
    assert codes == [0, 2], (slow_done.stderr, second.stderr)
    loser = second if second.returncode == 2 else slow_done
    assert "in use by another gatekeeper process" in loser.stderr
