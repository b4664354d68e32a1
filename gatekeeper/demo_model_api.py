"""A fake model API on 127.0.0.1 for `make demo` and the relay's tests: anthropic's messages and openai's
chat completions, JSON and streamed, answering with a model of its choosing and remembering what it was
sent. It serves loopback only and never reaches a real provider."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from gatekeeper.serving import wake_and_shut_down


@dataclass
class FakeModelAPI:
    """Behaviour and memory of the fake: the model it says it served, a delay, a forced status."""

    served: str = "fake-model-served-2"
    reply: str = "hello from the fake"
    delay: float = 0.0
    status: int = 200
    seen: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _anthropic(model: str, text: str) -> dict[str, Any]:
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 11, "output_tokens": 7}}


def _anthropic_stream(model: str, text: str) -> Iterator[tuple[str, dict[str, Any]]]:
    start = _anthropic(model, text) | {"content": [], "usage": {"input_tokens": 11, "output_tokens": 1}}
    yield "message_start", {"type": "message_start", "message": start}
    yield "content_block_start", {"type": "content_block_start", "index": 0,
                                  "content_block": {"type": "text", "text": ""}}
    yield "content_block_delta", {"type": "content_block_delta", "index": 0,
                                  "delta": {"type": "text_delta", "text": text}}
    yield "content_block_stop", {"type": "content_block_stop", "index": 0}
    yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                            "usage": {"output_tokens": 7}}
    yield "message_stop", {"type": "message_stop"}


def _openai(model: str, text: str) -> dict[str, Any]:
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1767225600, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 13, "completion_tokens": 5, "total_tokens": 18}}


def _openai_stream(model: str, text: str) -> Iterator[tuple[str, dict[str, Any]]]:
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1767225600, "model": model}
    yield "", base | {"choices": [{"index": 0, "delta": {"role": "assistant", "content": text},
                                   "finish_reason": None}]}
    yield "", base | {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    yield "", base | {"choices": [], "usage": {"prompt_tokens": 13, "completion_tokens": 5, "total_tokens": 18}}


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-reply (an agent killed while it waits: the runner's resume tests) is no error
        of the fake's; anything else is printed as the standard server prints it."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    fake: FakeModelAPI

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:
        self._answer(None)

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        self._answer(json.loads(body) if body else None)

    def _answer(self, body: dict[str, Any] | None) -> None:
        fake = self.fake
        headers = {name.lower(): value for name, value in self.headers.items()}
        fake.seen.append({"method": self.command, "path": self.path, "headers": headers, "body": body})
        if fake.delay:
            time.sleep(fake.delay)
        if fake.status != 200:
            self._json(fake.status, {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}})
            return
        if self.command == "GET":
            self._json(200, {"data": [{"id": fake.served, "type": "model"}], "object": "list"})
            return
        stream = bool(body and body.get("stream"))
        anthropic = self.path.startswith("/v1/messages")
        if not stream:
            self._json(200, _anthropic(fake.served, fake.reply) if anthropic else _openai(fake.served, fake.reply))
            return
        events = (_anthropic_stream if anthropic else _openai_stream)(fake.served, fake.reply)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        for name, data in events:
            prefix = f"event: {name}\n" if name else ""
            self.wfile.write(f"{prefix}data: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()
        if not anthropic:
            self.wfile.write(b"data: [DONE]\n\n")
        self.close_connection = True

    def _json(self, status: int, document: dict[str, Any]) -> None:
        data = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def fake_model_api(**behaviour: Any) -> Iterator[FakeModelAPI]:
    """A running fake on 127.0.0.1 (a free port) for the duration of the block."""
    fake = FakeModelAPI(**behaviour)
    handler = type("Handler", (_Handler,), {"fake": fake})
    server = _Server(("127.0.0.1", 0), handler)
    fake.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        wake_and_shut_down(server)
        server.server_close()
