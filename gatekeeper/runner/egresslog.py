"""Outside the sandbox: the record of every attempt the generator made to reach the network around the relay.

The sandbox's catch-all device (catchall.py, in the shim) writes one JSON line per attempt into a pipe;
only the shim holds its writing end. Here a thread of the runner appends the lines to `egress.jsonl` in
the run folder (append-only across --resume, fsynced as they come), and the packet's `sandbox.egress`
summarises the whole log. Every line is re-checked here: the shim runs where the generator does.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from gatekeeper.atomic import write_atomic
from gatekeeper.bounded import Limits, load_json
from gatekeeper.errors import LimitError, RunError
from gatekeeper.runner import catchall
from gatekeeper.runner.mounts import Plan
from gatekeeper.runner.relaylog import RelayLog, read_log

MAX_RECORDS = 10_000  # per attempt; beyond it attempts are counted, not listed (a flood must not fill the disk)
_KINDS = ("tcp", "udp", "dns", "icmp", "icmpv6", "unparsed", "error", "summary", "status")
_NOT_ATTEMPTS = ("summary", "error", "status")
_LINE_MAX = 4096
_LINE_LIMITS = Limits(max_bytes=_LINE_MAX, max_depth=4, max_values=64)  # a record is one flat object


def _clean(line: bytes) -> dict[str, Any]:
    """One record as the log keeps it: known fields of known types, else an `unparsed` attempt."""
    try:
        raw = load_json(line, "the egress pipe", _LINE_LIMITS)
    except (ValueError, LimitError):
        raw = None
    if not isinstance(raw, dict):
        raw = {"kind": "unparsed"}
    kind = str(raw.get("kind"))
    kind = kind if kind in _KINDS or kind.startswith("ip-") else "unparsed"
    record: dict[str, Any] = {"kind": kind[:16]}
    for name in ("at", "host", "dst", "qtype", "error"):
        if isinstance(raw.get(name), str):
            record[name] = raw[name][:300]
    for name in ("port", "family", "dropped", "bytes"):
        value = raw.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            record[name] = value
    if kind == "status":
        record["recording"] = "recorded" if raw.get("recording") == "recorded" else "unavailable"
    if kind not in _NOT_ATTEMPTS:
        record.setdefault("host", "unparsed")
        record["refused"] = "direct network access outside the model relay" if kind != "dns" else \
            "DNS lookup: the sandbox resolves nothing"
    return record


class EgressRecorder:
    """A pipe for one attempt: its writing end (`hand_over()`) goes to the sandbox's shim; `stop()` once the
    sandbox has ended."""

    def __init__(self, path: Path) -> None:
        self.log = RelayLog(path)
        # What the shim said of this attempt before the generator started: (recorded | unavailable, why).
        self.status: tuple[str, str | None] | None = None
        read, self.fd = os.pipe()
        self._read = read
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        pending, kept, over = b"", 0, 0
        while True:
            try:
                chunk = os.read(self._read, 1 << 16)
            except InterruptedError:
                continue
            if not chunk:
                break
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()[:_LINE_MAX + 1]
            records = []
            for line in lines:
                record = _clean(line)
                if record["kind"] == "status" and self.status is None:
                    self.status = (record["recording"], record.get("error"))
                if record["kind"] not in _NOT_ATTEMPTS and kept >= MAX_RECORDS:
                    over += 1
                    continue
                kept += record["kind"] not in _NOT_ATTEMPTS
                records.append(record)
            try:
                self.log.extend(records)
            except OSError:
                pass  # the log says it failed (a full disk): the attempt's egress is `unavailable`
        if over:
            try:
                self.log.extend([{"kind": "overflow", "count": over, "refused": "attempts beyond the log's cap",
                                  "host": "unrecorded"}])
            except OSError:
                pass  # as above

    def hand_over(self) -> int:
        """The writing end, for the sandbox to inherit; whoever takes it closes it (generator.run does)."""
        fd, self.fd = self.fd, -1
        return fd

    def stop(self, timeout: float = 10.0) -> None:
        """Wait for the last records (the pipe ends with the sandbox), then close the log."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        self._thread.join(timeout)
        os.close(self._read)
        try:
            self.log.close()
        except OSError as exc:
            raise RunError(f"the record of network attempts could not be written whole ({exc.strerror or exc})",
                           where=str(self.log.path), hint="free space there and resume the run") from None


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The packet's view of an egress log: attempts refused, by host, and attempts known to be unrecorded."""
    refused = Counter(str(r.get("host") or "unparsed")[:253] for r in records
                      if r.get("refused") and r.get("kind") != "overflow")
    overflow = sum(int(r.get("count") or 0) for r in records if r.get("kind") == "overflow")
    dropped = [int(r.get("dropped") or 0) for r in records if r.get("kind") == "summary"]
    unrecorded = overflow + sum(d for d in dropped if d > 0)
    return {
        "refused": sum(refused.values()) + overflow,
        "refused_by_host": [{"host": host, "count": n} for host, n in sorted(refused.items())]
        + ([{"host": "unrecorded", "count": overflow}] if overflow else []),
        "unrecorded": unrecorded,
        "errors": sum(1 for r in records if r.get("kind") == "error" or int(r.get("dropped") or 0) < 0),
    }



def show_resolver(plan: Plan, conf: Path) -> Plan:
    """`plan` plus the catch-all's resolver configuration (written to `conf`) over /etc/resolv.conf, so every
    DNS lookup goes to the catch-all; without a file to cover, the shim finds it not in force and says so."""
    write_atomic(conf, catchall.RESOLV_CONF)
    if not os.path.lexists("/etc/resolv.conf"):
        return plan
    return plan.bind(conf, Path(os.path.realpath("/etc/resolv.conf")))


def _unfinished(records: list[dict[str, Any]]) -> bool:
    # Every attempt whose shim recorded egress ends with its summary: without it the shim was ended early (killed
    # by the generator, or with the sandbox at a timeout), and what was still queued on its device is lost.
    open_attempt = False
    for record in records:
        if record.get("kind") == "status":
            if open_attempt:
                return True
            open_attempt = record.get("recording") == "recorded"
        elif record.get("kind") == "summary":
            open_attempt = False
    return open_attempt


def sandbox_egress(recorder: EgressRecorder) -> dict[str, Any]:
    """The packet's `sandbox.egress`: the whole log's summary (every attempt of the run), and whether every
    attempt was recorded: only when the shim said so for this attempt and every earlier one (their status
    records are in the log) and no record tells of a loss."""
    records = read_log(recorder.log.path)
    summary = summarize(records)
    unavailable = [r for r in records if r.get("kind") == "status" and r.get("recording") != "recorded"]
    recording: str = "recorded"
    reason: str | None = None
    if recorder.status is None:
        recording, reason = "unavailable", "the sandbox sent no egress status"
    elif unavailable:
        recording, reason = "unavailable", str(unavailable[-1].get("error") or "an attempt could not record egress")
    if recorder.log.failed:
        recording, reason = "unavailable", reason or "the egress log could not be written whole (a full disk?)"
    if summary.pop("errors"):
        recording, reason = "unavailable", reason or "the catch-all stopped while the generator ran"
    if _unfinished(records):
        recording, reason = "unavailable", reason or "the catch-all ended before it could count what went unrecorded"
    return {"recording": recording, "reason": reason, **summary}
