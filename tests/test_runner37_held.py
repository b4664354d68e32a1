"""Runner 37: ways out of the run folder that held on 53a70ac (kept as regressions, both backends).

A generator tries to write outside its workspace and exchange folder, or to have the runner do it after it exits:
hard links to the runner's files (another mount: EXDEV, or read-only), writes through /proc/self/root and
/proc/1/root and into the runs folder, a bind mount over a run folder (it only changes the sandbox's own view), a
link planted as the model report, a link in the work tree, and a `setsid` grandchild that writes once the generator
has exited. Each attempt fails, the runner reads nothing through a link, and the grandchild dies with the sandbox
before the capture.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import BACKENDS, gk_in

ATTEMPTS = r"""
import json, os, subprocess, sys
run = os.path.dirname(os.getcwd())
results = {}
def attempt(name, action):
    try:
        action()
        results[name] = "done"
    except OSError as exc:
        results[name] = exc.errno
attempt("link_state", lambda: os.link(run + "/state.json", "h1"))
attempt("link_checkpoint_git", lambda: os.link(run + "/checkpoint.git/config", "h2"))
attempt("link_git_config_copy", lambda: os.link(run + "/workspace-git-config", "h3"))
open(run + "/exchange/x", "w").write("x")
attempt("link_exchange", lambda: os.link(run + "/exchange/x", "h4"))
attempt("link_etc", lambda: os.link("/etc/hostname", "h5"))
attempt("proc_self_root", lambda: open("/proc/self/root" + run + "/state.json", "a").write("x"))
attempt("proc_1_root", lambda: open("/proc/1/root" + run + "/packet.json", "w").write("{}"))
attempt("runs_root", lambda: open(os.path.dirname(run) + "/planted", "w").write("x"))
bind = subprocess.run(["mount", "--bind", os.getcwd(), run + "/checkpoints"], capture_output=True)
results["bind_mount"] = bind.returncode
# Inside its own mount namespace the bind may work (unshare: a child user namespace's root): it changes the sandbox's
# view only, and a write there lands in the workspace it shows.
open(run + "/checkpoints/0001.diff", "a").write("planted") if bind.returncode == 0 else None
os.symlink(run + "/state.json", run + "/exchange/model-report.json")
os.symlink("/etc/hostname", "link-to-host")
late = "import os, time; os.setsid(); time.sleep(1.5); open('late.txt', 'w').write('late')"
subprocess.Popen([sys.executable, "-c", late], start_new_session=True)
open("results.json", "w").write(json.dumps(results))
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_writes_outside_the_run_folder_fail(tmp_path: Path, backend: str) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    (tmp_path / "attempts.py").write_text(ATTEMPTS)
    done = gk_in("run", "--repo", str(origin.root), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                 "--format", "json", "--", sys.executable, str(tmp_path / "attempts.py"))
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    run_dir = Path(summary["run_dir"])
    results = json.loads((run_dir / "workspace" / "results.json").read_text())
    assert all(value != "done" for value in results.values()), results
    assert len(results) == 9, results
    assert not (run_dir / "checkpoints" / "0001.diff").exists()  # the run folder's own, on the host
    assert not (tmp_path / "runs" / "planted").exists() and not any(run_dir.glob("checkpoints/*.diff"))
    assert not (run_dir / "workspace" / "late.txt").exists()  # the grandchild died with the sandbox
    patch = Path(summary["patch"]).read_text()
    assert "late.txt" not in patch and "new file mode 120000" in patch and "+/etc/hostname" in patch
    assert json.loads((run_dir / "state.json").read_text())["stage"] == "done"
    assert summary["model"]["reported"] is None and any("model report" in w for w in summary["warnings"])
    assert os.stat(run_dir / "packet.json").st_size > 0
