"""The model relay: the generator's only way out of the sandbox, and a record of every model call.

It runs in the runner (outside the sandbox) on a unix socket that the sandbox sees; inside, the
sandbox's first process bridges http://127.0.0.1:PORT to that socket (relay_bridge.py). Each request
is checked against the allowlist of its API flavour, gets the real key added here (the generator only
ever holds a placeholder), is forwarded to the named upstream, and is appended to the relay log with
the model asked for and the model that answered. There is no CONNECT and no absolute-form request:
the relay is not a proxy, so it sees each request and response whole.
"""

from __future__ import annotations

import hmac
import http.client
import json
import os
import secrets
import socket
import socketserver
import ssl
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from gatekeeper.errors import RunError
from gatekeeper.runner.relay_api import (
    FORWARDED_REQUEST_HEADERS,
    FORWARDED_RESPONSE_HEADERS,
    CallFacts,
    Upstream,
    key_headers,
    request_problem,
    route,
)
from gatekeeper.runner.relay_bridge import reachable_path
from gatekeeper.runner.relaylog import Call, Calls, RelayLog, closed, opened, read_log
from gatekeeper.serving import wake_and_shut_down


@dataclass(frozen=True, slots=True)
class RelayLimits:
    """Caps per run: request and response bytes, requests per minute, and total tokens (None: no cap)."""

    max_request_bytes: int = 8 << 20
    max_response_bytes: int = 64 << 20
    max_requests_per_minute: int = 600
    max_tokens: int | None = None
    upstream_timeout: float = 600.0


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    relay: Relay


class Relay:
    """A running relay: `Relay(socket, log, upstreams, keys).start()`, then `stop()`."""

    def __init__(self, socket_path: Path, log_path: Path, upstreams: Mapping[str, Upstream],
                 keys: Mapping[str, str], limits: RelayLimits | None = None) -> None:
        self.socket_path = socket_path
        self.upstreams = dict(upstreams)
        self.keys = dict(keys)
        self.limits = limits or RelayLimits()
        self.log = RelayLog(log_path)
        self.calls = Calls(self.log)
        self._recent: deque[float] = deque()
        self._tokens = sum(int(r.get("input_tokens") or 0) + int(r.get("output_tokens") or 0)
                           for r in read_log(log_path))  # a resumed run keeps its budget spent
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._tls: ssl.SSLContext | None = None  # made for the first https upstream (loading the CAs costs ~50 ms)
        # What a connection must open with: the socket is 0666 and in sight of other runs' sandboxes (one started
        # before this socket existed is not covered) and of every host process; only this run's shim learns it.
        self.secret = secrets.token_hex(32).encode()

    def start(self) -> Relay:
        if self.socket_path.exists() or self.socket_path.is_symlink():
            self.socket_path.unlink()
        opened(self.log.path)
        server = _Server(reachable_path(str(self.socket_path)), _Handler, bind_and_activate=False)
        server.relay = self
        old = os.umask(0o077)
        try:
            server.server_bind()
        finally:
            os.umask(old)
        # The sandbox's uid may differ from ours (a mapped root): it must be able to connect.
        os.chmod(self.socket_path, 0o666)
        server.server_activate()
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            wake_and_shut_down(self._server)
            self._server.server_close()
            self._server = None
        self.calls.cut_all()  # the sandbox has ended: a call still under way is cut off, and recorded
        try:
            self.log.close()
        except OSError as exc:
            # A record may be lost (a full disk): the run stops; resumed, its packet serves UNRECORDED (relaylog).
            raise RunError(f"the model relay could not write its log whole ({exc.strerror or exc})",
                           where=str(self.log.path), hint="free space there and resume the run: its packet will "
                           "then name an unrecorded model") from None
        closed(self.log.path, whole=not self.log.failed)
        try:
            self.socket_path.unlink()
        except FileNotFoundError:
            pass

    def key_pipe(self) -> int:
        """A pipe's reading end holding the secret (then its end): for the sandbox's first process to inherit and
        read before the generator starts (relay_bridge.read_secret); whoever takes it closes it."""
        read, write = os.pipe()
        os.write(write, self.secret + b"\n")
        os.close(write)
        return read

    def admit(self) -> str | None:
        """None when one more request fits the rate and token caps, else why not."""
        with self._lock:
            now = time.monotonic()
            while self._recent and now - self._recent[0] > 60:
                self._recent.popleft()
            if len(self._recent) >= self.limits.max_requests_per_minute:
                return f"rate limit: more than {self.limits.max_requests_per_minute} requests a minute"
            if self.limits.max_tokens is not None and self._tokens >= self.limits.max_tokens:
                return f"token budget of the run spent ({self._tokens} of {self.limits.max_tokens})"
            self._recent.append(now)
            return None

    def spend(self, tokens: int) -> None:
        with self._lock:
            self._tokens += tokens

    def connect(self, upstream: Upstream) -> http.client.HTTPConnection:
        timeout = self.limits.upstream_timeout
        if upstream.scheme == "https":
            if self._tls is None:
                self._tls = ssl.create_default_context()
            return http.client.HTTPSConnection(upstream.host, upstream.port, timeout=timeout, context=self._tls)
        return http.client.HTTPConnection(upstream.host, upstream.port, timeout=timeout)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """The relay log is the record; nothing goes to stderr."""

    def handle(self) -> None:
        # A connection that does not open with the secret of this run's sandbox gets nothing, not even a record in
        # this run's log: it is not this run's generator (runner 37: another run's generator, another user).
        expected = self.server.relay.secret + b"\n"
        try:
            opening = self.rfile.readline(len(expected) + 1)
        except (ConnectionError, TimeoutError):
            return
        if hmac.compare_digest(opening, expected):
            super().handle()

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):
            self.close_connection = True

    def do_GET(self) -> None:
        self._relay()

    def do_POST(self) -> None:
        self._relay()

    def do_PUT(self) -> None:
        self._relay()

    def do_DELETE(self) -> None:
        self._relay()

    def do_PATCH(self) -> None:
        self._relay()

    def do_HEAD(self) -> None:
        self._relay()

    def do_OPTIONS(self) -> None:
        self._relay()

    def do_CONNECT(self) -> None:
        self._refuse(405, "CONNECT is refused: the relay is no tunnel", host=self.path)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's answer to what is not HTTP/1.x it can serve (a TLS hello, HTTP/2, an unknown
        method): recorded like every other refusal."""
        self._log({"method": str(getattr(self, "command", None) or "")[:20] or None,
                   "path": str(getattr(self, "path", "") or "").partition("?")[0][:300] or None, "status": code,
                   "refused": f"not a request the relay serves: {message or code}"[:300], "host": None})
        super().send_error(code, message, explain)

    def _relay(self) -> None:
        relay = self.server.relay
        started = time.monotonic()
        upgrade = self.headers.get("upgrade")
        if upgrade is not None or "upgrade" in (self.headers.get("connection") or "").lower():
            # A WebSocket (the realtime APIs) would be a tunnel the relay cannot read: refused, not relayed.
            self._refuse(403, f"protocol upgrade refused ({(upgrade or 'unnamed')[:40]}): the relay passes whole "
                         "HTTP requests only, no WebSocket or realtime API", host=self.headers.get("host"))
            return
        found = route(self.command, self.path)
        if isinstance(found, str):
            host = self.path.split("/")[2] if self.path.startswith(("http://", "https://")) else None
            self._refuse(403, found, host=host or self.headers.get("host"))
            return
        malformed = request_problem(self.path, self.headers)
        if malformed is not None:
            self._refuse(400, f"not relayed: {malformed}", host=self.headers.get("host"))
            return
        flavour, api_path = found
        upstream = relay.upstreams.get(flavour)
        key = relay.keys.get(flavour)
        if upstream is None:
            self._refuse(403, f"the {flavour} API is not enabled for this run", host=self.headers.get("host"))
            return
        if self.headers.get("transfer-encoding"):
            self._refuse(411, "a request body must have a Content-Length")
            return
        try:
            length = int(self.headers.get("content-length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= relay.limits.max_request_bytes:
            self._refuse(413, f"request body over {relay.limits.max_request_bytes} bytes")
            return
        body = self.rfile.read(length)
        why = relay.admit()
        if why is not None:
            self._refuse(429, why)
            return
        facts = CallFacts()
        facts.read_request(body)
        headers = {k: v for k, v in self.headers.items() if k.lower() in FORWARDED_REQUEST_HEADERS}
        if key:
            headers.update(key_headers(flavour, key))
        headers["host"] = upstream.host if upstream.port in (80, 443) else f"{upstream.host}:{upstream.port}"
        record: dict[str, Any] = {"api": flavour, "method": self.command, "path": api_path.partition("?")[0],
                                  "upstream": f"{upstream.host}:{upstream.port}", "bytes_in": length}
        call = relay.calls.begin(Call(record, partial(_finished, facts=facts, started=started)))
        failed_early = False
        try:
            self._forward(relay, upstream, api_path, body, headers, facts, record, call)
        except (OSError, http.client.HTTPException, ValueError) as exc:  # ValueError: what http.client cannot send
            record.update(status=502, error=f"upstream: {type(exc).__name__}: {exc}"[:300])
            failed_early = not self.wfile.closed and not record.get("started")
            self.close_connection = True
            if record.get("stream"):
                facts.read_stream(b"", end=True)  # an event the cut left open may have named a model to the client
        unfinished = record.get("unfinished", False) and not call.cut
        if call.cut:
            record["error"] = "the run ended during the call: cut off"
        relay.spend(facts.tokens)
        if not relay.calls.end(call, _finished(record, facts=facts, started=started)):
            return  # recorded when the relay stopped
        # Every reply ends only once its record is on disk: a client (or an auditor's script) that has its
        # answer reads the log with the call in it.
        if failed_early:
            self._reply(502, {"type": "error", "error": {"type": "relay_error", "message": record["error"]}})
        elif unfinished:
            try:
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except OSError:
                self.close_connection = True

    def _forward(self, relay: Relay, upstream: Upstream, api_path: str, body: bytes, headers: dict[str, str],
                 facts: CallFacts, record: dict[str, Any], call: Call) -> None:
        """Pass the call on and its reply back, all but the last chunk; `record` learns as it goes (once
        `started`, the reply's status line is out and an error can only cut the reply off)."""
        connection = relay.connect(upstream)
        try:
            connection.connect()
            # Known before the request goes: a call stuck sending (an upstream that does not read) is cut too.
            relay.calls.connected(call, connection.sock)
            connection.request(self.command, upstream.base_path + api_path, body=body or None, headers=headers)
            response = connection.getresponse()
            self.send_response(response.status)
            for name, value in response.getheaders():
                if name.lower() in FORWARDED_RESPONSE_HEADERS:
                    self.send_header(name, value)
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            streamed = "text/event-stream" in (response.getheader("content-type") or "")
            total, kept, cut = 0, bytearray(), False
            record.update(status=response.status, started=True, stream=streamed, bytes_out=0)
            while True:
                chunk = response.read1(1 << 16) if self.command != "HEAD" else b""
                if not chunk:
                    break
                total += len(chunk)
                if total > relay.limits.max_response_bytes:
                    record.update(error=f"response over {relay.limits.max_response_bytes} bytes: cut off")
                    self.close_connection = cut = True
                    break
                if streamed:
                    facts.read_stream(chunk)
                elif len(kept) < 16 << 20:
                    kept += chunk
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                record["bytes_out"] = total
            if response.length and not cut:
                # The upstream closed before its Content-Length (http.client's read1 just stops): a cut reply
                # must reach the client cut, never as a whole one.
                raise http.client.IncompleteRead(b"", response.length)
            if streamed:
                facts.read_stream(b"", end=True)
            else:  # an error's body too: a model it names was read by the client all the same (runner 38)
                facts.read_response(bytes(kept))
            self.wfile.flush()
            # Whole but for its last chunk, even when the client asked to close after it (`Connection: close`,
            # urllib's way): that closes the connection after the reply, it does not cut the reply off.
            record.update(unfinished=not cut)
        finally:
            connection.close()

    def _refuse(self, status: int, why: str, *, host: str | None = None) -> None:
        self._log({"method": self.command, "path": self.path.partition("?")[0][:300], "status": status,
                   "refused": why, "host": _hostname(host)})
        # The body may still be on the wire: answer, then close.
        self.close_connection = True
        self._reply(status, {"type": "error", "error": {"type": "gatekeeper_relay_refused", "message": why}})

    def _reply(self, status: int, document: Mapping[str, Any]) -> None:
        data = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def _log(self, record: dict[str, Any]) -> None:
        record["time"] = datetime.now(UTC).isoformat(timespec="milliseconds")
        try:
            self.server.relay.log.append(record)
        except OSError:
            pass  # kept in the log's buffer: stop() writes it, or stops the run


def _finished(record: dict[str, Any], *, facts: CallFacts, started: float) -> dict[str, Any]:
    """A call's `record` made whole: what it said of its models and tokens, its latency, the time."""
    record.pop("started", None)
    record.pop("unfinished", None)
    record.update(requested=facts.requested, served=facts.served, models=list(facts.named),
                  input_tokens=facts.input_tokens, output_tokens=facts.output_tokens,
                  latency_ms=round((time.monotonic() - started) * 1000, 1),
                  time=datetime.now(UTC).isoformat(timespec="milliseconds"))
    return record


def _hostname(authority: str | None) -> str | None:
    """The host of `host[:port]` (a Host header or CONNECT target), lower-cased, without the port."""
    if not authority:
        return None
    try:
        host = urlsplit("//" + authority.strip()[:300]).hostname
    except ValueError:
        host = None
    return host or authority.strip()[:200]


def socket_connects(path: Path) -> bool:
    """True when something accepts connections on the unix socket at `path` (a health check)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True
