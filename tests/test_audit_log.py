"""The decision log: concurrent appends stay chained; every kind of tampering is caught at the right line."""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.synchronize
import subprocess
import sys
import time
from pathlib import Path

import pytest
from incli import run_cli
from tables import each_case

from gatekeeper.audit.log import GENESIS, append_decision, canonical, head_path, record_hash
from gatekeeper.audit.verify import verify_log
from gatekeeper.cli import main
from gatekeeper.errors import AuditError


def decision(n: int, outcome: str = "allow", rules: tuple[str, ...] = ()) -> dict:
    reasons = [{"policy": r.split(".")[0], "rule": r, "level": "review", "msg": f"{r} fired"} for r in rules]
    return {
        "outcome": outcome,
        "reasons": reasons,
        "policies": [{"name": "core", "version": "1.0.0"}],
        "bundle": {"name": "default", "revision": "r1", "commit": None, "digest": "d" * 64},
        "packet": {"run_id": f"run-{n}", "diff_sha256": f"{n:064x}", "digest": "p" * 64},
        "input_digest": "i" * 64,
        "summary": {"files": 1, "additions": 1, "deletions": 0, "buckets": {}},
        "dry_run": False,
        "tool": {"name": "gatekeeper", "version": "0.1.0"},
        "decided_at": "2026-11-29T12:00:00Z",
    }


def _append_in_child(log: str, n: int, barrier) -> None:  # runs in another process
    barrier.wait(timeout=30)
    append_decision(Path(log), decision(n))


def _write_log(tmp_path: Path, count: int) -> Path:
    log = tmp_path / "decisions.jsonl"
    for n in range(count):
        append_decision(log, decision(n))
    return log


def _lines(log: Path) -> list[bytes]:
    return log.read_bytes().splitlines(keepends=True)


def test_records_are_chained_and_hashed(tmp_path: Path) -> None:
    log = _write_log(tmp_path, 3)
    records = [json.loads(line) for line in _lines(log)]
    assert [r["seq"] for r in records] == [1, 2, 3]
    assert records[0]["prev"] == GENESIS
    assert records[1]["prev"] == records[0]["hash"] and records[2]["prev"] == records[1]["hash"]
    assert all(record_hash(r) == r["hash"] for r in records)
    assert records[0]["run_id"] == "run-0" and records[0]["diff_sha256"] == f"{0:064x}"
    assert records[0]["enabled"] == ["core"] and records[0]["time"].endswith("Z")
    assert json.loads(head_path(log).read_text()) == {"seq": 3, "hash": records[2]["hash"], "time": records[2]["time"]}
    assert verify_log(log).ok


def test_eight_concurrent_processes_leave_eight_intact_records(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(8)
    procs = [ctx.Process(target=_append_in_child, args=(str(log), n, barrier)) for n in range(8)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    records = [json.loads(line) for line in _lines(log)]
    assert len(records) == 8
    assert sorted(r["run_id"] for r in records) == sorted(f"run-{n}" for n in range(8))
    assert [r["seq"] for r in records] == list(range(1, 9))
    verdict = verify_log(log)
    assert verdict.ok and verdict.records == 8 and verdict.head_file is not None
    assert main(["audit", "verify", str(log)]) == 0


def test_concurrent_cli_style_subprocesses_append_many(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    # Each interpreter imports the log module only (importing this file took pytest along: ~0.2 CPU-s each).
    code = (
        "import json, sys; from pathlib import Path; from gatekeeper.audit.log import append_decision\n"
        "for d in json.loads(sys.argv[2]): append_decision(Path(sys.argv[1]), d)"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(log), json.dumps([decision(n * 100 + i) for i in range(10)])])
        for n in range(8)
    ]
    assert [p.wait(timeout=60) for p in procs] == [0] * 8
    assert len(_lines(log)) == 80
    assert verify_log(log).ok


def _append_many(log: str, n: int, go_on: multiprocessing.synchronize.Event) -> None:  # runs in another process
    for i in range(15):
        if i == 7:
            go_on.wait(60)  # halfway: the test verifies the log at least once while every writer is alive
        append_decision(Path(log), decision(n * 100 + i))


def test_verify_while_eight_processes_append(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    append_decision(log, decision(0))
    ctx = multiprocessing.get_context("fork")
    go_on = ctx.Event()
    procs = [ctx.Process(target=_append_many, args=(str(log), n, go_on)) for n in range(1, 9)]
    for proc in procs:
        proc.start()
    until = time.monotonic() + 60
    while len(_lines(log)) < 1 + 8 * 7:
        assert time.monotonic() < until, "the writers did not get halfway"
        time.sleep(0.01)
    verdicts = [verify_log(log)]
    go_on.set()
    while any(proc.is_alive() for proc in procs):
        verdicts.append(verify_log(log))
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    verdicts.append(verify_log(log))
    assert all(v.ok for v in verdicts), next(v.problem for v in verdicts if not v.ok)
    assert verdicts[-1].records == 121 and len(verdicts) > 1


def _gate_in_child(argv: list[str], out: str, barrier) -> None:  # runs in another process
    barrier.wait(timeout=60)
    done = run_cli(argv)
    Path(out).write_bytes(done.stdout)
    sys.stderr.buffer.write(done.stderr)
    sys.exit(done.returncode)


def test_eight_real_gates_logging_at_once(tmp_path: Path, git_repo) -> None:
    """Eight `gatekeeper gate --log` processes started together on one log: eight chained records.

    Two are `python -m gatekeeper` processes; six are forked from this one and run the same command in-process
    (tests/incli.py), together at a barrier: eight processes appending at once, without six more cold starts of
    ~0.25 CPU-s each (the subject is the log's locking, not the interpreter's start-up)."""
    git_repo.write("src/app.py", "print('hi')\n")
    git_repo.commit()
    git_repo.write("src/app.py", "print('hello')\n")
    patch = git_repo.save_patch(tmp_path / "change.diff")
    packet = tmp_path / "packet.json"
    made = run_cli(["packet", patch, "--out", packet, "--run-id", "r8"])  # setup, in-process: the gates are real
    assert made.returncode == 0, made.stderr
    log = tmp_path / "shared" / "decisions.jsonl"
    argv = ["gate", str(packet), "--patch", str(patch), "--log", str(log), "--log-init", "--format", "json"]
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(6)
    forked = [ctx.Process(target=_gate_in_child, args=(argv, str(tmp_path / f"out-{n}.json"), barrier))
              for n in range(6)]
    gates = [subprocess.Popen([sys.executable, "-m", "gatekeeper", *argv], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(2)]
    for proc in forked:
        proc.start()
    for proc in forked:
        proc.join(timeout=120)
    results = [gate.communicate(timeout=120) for gate in gates]
    results += [((tmp_path / f"out-{n}.json").read_bytes(), b"(forked: stderr above)") for n in range(6)]
    codes = [gate.returncode for gate in gates] + [proc.exitcode for proc in forked]
    assert codes == [0] * 8, [err.decode() for _, err in results]
    records = [json.loads(line) for line in _lines(log)]
    assert [r["seq"] for r in records] == list(range(1, 9))
    assert {r["run_id"] for r in records} == {"r8"} and {r["outcome"] for r in records} == {"allow"}
    decided = sorted(json.loads(out)["decided_at"] for out, _ in results)
    assert sorted(r["decided_at"] for r in records) == decided
    assert verify_log(log).ok


def _rewrite(log: Path, lines: list[bytes]) -> None:
    log.write_bytes(b"".join(lines))


def _tampered(record: bytes, **changes: object) -> bytes:
    data = json.loads(record)
    data.update(changes)
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode() + b"\n"


@each_case("index", range(5))
def test_altering_any_record_fails_at_its_line(tmp_path: Path, index: int) -> None:
    log = _write_log(tmp_path, 5)
    lines = _lines(log)
    lines[index] = _tampered(lines[index], outcome="allow" if b'"deny"' in lines[index] else "deny")
    _rewrite(log, lines)
    problem = verify_log(log).problem
    assert problem is not None and (problem.line, problem.kind) == (index + 1, "altered")


@each_case("index", range(5))
def test_altering_and_rehashing_any_record_fails_at_its_line(tmp_path: Path, index: int) -> None:
    log = _write_log(tmp_path, 5)
    lines = _lines(log)
    data = json.loads(lines[index])
    data["outcome"] = "review"
    data["hash"] = record_hash(data)
    lines[index] = json.dumps(data).encode() + b"\n"
    _rewrite(log, lines)
    problem = verify_log(log).problem
    assert problem is not None and (problem.line, problem.kind) == (index + 1, "altered")


@each_case("index", range(5))
def test_deleting_any_record_fails_at_its_line(tmp_path: Path, index: int) -> None:
    log = _write_log(tmp_path, 5)
    lines = _lines(log)
    del lines[index]
    _rewrite(log, lines)
    problem = verify_log(log).problem
    assert problem is not None and (problem.line, problem.kind) == (index + 1, "removed")
    assert main(["audit", "verify", str(log)]) == 1


@each_case("index, style", [(index, style) for index in range(6) for style in ["sibling", "continuation"]])
def test_inserting_a_record_anywhere_fails_at_its_line(tmp_path: Path, index: int, style: str) -> None:
    log = _write_log(tmp_path, 5)
    lines = _lines(log)
    forged = json.loads(lines[max(index - 1, 0)])
    forged["run_id"] = "forged"
    if style == "continuation" and index > 0:  # claims to be the next record after the one before it
        forged["prev"], forged["seq"] = forged["hash"], forged["seq"] + 1
    forged["hash"] = record_hash(forged)  # self-consistent, as a careful forger would write it
    lines.insert(index, json.dumps(forged).encode() + b"\n")
    _rewrite(log, lines)
    problem = verify_log(log).problem
    assert problem is not None and (problem.line, problem.kind) == (index + 1, "inserted"), problem


@each_case("index", range(6))
def test_inserting_a_copy_or_garbage_fails_at_its_line(tmp_path: Path, index: int) -> None:
    for extra in (None, b"{not json}\n"):
        log = _write_log(tmp_path / str(extra is None), 5)
        lines = _lines(log)
        # A copy of the record before (or, at the top, of a later one): the out-of-place copy is the insertion.
        lines.insert(index, extra if extra is not None else lines[index - 1 if index else 3])
        _rewrite(log, lines)
        problem = verify_log(log).problem
        assert problem is not None and (problem.line, problem.kind) == (index + 1, "inserted"), problem


@each_case(("first", "second"), [(0, 1), (1, 3), (2, 4), (3, 4), (0, 4)])
def test_reordering_records_fails_at_the_first_moved_line(tmp_path: Path, first: int, second: int) -> None:
    log = _write_log(tmp_path, 5)
    lines = _lines(log)
    lines[first], lines[second] = lines[second], lines[first]
    _rewrite(log, lines)
    problem = verify_log(log).problem
    assert problem is not None and (problem.line, problem.kind) == (first + 1, "reordered")


def test_verify_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _write_log(tmp_path, 3)
    assert main(["audit", "verify", str(log)]) == 0
    assert "3 records" in capsys.readouterr().out
    lines = _lines(log)
    lines[1] = _tampered(lines[1], outcome="deny")
    _rewrite(log, lines)
    assert main(["audit", "verify", str(log)]) == 1
    assert "line 2: altered" in capsys.readouterr().out
    assert main(["audit", "verify", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_appending_after_a_torn_last_line_is_refused(tmp_path: Path) -> None:
    log = _write_log(tmp_path, 2)
    with log.open("ab") as handle:
        handle.write(b'{"seq": 3, "trunc')
    with pytest.raises(AuditError, match="incomplete"):
        append_decision(log, decision(9))


def test_a_malformed_decision_is_refused_without_writing(tmp_path: Path) -> None:
    log = _write_log(tmp_path, 1)
    before = log.read_bytes()
    with pytest.raises(AuditError):
        append_decision(log, {"outcome": "maybe", "policies": [], "bundle": {"digest": "x"}})
    assert log.read_bytes() == before


def test_a_head_kept_elsewhere_catches_a_rewritten_chain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _write_log(tmp_path, 3)
    saved = tmp_path / "saved.head"
    saved.write_bytes(head_path(log).read_bytes())
    for n in range(3, 5):
        append_decision(log, decision(n))
    assert main(["audit", "verify", str(log), "--head-file", str(saved)]) == 0  # later appends are fine
    capsys.readouterr()
    # A forger who can write the log rewrites record 2 and re-chains everything after it, head file included.
    records = [json.loads(line) for line in _lines(log)]
    records[1]["outcome"] = "deny"
    for index in range(1, len(records)):
        records[index]["prev"] = records[index - 1]["hash"]
        records[index]["hash"] = record_hash(records[index])
    log.write_bytes(b"".join(canonical(r) + b"\n" for r in records))  # a careful forger writes canonical lines
    head_path(log).write_text(json.dumps({"seq": 5, "hash": records[-1]["hash"], "time": "x"}))
    assert verify_log(log).ok  # the chain alone cannot tell
    problem = verify_log(log, head_file=saved).problem
    assert problem is not None and (problem.line, problem.kind) == (3, "altered")
    assert main(["audit", "verify", str(log), "--head-file", str(saved), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["problem"]["line"] == 3


def test_unreadable_log_and_head_are_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "verify", str(tmp_path)]) == 2
    log = _write_log(tmp_path, 2)
    head_path(log).write_text("{garbage")
    assert main(["audit", "verify", str(log)]) == 2
    assert "head file" in capsys.readouterr().err
    assert main(["audit", "verify", str(log), "--head-file", str(tmp_path / "nope.head")]) == 2
