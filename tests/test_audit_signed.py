"""Signed decision-log records: a chain rewritten without the gate's key fails `audit verify --trust` at the first
rewritten record, with no head kept anywhere; so does a record signed by a key the auditor does not trust."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from in_toto_attestation.v1 import statement_pb2
from in_toto_attestation.v1.statement import Statement
from tables import each_case
from test_audit_gitlog import _bare, _rewrite
from test_audit_log import decision

from gatekeeper.attest.keys import generate, load_signer, load_trust
from gatekeeper.attest.record import RECORD_PREDICATE, sealer
from gatekeeper.audit.gitlog import append_git, parse_spec
from gatekeeper.audit.line import canonical, parse_line
from gatekeeper.audit.log import append_decision, head_path, record_hash
from gatekeeper.audit.sinks import log_decision
from gatekeeper.audit.verify import verify_log
from gatekeeper.cli import main

COUNT = 5


@pytest.fixture(scope="module")
def keyring(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("keys")
    lines = [generate(name, folder)[2].line() for name in ("gate", "mallory")]
    trust = folder / "allowed_signers"
    trust.write_text(lines[0] + "\n")
    return {"folder": folder, "trust_file": trust, "trust": load_trust(trust),
            "gate": load_signer(folder / "gate.key"), "mallory": load_signer(folder / "mallory.key")}


def _signed_log(tmp_path: Path, keyring: dict[str, Any], count: int = COUNT) -> Path:
    log = tmp_path / "decisions.jsonl"
    seal = sealer(keyring["gate"])
    for n in range(count):
        append_decision(log, decision(n, outcome="review" if n == 2 else "allow"), seal=seal)
    return log


def _records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_bytes().splitlines()]


def _rechain(records: list[dict[str, Any]], start: int, resign: Any = None, drop: bool = False) -> list[dict[str, Any]]:
    """What an attacker without the gate's key can do: recompute every hash from `start` on (and the head)."""
    for index in range(start, len(records)):
        if index:
            records[index]["prev"] = records[index - 1]["hash"]
        records[index]["hash"] = record_hash(records[index])
        if drop:
            records[index].pop("signature", None)
        elif resign is not None:
            records[index]["signature"] = sealer(resign)(records[index])
    return records


def _write(log: Path, records: list[dict[str, Any]]) -> None:
    log.write_bytes(b"".join(canonical(r) + b"\n" for r in records))
    last = records[-1]
    head_path(log).write_text(json.dumps({"seq": last["seq"], "hash": last["hash"], "time": last["time"]}))


def test_a_signed_log_verifies_and_says_who_signed(tmp_path: Path, keyring: dict[str, Any],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = _signed_log(tmp_path, keyring)
    verdict = verify_log(log, trust=keyring["trust"])
    assert verdict.ok and verdict.records == COUNT and verdict.signers == ("gate",)
    # Every line is still a canonical record; the signature is an in-toto Statement about the record's hash.
    for record in _records(log):
        assert parse_line(canonical(record)).ok and record["log_version"] == 4
        assert record["hash"] == record_hash(record)  # the hash covers everything but hash and signature
        assert set(record["signature"]) == {"payload", "payloadType", "signatures"}  # DSSE
        payload = json.loads(base64.b64decode(record["signature"]["payload"]))
        proto = statement_pb2.Statement()
        json_format.ParseDict(payload, proto)  # the in-toto Statement v1, field by field
        Statement.copy_from_pb(proto).validate()
        assert payload["predicateType"] == RECORD_PREDICATE
        assert payload["subject"][0]["digest"] == {"sha256": record["hash"]}
    assert main(["audit", "verify", str(log), "--trust", str(keyring["trust_file"])]) == 0
    assert "all signed by gate" in capsys.readouterr().out


@each_case("start, how", [(start, how) for start in range(COUNT) for how in ["keep", "drop", "mallory"]])
def test_a_rewritten_chain_fails_at_the_first_rewritten_record_without_a_head(
        tmp_path: Path, keyring: dict[str, Any], start: int, how: str) -> None:
    log = _signed_log(tmp_path, keyring)
    records = _records(log)
    records[start]["outcome"] = "deny" if records[start]["outcome"] == "allow" else "allow"
    resign = keyring["mallory"] if how == "mallory" else None
    _write(log, _rechain(records, start, resign=resign, drop=how == "drop"))
    assert verify_log(log).ok  # the chain and the rewritten head alone cannot tell
    problem = verify_log(log, trust=keyring["trust"]).problem
    expected = {"keep": "altered", "drop": "unsigned", "mallory": "untrusted"}[how]
    assert problem is not None and (problem.line, problem.kind) == (start + 1, expected), problem


def test_a_signature_moved_to_another_record_or_edited_fails(tmp_path: Path, keyring: dict[str, Any]) -> None:
    log = _signed_log(tmp_path, keyring)
    records = _records(log)
    records[3]["signature"] = records[1]["signature"]  # a valid signature, of another record
    _write(log, records)
    problem = verify_log(log, trust=keyring["trust"]).problem
    assert problem is not None and (problem.line, problem.kind) == (4, "altered")
    for bad in ("x", {"payload": "", "payloadType": "application/vnd.in-toto+json", "signatures": []}, [], None):
        records = _records(_signed_log(tmp_path / str(bad)[:5], keyring))
        records[0]["signature"] = bad
        if bad is None:
            records[0].pop("signature")
        _write(log, records)
        problem = verify_log(log, trust=keyring["trust"]).problem
        assert problem is not None and problem.line == 1 and problem.kind in ("unsigned", "untrusted"), bad


def test_an_unsigned_log_fails_under_trust_and_a_chain_break_still_wins_when_earlier(
        tmp_path: Path, keyring: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "plain.jsonl"
    for n in range(3):
        append_decision(log, decision(n))
    assert verify_log(log).ok
    assert main(["audit", "verify", str(log), "--trust", str(keyring["trust_file"])]) == 1
    out = capsys.readouterr().out
    assert "not signed by a trusted key: line 1: unsigned: record seq 1: the record has no signature" in out
    signed = _signed_log(tmp_path / "s", keyring)
    lines = signed.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b'"outcome":"allow"', b'"outcome":"deny"')  # edited, not re-hashed
    signed.write_bytes(b"".join(lines))
    problem = verify_log(signed, trust=keyring["trust"]).problem
    assert problem is not None and (problem.line, problem.kind) == (2, "altered")


def test_a_force_pushed_rechained_ref_fails_verify_git_trust(tmp_path: Path, keyring: dict[str, Any],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    remote = _bare(tmp_path)
    seal = sealer(keyring["gate"])
    records = [append_git(parse_spec(str(remote)), decision(n, outcome="review" if n == 2 else "allow"), seal=seal)
               for n in range(4)]
    trust = str(keyring["trust_file"])
    assert main(["audit", "verify", "--git", str(remote), "--trust", trust]) == 0
    forged = _rechain([dict(r, outcome="allow") if r["seq"] == 3 else dict(r) for r in records], 2)
    commits = _rewrite(remote, [canonical(r) + b"\n" for r in forged])
    assert main(["audit", "verify", "--git", str(remote)]) == 0
    capsys.readouterr()
    assert main(["audit", "verify", "--git", str(remote), "--trust", trust, "--format", "json"]) == 1
    problem = json.loads(capsys.readouterr().out)["problem"]
    assert (problem["line"], problem["kind"], problem["commit"]) == (3, "altered", commits[2])


def test_every_sink_signs_the_record_it_writes(tmp_path: Path, keyring: dict[str, Any]) -> None:
    remote = _bare(tmp_path)
    log = tmp_path / "d.jsonl"
    done = log_decision(decision(1), file=log, git=str(remote), url=None, tree=None, env={},
                        sign=keyring["folder"] / "gate.key")
    assert [d["sink"] for d in done] == ["git", "file"]
    assert verify_log(log, trust=keyring["trust"]).signers == ("gate",)
    assert main(["audit", "verify", "--git", str(remote), "--trust", str(keyring["trust_file"])]) == 0


def test_a_bad_trust_file_is_exit_2(tmp_path: Path, keyring: dict[str, Any],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    log = _signed_log(tmp_path, keyring, 1)
    bad = tmp_path / "signers"
    bad.write_text("gate rsa AAAA\n")
    assert main(["audit", "verify", str(log), "--trust", str(bad)]) == 2
    assert f"{bad}:1" in capsys.readouterr().err
    assert main(["audit", "verify", str(log), "--trust", str(tmp_path / "missing")]) == 2


def test_replay_with_trust_refuses_a_record_whose_chain_was_rewritten(tmp_path: Path, keyring: dict[str, Any],
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    log = _signed_log(tmp_path, keyring)
    records = _records(log)
    records[1]["outcome"] = "deny"
    _write(log, _rechain(records, 1))
    args = ["audit", "replay", str(log), "3", "--packet", str(tmp_path / "p.json"), "--patch", str(tmp_path / "d")]
    assert main([*args, "--trust", str(keyring["trust_file"])]) == 2
    assert "line 2: altered: record seq 2: signed by gate for another hash" in capsys.readouterr().err
    assert main(args) == 2  # without --trust the chain holds, so replay goes on to the (missing) packet
    assert "cannot read the packet" in capsys.readouterr().err
