"""Red team 33: links the generator plants *inside* the workspace's `.git` folder, which the runner's own git then
follows outside the sandbox.

`.git` itself replaced by a link was refused (tests/test_runnerreview_git.py), but a link below it was not:
- `.git/objects/XX` → a folder of the host: the final `git add -A` / `git write-tree` wrote the new objects there
  (a file the generator could not write, in a folder it cannot even see);
- `.git/logs/HEAD` → a file of the host: a resumed run's `git checkout -B` appended a reflog line to it, the line
  naming the branch the generator had checked out (`moving from x$(cmd) to ...`), i.e. text of the generator's
  choosing appended to a file such as `~/.bashrc`.
Now a link anywhere under `.git` stops the capture (exit 2, nothing written through it) and makes a resume clone the
base again instead of running git in that folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from runbundle import gk_in, origin_repo

pytestmark = pytest.mark.usefixtures("runner_bundle")

# argv: the outside folder, the outside file. The blob of new.txt is what `git add -A` writes at capture.
PLANT = """
import hashlib, os, shutil, subprocess, sys
folder, target = sys.argv[1], sys.argv[2]
data = b"planted\\n"
open("new.txt", "wb").write(data)
blob = hashlib.sha1(b"blob %d\\0" % len(data) + data).hexdigest()
objects = os.path.join(".git", "objects", blob[:2])
shutil.rmtree(objects, ignore_errors=True)
os.symlink(folder, objects)
subprocess.run(["git", "checkout", "-q", "-b", "x$(touch${IFS}pwned)"], check=True)
os.makedirs(os.path.join(".git", "logs"), exist_ok=True)
if os.path.lexists(os.path.join(".git", "logs", "HEAD")):
    os.unlink(os.path.join(".git", "logs", "HEAD"))
os.symlink(target, os.path.join(".git", "logs", "HEAD"))
"""


def _outside(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "outside-objects"
    folder.mkdir()
    target = tmp_path / "outside.txt"
    target.write_text("keep me\n")
    return folder, target


@pytest.mark.parametrize("backend", ["unshare", "bwrap"])
def test_capture_writes_nothing_through_a_link_in_git(tmp_path: Path, backend: str) -> None:
    folder, target = _outside(tmp_path)
    script = tmp_path / "gen.py"
    script.write_text(PLANT)
    done = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(tmp_path / "runs"), "--sandbox",
                 backend, "--format", "json", "--", sys.executable, str(script), str(folder), str(target))
    assert list(folder.iterdir()) == [], done.stderr
    assert target.read_text() == "keep me\n"
    assert done.returncode == 2, done.stderr
    assert "link" in done.stderr and ".git" in done.stderr


def test_resume_runs_no_git_through_a_link_in_git(tmp_path: Path) -> None:
    """A run whose generator planted the links and whose runner died mid-generator (stage `cloned`): the resume."""
    folder, target = _outside(tmp_path)
    script = tmp_path / "gen.py"
    # The first attempt plants the links and writes nothing else; the resumed attempt only writes a file.
    # The marker lives in the exchange folder, which outlasts the attempt (the generator's HOME does not).
    script.write_text("import os, sys\nmarker = os.path.join(os.path.dirname(os.environ['GATEKEEPER_MODEL_REPORT']), "
                      "'planted')\nif not os.path.exists(marker):\n    open(marker, 'w').close()\n"
                      "    exec(open(sys.argv[3]).read())\nelse:\n    open('later.txt', 'w').write('x\\n')\n")
    plant = tmp_path / "plant.py"
    plant.write_text(PLANT)
    out = tmp_path / "runs"
    first = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(out), "--sandbox", "unshare",
                  "--format", "json", "--", sys.executable, str(script), str(folder), str(target), str(plant))
    run_dir = out / next(p.name for p in out.iterdir() if p.is_dir())
    state_file = run_dir / "state.json"
    doc = json.loads(state_file.read_text())
    doc["stage"] = "cloned"  # as a runner killed during the generator would have left it
    state_file.write_text(json.dumps(doc))
    (run_dir / "packet.json").unlink(missing_ok=True)
    assert (run_dir / "workspace" / ".git" / "logs" / "HEAD").is_symlink(), first.stderr
    done = gk_in("run", "--resume", run_dir.name, "--out", str(out), "--format", "json")
    assert target.read_text() == "keep me\n", done.stderr
    assert list(folder.iterdir()) == [], done.stderr
    assert not (run_dir / "workspace" / "pwned").exists()
    # The base was cloned again (no link left to follow) and the resumed attempt finished the run.
    assert done.returncode == 0, done.stderr
    assert not (run_dir / "workspace" / ".git" / "logs" / "HEAD").is_symlink()
    assert "later.txt" in (run_dir / "patch.diff").read_text()
