"""What the runner tests share: a small bundle in the working folder and the CLI as a subprocess."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli

from gatekeeper.runner.relay_bridge import reachable_path
from gatekeeper.serving import wake_and_shut_down

EVERYTHING_IS_SRC = """version: 1
rules:
  - id: t.src
    bucket: src
    description: everything
    match: ["**"]
"""


def use_bundle(folder: Path, monkeypatch: pytest.MonkeyPatch, rules: str = EVERYTHING_IS_SRC) -> None:
    """Put a bundle with `rules` in `folder`/policies and work there: the runner finds `./policies`
    like a user's checkout would."""
    (folder / "policies").mkdir()
    (folder / "policies" / ".manifest").write_text('{"revision": "runner-test", "roots": ["gatekeeper"]}')
    (folder / "policies" / "classification.yaml").write_text(rules)
    monkeypatch.chdir(folder)


def gk(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the gatekeeper CLI as a real subprocess (in the test's folder, so it uses the test bundle)."""
    return subprocess.run(
        [sys.executable, "-m", "gatekeeper", *args],
        capture_output=True,
        text=True,
        env=env if env is not None else dict(os.environ),
        timeout=timeout,
    )


def gk_in(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The gatekeeper CLI in-process (tests/incli.py), for runs whose subject is what happens in the sandbox and
    what the run records: the generator runs in its sandbox as a child either way, and only the runner's own
    interpreter start (~0.3 CPU-s a run) is saved. Runs whose subject is the runner process itself keep `gk`:
    its environment and PATH lookups, the modules it imports after the generator ran, its locks and its death."""
    done = run_cli(list(args), env=env, text=True)
    assert isinstance(done.stdout, str)
    return done  # type: ignore[return-value]


# For a generator script (Python) that must wait on the runner: the run's state as last recorded. The run
# directory is shown read-only inside the sandbox, around the workspace (the generator's working folder), so a
# generator waits on what the runner recorded (a checkpoint, its attempt) instead of guessing how long it takes.
RUN_STATE = """
import json as _json, time as _time
def run_state():
    with open("../state.json") as handle:
        return _json.load(handle)
def wait_for_state(predicate, timeout=60.0):
    until = _time.monotonic() + timeout
    while not predicate(run_state()):
        if _time.monotonic() > until:
            raise SystemExit("the runner never recorded what this generator waits for")
        _time.sleep(0.02)
"""

# For a generator script (Python): one streamed call through the relay (raw HTTP, so it can leave mid-answer), read
# until MARKER is in, the bytes kept in answer.txt. `.replace("MARKER", ...)`; runner 37's cut-stream tests.
STREAM_CALL = r"""
import json, os, socket, urllib.parse
base = urllib.parse.urlsplit(os.environ["ANTHROPIC_BASE_URL"])
body = json.dumps({"model": "asked-model", "max_tokens": 9, "stream": True,
                   "messages": [{"role": "user", "content": "hi"}]}).encode()
sock = socket.create_connection((base.hostname, base.port), timeout=20)
sock.sendall(b"POST " + base.path.encode() + b"/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
seen = b""
while b"MARKER" not in seen:
    chunk = sock.recv(65536)
    if not chunk:
        break
    seen += chunk
open("answer.txt", "wb").write(seen)
"""



@contextlib.contextmanager
def stalled_stream(model: str, text: str) -> Iterator[tuple[int, threading.Event]]:
    """A loopback model API whose streamed answer names `model` and sends `text`, then stalls until the event is set
    (the test's, or the end of the block) before it ends the stream: (port, event). Runner 37's cut-stream tests."""
    released = threading.Event()

    class Stalling(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            start = {"type": "message_start", "message": {"model": model, "usage": {"input_tokens": 7}}}
            delta = {"type": "content_block_delta", "delta": {"type": "text_delta", "text": text}}
            for event in (start, delta):
                self.wfile.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
            self.wfile.flush()
            released.wait(30)  # still thinking: the rest comes once the test lets it (after the run), or never
            with contextlib.suppress(OSError):
                self.wfile.write(b'event: message_stop\ndata: {"type": "message_stop"}\n\n')

    server = ThreadingHTTPServer(("127.0.0.1", 0), Stalling)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], released
    finally:
        released.set()
        wake_and_shut_down(server)
        server.server_close()


HAVE_BWRAP = shutil.which("bwrap") is not None
# Every sandbox test runs on both backends; bwrap's only where the machine has it (.ci/run installs it).
BACKENDS = ["unshare", pytest.param("bwrap", marks=pytest.mark.skipif(not HAVE_BWRAP, reason="bwrap not installed"))]


def origin_repo(tmp_path: Path) -> GitRepo:
    """A one-commit repository for a run to clone."""
    repo = GitRepo(tmp_path / "origin")
    repo.write("README.md", "# sample\n")
    repo.commit()
    return repo


class DeadlineClock:
    """The generator loop's clock for a timeout test (monkeypatched over `generator.time`): the real one until
    the generator's work is there (`ready()`), then `ahead` seconds on. The timeout strikes as soon as the runner
    next looks (the generator prints a line after its work, which wakes it), instead of after a real wait long
    enough for a loaded machine to get the work done first. The runner's deadline, its SIGTERM to the group and
    the KILL_GRACE after it (in real seconds) run as they are."""

    def __init__(self, ready: Callable[[], bool], ahead: float) -> None:
        self.ready, self.ahead = ready, ahead
        self.offset = 0.0
        self.read = False  # the first reading is the loop's start, from which the deadline counts
        self.jumped_at: datetime | None = None  # when the clock went on, in the packet's time (UTC)

    def monotonic(self) -> float:
        # Never on the first reading: on a loaded machine the generator may write its work before the runner's loop
        # first looks at the clock, and a jump there would move the deadline on with it (a CI run saw the timeout
        # strike 20 s after the jump, and the test waited for it).
        if not self.offset and self.read and self.ready():
            self.offset, self.jumped_at = self.ahead, datetime.now(UTC)
        self.read = True
        return time.monotonic() + self.offset

    @staticmethod
    def sleep(seconds: float) -> None:
        time.sleep(seconds)


def secrets_base() -> Path:
    """A folder for a fake caller's home that only the mount plan can hide: outside /tmp (private in the
    sandbox anyway) and outside the runner's own folders (shown read-only), which a checkout under /tmp is."""
    checkout = Path(__file__).resolve().parent.parent
    candidates = [Path("/var/lib/gatekeeper-tests"), Path("/srv/gatekeeper-tests")]
    if not str(checkout).startswith("/tmp/"):
        candidates.insert(0, checkout)
    for folder in candidates:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    pytest.skip("no writable folder outside /tmp and the runner's own folders for a fake home")


class HostServer:
    """A listening socket on the host (TCP on 127.0.0.1, or unix: a path or abstract `@name`) that greets and
    counts whoever connects: the sandbox tests assert that nothing inside reached it."""

    def __init__(self, greeting: bytes, unix: str | None = None) -> None:
        self.greeting = greeting
        if unix is None:
            self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.sock.bind(("127.0.0.1", 0))
            self.port = self.sock.getsockname()[1]
        else:
            self.sock = socket.socket(socket.AF_UNIX)
            self.sock.bind(unix.replace("@", "\0", 1) if unix.startswith("@") else reachable_path(unix))
        self.address = unix
        self.sock.listen(8)
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.sendall(self.greeting)
            conn.close()

    def close(self) -> None:
        self.sock.close()
