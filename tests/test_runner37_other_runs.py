"""Runner 37: a generator read the other runs of its runs folder through `../..`.

The run folder is shown read-only inside the sandbox, and with it, where `--out` lies outside the hidden folders
(`--out runs` in a checkout, a CI workspace), every other run beside it: their work trees (another repository's
clone, a private one), patches, packets, the generators' logs (what their models answered). A generator copied an
earlier run's work into its own patch. Now the runs folder is hidden like a home (an empty read-only folder) and
only the run's own folder is shown in it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import BACKENDS, gk_in

ROOT = Path(__file__).resolve().parent.parent
EARLIER = "open('secret.txt', 'w').write('private work of the earlier run')\nprint('its model said: hush')\n"
NOSY = r"""
import glob, os
run = os.path.dirname(os.getcwd())
found = []
for pattern in ("*/workspace/secret.txt", "*/patch.diff", "*/logs/stdout.log"):
    for path in glob.glob(os.path.join(os.path.dirname(run), pattern)):
        if not path.startswith(run + "/"):
            found.append(open(path).read())
open("found.txt", "w").write("\n".join(found) or "nothing")
open("own.txt", "w").write(open("../state.json").read()[:20])  # the control: its own run folder is in sight
"""


@pytest.fixture
def runs() -> Iterator[Path]:
    """A runs folder in the checkout: under /tmp (the sandbox's private tmpfs) or a home (hidden) the other runs
    would be out of sight already."""
    base = ROOT / f".runner37-runs-{uuid.uuid4().hex[:12]}"
    base.mkdir()
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_generator_sees_no_other_run(tmp_path: Path, runs: Path, backend: str) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    (tmp_path / "earlier.py").write_text(EARLIER)
    (tmp_path / "nosy.py").write_text(NOSY)
    first = gk_in("run", "--repo", str(origin.root), "--out", str(runs), "--sandbox", backend, "--format", "json",
                  "--", sys.executable, str(tmp_path / "earlier.py"))
    assert first.returncode == 0, first.stderr[-3000:]
    second = gk_in("run", "--repo", str(origin.root), "--out", str(runs), "--sandbox", backend, "--format", "json",
                   "--", sys.executable, str(tmp_path / "nosy.py"))
    assert second.returncode == 0, second.stderr[-3000:]
    workspace = Path(json.loads(second.stdout)["run_dir"]) / "workspace"
    assert (workspace / "own.txt").read_text().startswith("{")
    found = (workspace / "found.txt").read_text()
    assert found == "nothing", found[:400]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_generator_beside_the_runs_folder_still_runs_and_sees_no_other_run(tmp_path: Path, backend: str) -> None:
    """Docs review 53: a generator found on the PATH in a folder that holds the runs folder (`s/nosy` with `--out
    s/runs`) was not shown in the sandbox (the runs folder counted as a secret inside the folder to show): "command
    not found", where 53a70ac ran it. The folder is shown, and the runs folder hidden again inside it."""
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    beside = tmp_path / "s"
    beside.mkdir()
    for name, body in (("earlier", EARLIER), ("nosy", NOSY)):
        (beside / name).write_text(f"#!{sys.executable}\n{body}")
        (beside / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{beside}:{os.environ['PATH']}"}
    for name in ("earlier", "nosy"):
        done = gk_in("run", "--repo", str(origin.root), "--out", str(beside / "runs"), "--sandbox", backend,
                     "--format", "json", "--", name, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
    workspace = Path(json.loads(done.stdout)["run_dir"]) / "workspace"
    assert (workspace / "own.txt").read_text().startswith("{")
    found = (workspace / "found.txt").read_text()
    assert found == "nothing", found[:400]
