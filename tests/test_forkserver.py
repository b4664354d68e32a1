"""The engine's children forked by a small server process (gatekeeper/policy/forkserver.py) or by this one: the
same contract either way. Each behaviour runs on both paths (`fork_path`, tests/conftest.py); the server's own
failures on the served path alone. Real engine, real processes, real signals."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cpucost import assert_linear
from proctree import gone, living_children

from gatekeeper.errors import PolicyError
from gatekeeper.policy import engine, forkserver
from gatekeeper.policy.isolate import EngineCrashed, EngineTimedOut, signal_name, start_isolated

REPO = Path(__file__).resolve().parent.parent
HEAD = "package p\n\nimport rego.v1\n\n"
CRASH = HEAD + 'n := count(input.files)\n\nboom if { n == 2 with input as {"files": [1, 2]} }\n'
HANG = HEAD + 'v if { regex.match("^(a+)+$", "' + "a" * 40 + 'b") }\n'


def _value(modules: dict[str, str], query: str, input: dict | None = None, timeout: float = 10) -> object:
    (value,) = engine.start_evaluating(modules, {}, [input or {}], query, timeout=timeout).result()
    if isinstance(value, PolicyError):
        raise value
    return value


def _until(predicate, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    until = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > until:
            return False
        time.sleep(0.02)
    return True


def test_a_crash_by_signal_is_the_same_error(fork_path: forkserver.Server | None) -> None:
    for _ in range(2):  # the second on a held bundle (served: the server built it; plain: this process)
        with pytest.raises(EngineCrashed) as crashed:
            _value({"p.rego": CRASH}, "data.p.boom")
        assert crashed.value.signal_number in (signal.SIGSEGV, signal.SIGABRT)
        assert str(crashed.value.what) == f"the Rego engine crashed ({signal_name(crashed.value.signal_number)})"
    assert _value({"p.rego": HEAD + "v := 3\n"}, "data.p.v") == 3  # and the next evaluation works


def test_the_time_limit_kills_the_child_and_says_so(fork_path: forkserver.Server | None) -> None:
    parent = os.getpid() if fork_path is None else fork_path.process.pid
    before = living_children(parent)  # on the plain path, a server an earlier test started is a child of ours too
    started = time.monotonic()
    with pytest.raises(EngineTimedOut, match=r"ran past 0.5 s"):
        _value({"p.rego": HANG}, "data.p.v", timeout=0.5)
    assert time.monotonic() - started < 20  # the regex alone runs for hours
    assert living_children(parent) == before  # killed and reaped


def test_the_caller_and_the_working_directory_and_environment(fork_path: forkserver.Server | None,
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for value in ("first", "caf\u00e9"):
        monkeypatch.setenv("GK_FORKSERVER_PROBE", value)
        assert _value({"p.rego": HEAD + "v := opa.runtime().env.GK_FORKSERVER_PROBE\n"}, "data.p.v") == value
    monkeypatch.delenv("GK_FORKSERVER_PROBE")
    assert _value({"p.rego": HEAD + "v := opa.runtime().env.GK_FORKSERVER_PROBE\n"}, "data.p.v") is engine.UNDEFINED
    if fork_path is None:
        job = start_isolated(os.getcwd, timeout=5)
    else:
        job = fork_path.start(os.getcwd, (), timeout=5, fed=False, prepare=None)
    assert job.result() == str(tmp_path)


def test_a_bundle_changed_between_evaluations_answers_with_its_new_source(fork_path: forkserver.Server | None) -> None:
    engine._ANSWERED.clear()
    for version in (1, 1, 1, 2, 2, 3):  # each held after its second use; a changed one never answers with the old
        assert _value({"p.rego": HEAD + f"v := {version}\n"}, "data.p.v") == version
    held = engine.held_keys() if fork_path is None else fork_path.call(engine.held_keys)
    assert len(held) >= 2


def test_two_threads_evaluating_at_once(fork_path: forkserver.Server | None) -> None:
    modules = {"p.rego": HEAD + "v := input.n * 2\n"}
    got: dict[int, list[object]] = {}

    def work(base: int) -> None:
        got[base] = [_value(modules, "data.p.v", {"n": base + i}) for i in range(8)]

    threads = [threading.Thread(target=work, args=(base,)) for base in (0, 100, 200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert got == {base: [2 * (base + i) for i in range(8)] for base in (0, 100, 200)}


def test_rego_tests_and_compile_checks_on_either_path(fork_path: forkserver.Server | None) -> None:
    modules = {"p.rego": HEAD + "test_yes if { 1 == 1 }\n\ntest_no if { 1 == 2 }\n"}
    outcomes = engine.run_tests(modules, {}, "p", ["test_yes", "test_no"], timeout=10)
    assert [(o.name, o.status) for o in outcomes] == [("test_yes", "pass"), ("test_no", "fail")]
    with pytest.raises(PolicyError, match="p.rego:5"):
        engine.check_modules({"p.rego": HEAD + "v := \n"}, timeout=10)


_CALLER = """
import sys, time
from gatekeeper.policy import engine, forkserver
forkserver.ENABLED = sys.argv[1] == "served"
forkserver.MIN_RESIDENT_MB = 0  # a small process: started anyway, for the test
head = "package p\\n\\nimport rego.v1\\n\\n"
for _ in range(2):
    engine.start_evaluating({"p.rego": head + "v := 1\\n"}, {}, [{}], "data.p.v", timeout=10).result()
job = engine.start_evaluating({"p.rego": head + sys.argv[2]}, {}, [{}], "data.p.v", timeout=120)
print("evaluating", flush=True)
time.sleep(120)
"""


def test_the_caller_killed_mid_evaluation_leaves_no_process(fork_path: forkserver.Server | None) -> None:
    mode = "plain" if fork_path is None else "served"
    regex = 'v if { regex.match("^(a+)+$", "' + "a" * 40 + 'b") }\n'
    caller = subprocess.Popen([sys.executable, "-c", _CALLER, mode, regex], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert caller.stdout is not None and caller.stdout.readline() == "evaluating\n"
        tree: list[int] = []

        def settled() -> bool:  # an earlier evaluation's child may still be exiting after its answer (a loaded machine)
            below = living_children(caller.pid)
            tree[:] = below + [pid for child in below for pid in living_children(child)]
            return len(tree) == (1 if mode == "plain" else 2)  # the evaluating child; or the server and its child

        assert _until(settled), f"{mode}: processes below the caller: {tree}"
    finally:
        caller.kill()
        caller.wait()
    assert _until(lambda: all(gone(pid) for pid in tree)), "a process of the killed caller lived on"


def test_a_killed_server_is_replaced_and_its_evaluation_reported(fork_path: forkserver.Server | None) -> None:
    if fork_path is None:
        pytest.skip("the plain path has no server")
    job = engine.start_evaluating({"p.rego": HANG}, {}, [{}], "data.p.v", timeout=60)
    os.kill(fork_path.process.pid, signal.SIGKILL)
    with pytest.raises(EngineCrashed):  # its child died with it: a crash, never a hang or a traceback
        job.result()
    assert fork_path.dead
    assert _value({"p.rego": HEAD + "v := 5\n"}, "data.p.v") == 5  # the dead one is replaced by a new server
    replaced = forkserver.server(engine._PRELOAD)
    assert replaced is not None and replaced is not fork_path and not replaced.dead
    fork_path.process.wait(5)  # reaped: no zombie left of it
    fork_path.dead = False  # for the fixture's check: this one was killed on purpose
    fork_path.process = forkserver.restart(engine._PRELOAD).process  # type: ignore[union-attr]


_STARTS = """
import sys
from gatekeeper.policy import engine, forkserver
forkserver.MIN_RESIDENT_MB = float(sys.argv[1])
seen = []
for n in range(3):
    assert engine.start_evaluating({"p.rego": "package p\\nv := %d\\n" % n}, {}, [{}], "data.p.v", timeout=10
                                   ).result() == [n]
    seen.append(forkserver._state["server"] is not None)
print(seen)
"""


def test_a_server_starts_on_the_second_evaluation_of_a_big_process_only() -> None:
    # A one-gate process forks its one child itself; a small one (a cold `gatekeeper test`, ~60 MB) too: there a
    # server's start (~0.3 CPU-s) costs more than the forks it saves.
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    big = subprocess.run([sys.executable, "-c", _STARTS, "0"], capture_output=True, text=True, env=env, timeout=120)
    assert big.stdout == "[False, True, True]\n", big.stderr
    small = subprocess.run([sys.executable, "-c", _STARTS, "100000"], capture_output=True, text=True, env=env,
                           timeout=120)
    assert small.stdout == "[False, False, False]\n", small.stderr


class _Trickle:
    """A socket that hands its data back `step` bytes a call (as a busy pipe does), through recv or recv_into."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data, self._at, self._step = data, 0, step

    def recv(self, size: int) -> bytes:
        piece = self._data[self._at:self._at + min(size, self._step)]
        self._at += len(piece)
        return piece

    def recv_into(self, buffer: memoryview, size: int = 0) -> int:
        piece = self.recv(min(size or len(buffer), len(buffer)))
        buffer[:len(piece)] = piece
        return len(piece)


def test_a_message_read_in_small_pieces_costs_linear() -> None:
    # cost 44: `bytes +=` per piece copied the message so far at each one (quadratic in its pieces: a 64 KiB message
    # in 16-byte pieces copied 128 MiB); one buffer filled in place copies each byte once
    def read(data: bytes) -> bytes:
        got, fds = forkserver._read_exactly(_Trickle(data, 16), len(data), with_fds=False)  # type: ignore[arg-type]
        assert got == data and fds == []
        return got

    assert_linear(read, lambda size: bytes(range(256)) * (size // 256), budget=0.1)


@pytest.mark.parametrize("step", [1, 7, 4096, 1 << 20])
def test_a_message_read_in_pieces_is_whole_and_a_short_one_is_an_eof(step: int) -> None:
    data = os.urandom(5000)
    assert forkserver._read_exactly(_Trickle(data, step), 5000, with_fds=False) == (data, [])  # type: ignore[arg-type]
    with pytest.raises(EOFError):
        forkserver._read_exactly(_Trickle(data, step), 5001, with_fds=False)  # type: ignore[arg-type]


def test_a_message_with_descriptors_over_a_real_socket_pair() -> None:
    left, right = socket.socketpair()
    read_fd, write_fd = os.pipe()
    try:
        message = os.urandom(300_000)
        sender = threading.Thread(target=lambda: (socket.send_fds(left, [message[:10]], [read_fd]),
                                                  left.sendall(message[10:])))
        sender.start()
        got, fds = forkserver._read_exactly(right, len(message), with_fds=True)
        sender.join()
        assert got == message and len(fds) == 1
        os.close(fds[0])
    finally:
        for fd in (read_fd, write_fd):
            os.close(fd)
        left.close()
        right.close()
