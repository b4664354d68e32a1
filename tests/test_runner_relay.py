"""The model relay, in-process: the official SDKs through the bridge, against a fake API on loopback."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tables import each_case

from gatekeeper.demo_model_api import FakeModelAPI, fake_model_api
from gatekeeper.errors import UsageError
from gatekeeper.runner.relay import Relay, RelayLimits
from gatekeeper.runner.relay_api import CallFacts, parse_model_api, route
from gatekeeper.runner.relay_bridge import PLACEHOLDER_KEY, start_bridge
from gatekeeper.runner.relaylog import RelayLog, read_log, summarize

if TYPE_CHECKING:
    import anthropic
    import openai

# The SDKs are imported by the tests that use them: importing both costs every pytest worker ~3 s of CPU
# at collection, whether or not it runs this file.

REAL_KEY = "sk-real-key-that-must-stay-outside"


@pytest.fixture()
def fake() -> Iterator[FakeModelAPI]:
    with fake_model_api() as api:
        yield api


def _relay(tmp_path: Path, fake: FakeModelAPI, limits: RelayLimits | None = None) -> tuple[Relay, int]:
    upstreams = {name: parse_model_api(f"{name}={fake.url}") for name in ("anthropic", "openai")}
    relay = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", upstreams,
                  {"anthropic": REAL_KEY, "openai": REAL_KEY}, limits).start()
    return relay, start_bridge(str(tmp_path / "relay.sock"), relay.secret)


@pytest.fixture()
def relayed(tmp_path: Path, fake: FakeModelAPI) -> Iterator[tuple[Relay, int]]:
    relay, port = _relay(tmp_path, fake)
    yield relay, port
    relay.stop()


def _anthropic(port: int) -> anthropic.Anthropic:
    import anthropic

    return anthropic.Anthropic(base_url=f"http://127.0.0.1:{port}/anthropic", api_key=PLACEHOLDER_KEY,
                               max_retries=0, timeout=10)


def _openai(port: int) -> openai.OpenAI:
    import openai

    return openai.OpenAI(base_url=f"http://127.0.0.1:{port}/openai/v1", api_key=PLACEHOLDER_KEY,
                         max_retries=0, timeout=10)


def test_anthropic_json_and_stream_record_the_model_that_answered(relayed: tuple[Relay, int],
                                                                   fake: FakeModelAPI) -> None:
    relay, port = relayed
    client = _anthropic(port)
    message = client.messages.create(model="claude-asked-for", max_tokens=10,
                                      messages=[{"role": "user", "content": "hi"}])
    assert message.model == fake.served and message.content[0].text == "hello from the fake"
    with client.messages.stream(model="claude-asked-for", max_tokens=10,
                                messages=[{"role": "user", "content": "hi"}]) as stream:
        assert "".join(stream.text_stream) == "hello from the fake"
    records = read_log(relay.log.path)
    assert [(r["requested"], r["served"], r["status"], r["stream"]) for r in records] == [
        ("claude-asked-for", fake.served, 200, False), ("claude-asked-for", fake.served, 200, True)]
    assert records[0]["input_tokens"] == 11 and records[1]["output_tokens"] == 7
    # The real key went upstream; the placeholder did not.
    sent = [call["headers"] for call in fake.seen]
    assert all(h.get("x-api-key") == REAL_KEY for h in sent)
    assert PLACEHOLDER_KEY not in json.dumps(sent)


def test_openai_json_and_stream(relayed: tuple[Relay, int], fake: FakeModelAPI) -> None:
    relay, port = relayed
    client = _openai(port)
    done = client.chat.completions.create(model="gpt-asked-for", messages=[{"role": "user", "content": "hi"}])
    assert done.model == fake.served
    chunks = list(client.chat.completions.create(model="gpt-asked-for", stream=True,
                                                 messages=[{"role": "user", "content": "hi"}]))
    assert chunks[0].model == fake.served
    # The SDK stops reading at `[DONE]`, before the reply's end, which waits for the record: wait for it here.
    _wait_for_records(relay, 2)
    assert [m.id for m in client.models.list()] == [fake.served]
    records = read_log(relay.log.path)
    assert [r["path"] for r in records] == ["/v1/chat/completions", "/v1/chat/completions", "/v1/models"]
    assert records[1]["input_tokens"] == 13 and records[1]["output_tokens"] == 5
    assert all(call["headers"].get("authorization") == f"Bearer {REAL_KEY}" for call in fake.seen)
    assert summarize(records)["served"] == [fake.served]


def _wait_for_records(relay: Relay, count: int, timeout: float = 20.0) -> None:
    until = time.monotonic() + timeout
    while len(read_log(relay.log.path)) < count:
        assert time.monotonic() < until, f"fewer than {count} records in the relay log"
        time.sleep(0.01)


@pytest.fixture()
def lagging_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """A log write that takes its time (a busy disk): a reply that ended before its record was on disk would
    reach the client first."""
    extend = RelayLog.extend

    def lagging(self: RelayLog, records: list[dict]) -> None:
        time.sleep(0.3)
        extend(self, records)

    monkeypatch.setattr(RelayLog, "extend", lagging)


def _answer(port: int, path: str, body: bytes, close: bool = False) -> tuple[int, bytes]:
    """One request; returns once the reply is whole (its last chunk or Content-Length), not at the close.
    `close`: the client asks to close after the reply (`Connection: close`, as urllib does)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("POST", path, body=body, headers={"content-type": "application/json",
                                                       **({"connection": "close"} if close else {})})
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


@pytest.mark.usefixtures("lagging_log")
@pytest.mark.parametrize("close", [False, True], ids=["keep-alive", "connection-close"])
@pytest.mark.parametrize("stream", [False, True])
def test_a_reply_ends_only_once_its_record_is_on_disk(relayed: tuple[Relay, int], stream: bool, close: bool) -> None:
    relay, port = relayed
    body = json.dumps({"model": "m", "max_tokens": 5, "stream": stream, "messages": []}).encode()
    status, data = _answer(port, "/anthropic/v1/messages", body, close)  # http.client: a reply without its
    # last chunk raises IncompleteRead (a client asking to close got one until the relay told the two apart)
    assert status == 200 and data
    (record,) = read_log(relay.log.path)  # the client has its whole answer: the call is in the log
    assert record["status"] == 200 and record["stream"] is stream


@pytest.mark.usefixtures("lagging_log")
def test_an_upstream_that_is_down_is_answered_502_after_its_record(tmp_path: Path) -> None:
    with socket.socket() as down:
        down.bind(("127.0.0.1", 0))  # bound, never listening: refused, and no other test can take the port
        upstream = parse_model_api(f"anthropic=http://127.0.0.1:{down.getsockname()[1]}")
        relay = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", {"anthropic": upstream},
                      {"anthropic": REAL_KEY}).start()
        try:
            bridge = start_bridge(str(tmp_path / "relay.sock"), relay.secret)
            status, data = _answer(bridge, "/anthropic/v1/messages", b"{}")
            assert status == 502 and b"ConnectionRefusedError" in data
            (record,) = read_log(relay.log.path)
            assert record["status"] == 502 and "ConnectionRefusedError" in record["error"]
        finally:
            relay.stop()


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    return data


@pytest.mark.parametrize(("request_line", "host"), [
    (b"CONNECT evil.example:443 HTTP/1.1", "evil.example"),
    (b"GET http://169.254.169.254/latest/meta-data/ HTTP/1.1", "169.254.169.254"),  # not contacted
    (b"GET https://pastebin.example/raw/x HTTP/1.1", "pastebin.example"),
    (b"POST /anthropic/v1/files HTTP/1.1", "127.0.0.1"),
    (b"GET /anthropic/v1/messages HTTP/1.1", "127.0.0.1"),
    (b"POST /openai/v1/files HTTP/1.1", "127.0.0.1"),
    (b"POST /openai/v1/chat/completions/../../files HTTP/1.1", "127.0.0.1"),
    (b"POST /somewhere/else HTTP/1.1", "127.0.0.1"),
    (b"POST /anthropic HTTP/1.1", "127.0.0.1"),
])
def test_everything_but_the_allowlist_is_refused_and_recorded(
    relayed: tuple[Relay, int], fake: FakeModelAPI, request_line: bytes, host: str,
) -> None:
    relay, port = relayed
    answer = _raw(port, request_line + b"\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
    assert answer.split(b" ", 2)[1] in (b"403", b"405")
    assert fake.seen == []
    records = read_log(relay.log.path)
    assert len(records) == 1 and records[0]["refused"] and records[0]["host"] == host


@pytest.mark.parametrize("headers", [
    b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n",
    b"Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n",
    b"Connection: keep-alive, upgrade\r\n",  # an Upgrade named only in Connection
    b"UPGRADE: WebSocket\r\n",
])
@pytest.mark.parametrize("target", [b"GET /openai/v1/realtime?model=gpt-realtime", b"GET /openai/v1/models",
                                    b"POST /openai/v1/responses", b"GET /anthropic/v1/models"])
def test_protocol_upgrades_are_refused_and_recorded(
    relayed: tuple[Relay, int], fake: FakeModelAPI, headers: bytes, target: bytes,
) -> None:
    relay, port = relayed
    answer = _raw(port, target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"Content-Length: 0\r\n\r\n")
    assert answer.split(b" ", 2)[1] == b"403" and b"no WebSocket or realtime API" in answer
    assert fake.seen == []  # never forwarded, not even an allowed path
    (record,) = read_log(relay.log.path)
    assert record["refused"].startswith("protocol upgrade refused") and record["status"] == 403
    assert summarize([record])["refused"] == 1


@pytest.mark.parametrize("data", [
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(32)) + b"\r\n\r\n",  # a TLS ClientHello
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",  # HTTP/2 with prior knowledge
    b"BREW /anthropic/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /anthropic/v1/models HTTP/9.9\r\n\r\n",
])
def test_what_is_not_http_the_relay_serves_is_refused_and_recorded(
    relayed: tuple[Relay, int], fake: FakeModelAPI, data: bytes,
) -> None:
    relay, port = relayed
    answer = _raw(port, data)
    assert b"Error code: " in answer  # the base class's error page (a line without a version gets no status line)
    assert fake.seen == []
    (record,) = read_log(relay.log.path)
    assert record["refused"].startswith("not a request the relay serves") and record["status"] >= 400


def test_limits_refuse_with_a_clear_error(tmp_path: Path, fake: FakeModelAPI) -> None:
    import anthropic

    relay, port = _relay(tmp_path, fake, RelayLimits(max_request_bytes=2000, max_tokens=20))
    try:
        client = _anthropic(port)
        with pytest.raises(anthropic.APIStatusError) as big:
            client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "x" * 5000}])
        assert big.value.status_code == 413
        client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
        client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])  # 36 tokens
        with pytest.raises(anthropic.RateLimitError, match="token budget"):
            client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    finally:
        relay.stop()
    summary = summarize(read_log(tmp_path / "relay.jsonl"))
    assert summary["requests"] == 2 and summary["refused"] == 2 and summary["tokens"] == 36


def test_rate_cap(tmp_path: Path, fake: FakeModelAPI) -> None:
    import openai

    relay, port = _relay(tmp_path, fake, RelayLimits(max_requests_per_minute=2))
    try:
        client = _openai(port)
        client.models.list()
        client.models.list()
        with pytest.raises(openai.RateLimitError, match="rate limit"):
            client.models.list()
    finally:
        relay.stop()


def _reply_then_gone(tmp_path: Path, reply: bytes) -> tuple[bytes, list[dict[str, object]]]:
    """One call through a real relay to a raw upstream that reads the whole request, sends `reply` and closes: what
    the client got, and the relay's records."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()

        def answer() -> None:
            conn, _ = server.accept()
            with conn:
                seen = b"-"
                while seen and not seen.endswith(b"\r\n\r\n{}"):  # all of it: unread bytes make the close a reset
                    seen = (part := conn.recv(65536)) and seen + part
                conn.sendall(reply)

        answering = threading.Thread(target=answer)
        answering.start()
        upstream = parse_model_api(f"anthropic=http://127.0.0.1:{server.getsockname()[1]}")
        relay = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", {"anthropic": upstream},
                      {"anthropic": REAL_KEY}).start()
        try:
            port = start_bridge(str(tmp_path / "relay.sock"), relay.secret)
            data = _raw(port, b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}")
            answering.join(timeout=10)
            return data, read_log(relay.log.path)
        finally:
            relay.stop()


@pytest.mark.parametrize("framing", [b"content-type: application/json\r\ncontent-length: 100\r\n\r\n",
                                     b"content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\nb\r\n"])
def test_an_upstream_that_dies_mid_reply_cuts_the_reply_off(tmp_path: Path, framing: bytes) -> None:
    data, (record,) = _reply_then_gone(tmp_path, b"HTTP/1.1 200 OK\r\n" + framing + b'{"partial":')
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.") and b" 200 " in head.split(b"\r\n")[0]
    assert rest.startswith(b'b\r\n{"partial":\r\n') and b"HTTP/1." not in rest  # cut off: no 502 inside the body
    assert not rest.endswith(b"0\r\n\r\n")  # and no last chunk: the client sees a broken reply, not a whole one
    assert record["status"] == 502 and "IncompleteRead" in record["error"] and record["bytes_out"] == 11


def test_upstream_errors_and_a_slow_upstream(tmp_path: Path) -> None:
    import anthropic

    with fake_model_api(status=529) as busy:
        relay, port = _relay(tmp_path, busy)
        try:
            with pytest.raises(anthropic.APIStatusError) as failed:
                _anthropic(port).messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "x"}])
            assert failed.value.status_code == 529
        finally:
            relay.stop()
    with fake_model_api(delay=0.5) as slow:
        relay, port = _relay(tmp_path, slow, RelayLimits(upstream_timeout=0.2))
        try:
            with pytest.raises(anthropic.APIStatusError) as timed_out:
                _anthropic(port).messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "x"}])
            assert timed_out.value.status_code == 502
        finally:
            relay.stop()
    records = read_log(tmp_path / "relay.jsonl")
    assert [r["status"] for r in records] == [529, 502] and "timed out" in records[1]["error"]
    assert summarize(records)["served"] == []


def test_a_torn_last_line_is_dropped_and_the_log_continues(tmp_path: Path, fake: FakeModelAPI) -> None:
    (tmp_path / "relay.jsonl").write_bytes(b'{"status":200,"served":"old","input_tokens":3}\n{"status":2')
    relay, port = _relay(tmp_path, fake)
    try:
        _openai(port).models.list()
    finally:
        relay.stop()
    lines = (tmp_path / "relay.jsonl").read_bytes().splitlines()
    assert len(lines) == 2 and all(json.loads(line) for line in lines)


@each_case("spec", [
    "anthropic=http://api.anthropic.com", "openai=http://10.0.0.1:8080", "openai=ftp://127.0.0.1",  # not contacted
    "gemini", "anthropic=https://user:pw@api.example", "openai=https://api.example/?x=1", "anthropic=https://",
    "openai=http://127.0.0.1:99999",
])
def test_bad_upstreams_are_refused(spec: str) -> None:
    with pytest.raises(UsageError):
        parse_model_api(spec)


def test_loopback_http_and_defaults() -> None:
    assert parse_model_api("anthropic").origin == "https://api.anthropic.com:443"
    assert parse_model_api("openai=http://[::1]:8000/v1").base_path == "/v1"
    assert parse_model_api("openai=http://localhost:8000").port == 8000


@each_case(("method", "target", "allowed"), [
    ("POST", "/anthropic/v1/messages", True), ("POST", "/anthropic/v1/messages?beta=true", True),
    ("POST", "/anthropic/v1/messages/count_tokens", True), ("GET", "/anthropic/v1/models/claude-x", True),
    ("POST", "/openai/v1/responses", True), ("POST", "/openai/v1/completions", True),
    ("DELETE", "/openai/v1/responses", False), ("POST", "/openai/v1/responses/abc/cancel", False),
    ("POST", "/anthropic/v1/messages/batches", False), ("POST", "//anthropic/v1/messages", False),
    ("POST", "/anthropic/v1/messages/", False), ("GET", "/anthropic/v1/models/../files", False),
    ("POST", "/openai/v1/chat/completions%2F..", False), ("POST", "/anthropicx/v1/messages", False),
])
def test_route(method: str, target: str, allowed: bool) -> None:
    assert isinstance(route(method, target), tuple) is allowed


def test_facts_from_events_keep_the_largest_usage() -> None:
    facts = CallFacts()
    facts.read_request(b'{"model": "asked"}')
    facts.read_stream(b'data: {"type":"message_start","message":{"model":"m1","usage":{"input_tokens":9}}}\n\n')
    facts.read_stream(b'data: {"type":"message_delta","usage":{"output_tokens":4}}\n\n')
    facts.read_stream(b"data: [DONE]\n\n")
    facts.read_stream(b"event: ping\n\n", end=True)
    assert (facts.requested, facts.served, facts.tokens, facts.named) == ("asked", "m1", 13, ["m1"])


def test_a_stream_that_named_its_model_and_died_still_names_it_in_served(tmp_path: Path) -> None:
    """Docs review 53: a chunked stream whose first event named the model, then broke, was recorded as a 502 (as it
    must: the reply was cut) and `served` counted 200 replies only, so the signed packet named no model although the
    generator had read the model's events. A model a reply named counts whatever the reply's end."""
    event = b'event: message_start\ndata: {"type": "message_start", "message": {"model": "named-model"}}\n\n'
    _, records = _reply_then_gone(tmp_path, b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                                  b"transfer-encoding: chunked\r\n\r\n" + f"{len(event):x}\r\n".encode() + event
                                  + b'\r\nff\r\n{"partial')
    assert [r["status"] for r in records] == [502] and records[0]["models"] == ["named-model"]
    assert summarize(records)["served"] == ["named-model"]
