"""A small server process that forks the engine's children, so a big process does not fork itself for each one.

Forking costs page tables: an empty fork and exit costs ~1.2 ms of CPU from a 30 MB process but 8-11 ms from a
220-470 MB one (docs/testing.md). A process that evaluates many times (a test run, `audit replay`) starts, on its
second served evaluation and only when it is big (MIN_RESIDENT_MB), a fresh interpreter (exec, not a fork of
itself) that imports only the engine; every later evaluation is still one child of its own, forked there. A one-gate
process never starts one, nor does a small one (a cold `gatekeeper test`): there the server's start costs more than
the forks it saves. So it is a cut for the test suite's big workers, not for the product's own commands.

The contract is isolate.py's, unchanged: the caller makes the answer (and feed) pipes and passes their ends with
SCM_RIGHTS; the caller reads the answer under its own deadline; the server reaps a child only when the caller asks
(its status, for a crash; after a kill; once answered), so no pid is reused while the caller may still kill it.
Each child evaluates in the caller's environment and working directory. The server exits when the caller's end
of the socket closes (the caller died: it kills its children first) and, started from the main thread, by
PR_SET_PDEATHSIG too; its children die with it. Bundles are held in the server under engine.py's second-use rule
(the caller says when a key answered). When the server is gone or cannot start, the caller forks the plain way.
Only the engine's own functions are served; run_isolated's generic path (any callable) stays a plain fork.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from gatekeeper.policy.isolate import Isolated, _child, _die_with_parent, _receive, new_isolated

__all__ = ["ENABLED", "Server", "serve", "server"]

# Tests switch it off to prove a behaviour on the plain fork too.
ENABLED = True
# A server is started only by a process at least this big: its start (~0.3 CPU-s: an interpreter importing the
# engine and its C library) pays only where a fork is dear. Measured: `gatekeeper test` (~60 MB, 8 evaluations)
# cost 2.55-2.84 CPU-s served against 2.25-2.30 forking itself; a 400 MB process 5.5 ms an evaluation against 23.
MIN_RESIDENT_MB = 150

_HEADER = struct.Struct("<Q")
_PID = struct.Struct("<q")
_START_LIMIT = 30.0  # seconds for a fresh server to import the engine and say it is ready
_MAX_STARTS = 3  # a server that keeps failing to start is not started again by this process

_LOCK = threading.Lock()
_state: dict[str, Any] = {"server": None, "owner": None, "uses": 0, "starts": 0}


class ServerGone(Exception):
    """The server died or stopped answering: the caller falls back to a plain fork."""


class Server:
    """The caller's end: one request and its answer at a time (threads share it under a lock)."""

    def __init__(self, process: subprocess.Popen[bytes], sock: socket.socket) -> None:
        self.process, self._sock, self._lock = process, sock, threading.Lock()
        self.dead = False

    def start(self, call: Callable[..., Any], args: tuple[Any, ...], *, timeout: float, fed: bool,
              prepare: Callable[[], None] | None) -> Isolated:
        """A child of the server running `call(*args)` as isolate's children do; ServerGone when it cannot."""
        try:
            request = pickle.dumps(("fork", call, args, timeout, fed, prepare, dict(os.environb), os.getcwd()),
                                   protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # not for the server (an unpicklable argument, a deleted cwd): a plain fork
            raise ServerGone() from exc
        read_fd, write_fd = os.pipe()
        feed = os.pipe() if fed else None
        try:
            pid = _PID.unpack(self._ask(request, [write_fd] if feed is None else [write_fd, feed[0]]))[0]
        except BaseException:
            os.close(read_fd)
            if feed is not None:
                os.close(feed[1])
            raise
        finally:
            os.close(write_fd)
            if feed is not None:
                os.close(feed[0])
        return new_isolated(pid, read_fd, timeout, None if feed is None else feed[1], reaper=self)

    def status(self, pid: int) -> int | None:
        """The wait status of an ended child (reaped now); None when the server is gone (its children died with it)."""
        try:
            return _PID.unpack(self._ask(pickle.dumps(("wait", pid)), []))[0]
        except ServerGone:
            return None

    def kill(self, pid: int) -> None:
        """SIGKILL a child and reap it (nothing to do when the server is gone: its children died with it)."""
        try:
            self._ask(pickle.dumps(("kill", pid)), [])
        except ServerGone:
            pass

    def release(self, pid: int) -> None:
        """A child that answered: the server reaps it when it has exited."""
        try:
            self._ask(pickle.dumps(("release", pid)), [])
        except ServerGone:
            pass

    def call(self, func: Callable[..., Any], *args: Any) -> Any:
        """`func(*args)` in the server itself, its (picklable) value back: what it holds, for tests."""
        return pickle.loads(self._ask(pickle.dumps(("call", func, args)), []))

    def _ask(self, request: bytes, fds: list[int]) -> bytes:
        with self._lock:
            if self.dead:
                raise ServerGone()
            try:
                socket.send_fds(self._sock, [_HEADER.pack(len(request))], fds)
                self._sock.sendall(request)
                return _read_message(self._sock)
            except (OSError, EOFError) as exc:
                self.dead = True
                raise ServerGone() from exc


def server(preload: tuple[str, ...]) -> Server | None:
    """This process's server for one more served evaluation; None on the first one, or when none can run.

    `preload`: the modules a new server imports before it says ready (the children's work)."""
    if not ENABLED or not sys.platform.startswith("linux"):
        return None
    with _LOCK:
        if _state["owner"] != os.getpid():  # a forked copy of the process that started one: its own, later
            _state.update(server=None, owner=os.getpid(), uses=0, starts=0)
        _state["uses"] += 1
        current: Server | None = _state["server"]
        if current is not None and not current.dead:
            return current
        if current is not None:
            _end(current)
            _state["server"] = None
        if _state["uses"] < 2 or _state["starts"] >= _MAX_STARTS or _resident_mb() < MIN_RESIDENT_MB:
            return None
        _state["starts"] += 1
        _state["server"] = _launch(preload)
        return _state["server"]


def _resident_mb() -> float:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def restart(preload: tuple[str, ...]) -> Server | None:
    """A new server for this process now (the old one ended), whatever its count of uses: for tests."""
    with _LOCK:
        if _state["server"] is not None and _state["owner"] == os.getpid():
            _end(_state["server"])
        _state.update(server=None, owner=os.getpid(), uses=2, starts=1)
        _state["server"] = _launch(preload)
        return _state["server"]


def _launch(preload: tuple[str, ...]) -> Server | None:
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    root = str(Path(__file__).resolve().parent.parent.parent)
    main_thread = threading.current_thread() is threading.main_thread()
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from gatekeeper.policy.forkserver import serve; "
            "serve(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == '1', sys.argv[5:])")
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-c", code, root, str(theirs.fileno()), str(os.getpid()),
             "1" if main_thread else "0", *preload],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, close_fds=True)
    except OSError:
        mine.close()
        theirs.close()
        return None
    theirs.close()
    started = Server(process, mine)
    try:
        if not select.select([mine], [], [], _START_LIMIT)[0] or _read_message(mine) != b"ready":
            raise EOFError
    except (OSError, EOFError):
        started.dead = True
        _end(started)
        return None
    return started


def _end(gone: Server, *, gently: bool = False) -> None:
    """Close our end (the server then ends its children and exits) and reap it; killed unless `gently`."""
    gone._sock.close()
    try:
        if not gently:
            gone.process.kill()
        gone.process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        gone.process.kill()
        gone.process.wait()
    except OSError:
        pass


def _at_exit() -> None:
    """At this process's ordinary exit: its server ends with it, reaped (a forked copy leaves its parent's alone)."""
    with _LOCK:
        current: Server | None = _state["server"]
        if current is not None and _state["owner"] == os.getpid():
            _state["server"] = None
            _end(current, gently=True)


atexit.register(_at_exit)


def _read_message(sock: socket.socket) -> bytes:
    (size,) = _HEADER.unpack(_read_exactly(sock, _HEADER.size, with_fds=False)[0])
    return _read_exactly(sock, size, with_fds=False)[0]


def _read_exactly(sock: socket.socket, size: int, *, with_fds: bool) -> tuple[bytes, list[int]]:
    # one buffer filled in place: `bytes +=` a piece copied the message so far at each piece (cost 44)
    data, fds, got = bytearray(size), list[int](), 0
    view = memoryview(data)
    while got < size:
        if with_fds and not got:
            chunk, fds, _, _ = socket.recv_fds(sock, size, 2)
            view[:len(chunk)] = chunk
            count = len(chunk)
        else:
            count = sock.recv_into(view[got:], size - got)
        if not count:
            raise EOFError("the other end closed the socket")
        got += count
    view.release()
    return bytes(data), list(fds)


def _send_message(sock: socket.socket, data: bytes) -> None:
    sock.sendall(_HEADER.pack(len(data)) + data)


# --- below runs in the server ------------------------------------------------------------------------------


def serve(fd: int, parent: int, die_with_parent: bool, preload: list[str]) -> None:
    """The server's loop: never returns. Imports `preload` (the engine and its C library) before it says ready."""
    for name in preload:  # named by the caller: this module does not import the engine (engine.py imports it)
        importlib.import_module(name)
    if die_with_parent:  # the thread that started us is the process's main one: it lives as long as the process
        _die_with_parent(parent)
    elif os.getppid() != parent:
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the caller's to handle; its exit ends us
    sock = socket.socket(fileno=fd)
    children: set[int] = set()
    answered: set[int] = set()
    _send_message(sock, b"ready")
    while True:
        try:
            header, fds = _read_exactly(sock, _HEADER.size, with_fds=True)
            request = pickle.loads(_read_exactly(sock, _HEADER.unpack(header)[0], with_fds=False)[0])
        except (OSError, EOFError):
            break
        kind = request[0]
        if kind == "fork":
            pid = _fork(sock, request, fds)
            children.add(pid)
            _send_message(sock, _PID.pack(pid))
        elif kind in ("wait", "kill"):
            if kind == "kill":
                _signal(request[1])
            status = _wait(request[1], 0) if request[1] in children else 0
            children.discard(request[1])
            _send_message(sock, _PID.pack(status or 0))
        elif kind == "release":
            answered.add(request[1])
            _send_message(sock, b"")
        elif kind == "call":
            _send_message(sock, pickle.dumps(request[1](*request[2])))
        for pid in list(answered):  # answered children that have exited since (never one the caller may kill)
            if _wait(pid, os.WNOHANG) is not None:
                answered.discard(pid)
                children.discard(pid)
    for pid in children - answered:  # the caller is gone: nobody will collect these
        _signal(pid)
    for pid in children:  # reaped here, so their CPU counts in the caller's (a test run's) when it waits for us
        _wait(pid, 0)
    os._exit(0)


def _fork(sock: socket.socket, request: tuple[Any, ...], fds: list[int]) -> int:
    _, call, args, timeout, fed, prepare, env, cwd = request
    if prepare is not None:
        try:
            prepare()  # a bundle to hold before the fork (engine.py's second-use rule)
        except Exception:
            pass  # the child builds its own, and reports what fails
    server = os.getpid()
    pid = os.fork()
    if pid == 0:
        sock.close()
        if fed:
            args = (*args, partial(_receive, fds[1], timeout))
        _child(fds[0], partial(_in_place, env, cwd, call), args, timeout, server)
    for fd in fds:
        os.close(fd)
    return pid


def _in_place(env: dict[bytes, bytes], cwd: str, call: Callable[..., Any], *args: Any) -> Any:
    """`call(*args)` in the caller's environment and working directory."""
    os.environb.clear()
    os.environb.update(env)
    os.chdir(cwd)
    return call(*args)


def _signal(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _wait(pid: int, flags: int) -> int | None:
    try:
        done, status = os.waitpid(pid, flags)
    except ChildProcessError:
        return 0
    return status if done else None
