"""Red team: the model relay, between a hostile agent and a scripted upstream (both on loopback).

The agent speaks raw HTTP/1.x to the relay's socket (the bridge inside passes bytes unchanged); the upstream
is a loopback server that records every request it gets and answers with the bytes a test scripts.

Holes found on base aaa88b8, each with its class closed:
- A request target holding a byte other than printable ASCII (`?q=\\xe9`) killed the handler thread with a
  UnicodeEncodeError traceback on the runner's stderr: no record in relay.jsonl, and the client got no answer.
- `GET /v1/models/..` matched the model-id pattern: the upstream was asked for `/v1/models/..` with the real key.
- Header values were forwarded with what RFC 9110/9112 say a server must reject or replace: an obsolete line
  folding (`anthropic-version: x\\r\\n x-api-key: …` reached the upstream as a second line of the agent's
  choosing), a NUL; a header name with whitespace before its colon, a header section with a line without a colon
  and two differing Content-Lengths were read one way here and may be read another way upstream.
- What answered, per the record: only the last model a reply named (a stream's message_start named one model, a
  later event another; a body named one on top and another in `message`; a JSON object named `model` twice),
  nothing for events separated by a bare CR (valid SSE), and a reply that answered 200 without a readable
  model (gzip, an HTML page, an integer past Python's limit) was in no `served` list at all.
"""

from __future__ import annotations

import gzip
import json
import shutil
import socket
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gatekeeper.runner.relay import Relay
from gatekeeper.runner.relay_api import parse_model_api
from gatekeeper.runner.relay_bridge import reachable_path
from gatekeeper.runner.relaylog import read_log, summarize
from gatekeeper.serving import wake_and_shut_down
from gatekeeper.verify import validate_packet

BODY = b'{"model":"asked-model","max_tokens":1}'


class _Upstream(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _UpstreamHandler)
        self.seen: list[bytes] = []
        self.reply = _json_reply({"model": "served-model", "usage": {"input_tokens": 3, "output_tokens": 2}})


class _UpstreamHandler(socketserver.BaseRequestHandler):
    server: _Upstream

    def handle(self) -> None:
        data = b""
        self.request.settimeout(10)
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        while len(rest) < length:
            rest += self.request.recv(65536)
        self.server.seen.append(head)
        self.request.sendall(self.server.reply)


def _json_reply(document: object, raw: bytes | None = None, content_type: bytes = b"application/json",
                extra: bytes = b"") -> bytes:
    body = raw if raw is not None else json.dumps(document).encode()
    return (b"HTTP/1.1 200 OK\r\ncontent-type: %s\r\ncontent-length: %d\r\n%s\r\n%s"
            % (content_type, len(body), extra, body))


@pytest.fixture()
def upstream() -> Iterator[_Upstream]:
    server = _Upstream()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    wake_and_shut_down(server)  # at once, not at the serve loop's next poll (tests/test_serving.py)
    server.server_close()


@pytest.fixture()
def relay(tmp_path: Path, upstream: _Upstream) -> Iterator[Relay]:
    upstreams = {name: parse_model_api(f"{name}=http://127.0.0.1:{upstream.server_address[1]}")
                 for name in ("anthropic", "openai")}
    started = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", upstreams,
                    {"anthropic": "real-key", "openai": "real-key"}).start()
    yield started
    started.stop()


def _send(relay: Relay, raw: bytes) -> bytes:
    """What the relay answers to `raw` (the connection read to its end)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(20)
        client.connect(reachable_path(str(relay.socket_path)))  # a long TMPDIR passes 108 bytes
        client.sendall(relay.secret + b"\n" + raw)  # what the sandbox's bridge opens with (runner 37)
        out = b""
        while chunk := client.recv(65536):
            out += chunk
    return out


def _post(path: bytes, headers: bytes = b"", body: bytes = BODY) -> bytes:
    return (b"POST %s HTTP/1.1\r\n%sContent-Length: %d\r\nConnection: close\r\n\r\n%s"
            % (path, headers, len(body), body))


# -- the agent's requests --------------------------------------------------------------------------------------

REFUSED = {
    "query-latin1": _post(b"/openai/v1/chat/completions?q=caf\xe9"),
    "query-high-byte": _post(b"/anthropic/v1/messages?beta=\xff"),
    "query-control": b"GET /openai/v1/models?a=\x01 HTTP/1.1\r\nConnection: close\r\n\r\n",
    "query-del": b"GET /openai/v1/models?a=\x7f HTTP/1.1\r\nConnection: close\r\n\r\n",
    "model-id-latin1": b"GET /openai/v1/models/gpt\xe9 HTTP/1.1\r\nConnection: close\r\n\r\n",
    "model-id-dotdot": b"GET /anthropic/v1/models/.. HTTP/1.1\r\nConnection: close\r\n\r\n",
    "model-id-dot": b"GET /openai/v1/models/. HTTP/1.1\r\nConnection: close\r\n\r\n",
    "model-id-dotdot-query": b"GET /openai/v1/models/..?limit=1 HTTP/1.1\r\nConnection: close\r\n\r\n",
    "obs-fold-key": _post(b"/anthropic/v1/messages", b"anthropic-version: 2023-06-01\r\n x-api-key: agent\r\n"),
    "obs-fold-host": _post(b"/anthropic/v1/messages", b"anthropic-beta: a\r\n\tHost: 169.254.169.254\r\n"),
    "nul-in-value": _post(b"/anthropic/v1/messages", b"anthropic-beta: a\x00b\r\n"),
    "bare-cr-in-value": _post(b"/openai/v1/chat/completions", b"openai-beta: a\rb\r\n"),
    "escape-in-value": _post(b"/openai/v1/chat/completions", b"user-agent: a\x1b[31mb\r\n"),
    "space-before-colon": b"POST /anthropic/v1/messages HTTP/1.1\r\nTransfer-Encoding : chunked\r\n"
                          b"Connection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "line-without-colon": b"POST /anthropic/v1/messages HTTP/1.1\r\nno colon here\r\nTransfer-Encoding: chunked\r\n"
                          b"Connection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "content-length-twice": b"POST /anthropic/v1/messages HTTP/1.1\r\nContent-Length: %d\r\nContent-Length: 0\r\n"
                            b"Connection: close\r\n\r\n%s" % (len(BODY), BODY),
    "cl-and-te": b"POST /anthropic/v1/messages HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n"
                 b"Connection: close\r\n\r\n0\r\n\r\n",
    "absolute-form": b"GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\nConnection: close\r\n\r\n",
    "absolute-form-ipv6": b"GET http://[fd00:ec2::254]/ HTTP/1.1\r\nConnection: close\r\n\r\n",
    "absolute-form-userinfo": b"POST http://user:pw@evil.example/anthropic/v1/messages HTTP/1.1\r\n"
                              b"Connection: close\r\nContent-Length: 0\r\n\r\n",
    "authority-form": b"CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n",
    "scheme-relative": _post(b"//evil.example/anthropic/v1/messages"),
    "percent-dot": b"GET /anthropic/v1/models/%2e%2e HTTP/1.1\r\nConnection: close\r\n\r\n",
    "upgrade-h2c": _post(b"/anthropic/v1/messages", b"Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"),
    "lowercase-method": _post(b"/anthropic/v1/messages").replace(b"POST", b"post", 1),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_request_the_relay_cannot_pass_on_as_read_is_refused_and_recorded(
        relay: Relay, upstream: _Upstream, capfd: pytest.CaptureFixture[str], name: str) -> None:
    answer = _send(relay, REFUSED[name])
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else None
    assert status is not None and (400 <= status < 500 or status == 501), (name, answer[:200])
    assert upstream.seen == [], f"{name}: reached the upstream: {upstream.seen}"
    records = read_log(relay.log.path)
    assert records and all(r.get("refused") for r in records), (name, records)
    assert "Traceback" not in capfd.readouterr().err


def test_a_refused_absolute_form_still_names_its_host(relay: Relay) -> None:
    """The refusal that comes first keeps the host the request named (a metadata address the policy denies)."""
    _send(relay, b"GET http://169.254.169.254/\x01 HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert [r["host"] for r in read_log(relay.log.path)] == ["169.254.169.254"]


PASSED = {
    "plain": _post(b"/anthropic/v1/messages", b"anthropic-version: 2023-06-01\r\n"),
    "tab-in-value": _post(b"/anthropic/v1/messages", b"user-agent: a\tb\r\n"),
    "bare-lf-lines": _post(b"/anthropic/v1/messages").replace(b"\r\n", b"\n"),
    "query": b"GET /openai/v1/models?limit=2&after=gpt-4.1 HTTP/1.1\r\nConnection: close\r\n\r\n",
    "model-id": b"GET /openai/v1/models/gpt-4.1-2025-04-14 HTTP/1.1\r\nConnection: close\r\n\r\n",
    "model-id-dots": b"GET /anthropic/v1/models/claude...x HTTP/1.1\r\nConnection: close\r\n\r\n",
    "http10": b"POST /anthropic/v1/messages HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s" % (len(BODY), BODY),
    "same-length-twice": b"POST /anthropic/v1/messages HTTP/1.1\r\nContent-Length: %d\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(BODY), len(BODY), BODY),
}


@pytest.mark.parametrize("name", sorted(PASSED))
def test_what_an_sdk_sends_still_passes(relay: Relay, upstream: _Upstream, name: str) -> None:
    answer = _send(relay, PASSED[name])
    assert answer.startswith(b"HTTP/1.1 200") or answer.startswith(b"HTTP/1.0 200"), (name, answer[:300])
    assert len(upstream.seen) == 1
    record = read_log(relay.log.path)[0]
    assert record["status"] == 200 and not record.get("refused"), record


def test_keep_alive_and_pipelining_check_every_request(relay: Relay, upstream: _Upstream) -> None:
    """HTTP/1.0 keep-alive, then a pipelined proxy request and a CONNECT on the same connection."""
    raw = (b"POST /anthropic/v1/messages HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: %d\r\n\r\n%s"
           % (len(BODY), BODY) + b"GET http://10.0.0.1:8080/ HTTP/1.1\r\n\r\n"
           + b"CONNECT 10.0.0.1:22 HTTP/1.1\r\nHost: 10.0.0.1:22\r\n\r\n")
    _send(relay, raw)
    records = read_log(relay.log.path)
    assert len(upstream.seen) == 1 and records[0]["status"] == 200
    assert [r.get("host") for r in records[1:]] == ["10.0.0.1"], records


def test_the_agent_names_no_host_port_or_header_upstream(relay: Relay, upstream: _Upstream) -> None:
    raw = _post(b"/anthropic/v1/messages", b"Host: 169.254.169.254:80\r\nX-Forwarded-Host: evil\r\n"
                b"x-api-key: agent\r\nAuthorization: Bearer agent\r\nProxy-Authorization: x\r\nCookie: a=b\r\n")
    assert _send(relay, raw).startswith(b"HTTP/1.1 200")
    [head] = upstream.seen
    lines = head.lower().split(b"\r\n")
    port = upstream.server_address[1]
    assert f"host: 127.0.0.1:{port}".encode() in lines and b"x-api-key: real-key" in lines
    assert not any(word in head.lower() for word in (b"169.254", b"evil", b"agent", b"cookie", b"authorization"))


# -- what answered ---------------------------------------------------------------------------------------------

def _sse(*events: object, end: bytes = b"\n\n") -> bytes:
    return b"".join(b"event: x" + end[:len(end) // 2] + b"data: " + json.dumps(e).encode() + end for e in events)


ANSWERS: dict[str, tuple[bytes, set[str]]] = {
    "two-keys": (_json_reply(None, b'{"model":"allowed-model","model":"other-model"}'), {"(unreadable)"}),
    "two-keys-nested": (_json_reply(None, b'{"message":{"model":"a","model":"b"}}'), {"(unreadable)"}),
    "top-and-message": (_json_reply({"model": "top-model", "message": {"model": "nested-model"}}),
                        {"top-model", "nested-model"}),
    "stream-two-models": (_json_reply(None, _sse({"type": "message_start", "message": {"model": "first-model"}},
                                                 {"type": "message_delta", "model": "second-model"}),
                                      b"text/event-stream"), {"first-model", "second-model"}),
    "stream-bare-cr": (_json_reply(None, _sse({"type": "message_start", "message": {"model": "cr-model"}},
                                              end=b"\r\r"), b"text/event-stream"), {"cr-model"}),
    "stream-crlf": (_json_reply(None, _sse({"model": "crlf-model", "choices": []}, end=b"\r\n\r\n"),
                                b"text/event-stream"), {"crlf-model"}),
    "unicode-escape": (_json_reply(None, b'{"model":"\\u0063laude-x"}'), {"claude-x"}),
    "gzip": (_json_reply(None, gzip.compress(b'{"model":"zipped-model"}'), extra=b"content-encoding: gzip\r\n"),
             {"(unreadable)"}),
    "html-error-page": (_json_reply(None, b"<html><body>upstream error</body></html>", b"text/html"),
                        {"(unreadable)"}),
    "int-past-limit": (_json_reply(None, b'{"model":"big-model","usage":{"output_tokens":' + b"9" * 5000 + b"}}"),
                       {"(unreadable)"}),
    "model-not-a-string": (_json_reply({"model": {"id": "x"}}), {"(unreadable)"}),
    "one-model": (_json_reply({"model": "only-model", "message": {"model": "only-model"}}), {"only-model"}),
}


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_every_model_a_reply_names_is_served(relay: Relay, upstream: _Upstream, name: str) -> None:
    upstream.reply, expected = ANSWERS[name]
    answer = _send(relay, _post(b"/anthropic/v1/messages"))
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    records = read_log(relay.log.path)
    assert set(summarize(records)["served"]) == expected, records


def test_a_model_listing_or_token_count_is_no_unreadable_answer(relay: Relay, upstream: _Upstream) -> None:
    upstream.reply = _json_reply({"input_tokens": 12})
    _send(relay, _post(b"/anthropic/v1/messages/count_tokens"))
    upstream.reply = _json_reply({"data": [{"id": "m"}], "object": "list"})
    _send(relay, b"GET /openai/v1/models HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert summarize(read_log(relay.log.path))["served"] == []


def test_an_error_answer_is_not_served(relay: Relay, upstream: _Upstream) -> None:
    body = b'{"type":"error","error":{"type":"overloaded_error"}}'
    upstream.reply = b"HTTP/1.1 529 Overloaded\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (
        len(body), body)
    _send(relay, _post(b"/anthropic/v1/messages"))
    assert summarize(read_log(relay.log.path))["served"] == []


@pytest.mark.parametrize("served, outcome", [(["claude-x"], "allow"), (["(unreadable)", "claude-x"], "review")])
def test_an_unreadable_answer_is_reviewed(tmp_path: Path, served: list[str], outcome: str) -> None:
    """The packet the runner signs, with the relay's served list: `(unreadable)` is no model that was asked for."""
    from incli import run_cli

    from gatekeeper.attest.keys import generate, load_signer
    from gatekeeper.attest.packet import sign_packet

    root = Path(__file__).resolve().parent.parent
    shutil.copyfile(root / "fixtures" / "clean-src-change" / "patch.diff", tmp_path / "patch.diff")
    private, _, trusted = generate("runner", tmp_path / "keys", ("gatekeeper-packet",))
    (tmp_path / "allowed_signers").write_text(trusted.line() + "\n")
    made = run_cli(["packet", "patch.diff", "--out", "packet.json", "--model-requested", "claude-x", "--policy",
                    str(root / "policies")], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    packet = json.loads((tmp_path / "packet.json").read_text())
    packet["model"]["served"] = served
    # As the runner records it: the commit it cloned, which the gate names to bind the packet (--base-commit).
    packet["repository"] = {"url": None, "base_ref": None, "base_commit": "a" * 40, "run_branch": None}
    (tmp_path / "packet.json").write_text(json.dumps(packet))
    (tmp_path / "packet.intoto.json").write_text(json.dumps(sign_packet(load_signer(private), packet)))
    gate = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--policy",
                    str(root / "policies"), "--enable", "provenance", "--base-commit", "a" * 40, "--format", "json"],
                   cwd=tmp_path, text=True)
    decision = json.loads(gate.stdout)
    assert decision["outcome"] == outcome, decision["reasons"]


# -- a hostile upstream ------------------------------------------------------------------------------------------

HOSTILE = {
    "101-headers": b"HTTP/1.1 200 OK\r\n" + b"".join(b"x-h%d: v\r\n" % i for i in range(101)) + b"\r\n",
    "header-line-70k": b"HTTP/1.1 200 OK\r\nx-a: " + b"a" * 70_000 + b"\r\n\r\n",
    "status-099": b"HTTP/1.1 099 Nope\r\n\r\n",
    "status-words": b"HTTP/1.1 OK 200\r\n\r\n",
    "not-http": b"SSH-2.0-OpenSSH_9.2\r\n",
    "nothing": b"",
    "continue-flood": b"HTTP/1.1 100 Continue\r\n\r\n" * 2000 + _json_reply({"model": "late-model"}),
    "chunk-size-garbage": b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    "chunk-size-huge": b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n" + b"f" * 40 + b"\r\n{}\r\n",
    "negative-length": b"HTTP/1.1 200 OK\r\ncontent-length: -5\r\ncontent-type: application/json\r\n\r\n"
                       b'{"model":"n"}',
    "length-words": b"HTTP/1.1 200 OK\r\ncontent-length: lots\r\n\r\n{}",
    "short-body": b"HTTP/1.1 200 OK\r\ncontent-length: 1000\r\ncontent-type: application/json\r\n\r\n{\"model\":",
    "gzip-bomb": _json_reply(None, gzip.compress(b"\0" * (32 << 20)), extra=b"content-encoding: gzip\r\n"),
    "deep-json": _json_reply(None, b'{"model":"d","x":' + b"[" * 200_000 + b"]" * 200_000 + b"}"),
    "redirect": b"HTTP/1.1 302 Found\r\nlocation: http://169.254.169.254/\r\ncontent-length: 0\r\n\r\n",
    "set-cookie": b"HTTP/1.1 200 OK\r\nset-cookie: a=b\r\ncontent-type: application/json\r\ncontent-length: 15\r\n\r\n"
                  b'{"model":"c"} ',
    "usage-at-the-cap": _json_reply({"model": "m", "usage": {"input_tokens": 2**53 - 1, "output_tokens": 2**53 - 1}}),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_upstream_never_crashes_the_relay_or_goes_unrecorded(
        relay: Relay, upstream: _Upstream, capfd: pytest.CaptureFixture[str], plain_packet: dict[str, object],
        name: str) -> None:
    upstream.reply = HOSTILE[name]
    answer = _send(relay, _post(b"/anthropic/v1/messages"))
    assert answer.startswith(b"HTTP/1.1 "), (name, answer[:200])
    assert b"location:" not in answer.lower() and b"set-cookie" not in answer.lower()
    records = read_log(relay.log.path)
    assert len(records) == 1 and len(upstream.seen) == 1, records
    assert "Traceback" not in capfd.readouterr().err
    # What the runner makes of the log must still be a packet it can write and sign.
    validate_packet({**plain_packet, "relay": {"apis": ["anthropic"], **summarize(records)}}, "packet")


@pytest.fixture(scope="module")
def plain_packet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    from incli import run_cli

    home = tmp_path_factory.mktemp("rt20-packet")
    root = Path(__file__).resolve().parent.parent
    shutil.copyfile(root / "fixtures" / "clean-src-change" / "patch.diff", home / "patch.diff")
    made = run_cli(["packet", "patch.diff", "--out", "packet.json", "--policy", str(root / "policies")], cwd=home)
    assert made.returncode == 0, made.stderr
    return dict(json.loads((home / "packet.json").read_text()))
