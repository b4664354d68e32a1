"""Runner 37: an egress log that failed a write (a full disk) says the attempt's egress went unrecorded.

The egress recorder appends the catch-all's records to `egress.jsonl`; a write that fails may lose some (the file's
buffer keeps what fits), so the attempt's `recording` is `unavailable` even when space comes back before the log is
closed; a log that cannot be closed at all stops the run (RunError, exit 2). The log lives on a 16 KiB tmpfs in a
private mount namespace (root only), filled before the records come.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import json, os, sys
from pathlib import Path
from gatekeeper.errors import RunError
from gatekeeper.runner.egresslog import EgressRecorder, sandbox_egress
mnt = Path(sys.argv[1])
recorder = EgressRecorder(mnt / "egress.jsonl")
fd = recorder.hand_over()
os.write(fd, b'{"kind": "status", "recording": "recorded"}\n')
with open(mnt / "fill", "wb", buffering=0) as fill:
    try:
        while True:
            fill.write(b"\0" * 4096)
    except OSError:
        pass
attempt = b'{"kind": "tcp", "dst": "192.0.2.1", "port": 443, "host": "192.0.2.1"}\n'
for _ in range(400):
    os.write(fd, attempt)
os.write(fd, b'{"kind": "summary", "dropped": 0}\n')
os.close(fd)
recorder._thread.join(10)
mode = sys.argv[2]
if mode == "freed":
    os.unlink(mnt / "fill")
try:
    recorder.stop()
except RunError as exc:
    print(json.dumps({"stopped": exc.what}))
else:
    print(json.dumps(sandbox_egress(recorder)))
"""


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root to mount a tmpfs")
@pytest.mark.parametrize("mode", ["freed", "full"])
def test_a_failed_egress_write_is_never_recorded_as_whole(tmp_path: Path, mode: str) -> None:
    (tmp_path / "mnt").mkdir()
    (tmp_path / "check.py").write_text(SCRIPT)
    drive = 'mount -t tmpfs -o size=16k tmpfs "$1" || exit 99; exec "$2" "$3" "$1" "$4"'
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", drive, "sh",
                           str(tmp_path / "mnt"), sys.executable, str(tmp_path / "check.py"), mode],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode == 99:
        pytest.skip(f"no tmpfs mount here: {done.stderr[-300:]}")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    result = done.stdout.strip().splitlines()[-1]
    if mode == "full":
        assert "could not be written whole" in result, result
    else:
        assert '"recording": "unavailable"' in result and "could not be written whole" in result, result
