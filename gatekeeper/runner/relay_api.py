"""What the model relay lets through: API flavours, their upstreams, allowed paths, and what a call says.

Pure functions and data, no sockets: the relay server (relay.py) asks these which requests pass and
what model and token usage a request or a response names.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.message import Message
from urllib.parse import urlsplit

from gatekeeper.bounded import load_json
from gatekeeper.errors import LimitError, UsageError

# Per flavour: the upstream used when --model-api names none, the header that carries the key, and the
# (method, path) pairs a generator may call. Paths are matched whole, after the flavour's prefix.
DEFAULT_UPSTREAMS: Mapping[str, str] = {
    "anthropic": "https://api.anthropic.com",
    "openai": "https://api.openai.com",
}
_ALLOWED: Mapping[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    "anthropic": (
        ("POST", re.compile(r"/v1/messages")),
        ("POST", re.compile(r"/v1/messages/count_tokens")),
        ("GET", re.compile(r"/v1/models(/(?!\.\.?$)[A-Za-z0-9._:@-]+)?")),
    ),
    "openai": (
        ("POST", re.compile(r"/v1/chat/completions")),
        ("POST", re.compile(r"/v1/completions")),
        ("POST", re.compile(r"/v1/responses")),
        ("GET", re.compile(r"/v1/models(/(?!\.\.?$)[A-Za-z0-9._:@-]+)?")),
    ),
}
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # a header name (RFC 9110 token)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # what no field value or target may hold (HTAB may)
# Where each flavour's SDK finds the relay inside the sandbox, relative to http://127.0.0.1:PORT
# (relay_bridge.client_environment sets the variables; tests hold the two tables equal).
CLIENT_BASES: Mapping[str, str] = {"anthropic": "/anthropic", "openai": "/openai/v1"}
CLIENT_VARIABLES: Mapping[str, tuple[str, str]] = {
    "anthropic": ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
    "openai": ("OPENAI_BASE_URL", "OPENAI_API_KEY"),
}
# Request headers passed upstream; everything else (auth, cookies, proxies, hop-by-hop) stays behind.
FORWARDED_REQUEST_HEADERS = frozenset({
    "accept", "content-type", "user-agent", "anthropic-version", "anthropic-beta",
    "openai-beta", "idempotency-key", "x-stainless-arch", "x-stainless-lang", "x-stainless-os",
    "x-stainless-package-version", "x-stainless-runtime", "x-stainless-runtime-version",
    "x-stainless-retry-count", "x-stainless-timeout", "x-stainless-async", "x-stainless-read-timeout",
})
FORWARDED_RESPONSE_HEADERS = frozenset({
    "content-type", "request-id", "x-request-id", "retry-after", "openai-model",
    "openai-processing-ms", "openai-version", "anthropic-ratelimit-requests-remaining",
    "anthropic-ratelimit-tokens-remaining", "x-ratelimit-remaining-requests", "x-ratelimit-remaining-tokens",
})


@dataclass(frozen=True, slots=True)
class Upstream:
    """One named model API: its flavour and the origin requests are forwarded to."""

    flavour: str
    scheme: str
    host: str
    port: int
    base_path: str  # a path prefix of the upstream ('' for the API's own root)

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}{self.base_path}"


def parse_model_api(text: str) -> Upstream:
    """`NAME` or `NAME=URL` (--model-api) → Upstream; UsageError for an unknown flavour or an unsafe URL."""
    name, sep, url = text.partition("=")
    name = name.strip()
    if name not in DEFAULT_UPSTREAMS:
        raise UsageError(f"unknown model API {name!r}", where="--model-api",
                         hint=f"use one of {', '.join(DEFAULT_UPSTREAMS)}, optionally =URL")
    return parse_upstream(name, url if sep else DEFAULT_UPSTREAMS[name])


def parse_upstream(flavour: str, url: str) -> Upstream:
    """The upstream at `url`: https anywhere, plain http only on a loopback address."""
    where = f"--model-api {flavour}={url}"
    try:  # a stray bracket, a non-address in brackets, a host that NFKC changes: Python's splitter refuses them
        parts = urlsplit(url)
    except ValueError as exc:
        raise UsageError(f"the model API URL cannot be read ({exc})", where=where) from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise UsageError("the model API URL must be http(s)://HOST[:PORT][/PATH]", where=where)
    if not bracket_port_ok(parts.netloc):
        raise UsageError("the model API URL has a bad port", where=where)
    if parts.username or parts.password or parts.query or parts.fragment:
        raise UsageError("the model API URL may not carry credentials, a query or a fragment", where=where,
                         hint="pass the key with --model-key NAME=VARIABLE")
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        raise UsageError("plain http is accepted only for a loopback upstream", where=where,
                         hint="use https, or a model server on 127.0.0.1 / ::1")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise UsageError("the model API URL has a bad port", where=where) from None
    return Upstream(flavour, parts.scheme, parts.hostname, port, parts.path.rstrip("/"))


def bracket_port_ok(netloc: str) -> bool:
    """False for `[::1]junk`: Python's splitter reads it as `[::1]` and drops what follows the bracket."""
    return "]" not in netloc or re.fullmatch(r"(:[0-9]*)?", netloc.rpartition("]")[2]) is not None


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def route(method: str, target: str) -> tuple[str, str] | str:
    """(flavour, API path with query) for an allowed request; else the reason it is refused."""
    if not target.startswith("/"):
        return "not a path on the relay (absolute-form request: the relay is no proxy)"
    path, _, query = target.partition("?")
    for flavour, base in CLIENT_BASES.items():
        prefix = base.removesuffix("/v1")
        if path == prefix or path.startswith(prefix + "/"):
            rest = path[len(prefix):]
            if any(method == allowed and pattern.fullmatch(rest) for allowed, pattern in _ALLOWED[flavour]):
                return flavour, rest + (f"?{query}" if query else "")
            return f"{method} {rest or '/'} is not an allowed {flavour} API call"
    return f"{method} {path} names no model API"


def request_problem(target: str, headers: Message) -> str | None:
    """Why a request cannot be relayed as read (None: it can). The relay re-frames every call it forwards, but
    forwards some header values as they came and the target's query string: refused (400, recorded) rather than
    passed on or mended are a target with a byte other than printable ASCII, a header section the parser found
    malformed (a line without a colon hides the headers after it), a header name that is no token (whitespace
    before the colon: `Transfer-Encoding : chunked`), a value holding a control character (NUL, a bare CR or LF,
    an obsolete line folding that a lenient upstream would read as a header of the agent's choosing), and two
    Content-Lengths that differ (RFC 9112: unrecoverable)."""
    if not target.isascii() or _CONTROL.search(target):
        return "the request target holds a byte other than printable ASCII"
    if headers.defects:
        return "a malformed header section"
    for name, value in headers.items():
        if not _TOKEN.fullmatch(name):
            return f"the header name {name[:40]!r} is not a token"
        if _CONTROL.search(value):
            return f"the {name[:40]} header holds a control character or a folded line"
    if len(set(headers.get_all("content-length") or ())) > 1:
        return "Content-Length headers that differ"
    return None


def key_headers(flavour: str, key: str) -> dict[str, str]:
    """The header(s) that carry the real key upstream."""
    if flavour == "anthropic":
        return {"x-api-key": key}
    return {"authorization": f"Bearer {key}"}


# The calls whose answer comes from a model: a 2xx reply to one of them that names no model the relay can read
# (gzip, a page, JSON read two ways) is served by UNREADABLE in the packet, which no allowed model list holds.
ANSWERING = frozenset({"/v1/messages", "/v1/chat/completions", "/v1/completions", "/v1/responses"})
UNREADABLE = "(unreadable)"
_LINE_END = re.compile(rb"\r\n|\r|\n")  # SSE ends a line at CRLF, LF or a bare CR


def served_models(records: list[dict[str, object]]) -> list[str]:
    """Every model the replies of a relay log named, and UNREADABLE for a model's 2xx answer that named none. A reply
    cut off after it named its model (a 502 record: a stream that broke) counts too: the generator read that model's
    events (docs review 53)."""
    served: set[str] = set()
    for record in records:
        named = record.get("models")
        names = [n for n in named if isinstance(n, str)] if isinstance(named, list) else []
        if isinstance(record.get("served"), str):
            names.append(str(record["served"]))
        answering = record.get("method") == "POST" and record.get("path") in ANSWERING
        status = record.get("status")
        # Every 2xx is a success to the SDKs (runner 38: a 201 answer naming no readable model added nothing).
        if isinstance(status, int) and 200 <= status < 300:
            served.update(names or ([UNREADABLE] if answering else []))
        else:
            served.update(names)
    return sorted(served)


@dataclass(slots=True)
class CallFacts:
    """What one call said about its model and tokens (filled from the request, then the response): `named` holds
    every model the reply named, in order, `served` the last."""

    requested: str | None = None
    served: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    named: list[str] = field(default_factory=list)
    _pending: list[bytes] = field(default_factory=list)
    _data: list[bytes] = field(default_factory=list)  # the data lines of the stream's event under way
    _cr: bool = False  # the last read ended in CR
    _first: bool = True  # no line of the stream read yet

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def read_request(self, body: bytes) -> None:
        document = _json(body)
        if isinstance(document, dict) and isinstance(document.get("model"), str):
            self.requested = document["model"][:200]

    def read_response(self, body: bytes) -> None:
        self._read_event(_json(body))

    def read_stream(self, chunk: bytes, *, end: bool = False) -> None:
        """The next bytes of a server-sent event stream (`end`: the last), read as an SSE client reads them: lines end
        at CRLF, LF or a bare CR (a CRLF may be split between two reads), an event's `data:` lines are joined with a
        newline and read once a blank line ends the event (runner 38: a JSON over two data lines named its model to
        the SDK and nothing to a reader of single lines). A line still open is kept in parts, joined once it ends: a
        reply of one 64 MiB line costs linear time."""
        if self._cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]  # the LF of a CRLF whose CR ended the last read
        self._cr = chunk.endswith(b"\r")
        if not end and b"\n" not in chunk and b"\r" not in chunk:
            self._pending.append(chunk)
            return
        lines = _LINE_END.split(b"".join((*self._pending, chunk)))
        self._pending = [] if end else [lines.pop()]
        for line in lines:
            self._read_line(line)
        if end:
            self._dispatch()  # an event the stream did not end with a blank line: read too (a name more, never less)

    def _read_line(self, line: bytes) -> None:
        if self._first:  # a stream may open with a byte order mark, which an SSE client drops
            self._first, line = False, line.removeprefix(b"\xef\xbb\xbf")
        if not line:
            self._dispatch()
            return
        field_name, _, value = line.partition(b":")
        if field_name == b"data":  # a comment (`:`), `event:`, `id:`, `retry:` and unknown fields name no model
            self._data.append(value[1:] if value.startswith(b" ") else value)

    def _dispatch(self) -> None:
        data, self._data = b"\n".join(self._data), []
        if not data.strip() or data.strip() == b"[DONE]":  # openai's last event
            return
        document = _json(data)
        if not isinstance(document, dict):
            # Every event of both APIs is a JSON object: one the relay cannot read (a key twice, not JSON) may name a
            # model to a client that reads it another way, so the call names UNREADABLE (runner 38).
            if UNREADABLE not in self.named:
                self.named.append(UNREADABLE)
            return
        self._read_event(document)

    def _read_event(self, document: object) -> None:
        if not isinstance(document, dict):
            return
        # anthropic's stream opens with message_start {message: {model, usage}}; openai's responses API
        # ends with response.completed {response: {model, usage}}; everything else carries them on top.
        for holder in (document, document.get("message"), document.get("response")):
            if not isinstance(holder, dict):
                continue
            if isinstance(holder.get("model"), str) and holder.get("type") != "error":
                self.served = holder["model"][:200]
                if self.served not in self.named:
                    self.named.append(self.served)
            usage = holder.get("usage")
            if isinstance(usage, dict):
                self._read_usage(usage)

    def _read_usage(self, usage: Mapping[str, object]) -> None:
        def count(*names: str) -> int | None:
            for name in names:
                value = usage.get(name)
                if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53:
                    return value
            return None

        # Stream deltas repeat the running total (anthropic's message_delta): keep the largest seen.
        inputs = count("input_tokens", "prompt_tokens")
        outputs = count("output_tokens", "completion_tokens")
        if inputs is not None:
            self.input_tokens = max(self.input_tokens, inputs)
        if outputs is not None:
            self.output_tokens = max(self.output_tokens, outputs)


def _json(data: bytes) -> object:
    """The JSON document `data` holds; None when it holds none, or one that readers may read two ways (a key twice:
    looked for wherever a `"model"` is, written out or with an escape: a holder twice with the model in one is read
    two ways too, runner 38; the check costs ~2.5 us an event)."""
    hook = _unique if b'"model"' in data or b"\\u" in data else None
    try:
        return load_json(data, "a model API body", object_pairs_hook=hook)
    except (ValueError, LimitError):
        return None


def _unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object without a key twice (parsers differ on which of two `model`s they keep): else ValueError."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key twice")
    return found


def parse_model_keys(specs: tuple[str, ...], flavours: set[str]) -> dict[str, str]:
    """`NAME=VARIABLE` (--model-key) → {flavour: variable}; each NAME must be a --model-api of the run."""
    keys: dict[str, str] = {}
    for spec in specs:
        name, sep, variable = spec.partition("=")
        where = f"--model-key {spec}"
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", variable):
            raise UsageError("write NAME=VARIABLE: the variable that holds the key, not the key", where=where)
        if name not in flavours:
            raise UsageError(f"no --model-api {name} for this key", where=where,
                             hint=f"add --model-api {name}[=URL]")
        if name in keys:
            raise UsageError(f"a second key for {name}", where=where)
        keys[name] = variable
    return keys
