"""Runner 38: the relay's record of a reply against what the generator's client read from the same bytes.

The relay forwards every byte it reads and reads the model's name from those bytes, so the two can differ only where
they are *parsed* differently. Found on integ 00d44cb (each test below failed there):
- A server-sent event whose JSON spans two `data:` lines (the SSE rule: an event's data lines are joined with a
  newline) named its model to the SDK while the relay, reading line by line, read nothing of it; an earlier line the
  SDK skips (an event without a type) named a decoy: the packet said `served: [decoy]`, the generator read the other.
- An event (or a reply) whose JSON the relay refuses (a key twice: readers keep different ones) named nothing in the
  record; the SDK reads it. In a stream with a readable decoy event beside it, `served` named the decoy alone.
- A model answer with a 2xx status other than 200 (201, 203) that names no model the relay can read: the SDK reads
  it as a success, the record named nothing and `served` gained no `(unreadable)` (only 200 counted).
Held (kept as tests): a model name only in a chunked reply's trailer never reaches the client (the relay re-frames);
a CRLF split across two reads of the stream is one line end.
"""

from __future__ import annotations

import json
import os
import random
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import BACKENDS, gk_in

from gatekeeper.runner.relay import Relay
from gatekeeper.runner.relay_api import UNREADABLE, CallFacts, parse_model_api
from gatekeeper.runner.relay_bridge import PLACEHOLDER_KEY, start_bridge
from gatekeeper.runner.relaylog import read_log, summarize


@contextmanager
def raw_upstream(replies: list[bytes]) -> Iterator[int]:
    """A loopback model API that answers its n-th connection with `replies[n]` (raw bytes), then closes it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer() -> None:
        for reply in replies:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                seen = b""
                while b"\r\n\r\n" not in seen:
                    seen += conn.recv(65536) or b"\r\n\r\n"
                head, _, body = seen.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(body) < length:  # all of it: unread bytes would make the close a reset
                    body += conn.recv(65536) or b"x" * length
                conn.sendall(reply)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        thread.join(timeout=10)


@contextmanager
def relayed(tmp_path: Path, replies: list[bytes]) -> Iterator[tuple[Relay, int]]:
    """A real relay (and bridge) in front of `raw_upstream(replies)`: (relay, bridge port)."""
    with raw_upstream(replies) as port:
        upstream = parse_model_api(f"anthropic=http://127.0.0.1:{port}")
        relay = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", {"anthropic": upstream},
                      {"anthropic": "sk-real"}).start()
        try:
            yield relay, start_bridge(str(tmp_path / "relay.sock"), relay.secret)
        finally:
            relay.stop()


def _reply(status: bytes, content_type: bytes, body: bytes) -> bytes:
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: " + content_type + b"\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


def _message(model: str) -> dict[str, object]:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 1}}


def _stream(*events: bytes) -> bytes:
    return _reply(b"200 OK", b"text/event-stream", b"".join(events))


DECOY = b'data: {"type": "ping", "message": {"model": "decoy-model"}}\n\n'  # no `event:`: the SDK skips it
TEXT = (b'event: content_block_start\ndata: {"type": "content_block_start", "index": 0, "content_block": '
        b'{"type": "text", "text": ""}}\n\nevent: content_block_delta\ndata: {"type": "content_block_delta", '
        b'"index": 0, "delta": {"type": "text_delta", "text": "the hidden answer"}}\n\n'
        b'event: content_block_stop\ndata: {"type": "content_block_stop", "index": 0}\n\n'
        b'event: message_stop\ndata: {"type": "message_stop"}\n\n')


def _split_start(model: str) -> bytes:
    """message_start with its JSON over two data lines, cut right before the model's name."""
    text = json.dumps({"type": "message_start", "message": _message(model)})
    cut = text.index('"model"') + len('"model":')
    return f"event: message_start\ndata: {text[:cut]}\ndata: {text[cut:]}\n\n".encode()


def _twice_start(model: str) -> bytes:
    """message_start whose `message` key is there twice: json (the SDK) keeps the last."""
    first = json.dumps(_message("decoy-model"))
    second = json.dumps(_message(model))
    return f'event: message_start\ndata: {{"type": "message_start", "message": {first}, "message": {second}}}\n\n' \
        .encode()


def _sdk_stream(port: int) -> tuple[str, str]:
    """What the anthropic SDK read of a streamed call through the bridge: (model, text)."""
    import anthropic

    client = anthropic.Anthropic(base_url=f"http://127.0.0.1:{port}/anthropic", api_key=PLACEHOLDER_KEY,
                                 max_retries=0, timeout=10)
    model, text = "", ""
    for event in client.messages.create(model="asked-model", max_tokens=9, stream=True,
                                        messages=[{"role": "user", "content": "hi"}]):
        if event.type == "message_start":
            model = event.message.model
        elif event.type == "content_block_delta" and event.delta.type == "text_delta":
            text += event.delta.text
    return model, text


@pytest.mark.parametrize("start", [_split_start, _twice_start], ids=["data-lines", "key-twice"])
def test_the_model_the_sdk_read_in_a_stream_is_served(tmp_path: Path, start: object) -> None:
    with relayed(tmp_path, [_stream(DECOY, start("hidden-model"), TEXT)]) as (relay, port):  # type: ignore[operator]
        model, text = _sdk_stream(port)
    assert (model, text) == ("hidden-model", "the hidden answer")  # the generator read the hidden model's answer
    served = summarize(read_log(relay.log.path))["served"]
    # The record names the model the SDK read, or says it could not read one: never the decoy alone.
    assert "hidden-model" in served or UNREADABLE in served, served


def test_a_split_event_names_its_model(tmp_path: Path) -> None:
    with relayed(tmp_path, [_stream(_split_start("hidden-model"), TEXT)]) as (relay, port):
        assert _sdk_stream(port)[0] == "hidden-model"
    (record,) = read_log(relay.log.path)
    assert record["models"] == ["hidden-model"] and record["input_tokens"] == 3


@pytest.mark.parametrize("status", [b"201 Created", b"203 Non-Authoritative Information", b"200 OK"])
def test_a_2xx_answer_naming_no_readable_model_is_unreadable(tmp_path: Path, status: bytes) -> None:
    import anthropic

    body = json.dumps(_message("decoy-model"))[:-1] + ', "model": "hidden-model"}'  # a key twice
    with relayed(tmp_path, [_reply(status, b"application/json", body.encode())]) as (relay, port):
        client = anthropic.Anthropic(base_url=f"http://127.0.0.1:{port}/anthropic", api_key=PLACEHOLDER_KEY,
                                     max_retries=0, timeout=10)
        answer = client.messages.create(model="asked-model", max_tokens=9,
                                        messages=[{"role": "user", "content": "hi"}])
    assert answer.model == "hidden-model"  # a success to the SDK
    assert summarize(read_log(relay.log.path))["served"] == [UNREADABLE]


def test_an_error_reply_is_not_an_unreadable_model(tmp_path: Path) -> None:
    """Errors stay what they were: a 4xx/5xx naming no model adds nothing to `served`."""
    error = b'{"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}'
    with relayed(tmp_path, [_reply(b"529 Overloaded", b"application/json", error)]) as (relay, port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n"
                         b"connection: close\r\n\r\n{}")
            while conn.recv(65536):
                pass
    assert summarize(read_log(relay.log.path))["served"] == []


def test_a_model_only_in_a_trailer_never_reaches_the_client(tmp_path: Path) -> None:
    body = json.dumps(_message("named-model")).encode()
    reply = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n"
             b"trailer: x-model\r\n\r\n" + f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n"
             b"x-model: trailer-model\r\n\r\n")
    with relayed(tmp_path, [reply]) as (relay, port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n"
                         b"connection: close\r\n\r\n{}")
            got = b""
            while chunk := conn.recv(65536):
                got += chunk
    assert b"named-model" in got and b"trailer-model" not in got
    assert summarize(read_log(relay.log.path))["served"] == ["named-model"]


def test_a_crlf_split_across_reads_is_one_line_end() -> None:
    text = json.dumps({"type": "message_start", "message": _message("m1")}).encode()
    cut = text.index(b'"model"') + 8
    facts = CallFacts()
    for part in (b"event: message_start\r", b"\ndata: " + text[:cut] + b"\r", b"\ndata: " + text[cut:] + b"\r",
                 b"\n\r", b"\n"):
        facts.read_stream(part)
    facts.read_stream(b"", end=True)
    assert facts.named == ["m1"] and facts.input_tokens == 3


def test_an_event_a_broken_stream_left_open_still_names_its_model(tmp_path: Path) -> None:
    event = _split_start("hidden-model")[:-1]  # its data lines whole, the blank line that ends it not yet sent
    reply = (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
             + f"{len(event):x}\r\n".encode() + event + b"\r\nff\r\n: partial")
    with relayed(tmp_path, [reply]) as (relay, port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}")
            got = b""
            while chunk := conn.recv(65536):
                got += chunk
    assert b"hidden-model" in got  # a raw client read the name
    (record,) = read_log(relay.log.path)
    assert record["status"] == 502 and record["models"] == ["hidden-model"]


# End to end: a generator in each sandbox reads the stream raw through the relay; the signed packet's `served`.
GENERATOR = r"""
import json, os, urllib.request
base = os.environ["ANTHROPIC_BASE_URL"]
body = json.dumps({"model": "asked-model", "max_tokens": 9, "stream": True,
                   "messages": [{"role": "user", "content": "hi"}]}).encode()
request = urllib.request.Request(base + "/v1/messages", data=body, headers={"content-type": "application/json"})
with urllib.request.urlopen(request, timeout=20) as answer:
    open("answer.txt", "wb").write(answer.read())
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_signed_packet_serves_the_model_a_sandboxed_generator_read(tmp_path: Path, backend: str) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    (tmp_path / "gen.py").write_text(GENERATOR)
    with raw_upstream([_stream(DECOY, _split_start("hidden-model"), TEXT)]) as port:
        done = gk_in("run", "--repo", str(origin.root), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                     "--model-api", f"anthropic=http://127.0.0.1:{port}", "--model-key", "anthropic=RELAY_KEY",
                     "--format", "json", "--", sys.executable, str(tmp_path / "gen.py"),
                     env={**os.environ, "RELAY_KEY": "k-123"})
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    answer = (Path(summary["run_dir"]) / "workspace" / "answer.txt").read_bytes()
    assert b"hidden-model" in answer and b"the hidden answer" in answer
    packet = json.loads(Path(summary["packet"]).read_text())
    assert packet["model"]["served"] == packet["relay"]["served"] == ["decoy-model", "hidden-model"]


def test_an_event_after_a_byte_order_mark_names_its_model(tmp_path: Path) -> None:
    """An SSE client drops a byte order mark that opens the stream (the spec; the SDKs do not, so they skip the event):
    a raw reader reads the model, and so must the record."""
    opening = b"\xef\xbb\xbf" + _split_start("hidden-model").removeprefix(b"event: message_start\n")  # data first
    with relayed(tmp_path, [_stream(opening, DECOY, TEXT)]) as (relay, port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n"
                         b"connection: close\r\n\r\n{}")
            got = b""
            while chunk := conn.recv(65536):
                got += chunk
    assert b"hidden-model" in got
    assert summarize(read_log(relay.log.path))["served"] == ["decoy-model", "hidden-model"]


def _exchange(port: int, requests: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(requests)
        got = b""
        while chunk := conn.recv(65536):
            got += chunk
    return got


CALL = b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}"
LAST_CALL = b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}"


def test_pipelined_calls_are_each_recorded_with_their_model(tmp_path: Path) -> None:
    """Held: two calls sent at once on one connection (pipelining, keep-alive) are two records, each naming its own
    reply's model, and the client reads the two replies in order."""
    replies = [_reply(b"200 OK", b"application/json", json.dumps(_message(name)).encode())
               for name in ("first-model", "second-model")]
    with relayed(tmp_path, replies) as (relay, port):
        got = _exchange(port, CALL + LAST_CALL)
    assert got.count(b"HTTP/1.1 200") == 2 and got.index(b"first-model") < got.index(b"second-model")
    assert [r["models"] for r in read_log(relay.log.path)] == [["first-model"], ["second-model"]]


@pytest.mark.parametrize("reply", [
    b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n"
    + json.dumps(_message("hidden-model")).encode(),
    b"HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n" + _reply(b"200 OK", b"application/json",
                                                              json.dumps(_message("hidden-model")).encode()),
], ids=["101", "103-then-200"])
def test_an_informational_reply_passes_nothing_after_it(tmp_path: Path, reply: bytes) -> None:
    """Held: what an upstream sends after a 101 or a 1xx it calls final never reaches the client (the relay reads one
    response and re-frames it), so a model named there is neither read nor recorded."""
    with relayed(tmp_path, [reply]) as (relay, port):
        got = _exchange(port, LAST_CALL)
    assert b"hidden-model" not in got
    assert summarize(read_log(relay.log.path))["served"] == []


def test_a_reply_with_two_framings_is_read_as_forwarded(tmp_path: Path) -> None:
    """Held: chunked and a Content-Length: the relay reads the chunks (RFC 9112) and forwards what it read, so the
    record names the model in what the client got, not in the bytes after the Content-Length's end."""
    body = json.dumps(_message("chunked-model")).encode()
    reply = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5\r\ntransfer-encoding: chunked"
             b"\r\n\r\n" + f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n")
    with relayed(tmp_path, [reply]) as (relay, port):
        got = _exchange(port, LAST_CALL)
    assert b"chunked-model" in got
    assert summarize(read_log(relay.log.path))["served"] == ["chunked-model"]


def _chunk(model: str, text: str) -> str:
    return json.dumps({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": model,
                       "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]})


def test_openai_a_chunk_over_two_data_lines_names_its_model(tmp_path: Path) -> None:
    import openai

    split = _chunk("hidden-model", "the hidden answer")
    cut = split.index('"model"') + len('"model":')
    stream = (f"data: {_chunk('decoy-model', '')}\n\ndata: {split[:cut]}\ndata: {split[cut:]}\n\n"
              "data: [DONE]\n\n").encode()
    with raw_upstream([_stream(stream)]) as upstream_port:
        upstream = parse_model_api(f"openai=http://127.0.0.1:{upstream_port}")
        relay = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", {"openai": upstream},
                      {"openai": "sk-real"}).start()
        try:
            port = start_bridge(str(tmp_path / "relay.sock"), relay.secret)
            client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/openai/v1", api_key=PLACEHOLDER_KEY,
                                   max_retries=0, timeout=10)
            chunks = list(client.chat.completions.create(model="asked-model", stream=True,
                                                         messages=[{"role": "user", "content": "hi"}]))
        finally:
            relay.stop()
    assert [(c.model, c.choices[0].delta.content) for c in chunks][-1] == ("hidden-model", "the hidden answer")
    assert summarize(read_log(relay.log.path))["served"] == ["decoy-model", "hidden-model"]


def test_a_compressed_answer_is_unreadable_and_reaches_the_client_unmarked(tmp_path: Path) -> None:
    """Held: the relay asks for no encoding and forwards no Content-Encoding, so a compressed answer reaches the client
    as bytes it must guess at; its record serves `(unreadable)`."""
    import gzip

    body = gzip.compress(json.dumps(_message("hidden-model")).encode())
    reply = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: "
             + str(len(body)).encode() + b"\r\n\r\n" + body)
    with relayed(tmp_path, [reply]) as (relay, port):
        got = _exchange(port, LAST_CALL)
    assert b"content-encoding" not in got.partition(b"\r\n\r\n")[0].lower()
    assert summarize(read_log(relay.log.path))["served"] == [UNREADABLE]


def test_the_record_names_every_model_the_sdk_decoder_reads_from_random_streams() -> None:
    """Differential: 600 seeded streams (events over 1-3 data lines, `data:` with and without its space, CR, LF and
    CRLF line ends, comments, random read borders) through the anthropic SDK's SSE decoder and the relay's reader:
    every model the SDK read is named, and no (unreadable) where the SDK read every event (integ: 6,674 of 20,000
    streams missed a model)."""
    from anthropic._streaming import SSEDecoder

    rng = random.Random(38)
    for _ in range(600):
        events = []
        for n in range(rng.randint(1, 4)):
            doc = json.dumps({"type": "x", "message": {"model": f"m{n}"}})
            cuts = sorted(rng.sample(range(1, len(doc)), rng.randint(0, 2)))
            ends = [rng.choice(["\n", "\r", "\r\n"]) for _ in range(4)]
            event = ("event: x" + ends[0] if rng.random() < 0.5 else "") + "".join(
                rng.choice(["data: ", "data:"]) + doc[a:b] + ends[1]
                for a, b in zip([0, *cuts], [*cuts, len(doc)], strict=True))
            events.append(event + (": note" + ends[2] if rng.random() < 0.2 else "") + ends[3])
        data = "".join(events).encode() + b"\n\n"
        borders = sorted(rng.sample(range(1, len(data)), rng.randint(0, 6)))
        chunks = [data[a:b] for a, b in zip([0, *borders], [*borders, len(data)], strict=True)]
        read, failed = set(), False
        for sse in SSEDecoder().iter_bytes(iter(chunks)):
            try:
                read.add(sse.json()["message"]["model"])
            except ValueError:
                failed = True  # two events run together ("\r" then "\n" is one line end): the SDK cannot read it
        facts = CallFacts()
        for chunk in chunks:
            facts.read_stream(chunk)
        facts.read_stream(b"", end=True)
        assert read <= set(facts.named) or UNREADABLE in facts.named, (data, chunks)
        assert failed or UNREADABLE not in facts.named, (data, chunks)


def test_a_holder_twice_with_one_model_is_unreadable(tmp_path: Path) -> None:
    """`message` twice, the model in the first only: a reader that keeps the first key (some JSON parsers do) reads
    hidden-model, Python's (the last) reads none. Beside a decoy, integ's record served the decoy alone."""
    message = json.dumps(_message("hidden-model"))
    start = f'event: message_start\ndata: {{"type": "message_start", "message": {message}, "message": {{}}}}\n\n'
    first_wins = json.loads(start.split("data: ")[1], object_pairs_hook=lambda pairs: dict(reversed(pairs)))
    assert first_wins["message"]["model"] == "hidden-model"
    with relayed(tmp_path, [_stream(DECOY, start.encode(), TEXT)]) as (relay, port):
        assert b"hidden-model" in _exchange(port, LAST_CALL)
    assert summarize(read_log(relay.log.path))["served"] == ["(unreadable)", "decoy-model"]


def test_a_call_stuck_sending_to_its_upstream_is_cut_when_the_run_ends(tmp_path: Path) -> None:
    """An upstream that accepts but does not read: the relay's handler sat in sending the request, its upstream socket
    not yet known to the relay, so stopping the relay could not cut it: stop() waited its whole 5 s, wrote the record
    itself, and the call went on after the run (the request, with the run's key, could still reach the upstream whole
    once it read). Now the socket is known once connected: cut at once, recorded by its handler."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True).start()
    upstream = parse_model_api(f"anthropic=http://127.0.0.1:{server.getsockname()[1]}")
    relay = Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", {"anthropic": upstream},
                  {"anthropic": "sk-real"}).start()
    body = b'{"model": "asked-model", "pad": "' + b"x" * (8 << 19) + b'"}'
    try:
        port = start_bridge(str(tmp_path / "relay.sock"), relay.secret)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"POST /anthropic/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: "
                           + str(len(body)).encode() + b"\r\n\r\n" + body)
            until = time.monotonic() + 10
            while not accepted and time.monotonic() < until:
                time.sleep(0.01)
            time.sleep(0.2)  # the relay fills the socket's buffers and blocks
        started = time.monotonic()
        relay.stop()
        took = time.monotonic() - started
        (conn,) = accepted
        conn.settimeout(5)
        received = 0
        try:
            while part := conn.recv(1 << 20):
                received += len(part)
        except OSError:
            pass
        conn.close()
    finally:
        server.close()
    (record,) = read_log(tmp_path / "relay.jsonl")
    assert record["requested"] == "asked-model" and "cut off" in record["error"]
    assert took < 2.5, took
    assert received < len(body)  # the upstream never got the whole request


def test_a_model_named_in_an_error_reply_is_served(tmp_path: Path) -> None:
    """A reply with a 4xx/5xx status whose body is a model's answer (a hostile or broken upstream): a raw generator
    reads it. The record names the model its body names, as for a stream."""
    body = json.dumps(_message("hidden-model")).encode()
    with relayed(tmp_path, [_reply(b"400 Bad Request", b"application/json", body)]) as (relay, port):
        assert b"hidden-model" in _exchange(port, LAST_CALL)
    assert summarize(read_log(relay.log.path))["served"] == ["hidden-model"]
