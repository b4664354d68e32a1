"""Run a function in a forked child under a hard time limit, so a crash or a hang cannot take us down.

The Rego engine segfaults on some inputs and can backtrack forever on some regexes; neither can be
caught in-process. The child does the work and sends a pickled result back through a pipe; the
parent waits with a deadline, kills the child when it passes, and turns a death by signal into a
typed error the caller can attribute to a policy file.
"""

from __future__ import annotations

import ctypes
import faulthandler
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

from gatekeeper.errors import GatekeeperError, PolicyError

T = TypeVar("T")

_CHUNK = 1 << 16
_LENGTH = struct.Struct("<Q")


class EngineCrashed(PolicyError):
    """The isolated child died by a signal (or exited without a result)."""

    def __init__(
        self, what: str, *, signal_number: int | None, where: str | None = None, hint: str | None = None
    ) -> None:
        super().__init__(what, where=where, hint=hint)
        self.signal_number = signal_number


class EngineTimedOut(PolicyError):
    """The isolated child ran past its time limit and was killed."""

    def __init__(self, what: str, *, timeout: float, where: str | None = None, hint: str | None = None) -> None:
        super().__init__(what, where=where, hint=hint)
        self.timeout = timeout


def signal_name(number: int | None) -> str:
    """`SIGSEGV` for 11; `exit without a result` when there was no signal."""
    if number is None:
        return "exit without a result"
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def run_isolated(func: Callable[..., T], *args: Any, timeout: float) -> T:
    """Call `func(*args)` in a forked child and return its (picklable) result.

    Raises EngineTimedOut past `timeout` seconds, EngineCrashed when the child dies, and re-raises a
    GatekeeperError the child raised; any other exception in the child becomes a PolicyError.
    """
    return start_isolated(func, *args, timeout=timeout).result()


class Reaper(Protocol):
    """Who reaps a child that is not ours (forkserver.py's server): its status, its kill, its release."""

    def status(self, pid: int) -> int | None: ...
    def kill(self, pid: int) -> None: ...
    def release(self, pid: int) -> None: ...


class Isolated:
    """A forked child at work; `result()` waits for it (the deadline runs from the fork, or from `feed`).

    Started with `fed=True`, the child also reads bytes the parent sends after the fork (`feed`): the parent
    finishes what the child needs last while the child works on what it had at the fork. `reaper`: the child is
    another process's (a fork server's), which reaps it when asked."""

    def __init__(self, pid: int, read_fd: int, deadline: float, timeout: float, feed_fd: int | None = None,
                 reaper: Reaper | None = None) -> None:
        self._pid, self._fd, self._deadline, self._timeout = pid, read_fd, deadline, timeout
        self._reaper = reaper
        self._done = False
        self._feed_fd = feed_fd
        self._unsent: memoryview | None = None  # what `feed` has not written yet; None before it

    def feed(self, data: bytes) -> None:
        """Send `data` to the child (once), without waiting for it to read: what the pipe does not take now goes at
        `result()`. The time limit runs from here: the wait before was the parent's work, not the engine's."""
        if self._feed_fd is None or self._unsent is not None:
            raise RuntimeError("the child was not started to be fed, or was fed already")
        self._deadline = time.monotonic() + self._timeout
        self._unsent = memoryview(_LENGTH.pack(len(data)) + data)
        os.set_blocking(self._feed_fd, False)
        try:
            while self._unsent:
                self._unsent = self._unsent[os.write(self._feed_fd, self._unsent):]
        except (BlockingIOError, BrokenPipeError):  # full: the rest at result(); gone: result() reports the child
            pass

    def _fed(self) -> bool:
        """The rest of the feed (the child reads it once it has done what it had), then the end of it; False when the
        deadline passed first (a child stuck before it reads its feed must not hang the parent)."""
        if self._feed_fd is None:
            return True
        fd, self._feed_fd = self._feed_fd, None
        try:
            while self._unsent:  # never fed (None): the child reads the end of the pipe, and fails
                left = self._deadline - time.monotonic()
                if left <= 0 or not select.select([], [fd], [], left)[1]:
                    return False
                try:
                    self._unsent = self._unsent[os.write(fd, self._unsent):]
                except BlockingIOError:
                    continue
        except BrokenPipeError:  # the child died: its status says how
            pass
        finally:
            os.close(fd)
        return True

    def result(self) -> Any:
        """The child's return value, or the error it raised / its crash / its timeout."""
        if self._done:
            raise RuntimeError("result() already collected")
        self._done = True
        try:
            payload, timed_out = _collect(self._fd, self._deadline) if self._fed() else (None, True)
        except BaseException:
            self._kill()
            raise
        finally:
            os.close(self._fd)
        if timed_out:
            self._kill()
            raise EngineTimedOut(
                f"policy evaluation ran past {self._timeout:g} s",
                timeout=self._timeout,
                hint="a regex with nested repetition can backtrack forever; "
                "raise --timeout only if the bundle is known to be slow",
            )
        if payload is None:  # the child ended without a whole answer
            status = os.waitpid(self._pid, 0)[1] if self._reaper is None else self._reaper.status(self._pid)
            number = os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else None
            raise EngineCrashed(f"the Rego engine crashed ({signal_name(number)})", signal_number=number)
        if self._reaper is None:
            _reap_later(self._pid)
        else:
            self._reaper.release(self._pid)
        return _unpack(payload)

    def _kill(self) -> None:
        if self._reaper is None:
            _kill(self._pid)
        else:
            self._reaper.kill(self._pid)

    def cancel(self) -> None:
        """Kill the child and forget it (when the caller fails before collecting the result)."""
        if not self._done:
            self._done = True
            os.close(self._fd)
            if self._feed_fd is not None:
                os.close(self._feed_fd)
                self._feed_fd = None
            self._kill()


def start_isolated(func: Callable[..., Any], *args: Any, timeout: float, fed: bool = False) -> Isolated:
    """Fork a child running `func(*args)`; collect it with `.result()` while the parent does other work.

    `fed`: `func` also gets a last argument, a function that returns the bytes the parent sends with `.feed()`
    (waiting for them), so the child can start before the parent has all it needs."""
    if timeout <= 0:
        raise ValueError("timeout must be positive")
    for stream in (sys.stdout, sys.stderr):  # None when the process was started with the descriptor closed
        if stream is not None:
            stream.flush()
    _reap_exited()
    read_fd, write_fd = os.pipe()
    fed_fds = os.pipe() if fed else None
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # child: never returns
        os.close(read_fd)
        if fed_fds is not None:
            os.close(fed_fds[1])
            args = (*args, partial(_receive, fed_fds[0], timeout))
        _child(write_fd, func, args, timeout, parent)
    os.close(write_fd)
    if fed_fds is not None:
        os.close(fed_fds[0])
    return new_isolated(pid, read_fd, timeout, None if fed_fds is None else fed_fds[1])


def new_isolated(pid: int, read_fd: int, timeout: float, feed_fd: int | None, reaper: Reaper | None = None) -> Isolated:
    """The caller's handle on a child just forked (here, or by a fork server: `reaper`); the deadline runs from now."""
    return Isolated(pid, read_fd, time.monotonic() + timeout, timeout, feed_fd, reaper)


def _receive(fd: int, timeout: float) -> bytes:
    """In the child: what the parent fed it (EOFError when the parent closed the pipe without a whole feed)."""
    # No alarm while the parent works (its dependency delta may take longer than the limit): a parent that dies
    # closes the pipe, which ends the wait; the limit starts again from the feed, as the parent's does.
    signal.alarm(0)
    data = bytearray()
    size: int | None = None
    while size is None or len(data) < _LENGTH.size + size:  # not to the end: the parent closes it at result()
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            raise EOFError("the parent ended its feed before the whole of it")
        data += chunk
        if size is None and len(data) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(data)
    os.close(fd)
    signal.alarm(int(timeout) + 2)  # the parent's limit runs from its feed (Isolated.feed)
    return bytes(data[_LENGTH.size:])


def _child(write_fd: int, func: Callable[..., Any], args: tuple[Any, ...], timeout: float, parent: int) -> None:
    code = 0
    faulthandler.disable()  # it writes to its own copy of stderr; a crash is reported by the parent
    try:
        # Belt and braces for a parent that dies before killing us (CI cancels the job): the alarm
        # ends a child stuck in C code past its deadline, and on Linux the parent's death ends it too.
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(int(timeout) + 2)
        _die_with_parent(parent)
        # The C library writes diagnostics straight to fd 1/2; our stdout carries reports only.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            message: tuple[Any, ...] = ("ok", func(*args))
        except GatekeeperError as exc:
            message = ("gk", type(exc), exc.what, exc.where, exc.hint)
        except BaseException as exc:  # reported to the parent, never printed here
            message = ("exc", f"{type(exc).__name__}: {exc}", traceback.format_exc())
        try:
            data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an unpicklable result or error class
            data = pickle.dumps(("exc", f"cannot send the result: {exc}", ""))
        view = memoryview(_LENGTH.pack(len(data)) + data)
        while view:
            written = os.write(write_fd, view)
            view = view[written:]
    except BaseException:
        code = 70
    finally:
        # Skip atexit handlers and buffered-stream flushes that belong to the parent.
        os._exit(code)


def _die_with_parent(parent: int) -> None:
    """SIGKILL when the parent dies; exit now when it died before this was set (the signal would never come)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(70)


def _collect(read_fd: int, deadline: float) -> tuple[bytes | None, bool]:
    """(the child's whole answer, or None when it ended without one; whether the deadline passed)."""
    data = bytearray()
    size: int | None = None
    while size is None or len(data) < _LENGTH.size + size:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, True
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            return None, True
        chunk = os.read(read_fd, _CHUNK)
        if not chunk:
            return None, False
        data += chunk
        if size is None and len(data) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(data)
    return bytes(data[_LENGTH.size:]), False


# Children that answered but may still be exiting (unmapping a large engine heap takes tens of
# milliseconds): nobody waits for that; they are reaped without blocking at the next fork.
_EXITING: list[int] = []
_EXITING_LOCK = threading.Lock()  # two threads evaluating at once must not reap (or forget) the same pid twice


def _reap_later(pid: int) -> None:
    with _EXITING_LOCK:
        _EXITING.append(pid)
    _reap_exited()


def _reap_exited() -> None:
    with _EXITING_LOCK:
        for waiting in list(_EXITING):
            try:
                done, _ = os.waitpid(waiting, os.WNOHANG)
            except ChildProcessError:
                done = waiting
            if done:
                _EXITING.remove(waiting)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _unpack(payload: bytes) -> Any:
    try:
        message = pickle.loads(payload)
    except Exception as exc:
        raise EngineCrashed(f"the Rego engine returned a garbled result ({exc})", signal_number=None) from None
    kind = message[0]
    if kind == "ok":
        return message[1]
    if kind == "gk":
        cls, what, where_, hint = message[1:]
        error = cls.__new__(cls)
        GatekeeperError.__init__(error, what, where=where_, hint=hint)
        raise error
    raise PolicyError(f"policy evaluation failed: {message[1]}", hint="this is a bug in gatekeeper; rerun with --debug")
