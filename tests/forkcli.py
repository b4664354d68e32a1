"""`gatekeeper` as a process of its own, forked from the test's process instead of started cold.

For tests that need the command in a process of its own — one they SIGKILL with its whole group, one that holds a
lock another command must find taken, one in a mount namespace of the test's making, one that may hang and must be
stopped at a time limit — but whose subject is not how the command starts: a cold `python -m gatekeeper` spends
~0.3 CPU-s on the interpreter's start and the imports before it does anything; the forked child has them already.
What it does not share with a cold start: the modules' import (tests/test_runner_confinement.py watches what a real
runner imports), `-I` and the console script (tests/test_packaging.py, tests/test_cli_stdout.py), what the test
process already remembers (cached answers, parsed bundles), and the environment as the kernel shows it
(/proc/PID/environ keeps the test process's: a runner whose secrets in its environment are the subject stays a real
process, runbundle.gk). tests/test_runner_resume.py keeps the SIGKILL of a cold runner.

The child takes files for its standard output and error and /dev/null as its input and closes every other
descriptor it inherited (as subprocess does), so nothing it writes reaches the test runner's own, and it ends with
os._exit: never back into pytest.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gatekeeper.cli import main

_CLONE_NEWNS = 0x00020000
_MS_BIND = 0x1000
_MS_REC = 0x4000
_MS_PRIVATE = 1 << 18


@dataclass(frozen=True, slots=True)
class Forked:
    """A forked `gatekeeper` command: its pid (its process group's too, with `new_session`) and its output files."""

    pid: int
    args: tuple[str, ...]
    stdout: Path
    stderr: Path

    def kill_group(self) -> None:
        """SIGKILL the command's whole process group (it must have been forked with `new_session`), reap it, and
        return once no member is left: a member the kill has not ended yet (the sandbox's processes, reaped by init)
        may still hold what the command held, such as its run's lock."""
        os.killpg(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        until = time.monotonic() + 30
        while time.monotonic() < until:
            try:
                os.killpg(self.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.01)
        raise AssertionError(f"process group {self.pid} still has members 30 s after SIGKILL")

    def wait(self, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
        """Wait for the command; what `subprocess.run(..., capture_output=True, text=True, timeout=timeout)` would
        return, or raise (subprocess.TimeoutExpired, the child killed)."""
        pidfd = os.pidfd_open(self.pid)
        try:
            ended, _, _ = select.select([pidfd], [], [], timeout)
        finally:
            os.close(pidfd)
        if not ended:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            raise subprocess.TimeoutExpired(["gatekeeper", *self.args], timeout, self.stdout.read_bytes(),
                                            self.stderr.read_bytes())
        _, status = os.waitpid(self.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        return subprocess.CompletedProcess(["gatekeeper", *self.args], code, self.stdout.read_text(),
                                           self.stderr.read_text())


def fork_cli(args: Sequence[str], folder: Path, *, env: Mapping[str, str] | None = None, new_session: bool = False,
             binds: Mapping[str, str] | None = None) -> Forked:
    """Start `gatekeeper ARGS` in a forked child; its output goes to files in `folder`.

    `env` replaces the child's whole environment; `new_session`: the child leads a session and process group of its
    own (as `start_new_session=True`); `binds` (target: source), even empty: the child first enters a mount namespace
    of its own, private from the host's (`unshare --mount --propagation private`), and bind-mounts each source over
    its target there (`mount --bind SOURCE TARGET`)."""
    folder.mkdir(parents=True, exist_ok=True)
    stdout, stderr = folder / "forked-stdout", folder / "forked-stderr"
    argv = tuple(args)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 70
        try:
            _child_streams(stdout, stderr)
            if new_session:
                os.setsid()
            if binds is not None:
                _private_mounts(binds)
            if env is not None:
                os.environ.clear()
                os.environ.update(env)
            code = main(list(argv))
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            try:
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(70)
        os._exit(code)
    return Forked(pid, argv, stdout, stderr)


def _child_streams(stdout: Path, stderr: Path) -> None:
    for target, fd in enumerate((os.open(os.devnull, os.O_RDONLY),
                                 os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
                                 os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))):
        os.dup2(fd, target)
        os.close(fd)
    # Nothing else of the test process (pytest's and xdist's pipes, a server's socket): as subprocess's close_fds.
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the child's streams, for its life
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115


def _private_mounts(binds: Mapping[str, str]) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
    if libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "mount --make-rprivate /")
    for target, source in binds.items():
        if libc.mount(os.fsencode(source), os.fsencode(target), None, _MS_BIND, None) != 0:
            raise OSError(ctypes.get_errno(), f"mount --bind {source} {target}")
