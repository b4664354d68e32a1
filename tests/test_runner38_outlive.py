"""Runner 38, held: processes a generator leaves behind end with its sandbox, before the capture.

The generator starts five processes that write to the workspace 0.3 s after it has left: a `setsid` daemon, one in a
nested PID namespace (unshare inside the sandbox; bwrap refuses the nested user namespace), a stopped process a
sibling continues, one that ignores SIGTERM and SIGHUP, and one that writes through a descriptor of a workspace file
the generator opened. None of their writes reaches the patch or the workspace (on integ 00d44cb too). Then the runner
itself is killed (SIGKILL) while a generator and its child write every 50 ms: nothing writes after the kill.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from forkcli import fork_cli
from gitrepo import GitRepo
from runbundle import BACKENDS, gk_in

LEAVER = r"""
import os, signal, subprocess, sys
ws = os.getcwd()
def late(name):
    return f"import time; time.sleep(0.3); open({ws!r} + '/late_{name}', 'w').write('x')"
quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
subprocess.Popen([sys.executable, "-c", late("setsid")], **quiet)
nested = subprocess.run(["unshare", "-U", "-r", "-p", "-f", "--", "sh", "-c",
                         f"({sys.executable} -c \"{late('nested')}\" &); true"], capture_output=True)
open(ws + "/nested_status", "w").write(str(nested.returncode))
stopped = subprocess.Popen([sys.executable, "-c", late("stopped")], **quiet)
os.kill(stopped.pid, signal.SIGSTOP)
subprocess.Popen(["sh", "-c", f"sleep 0.1; kill -CONT {stopped.pid}"], **quiet)
subprocess.Popen([sys.executable, "-c", "import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                  "signal.signal(signal.SIGHUP, signal.SIG_IGN); " + late("nohup")], **quiet)
fd = os.open(ws + "/held.txt", os.O_WRONLY | os.O_CREAT, 0o644)
subprocess.Popen([sys.executable, "-c", f"import os, time; time.sleep(0.3); os.write({fd}, b'late write')"],
                 pass_fds=(fd,), **quiet)
"""

TICKER = r"""
import subprocess, sys, time
child = "import time\nwhile True:\n open('tick_child', 'a').write('x'); time.sleep(0.05)"
subprocess.Popen([sys.executable, "-c", child], start_new_session=True)
open("started", "w").write("x")
while True:
    open("tick", "a").write("x")
    time.sleep(0.05)
"""


def _origin(tmp_path: Path) -> GitRepo:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.txt", "x\n")
    origin.commit()
    return origin


@pytest.mark.parametrize("backend", BACKENDS)
def test_processes_left_behind_write_nothing(tmp_path: Path, backend: str) -> None:
    (tmp_path / "leaver.py").write_text(LEAVER)
    done = gk_in("run", "--repo", str(_origin(tmp_path).root), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                 "--format", "json", "--", sys.executable, str(tmp_path / "leaver.py"))
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    workspace = Path(summary["run_dir"]) / "workspace"
    time.sleep(0.6)  # twice the time the leftovers wait before they write
    assert sorted(p.name for p in workspace.iterdir() if p.name != ".git") == ["a.txt", "held.txt", "nested_status"]
    assert (workspace / "held.txt").read_bytes() == b""
    patch = Path(summary["patch"]).read_text()
    assert "diff --git a/held.txt b/held.txt" in patch and "+++ b/nested_status" in patch
    assert "late_" not in patch and "late write" not in patch


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_killed_runner_leaves_nothing_writing(tmp_path: Path, backend: str) -> None:
    (tmp_path / "ticker.py").write_text(TICKER)
    runs = tmp_path / "runs"
    # The runner, a process of its own forked from this one (tests/forkcli.py): the subject is what its SIGKILL leaves
    # running, not how it starts (a cold `python -m gatekeeper run` cost ~0.4 CPU-s more). Only the runner is killed,
    # not its group.
    runner = fork_cli(["run", "--repo", str(_origin(tmp_path).root), "--out", str(runs), "--sandbox", backend, "--",
                       sys.executable, str(tmp_path / "ticker.py")], tmp_path / "forked")
    ended = False
    try:
        until = time.monotonic() + 60
        while not list(runs.glob("*/workspace/started")):
            ended = os.waitpid(runner.pid, os.WNOHANG)[0] != 0
            assert time.monotonic() < until and not ended, ("the generator never started",
                                                             runner.stderr.read_text()[-3000:])
            time.sleep(0.05)
        time.sleep(0.2)
    finally:
        if not ended:  # a runner already reaped is not killed: its pid may be another process's by now
            os.kill(runner.pid, signal.SIGKILL)
            os.waitpid(runner.pid, 0)
    (workspace,) = (p.parent for p in runs.glob("*/workspace/started"))
    time.sleep(0.3)  # what was under way when the runner died settles
    sizes = [(workspace / name).stat().st_size for name in ("tick", "tick_child")]
    time.sleep(0.5)  # ten ticks
    assert [(workspace / name).stat().st_size for name in ("tick", "tick_child")] == sizes
