"""How the `gatekeeper` program ends (cli.run): main's exit code, the atexit handlers run, the streams flushed."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import atexit, sys
atexit.register(lambda: print("atexit ran", flush=False))
sys.argv = ["gatekeeper", *sys.argv[1:]]
from gatekeeper.cli import run
print("before", end="")  # left in the buffer: run() flushes it
run()
"""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True, timeout=60)


def test_the_program_exits_with_mains_code_after_the_atexit_handlers_and_a_flush() -> None:
    done = _run("--version")
    assert done.returncode == 0
    assert done.stdout.startswith("before") and "version" in done.stdout and done.stdout.endswith("atexit ran\n")
    refused = _run("no-such-command")
    assert refused.returncode == 2 and "No such command" in refused.stderr and refused.stdout.endswith("atexit ran\n")
