"""Running the generator: its own process group, bounded logs, a timeout that ends the whole group.

The runner stays single-threaded: one loop drains the generator's output, enforces the timeout
and calls back for checkpoints, so no thread can be caught holding a lock when the child forks.
"""

from __future__ import annotations

import ctypes
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import BinaryIO

from gatekeeper.errors import RunError
from gatekeeper.runner.rundir import now

LOG_CAP = 10 * 1024 * 1024  # bytes kept per log file, over all attempts
KILL_GRACE = 5.0  # seconds between SIGTERM and SIGKILL on timeout
POLL = 0.1  # seconds between looks at the generator where its exit cannot wake the loop (no pidfd)
_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True, slots=True)
class GeneratorResult:
    """What the packet's `generator` object records, plus log truncation."""

    exit_code: int | None  # None when the runner could not learn it (the sandbox itself was killed)
    timed_out: bool
    started_at: str
    finished_at: str
    truncated: tuple[str, ...]  # names of the logs that hit LOG_CAP


def _die_with_parent(parent: int) -> None:
    # If the runner is killed, the sandbox's first process gets SIGKILL, and with it the namespace.
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _killpg(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _group_runs(pgid: int) -> bool:
    """Whether a process of group `pgid` still runs: a zombie, which writes nothing, is only waiting for its reaper."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
            state, _ppid, group = stat[stat.rindex(b")") + 2:].split(maxsplit=3)[:3]
        except (OSError, ValueError):  # gone meanwhile
            continue
        if int(group) == pgid and state not in (b"Z", b"X"):
            return True
    return False


def _reap_group(pgid: int, within: float = 5.0) -> None:
    # The run moves on (capture) only once nothing of the generator can still write to the workspace. A sandbox
    # whose first process went first (bwrap on SIGTERM) leaves its child a zombie of the machine's init, which
    # may take seconds to reap it: the group is done once nothing in it runs.
    until = time.monotonic() + within
    while time.monotonic() < until:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return
        if not _group_runs(pgid):
            return
        time.sleep(0.02)


class _Log:
    """An append-only log file that keeps at most LOG_CAP bytes and notes what it dropped."""

    def __init__(self, path: Path, header: str) -> None:
        self.name = path.name
        self.handle: BinaryIO = open(path, "ab")
        self.kept = path.stat().st_size
        self.dropped = 0
        self.write(header.encode())

    def write(self, data: bytes) -> None:
        room = max(0, LOG_CAP - self.kept)
        try:
            if room:
                self.handle.write(data[:room])
                self.kept += min(room, len(data))
        except OSError:  # a full disk (the generator's doing, say): dropped, and the log says it was truncated
            room = 0
        self.dropped += max(0, len(data) - room)

    def close(self) -> None:
        try:
            if self.dropped:
                self.handle.write(
                    f"\n[gatekeeper: log truncated at {LOG_CAP} bytes; {self.dropped} bytes dropped]\n".encode()
                )
            self.handle.flush()
            os.fsync(self.handle.fileno())
        except OSError:
            self.dropped = max(self.dropped, 1)
        finally:
            try:
                self.handle.close()
            except OSError:
                self.dropped = max(self.dropped, 1)


def run(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    logs: Path,
    timeout: float | None,
    tick: Callable[[], None],
    tick_interval: float,
    attempt: int = 1,
    hand_over: tuple[int | None, ...] = (),
) -> GeneratorResult:
    """Run `argv` to its end (or the timeout), calling `tick()` every `tick_interval` seconds meanwhile.

    `hand_over`: descriptors the sandbox inherits and the runner closes once it has started (the egress pipe's
    writing end, so that its reader sees the end when the sandbox ends; the relay's secret pipe); None: none."""
    fds = tuple(fd for fd in hand_over if fd is not None)
    started_at = now()
    header = f"=== gatekeeper: attempt {attempt} started at {started_at} ===\n"
    out, err = _Log(logs / "stdout.log", header), _Log(logs / "stderr.log", header)
    try:
        proc = subprocess.Popen(
            list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=partial(_die_with_parent, os.getpid()),
            pass_fds=fds,
        )
    except OSError as exc:
        out.close()
        err.close()
        raise RunError(f"cannot start the generator: {exc.strerror}", where=str(argv[0])) from exc
    finally:
        for fd in fds:
            os.close(fd)
    try:
        timed_out = _loop(proc, out, err, timeout, tick, tick_interval)
    except BaseException:
        _killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    finally:
        out.close()
        err.close()
    _reap_group(proc.pid)
    code = proc.returncode
    return GeneratorResult(
        exit_code=code if code is not None and code >= 0 else None,
        timed_out=timed_out,
        started_at=started_at,
        finished_at=now(),
        truncated=tuple(log.name for log in (out, err) if log.dropped),
    )


def _exit_watch(pid: int) -> int | None:
    """A descriptor that turns readable when `pid` exits (Linux 5.3+), or None where there is none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _loop(
    proc: subprocess.Popen[bytes], out: _Log, err: _Log, timeout: float | None,
    tick: Callable[[], None], tick_interval: float,
) -> bool:
    sel = selectors.DefaultSelector()
    assert proc.stdout is not None and proc.stderr is not None
    sel.register(proc.stdout, selectors.EVENT_READ, out)
    sel.register(proc.stderr, selectors.EVENT_READ, err)
    # The generator's exit wakes the loop at once, so a run's end is not held up until the next look; where
    # there is no pidfd the loop looks every POLL seconds.
    exited = _exit_watch(proc.pid)
    if exited is not None:
        sel.register(exited, selectors.EVENT_READ, None)
    start = time.monotonic()
    deadline = start + timeout if timeout else None
    next_tick = start + tick_interval
    timed_out = False
    kill_at: float | None = None
    drain_until: float | None = None
    moment = start
    try:
        while True:
            due = [t for t in (None if timed_out else deadline, kill_at, drain_until,
                               None if timed_out else next_tick) if t is not None]
            wait = max(0.0, min(due) - moment) if due else None
            if drain_until is None and (exited is None or exited not in sel.get_map()):
                wait = POLL if wait is None else min(wait, POLL)
            woke = False
            for key, _ in sel.select(timeout=wait):
                if key.data is None:  # the exit watch: proc.poll() reaps the generator below
                    woke = True
                    continue
                chunk = os.read(key.fd, 65536)
                if chunk:
                    key.data.write(chunk)
                else:
                    sel.unregister(key.fileobj)
                    key.fileobj.close()  # type: ignore[union-attr]
            moment = time.monotonic()
            if proc.poll() is not None:
                if drain_until is None:
                    # Anything the generator left running in its group goes with it.
                    _killpg(proc.pid, signal.SIGKILL)
                    drain_until = moment + 2.0
                    if exited is not None and exited in sel.get_map():
                        sel.unregister(exited)  # readable from now on: only the pipes are waited for
                if not sel.get_map() or moment >= drain_until:
                    break
                continue
            if woke:  # readable, yet nothing to reap: never spin on it, look every POLL seconds instead
                sel.unregister(exited)  # type: ignore[arg-type]
            if deadline is not None and not timed_out and moment >= deadline:
                timed_out = True
                _killpg(proc.pid, signal.SIGTERM)
                kill_at = moment + KILL_GRACE
            if kill_at is not None and moment >= kill_at:
                _killpg(proc.pid, signal.SIGKILL)
                kill_at = None
            if not timed_out and moment >= next_tick:
                tick()
                moment = time.monotonic()
                next_tick = moment + tick_interval
    finally:
        for key in list(sel.get_map().values()):
            if key.data is not None:
                key.fileobj.close()  # type: ignore[union-attr]
        sel.close()
        if exited is not None:
            os.close(exited)
    return timed_out
