"""`make demo` (python -m gatekeeper.demo) works offline and shows what the sample generator changed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gatekeeper import demo_generator


def test_demo_runs_end_to_end(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "gatekeeper.demo"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "network denied, egress checked: True" in done.stdout
    assert f"reported {demo_generator.SERVED_MODEL!r}" in done.stdout
    (demo,) = (tmp_path / ".demo").iterdir()
    # The offline generator's run, told by its request: the demo's two runs may start within one second, and a run
    # id's stamp is followed by a random part, so the names do not order them.
    (run_dir,) = [run for run in (demo / "runs").iterdir()
                  if json.loads((run / "state.json").read_text())["request"]["command"][-1] == demo_generator.__file__]
    packet = json.loads((run_dir / "packet.json").read_text())
    paths = {f["path"]: f["bucket"] for f in packet["files"]}
    # the generator edits the workflow to run `python src/app.py`; the patch shows it: the app is the job's code
    assert paths[".github/workflows/ci.yml"] == "ci" and paths["src/app.py"] == "ci"
    assert paths["go.mod"] == "deps" and paths["package.json"] == "deps"
    assert "gate (default policies)" in done.stdout and "gate (default policies + deps)" in done.stdout
    # The second run: an SDK agent through the model relay to the demo's fake API on loopback.
    assert "served (recorded by the relay) ['claude-demo-served-2026']" in done.stdout
    assert "the upstream saw the real key: True" in done.stdout
    assert "provenance.mismatch" in done.stdout


def test_sample_generator_is_restartable(tmp_path: Path) -> None:
    for _ in range(2):
        subprocess.run([sys.executable, "-I", demo_generator.__file__], cwd=tmp_path, check=True, capture_output=True,
                       env={"PATH": "/usr/bin:/bin"})
    assert json.loads((tmp_path / "package.json").read_text())["dependencies"] == {"left-pad": "1.3.0"}
    assert (tmp_path / "src" / "app.py").read_text() == demo_generator.APP
