"""Append decisions to a hash-chained JSON-lines log, safely when many gates write at once.

Stdlib only: the gate imports this on every run with `--log`.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import stat
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gatekeeper import __version__
from gatekeeper.atomic import fsync_dir, write_atomic
from gatekeeper.audit.line import canonical, parse_line
from gatekeeper.errors import AuditError

# 2 added `ci`: where the decision was made (repository, change, run, actor); 3 added `attestation`,
# `approvals`, `signed_summary` and the optional `signature`; 4 added `error` (the outcome `error`: the gate
# could not decide) and `ci.number`, `ci.base_sha`, `ci.head_sha`, `ci.tree`.
LOG_VERSION = 4
GENESIS = "0" * 64  # the `prev` of the first record
OUTCOMES = ("allow", "review", "deny")
# A gate that exits 2 logs a record of its own: no policy ran, so no findings, policies or bundle, only why.
ERROR_OUTCOME = "error"
_MAX_ERROR_TEXT = 2000  # the one-line message the gate printed; longer is cut (a record stays small)
HEAD_SUFFIX = ".head"
# The record's signature (gate --sign): a DSSE envelope over the chain hash, so the hash cannot cover it.
UNHASHED = ("hash", "signature")
# Signs a finished record: returns the envelope for its `signature` field (attest.record.sealer).
Seal = Callable[[Mapping[str, Any]], dict[str, Any]]
# A record is a few KB; reading this much from the end almost always finds the last line at once.
_TAIL_CHUNK = 64 * 1024


def record_hash(record: dict[str, Any]) -> str:
    """sha256 of the canonical record without its `hash` and `signature` fields."""
    body = {k: v for k, v in record.items() if k not in UNHASHED}
    return hashlib.sha256(canonical(body)).hexdigest()


def head_path(log: Path) -> Path:
    """The side file that remembers the last record's seq and hash (catches a truncated log)."""
    return log.with_name(log.name + HEAD_SUFFIX)


def utc_now() -> str:
    """Now as RFC 3339 UTC with a `Z` suffix, to the microsecond."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1e6):06d}Z"


def failure_decision(error: BaseException, *, dry_run: bool = False) -> dict[str, Any]:
    """What a gate that could not decide (exit 2) logs: the error's kind and its one-line message, no policies."""
    message = str(error) or type(error).__name__
    if len(message) > _MAX_ERROR_TEXT:
        message = message[:_MAX_ERROR_TEXT] + "..."
    return {"outcome": ERROR_OUTCOME, "reasons": [], "policies": [], "enabled": [], "bundle": None,
            "packet": None, "dry_run": dry_run, "tool": {"name": "gatekeeper", "version": __version__},
            "decided_at": None, "summary": None,
            "error": {"kind": type(error).__name__, "message": message}}


def record_from_decision(decision: dict[str, Any], *, seq: int, prev: str, at: str,
                         ci: dict[str, Any] | None = None, seal: Seal | None = None) -> dict[str, Any]:
    """The log record for `decision`: what an auditor needs months later, chained to `prev`; signed by `seal`."""
    try:
        outcome = decision["outcome"]
        packet = decision.get("packet") or {}
        bundle = decision["bundle"]
        failed = outcome == ERROR_OUTCOME
        policies = decision["policies"]
        record: dict[str, Any] = {
            "log_version": LOG_VERSION,
            "seq": seq,
            "time": at,
            "run_id": packet.get("run_id"),
            "diff_sha256": packet.get("diff_sha256"),
            "packet_digest": packet.get("digest"),
            "input_digest": decision.get("input_digest"),
            "outcome": outcome,
            "findings": list(decision.get("reasons") or []),
            "policies": [{"name": p["name"], "version": p.get("version")} for p in policies],
            "enabled": list(decision.get("enabled") or [p["name"] for p in policies]),
            "bundle": None if failed and bundle is None else {
                "name": bundle.get("name"),
                "revision": bundle.get("revision"),
                "commit": bundle.get("commit"),
                "uncommitted": bundle.get("uncommitted"),
                "digest": bundle["digest"],
            },
            "summary": decision.get("summary"),
            "dry_run": bool(decision.get("dry_run", False)),
            "decided_at": decision.get("decided_at"),
            "tool": decision.get("tool"),
            "ci": ci,
            # What the packet's signature proved and which signed approvals counted: who vouched for what.
            "attestation": decision.get("attestation"),
            "approvals": decision.get("approvals"),
            "signed_summary": decision.get("signed_summary"),
            "error": decision.get("error") if failed else None,
            "prev": prev,
        }
    except (KeyError, TypeError, AttributeError) as exc:
        raise AuditError(
            f"decision cannot be logged: missing or malformed field {exc}",
            hint="this is a bug in the caller: pass the Decision dict the gate returns",
        ) from exc
    if outcome not in OUTCOMES and not failed:
        raise AuditError(
            f"decision cannot be logged: unknown outcome {outcome!r}", hint=f"one of {', '.join(OUTCOMES)}"
        )
    try:
        record["hash"] = record_hash(record)
    except ValueError as exc:  # NaN or Infinity somewhere in a finding
        raise AuditError(f"decision cannot be logged: {exc}",
                         hint="a policy returned a number JSON cannot hold") from exc
    if seal is not None:
        record["signature"] = seal(record)
    # Write only what verify will accept: a record too deep or with numbers other languages misread would
    # otherwise break the chain for every later reader.
    parsed = parse_line(canonical(record))
    if not parsed.ok:
        raise AuditError(f"decision cannot be logged: its record would be {parsed.reason}",
                         hint="a policy finding carries data a decision record cannot hold; simplify the finding")
    return record


def append_decision(log: Path, decision: dict[str, Any], *, at: str | None = None,
                    ci: dict[str, Any] | None = None, seal: Seal | None = None) -> dict[str, Any]:
    """Append `decision` as one chained record under an exclusive lock; return the record written.

    `at` (RFC 3339 UTC) overrides the record time, for importing decisions logged elsewhere.
    """
    log = Path(log)
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        # Never through a link: a log in a checkout may be the pull request's link to any file (made if missing).
        fd = os.open(log, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        linked = exc.errno == errno.ELOOP
        raise AuditError("the decision log is a symbolic link" if linked else
                         f"cannot open the decision log: {exc.strerror}", where=str(log),
                         hint="name the log file itself" if linked else "check the folder exists and is writable"
                         ) from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise AuditError("the decision log is not a regular file", where=str(log), hint="name a file")
    try:
        # flock, not fcntl record locks: it is per open file, so threads of one process exclude each other too.
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        last = _last_record(fd, size, log)
        seq = 1 if last is None else int(last["seq"]) + 1
        prev = GENESIS if last is None else str(last["hash"])
        record = record_from_decision(decision, seq=seq, prev=prev, at=at or utc_now(), ci=ci, seal=seal)
        line = canonical(record) + b"\n"
        _write_line(fd, line, size, log)
        if size == 0:
            fsync_dir(log.parent)
        _write_head(log, record)
    finally:
        os.close(fd)  # closing releases the lock
    return record


def _write_line(fd: int, line: bytes, size: int, log: Path) -> None:
    try:
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(28, "short write")
        os.fsync(fd)
    except OSError as exc:
        # Never leave half a record behind: cut the file back to where it was.
        try:
            os.ftruncate(fd, size)
        except OSError:
            pass
        raise AuditError(f"cannot append to the decision log: {exc.strerror}", where=str(log),
                         hint="check free space and permissions") from exc


def _last_record(fd: int, size: int, log: Path) -> dict[str, Any] | None:
    """Read only the log's last line (the file may be large) and return its record."""
    if size == 0:
        return None
    chunk = min(size, _TAIL_CHUNK)
    while True:
        tail = os.pread(fd, chunk, size - chunk)
        if not tail.endswith(b"\n"):
            raise AuditError("the decision log's last line is incomplete", where=str(log),
                             hint="run `gatekeeper audit verify` and repair the log before appending")
        start = tail.rfind(b"\n", 0, len(tail) - 1)
        if start >= 0 or chunk == size:
            break
        chunk = min(size, chunk * 4)
    parsed = parse_line(tail[start + 1:-1])
    if parsed.record is None or not parsed.ok:
        raise AuditError(f"the decision log's last line is not a log record: {parsed.reason}", where=str(log),
                         hint="run `gatekeeper audit verify` and repair the log before appending")
    return parsed.record


def _write_head(log: Path, record: dict[str, Any]) -> None:
    # Written under the log's lock, so heads never race; atomic so a reader never sees half of one.
    head = {"seq": record["seq"], "hash": record["hash"], "time": record["time"]}
    write_atomic(head_path(log), json.dumps(head, sort_keys=True) + "\n")
