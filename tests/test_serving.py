"""serving.wake_and_shut_down: a serve loop stops at once, not at its next poll (socketserver's default 0.5 s).

Each test's fake upstream or collector that a plain `server.shutdown()` stopped waited out that poll in its teardown:
66 relay tests spent 33 s of a pytest worker's wall time asleep (tests/test_redteam20_relay.py).
"""

from __future__ import annotations

import re
import socketserver
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from gatekeeper.serving import wake_and_shut_down

ROOT = Path(__file__).resolve().parent.parent


class _Quiet(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        pass


def _tcp(tmp_path: Path) -> socketserver.BaseServer:
    return socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Quiet)


def _unix(tmp_path: Path) -> socketserver.BaseServer:
    return socketserver.ThreadingUnixStreamServer(str(tmp_path / "s.sock"), _Quiet)


@pytest.mark.parametrize("make", [_tcp, _unix])
def test_a_loop_that_would_poll_for_an_hour_stops_at_once(
        tmp_path: Path, make: Callable[[Path], socketserver.BaseServer]) -> None:
    server = make(tmp_path)
    loop = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 3600}, daemon=True)
    loop.start()
    done = threading.Thread(target=wake_and_shut_down, args=(server,), daemon=True)
    done.start()
    done.join(timeout=60)  # server.shutdown() alone would wait out the hour
    assert not done.is_alive()
    loop.join(timeout=60)
    assert not loop.is_alive()
    server.server_close()


def test_every_serve_loop_in_the_project_stops_through_it() -> None:
    starts = []
    for path in sorted([*ROOT.glob("gatekeeper/**/*.py"), *ROOT.glob("tests/*.py")]):
        text = path.read_text()
        if re.search(r"\.serve_forever\b", text) and path.name != "test_serving.py":
            starts.append(path.relative_to(ROOT).as_posix())
            assert "wake_and_shut_down(" in text and not re.search(r"\bserver\.shutdown\(\)", text), path
    assert len(starts) >= 3, starts  # the relay, the demo's fake model API, the tests' fakes
