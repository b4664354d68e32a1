"""Runner 36 (red team of the runner): the generator's model report printed raw.

The generator writes `{"model": ...}` to GATEKEEPER_MODEL_REPORT; the runner took any string of at most 200
characters (stripped at its ends only) into the packet's `model.reported` and printed it raw in `run --format
text`'s summary. A report holding a line break and `::error::...` put a GitHub Actions workflow command on a line
of the runner step's log, and an escape sequence drove the caller's terminal (erase the line, move the cursor).
Now a report whose model holds a control, format or separator character is not used (reported null, a warning,
as any unusable report), and the summary escapes every model name as the gate's reports do (readable.printable).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from runbundle import gk_in, origin_repo

pytestmark = pytest.mark.usefixtures("runner_bundle")

REPORTS = ["model-a\n::error title=gatekeeper::allowed", "model-a\r\x1b[2Kmodel-b", "model-a\x1b]0;title\x07",
           "model-\u2028::warning::x", "model-a\u202e", "model-a\x85::notice::x", "model\x00a"]


@pytest.mark.parametrize("model", REPORTS)
def test_a_model_report_cannot_write_a_line_or_drive_the_terminal(tmp_path: Path, model: str) -> None:
    repo = origin_repo(tmp_path)
    gen = tmp_path / "gen.py"
    gen.write_text("import json, os\nopen('a.txt', 'w').write('a\\n')\n"
                   f"open(os.environ['GATEKEEPER_MODEL_REPORT'], 'w').write(json.dumps({{'model': {model!r}}}))\n")
    done = gk_in("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", "unshare", "--",
                 sys.executable, str(gen))
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert not any(line.startswith("::") for line in lines), lines
    assert all(ch == "\n" or ch.isprintable() for ch in done.stdout), repr(done.stdout)
    run_dir = next(line.split(None, 1)[1] for line in lines if line.startswith("run_dir:"))
    packet = json.loads((Path(run_dir) / "packet.json").read_text())
    assert packet["model"]["reported"] is None, packet["model"]
    assert "model report" in done.stderr


def test_a_plain_model_name_is_still_reported(tmp_path: Path) -> None:
    repo = origin_repo(tmp_path)
    gen = tmp_path / "gen.py"
    gen.write_text("import os\nopen(os.environ['GATEKEEPER_MODEL_REPORT'], 'w')"
                   ".write('{\"model\": \"org/Model-3.5 x\"}')\n")
    done = gk_in("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", "unshare", "--",
                 sys.executable, str(gen))
    assert done.returncode == 0 and "reported org/Model-3.5 x" in done.stdout, done.stdout + done.stderr[-2000:]
