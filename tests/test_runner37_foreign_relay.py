"""Runner 37: the model relay's socket served whoever connected to it, not only its own sandbox.

The relay listens on `<run>/relay/relay.sock` (mode 0666, so a mapped root inside its sandbox can connect). The
mount plan covers the unix sockets that listen when a sandbox starts; a run started later in another runs folder
outside the hidden ones (`--out`; its own runs folder is hidden since, tests/test_runner37_other_runs.py; on
53a70ac the same runs folder did too) brings its relay socket after that plan, in sight of the earlier run's
generator.
That generator (run A, no relay of its own: its packet says the network was denied) called run B's relay: B's
relay added B's real key, passed the call to B's upstream, and logged it as B's, so B's signed packet named a model
call B's generator never made, and A's generator had a model's answer that no record of A holds. Any other
process of the host (another user's) could do the same while B ran.

The fix: each relay holds a secret (32 random bytes) that only its own sandbox's first process learns, through an
inherited pipe read before the generator starts; the bridge opens every connection with it, and the relay serves
no connection that does not.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from forkcli import Forked, fork_cli
from gitrepo import GitRepo
from runbundle import BACKENDS, gk_in

from gatekeeper.demo_model_api import FakeModelAPI, fake_model_api
from gatekeeper.runner.relay import Relay
from gatekeeper.runner.relay_api import parse_model_api
from gatekeeper.runner.relay_bridge import reachable_path
from gatekeeper.runner.relaylog import read_log

ROOT = Path(__file__).resolve().parent.parent
B_KEY = "sk-ant-run-B-key-0123456789"
BODY = json.dumps({"model": "stolen-model", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]})
REQUEST = (f"POST /anthropic/v1/messages HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\n"
           f"Content-Length: {len(BODY)}\r\nConnection: close\r\n\r\n{BODY}").encode()

# Run A's generator: wait for another run's relay socket in the runs folder, call the model through it, keep the
# answer in the patch.
THIEF = r"""
import glob, os, socket, sys, time
runs, request = sys.argv[1], bytes.fromhex(sys.argv[2])
home = os.getcwd()
open("started", "w").write("1")
found = None
until = time.monotonic() + 60
while found is None and time.monotonic() < until:
    for path in glob.glob(os.path.join(runs, "*", "relay", "relay.sock")):
        if os.environ["GATEKEEPER_RUN_ID"] not in path:
            found = path
    time.sleep(0.05)
answer = b"no socket"
if found:
    os.chdir(os.path.dirname(found))  # sun_path is short: connect by the socket's name in its folder
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(20)
            client.connect("relay.sock")
            client.sendall(request)
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
    except OSError as exc:
        answer = repr(exc).encode()
    os.chdir(home)
open("stolen.txt", "wb").write(answer or b"(nothing)")
"""
# Run B's generator: makes no model call at all; it lasts until the test says A is done.
WAIT = r"""
import os, sys, time
until = time.monotonic() + 60
while not os.path.exists(sys.argv[1]) and time.monotonic() < until:
    time.sleep(0.05)
open("waited.txt", "w").write("1")
"""


@pytest.fixture
def shared() -> Iterator[Path]:
    """A runs folder and a sync folder in the checkout: under /tmp (the sandbox's private tmpfs) or a home (hidden)
    the other run would be out of sight, and the hole too."""
    base = ROOT / f".runner37-{uuid.uuid4().hex[:12]}"
    (base / "runs").mkdir(parents=True)
    (base / "sync").mkdir()
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def fake() -> Iterator[FakeModelAPI]:
    with fake_model_api(served="model-of-run-B") as api:
        yield api


def _wait_for(pattern: str, base: Path, proc: Forked, within: float = 60.0) -> bool:
    """Wait until `pattern` matches under `base`; False (the command reaped) when the command ended first."""
    until = time.monotonic() + within
    while not list(base.glob(pattern)):
        if os.waitpid(proc.pid, os.WNOHANG)[0] != 0:
            return False
        assert time.monotonic() < until, f"nothing matched {pattern}"
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_generator_cannot_call_another_runs_relay(tmp_path: Path, shared: Path, fake: FakeModelAPI,
                                                     backend: str) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    thief, wait = shared / "sync" / "thief.py", shared / "sync" / "wait.py"
    thief.write_text(THIEF)
    wait.write_text(WAIT)
    runs, theirs, go = shared / "runs", shared / "runs-b", shared / "sync" / "go"
    # Run A: no relay. Its sandbox is planned before B's relay socket exists.
    # A process of its own, forked from this one (tests/forkcli.py): the subject is what its generator reaches while
    # B runs, not how A starts (a cold `python -m gatekeeper run` cost ~0.4 CPU-s more).
    a = fork_cli(["run", "--repo", str(origin.root), "--out", str(runs), "--sandbox", backend, "--format", "json",
                  "--", sys.executable, str(thief), str(theirs), REQUEST.hex()], tmp_path / "forked")
    a_reaped = False
    try:
        a_reaped = not _wait_for("runs/*/workspace/started", shared, a)
        assert not a_reaped, a.stderr.read_text()[-3000:]
        # Run B, with a relay to its upstream and its key, started while A's generator runs; B's generator waits
        # in its sandbox until A has finished.
        env = {**os.environ, "B_KEY": B_KEY}
        b_args = ["run", "--repo", str(origin.root), "--out", str(theirs), "--sandbox", backend, "--model",
                  "model-of-run-B", "--model-api", f"anthropic={fake.url}", "--model-key", "anthropic=B_KEY",
                  "--format", "json", "--", sys.executable, str(wait), str(go)]
        result: dict[str, subprocess.CompletedProcess[str]] = {}
        runner_b = threading.Thread(target=lambda: result.update(b=gk_in(*b_args, env=env)))
        runner_b.start()
        a_reaped = True  # by wait, which kills and reaps A at its time limit
        done_a = a.wait(timeout=120)
        go.write_text("1")
        runner_b.join(120)
    finally:
        go.write_text("1")
        if not a_reaped:
            os.kill(a.pid, signal.SIGKILL)
            os.waitpid(a.pid, 0)
    assert done_a.returncode == 0, done_a.stderr[-3000:]
    done_b = result["b"]
    assert done_b.returncode == 0, done_b.stderr[-3000:]
    stolen = (Path(json.loads(done_a.stdout)["run_dir"]) / "workspace" / "stolen.txt").read_bytes()
    assert stolen != b"no socket"  # the control: A saw B's socket, and tried it
    summary_b = json.loads(done_b.stdout)
    packet_b = json.loads(Path(summary_b["packet"]).read_text())
    # B's generator made no call: its packet names none, and B's upstream saw none with B's key.
    assert fake.seen == [], [seen["body"] for seen in fake.seen]
    assert b"model-of-run-B" not in stolen and b"hello from the fake" not in stolen, stolen[:400]
    assert packet_b["relay"]["requests"] == 0 and packet_b["model"]["served"] == []
    assert read_log(Path(summary_b["run_dir"]) / "relay.jsonl") == []


def _raw_call(path: Path, raw: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(20)
        client.connect(reachable_path(str(path)))
        client.sendall(raw)
        out = b""
        try:
            while chunk := client.recv(65536):
                out += chunk
        except OSError:
            pass
    return out


@pytest.mark.parametrize("opening", [b"", b"0" * 64 + b"\n", b"GET / HTTP/1.1\r\n"])
def test_a_host_process_without_the_secret_gets_nothing(tmp_path: Path, fake: FakeModelAPI, opening: bytes) -> None:
    # Any local process (another user's: the socket is 0666) connects straight to the relay's socket.
    upstreams = {"anthropic": parse_model_api(f"anthropic={fake.url}")}
    relay = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", upstreams, {"anthropic": B_KEY}).start()
    try:
        answer = _raw_call(relay.socket_path, opening + REQUEST)
    finally:
        relay.stop()
    assert fake.seen == [] and b"model-of-run-B" not in answer, answer[:300]
    assert read_log(tmp_path / "relay.jsonl") == []
