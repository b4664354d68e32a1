"""Every command, not only the gate: a standard output that cannot take what the command prints is exit 2 with one
line, never a silent exit 1 (the deny code; `test`'s failure, `audit replay`'s "not reproduced") nor an "internal
error".

Red team 16 fixed the gate's report; its note left the other commands: a pipe whose reader had gone (`| head -c0`)
made click turn the EPIPE into `sys.exit(1)`, and a closed descriptor made `classify` and `deps` crash on
`sys.stdout.buffer`. One CLI process each: the descriptors the process starts with are what is tested.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from incli import run_cli

ROOT = Path(__file__).resolve().parent.parent
PATCH = ("diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\nnew file mode 100644\n"
         "index 0000000..e69de29\n")


def _run(args: list[str], tmp_path: Path, **popen: object) -> subprocess.CompletedProcess[bytes]:
    (tmp_path / "change.diff").write_text(PATCH)
    return subprocess.run([sys.executable, "-m", "gatekeeper", *args], cwd=tmp_path, stderr=subprocess.PIPE,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False, timeout=60,
                          **popen)  # type: ignore[call-overload]


def _one_error(done: subprocess.CompletedProcess[bytes]) -> str:
    err = done.stderr.decode()
    assert done.returncode == 2, (done.returncode, err)
    assert "internal error" not in err and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith("gatekeeper: error:") and "standard output" in lines[0], err
    return lines[0]


# --version is printed while click parses (make_context), `policy list` by a command (invoke), `classify` as bytes
# (paths git gave may not decode).
@pytest.mark.parametrize("args", [["--version"], ["policy", "list"], ["classify", "change.diff"]],
                         ids=["parse", "command", "bytes"])
def test_a_pipe_without_a_reader_is_exit_2(args: list[str], tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = _run(args, tmp_path, stdout=write_end)
    finally:
        os.close(write_end)
    assert "Broken pipe" in _one_error(done)


def test_a_closed_standard_output_is_exit_2(tmp_path: Path) -> None:
    _one_error(_run(["classify", "change.diff"], tmp_path, preexec_fn=lambda: os.close(1)))
    # The same command with somewhere to write answers as ever (in-process, tests/incli.py: a control, not the
    # descriptors' subject).
    done = run_cli(["classify", "change.diff", "--format", "json"], cwd=tmp_path)
    assert done.returncode == 0 and b'"bucket": "ci"' in done.stdout, done.stderr
