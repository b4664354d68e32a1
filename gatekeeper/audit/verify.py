"""Check a decision log's hash chain and name the first line that was altered, removed, inserted or reordered."""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.attest.record import check_record
from gatekeeper.audit.line import parse_line
from gatekeeper.audit.log import GENESIS, head_path, record_hash
from gatekeeper.audit.read import Snapshot, snapshot_file
from gatekeeper.errors import AuditError

if TYPE_CHECKING:
    from gatekeeper.attest.keys import Trust

# unsigned, untrusted: only under --trust (a record without a signature; one not by a trusted key).
KINDS = ("altered", "removed", "inserted", "reordered", "unsigned", "untrusted")
_MAX_HEAD_BYTES = 4096  # {"seq", "hash", "time"}: a few dozen bytes; more is not a head


@dataclass(frozen=True, slots=True)
class Problem:
    """The first break in the chain: the line an auditor should look at, and what happened there."""

    line: int  # the line, or for a git log the position on the ref (1 = oldest)
    kind: str  # one of KINDS
    message: str
    commit: str | None = None  # for a git log: the commit holding the record


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of `verify_log`: intact or the first problem, and the head it checked against."""

    records: int
    last_seq: int | None
    last_hash: str | None
    head_file: Path | None  # None: no head file, so records removed from the end go unnoticed
    problem: Problem | None
    tip: str | None = None  # for a git log: the commit the ref pointed to
    signers: tuple[str, ...] | None = None  # under --trust: who signed the records checked (None: not checked)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def to_dict(self) -> dict[str, Any]:
        """What `audit verify --format json` prints."""
        problem = self.problem
        return {
            "ok": self.ok,
            "records": self.records,
            "last_seq": self.last_seq,
            "last_hash": self.last_hash,
            "head_file": str(self.head_file) if self.head_file else None,
            "problem": {"line": problem.line, "kind": problem.kind, "message": problem.message,
                        "commit": problem.commit} if problem else None,
            "tip": self.tip,
            "signers": None if self.signers is None else list(self.signers),
        }


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    seq: int | None
    prev: str | None
    hash: str | None  # the hash the line claims
    sound: bool  # a canonical record whose content matches its claimed hash
    reason: str | None = None  # why a line is not a canonical record


@dataclass(frozen=True, slots=True)
class Head:
    seq: int
    hash: str


def verify_log(log: Path, *, head_file: Path | None = None, trust: Trust | None = None) -> Verdict:
    """Verify `log` (and its head file, `LOG.head` unless another is given); AuditError when unreadable."""
    head_at = head_file if head_file is not None else head_path(log)
    size, head = _snapshot(log, head_at, required=head_file is not None)
    verdict = verify_snapshot(snapshot_file(log, upto=size), head, own_head=head_file is None, trust=trust)
    return Verdict(verdict.records, verdict.last_seq, verdict.last_hash, head_at if head is not None else None,
                   verdict.problem, signers=verdict.signers)


def verify_snapshot(snapshot: Snapshot, head: Head | None, *, own_head: bool = False, tip: str | None = None,
                    head_file: Path | None = None, trust: Trust | None = None) -> Verdict:
    """Verify the records of `snapshot` against each other, their signatures against `trust` (every record
    must be signed by a trusted key) and, when given, a head kept elsewhere."""
    lines = [_summarise(item.number, item.raw, item.defect) for item in snapshot.items]
    walk = _Walk(lines, head, snapshot)
    problem = walk.run()
    if problem is None and head is not None:
        problem = walk.check_head(own_head=own_head)
    signers: tuple[str, ...] | None = None
    if trust is not None:
        # The chain's records in order: the first one whose signature fails comes before any chain break.
        unsigned, signers = _check_signatures(walk, snapshot, trust)
        if unsigned is not None and (problem is None or unsigned.line <= problem.line):
            problem = unsigned
    if problem is not None and snapshot.in_git and 0 < problem.line <= len(snapshot.items):
        problem = Problem(problem.line, problem.kind, problem.message, snapshot.items[problem.line - 1].commit)
    return Verdict(
        records=len(lines),
        last_seq=walk.seq if walk.accepted else None,
        last_hash=walk.hash if walk.accepted else None,
        head_file=head_file if head is not None else None,
        problem=problem,
        tip=tip,
        signers=signers,
    )


def read_head(path: Path) -> Head:
    """A head kept elsewhere (`--head-file`); AuditError when missing or not a head."""
    head = _read_head(path, required=True)
    assert head is not None
    return head


def _check_signatures(walk: _Walk, snapshot: Snapshot, trust: Trust) -> tuple[Problem | None, tuple[str, ...]]:
    """The first accepted record whose signature does not hold, and the signers of those before it."""
    signers: dict[str, None] = {}
    for line in walk.accepted:
        record = parse_line(snapshot.items[line.number - 1].raw).record
        assert record is not None  # accepted lines are canonical records
        checked = check_record(record, trust)
        if checked.signer is None:
            return Problem(line.number, str(checked.kind),
                           f"{walk.at(line.number)}: {checked.kind}: record seq {line.seq}: {checked.reason}"), ()
        signers[checked.signer.name] = None
    return None, tuple(signers)


def _snapshot(log: Path, head_at: Path, *, required: bool) -> tuple[int, Head | None]:
    """The log's size and its head, read together under a shared lock so a concurrent append cannot split them."""
    try:
        fd = os.open(log, os.O_RDONLY)
    except OSError as exc:
        raise AuditError(f"cannot read the decision log: {exc.strerror}", where=str(log),
                         hint="check the path and its permissions") from exc
    try:
        # Appenders hold the exclusive lock across line and head: the prefix up to `size` matches `head`.
        fcntl.flock(fd, fcntl.LOCK_SH)
        return os.fstat(fd).st_size, _read_head(head_at, required=required)
    finally:
        os.close(fd)


def _summarise(number: int, raw: bytes, defect: str | None) -> _Line:
    parsed = parse_line(raw)
    record = parsed.record
    if record is None:
        return _Line(number, None, None, None, False, defect or parsed.reason)
    seq = record.get("seq")
    claimed = record.get("hash")
    prev = record.get("prev")
    reason = defect or parsed.reason
    return _Line(number, seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
                 prev if isinstance(prev, str) else None, claimed if isinstance(claimed, str) else None,
                 reason is None and record_hash(record) == claimed, reason)


def _read_head(path: Path, *, required: bool) -> Head | None:
    try:
        with open(path, "rb") as handle:
            text = handle.read(_MAX_HEAD_BYTES + 1)
    except FileNotFoundError:
        if required:
            raise AuditError(
                "head file not found", where=str(path), hint="name the copy you kept of LOG.head"
            ) from None
        return None
    except OSError as exc:
        raise AuditError(f"cannot read the head file: {exc.strerror}", where=str(path)) from exc
    try:
        if len(text) > _MAX_HEAD_BYTES:
            raise ValueError("too large for a head")
        data = json.loads(text)  # small, so bounded in depth too
        return Head(int(data["seq"]), str(data["hash"]))
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise AuditError("the head file is not valid JSON with seq and hash", where=str(path),
                         hint="it may have been edited; compare it with a copy kept elsewhere") from exc


class _Walk:
    """Follows the chain line by line; the first line that does not follow is classified by looking around it."""

    def __init__(self, lines: list[_Line], head: Head | None, snapshot: Snapshot) -> None:
        self.lines = lines
        self.at = snapshot.label
        self.head = head
        self.seq = 0
        self.hash = GENESIS
        self.accepted: list[_Line] = []
        self.by_hash: dict[str, _Line] = {}
        self.referenced = {line.prev for line in lines if line.sound and line.prev} | ({head.hash} if head else set())

    def run(self) -> Problem | None:
        for index, line in enumerate(self.lines):
            if not line.sound:
                return self._unsound(index, line)
            if line.seq == self.seq + 1 and line.prev == self.hash:
                self._accept(line)
                continue
            return self._misplaced(index, line)
        return None

    def _accept(self, line: _Line) -> None:
        assert line.seq is not None and line.hash is not None
        self.accepted.append(line)
        self.by_hash[line.hash] = line
        self.seq, self.hash = line.seq, line.hash

    def _follows_state(self, line: _Line) -> bool:
        return line.sound and line.seq == self.seq + 1 and line.prev == self.hash

    def _stepped_over(self, index: int) -> bool:
        """Whether the chain goes on from the last accepted record past line `index`, as if it were not there."""
        rest = [other for other in self.lines[index + 1:] if other.sound]
        if rest:
            return self._follows_state(rest[0])
        return (
            bool(self.accepted) and self.head is not None and (self.head.seq, self.head.hash) == (self.seq, self.hash)
        )

    def _unsound(self, index: int, line: _Line) -> Problem:
        # A broken line that the chain simply steps over was put there; one the chain needs was edited.
        at = self.at(line.number)
        if self._stepped_over(index):
            why = f"; {line.reason}" if line.reason else ""
            return Problem(line.number, "inserted",
                           f"{at}: inserted: not a record of the chain (the chain continues without it){why}")
        if line.reason is not None:
            return Problem(line.number, "altered", f"{at}: altered: {line.reason}")
        return Problem(line.number, "altered", f"{at}: altered: record seq {line.seq} does not match its hash")

    def _misplaced(self, index: int, line: _Line) -> Problem:
        assert line.seq is not None and line.hash is not None
        expected = self.seq + 1
        twin = next((o for o in self.lines if o.hash == line.hash and o is not line and o.sound), None)
        if twin is not None:
            return Problem(line.number, "inserted",
                           f"{self.at(line.number)}: inserted: a copy of {self.at(twin.number)}")
        # A record nothing points to, that the chain steps over, was put there (a moved record is pointed to).
        if line.hash not in self.referenced and self._stepped_over(index):
            return Problem(line.number, "inserted",
                           f"{self.at(line.number)}: inserted: seq {line.seq} is not part of the chain "
                           "(no record points to it and the chain continues without it)")
        fork = self._fork_point(line)
        if fork is not None:
            first = self.lines[fork + 1] if fork + 1 < len(self.lines) else line
            return Problem(first.number, "inserted",
                           f"{self.at(first.number)}: inserted: {self.at(line.number)} (seq {line.seq}) "
                           f"chains directly to the record before {self.at(first.number)}")
        if line.seq == expected:
            if self.accepted:
                before = self.accepted[-1]
                return Problem(before.number, "altered",
                               f"{self.at(before.number)}: altered: record seq {before.seq} was rewritten "
                               f"({self.at(line.number)}'s prev does not match its hash)")
            return Problem(line.number, "altered",
                           f"{self.at(line.number)}: altered: the first record's prev is not the chain's start")
        if line.seq > expected:
            later = next((o for o in self.lines[index + 1:] if o.seq == expected), None)
            if later is not None:
                return Problem(line.number, "reordered",
                               f"{self.at(line.number)}: reordered: holds seq {line.seq} where seq {expected} belongs "
                               f"(seq {expected} is on {self.at(later.number)})")
            missing = f"seq {expected}" if line.seq == expected + 1 else f"seqs {expected}..{line.seq - 1}"
            return Problem(
                line.number, "removed", f"{self.at(line.number)}: removed: record {missing} missing before this line"
            )
        return Problem(line.number, "reordered",
                       f"{self.at(line.number)}: reordered: seq {line.seq} comes after seq {self.seq}")

    def _fork_point(self, line: _Line) -> int | None:
        """Index of the accepted line `line` chains to, when that is not the last accepted one."""
        if line.prev == GENESIS and line.seq == 1 and self.accepted:
            return -1
        parent = self.by_hash.get(line.prev or "")
        if parent is None or parent is self.accepted[-1] or line.seq != (parent.seq or 0) + 1:
            return None
        return self.lines.index(parent)

    def check_head(self, *, own_head: bool) -> Problem | None:
        """Compare the chain with the head recorded at the last append (catches removal from the end)."""
        head = self.head
        assert head is not None
        if head.seq > self.seq:
            after = self.accepted[-1].number if self.accepted else 0
            missing = f"seq {head.seq}" if head.seq == self.seq + 1 else f"seqs {self.seq + 1}..{head.seq}"
            return Problem(after + 1, "removed",
                           f"{self.at(after + 1)}: removed: record {missing} missing at the end "
                           f"(the head file records seq {head.seq})")
        at = next(line for line in self.accepted if line.seq == head.seq) if head.seq > 0 else None
        if at is not None and at.hash != head.hash:
            return Problem(at.number, "altered",
                           f"{self.at(at.number)}: altered: record seq {head.seq} does not match the head file's hash "
                           "(it, or a record before it, was rewritten and the chain recomputed)")
        if own_head and head.seq < self.seq:
            extra = self.accepted[head.seq]
            return Problem(extra.number, "inserted",
                           f"{self.at(extra.number)}: inserted: seq {extra.seq} was appended after the recorded head "
                           "(not by gatekeeper, or a gate crashed while appending)")
        return None
