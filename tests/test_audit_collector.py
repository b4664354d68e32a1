"""`gate --log-url`: OPA decision-log requests to a collector on loopback; spooled when it is down; flushed once."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from test_audit_log import decision

from gatekeeper.audit import collector
from gatekeeper.audit.collector import deliver, flush, opa_event, spool_dir
from gatekeeper.audit.log import GENESIS, record_from_decision
from gatekeeper.audit.verify import verify_log
from gatekeeper.cli import main
from gatekeeper.serving import wake_and_shut_down


class Collector:
    """An OPA decision-log service on 127.0.0.1 that keeps what it was sent."""

    def __init__(self, status: int = 204, *, listening: bool = True) -> None:
        self.requests: list[dict] = []
        self.status = status
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                owner.requests.append({"path": self.path, "headers": dict(self.headers),
                                       "events": json.loads(gzip.decompress(body))})
                self.send_response(owner.status)
                if 300 <= owner.status < 400:
                    self.send_header("Location", "/elsewhere")
                self.end_headers()

            def do_GET(self) -> None:  # noqa: N802 - where a followed redirect would land
                owner.requests.append({"path": self.path, "headers": dict(self.headers), "events": None})
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        # Bound at once, listening only when asked: a collector that is down keeps its port (connections are
        # refused) and comes back on it, with no moment where another process could take the port meanwhile.
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler, bind_and_activate=False)
        self.server.server_bind()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/logs"
        self.thread: threading.Thread | None = None
        if listening:
            self.listen()

    def listen(self) -> None:
        self.server.server_activate()
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        if self.thread is not None:
            wake_and_shut_down(self.server)  # the loop's default 0.5 s poll was most of each test's time
        self.server.server_close()


@pytest.fixture
def service() -> Iterator[Collector]:
    server = Collector()
    yield server
    server.close()


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(collector, "BACKOFF", 0.0)  # retries stay, the waits between them go
    return tmp_path / "state"


def _inputs(tmp_path: Path, git_repo, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    git_repo.write(".github/workflows/ci.yml", "on: push\n")
    git_repo.commit()
    git_repo.write(".github/workflows/ci.yml", "on: [push, pull_request]\n")
    patch = git_repo.save_patch(tmp_path / "change.diff")
    packet = tmp_path / "packet.json"
    monkeypatch.chdir(tmp_path)
    assert main(["packet", str(patch), "--out", str(packet), "--run-id", "run-ci"]) == 0
    return packet, patch


def test_the_gate_posts_an_opa_decision_log_request(tmp_path: Path, git_repo, service: Collector, state: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    packet, patch = _inputs(tmp_path, git_repo, monkeypatch)
    for name, value in {"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_RUN_ID": "77",
                        "GITHUB_REF": "refs/pull/12/merge", "GITHUB_ACTOR": "octo", "GITHUB_SHA": "c" * 40,
                        "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "agent/x"}.items():
        monkeypatch.setenv(name, value)
    log = tmp_path / "decisions.jsonl"
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--log", str(log), "--log-url", service.url,
                 "--format", "json"])
    assert code == 3  # a CI change: review, exit as decided
    report = json.loads(capsys.readouterr().out)
    assert [e["status"] for e in report["decision_log"]] == ["appended", "sent"]
    assert len(service.requests) == 1
    request = service.requests[0]
    assert request["path"] == "/logs"
    assert request["headers"]["Content-Encoding"] == "gzip"
    assert request["headers"]["Content-Type"] == "application/json"
    [event] = request["events"]
    stored = json.loads(log.read_bytes().splitlines()[0])
    assert event["result"] == stored  # the collector holds the same chained record as the file
    assert set(event) >= {"labels", "decision_id", "bundles", "path", "input", "result", "requested_by", "timestamp"}
    assert event["decision_id"].replace("-", "") == stored["hash"][:32]
    assert event["labels"]["app"] == "gatekeeper" and event["labels"]["id"] == "github.com/acme/shop"
    assert event["requested_by"] == "octo" and event["timestamp"] == stored["time"]
    assert stored["ci"] == {"system": "github", "repository": "github.com/acme/shop",
                            "change": "https://github.com/acme/shop/pull/12", "number": 12, "base": "main",
                            "head": "agent/x", "base_sha": None, "head_sha": None, "tree": None,
                            "commit": "c" * 40, "run_url": "https://github.com/acme/shop/actions/runs/77",
                            "actor": "octo"}
    assert verify_log(log).ok


def test_a_collector_that_is_down_gets_the_record_spooled_then_flushed_once(
        tmp_path: Path, git_repo, state: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    packet, patch = _inputs(tmp_path, git_repo, monkeypatch)
    service = Collector(listening=False)  # down: its port refuses connections
    try:
        capsys.readouterr()
        code = main(["gate", str(packet), "--patch", str(patch), "--log-url", service.url, "--format", "json"])
        assert code == 3  # still exits as decided
        out, err = capsys.readouterr()
        assert "decision record spooled to" in err and "gatekeeper audit flush" in err
        [entry] = json.loads(out)["decision_log"]
        assert entry["status"] == "spooled" and Path(entry["spool"]).is_file()
        spooled = list(spool_dir({"XDG_STATE_HOME": str(state)}).glob("*.json"))
        assert len(spooled) == 1 and spooled[0].stat().st_mode & 0o077 == 0
        assert main(["audit", "flush"]) == 1  # still down: nothing lost, exit 1
        assert len(list(spooled[0].parent.glob("*.json"))) == 1
        capsys.readouterr()

        # The collector comes back on the same port.
        service.listen()
        assert main(["audit", "flush"]) == 0
        assert "sent 1 spooled record; 0 left" in capsys.readouterr().out
        assert main(["audit", "flush"]) == 0
        assert len(service.requests) == 1  # exactly once
        [event] = service.requests[0]["events"]
        assert event["result"]["outcome"] == "review" and event["result"]["seq"] == 0
    finally:
        service.close()
    assert list(spooled[0].parent.glob("*.json")) == []


def test_an_error_status_is_retried_then_spooled(state: Path) -> None:
    failing = Collector(status=503)
    try:
        record = record_from_decision(decision(1), seq=0, prev=GENESIS, at="2026-11-30T10:00:00.000000Z")
        delivery = deliver(failing.url, record, env={"XDG_STATE_HOME": str(state)})
        assert not delivery.sent and delivery.error is not None and "HTTP 503" in delivery.error
        assert len(failing.requests) == collector.ATTEMPTS
        assert delivery.spooled is not None and delivery.spooled.parent == spool_dir({"XDG_STATE_HOME": str(state)})
        failing.status = 200
        assert flush({"XDG_STATE_HOME": str(state)}).sent == 1
        assert failing.requests[-1]["events"] == [opa_event(record)]
    finally:
        failing.close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_delivery(state: Path, status: int) -> None:
    redirecting = Collector(status=status)
    try:
        record = record_from_decision(decision(1), seq=0, prev=GENESIS, at="2026-11-30T10:00:00.000000Z")
        delivery = deliver(redirecting.url, record, env={"XDG_STATE_HOME": str(state)})
        assert not delivery.sent and f"HTTP {status}" in str(delivery.error)
        assert all(r["events"] is not None for r in redirecting.requests)  # never followed to a GET
    finally:
        redirecting.close()


def test_bad_urls_are_refused_before_anything_is_written(tmp_path: Path, git_repo, state: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    packet, patch = _inputs(tmp_path, git_repo, monkeypatch)
    log = tmp_path / "decisions.jsonl"
    for url in ("file:///etc/passwd", "ftp://example.invalid/logs", "http:///logs", "https://user:tok@/x"):
        assert main(["gate", str(packet), "--patch", str(patch), "--log", str(log), "--log-url", url]) == 2
        err = capsys.readouterr().err
        assert "--log-url: not an http(s) URL" in err and "tok" not in err
    # The decision reached no destination; the file log holds only what happened: the gate could not decide.
    records = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert [r["outcome"] for r in records] == ["error"] * 4 and not any(r["findings"] for r in records)
    assert all("not an http(s) URL" in r["error"]["message"] and "tok" not in r["error"]["message"] for r in records)


def test_a_tampered_spool_file_is_refused_with_its_name(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = spool_dir({"XDG_STATE_HOME": str(state)})
    folder.mkdir(parents=True)
    (folder / "0001-x.json").write_text("[" * 100_000)
    assert main(["audit", "flush"]) == 2
    err = capsys.readouterr().err
    assert "0001-x.json: not a spooled decision record" in err and "internal error" not in err


def test_flush_with_nothing_spooled(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "flush", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["sent"] == 0
