"""Send decision records to an OPA decision-log collector; spool them durably when it is down; flush later.

The request is the one OPA's decision-log plugin sends: `POST` with `Content-Type: application/json` and
`Content-Encoding: gzip`, the body a gzip-compressed JSON array of events (`labels`, `decision_id`,
`bundles`, `path`, `input`, `result`, `requested_by`, `timestamp`). `decision_id` is derived from the
record's hash, so a collector can drop a resent event: delivery is at least once, duplicates are
recognisable, and `audit flush` never sends a spooled record after it was accepted.
"""

from __future__ import annotations

import fcntl
import functools
import gzip
import json
import re
import time
import urllib.error
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.atomic import fsync_dir, write_atomic
from gatekeeper.audit.gitlog import redact
from gatekeeper.audit.line import canonical
from gatekeeper.errors import AuditError, GatekeeperError, UsageError

if TYPE_CHECKING:
    import urllib.request

POST_TIMEOUT = 10.0
ATTEMPTS = 3
BACKOFF = 0.5
_MAX_SPOOL_FILE = 16 * 1024 * 1024
_DECISION_PATH = "gatekeeper/decision"


@dataclass(frozen=True, slots=True)
class Delivery:
    """What became of a record sent to a collector: sent, or spooled at `spooled` because of `error`."""

    url: str
    sent: bool
    spooled: Path | None = None
    error: str | None = None

    def describe(self) -> str:
        """One line for the gate's report."""
        if self.sent:
            return f"decision record sent to {redact(self.url)}"
        return (f"decision record spooled to {self.spooled} ({self.error}); "
                "`gatekeeper audit flush` sends it when the collector is back")


@dataclass(frozen=True, slots=True)
class FlushResult:
    """What `audit flush` did: records delivered, and records still waiting (with the first error)."""

    sent: int
    left: int
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Retry:
    """How hard one delivery tries before it spools."""

    attempts: int = ATTEMPTS
    backoff: float = BACKOFF
    sleep: Callable[[float], None] = time.sleep


def check_url(url: str) -> str:
    """`--log-url`: an http(s) URL with a host; UsageError otherwise."""
    try:  # a stray bracket, a non-address in brackets, a host NFKC changes: refused by Python's splitter itself
        parts = urllib.parse.urlsplit(url)
        after_bracket = parts.netloc.rpartition("]")[2] if "]" in parts.netloc else ""  # `[::1]junk` drops junk
        port_ok = parts.port is not None or re.fullmatch(r"(:[0-9]*)?", after_bracket) is not None
    except ValueError:
        parts, port_ok = None, False
    if (parts is None or not port_ok or parts.scheme not in ("http", "https") or not parts.hostname
            or any(c in url for c in "\0\r\n ")):
        raise UsageError(f"not an http(s) URL: {redact(url)!r}", where="--log-url",
                         hint="give the collector's endpoint, e.g. https://collector.example/logs")
    return url


def spool_dir(env: Mapping[str, str]) -> Path:
    """`$XDG_STATE_HOME/gatekeeper/spool` (else `~/.local/state/gatekeeper/spool`)."""
    state = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".local" / "state")
    return Path(state) / "gatekeeper" / "spool"


def opa_event(record: dict[str, Any]) -> dict[str, Any]:
    """The record as one event of OPA's decision-log API; `result` is the whole chained record."""
    digest = str(record["hash"])
    bundle = record.get("bundle") or {}
    ci = record.get("ci") or {}
    return {
        "labels": {"app": "gatekeeper", "id": str(ci.get("repository") or "local"),
                   "version": str((record.get("tool") or {}).get("version"))},
        "decision_id": f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}",
        "bundles": {str(bundle.get("name")): {"revision": str(bundle.get("revision"))}} if bundle else {},
        "path": _DECISION_PATH,
        "input": {"run_id": record.get("run_id"), "diff_sha256": record.get("diff_sha256"),
                  "packet_digest": record.get("packet_digest"), "input_digest": record.get("input_digest"),
                  "ci": record.get("ci")},
        "result": record,
        "requested_by": str(ci.get("actor") or "gatekeeper"),
        "timestamp": record.get("time"),
    }


def deliver(url: str, record: dict[str, Any], *, env: Mapping[str, str], retry: Retry | None = None) -> Delivery:
    """POST the record's event, retrying; when every attempt fails, spool it durably instead (never raises for
    a collector that is down; AuditError only when the spool itself cannot be written)."""
    retry = retry or Retry(ATTEMPTS, BACKOFF)  # read at call time, so a test can shorten them
    event = opa_event(record)
    error = _post_with_retries(url, [event], retry)
    if error is None:
        return Delivery(url, sent=True)
    folder = spool_dir(env)
    name = f"{time.time_ns():020d}-{event['decision_id']}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = write_atomic(folder / name, canonical({"url": url, "event": event}) + b"\n", mode=0o600)
    except (OSError, GatekeeperError) as exc:
        raise AuditError(f"the collector is unreachable ({error}) and the record cannot be spooled: {exc}",
                         where=str(folder), hint="make the XDG state folder writable") from exc
    return Delivery(url, sent=False, spooled=path, error=error)


def flush(env: Mapping[str, str], *, retry: Retry | None = None) -> FlushResult:
    """Send every spooled record, oldest first; each file is removed once its collector accepted it."""
    retry = retry or Retry(ATTEMPTS, BACKOFF)
    folder = spool_dir(env)
    if not folder.is_dir():
        return FlushResult(0, 0)
    with open(folder / ".lock", "a+b") as lock:
        # One flush at a time: two flushes must not both send the same spooled record.
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        pending = sorted(p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith("."))
        sent = 0
        for index, path in enumerate(pending):
            url, event = _read_spooled(path)
            error = _post_with_retries(url, [event], retry)
            if error is not None:
                return FlushResult(sent, len(pending) - index, f"{path.name}: {error}")
            path.unlink()
            fsync_dir(folder)
            sent += 1
    return FlushResult(sent, 0)


def _read_spooled(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        data = path.read_bytes()
        if len(data) > _MAX_SPOOL_FILE:
            raise ValueError("too large")
        spooled = json.loads(data)
        url, event = check_url(str(spooled["url"])), spooled["event"]
        if not isinstance(event, dict):
            raise ValueError("event is not an object")
    except (OSError, ValueError, KeyError, TypeError, RecursionError, UsageError) as exc:
        raise AuditError(f"not a spooled decision record: {exc}", where=str(path),
                         hint="move it out of the spool folder and look at it") from exc
    return url, event


def _post_with_retries(url: str, events: list[dict[str, Any]], retry: Retry) -> str | None:
    """None when the collector accepted the events, else the last error."""
    error: str | None = "not attempted"
    for attempt in range(retry.attempts):
        error = _post(url, events)
        if error is None:
            return None
        if attempt + 1 < retry.attempts:
            retry.sleep(retry.backoff * 2**attempt)
    return error


@functools.cache
def _opener() -> urllib.request.OpenerDirector:
    # Deferred: urllib.request loads http.client and ssl (~40 ms of a one-file gate), needed only for --log-url.
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        """urllib turns a redirected POST into a GET without the body, whose 200 would look like delivery."""

        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    return urllib.request.build_opener(NoRedirect)


def _post(url: str, events: list[dict[str, Any]]) -> str | None:
    import urllib.request  # deferred with _opener: only a --log-url delivery needs it

    body = gzip.compress(json.dumps(events, separators=(",", ":"), allow_nan=False).encode("utf-8"))
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Content-Encoding": "gzip", "User-Agent": "gatekeeper"})
    try:
        with _opener().open(request, timeout=POST_TIMEOUT) as response:
            response.read(64 * 1024)
            return None
    except urllib.error.HTTPError as exc:
        return f"HTTP {exc.code} from {redact(url)}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        return f"cannot reach {redact(url)}: {reason}"
