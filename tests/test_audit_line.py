"""A log line is trusted only as the exact canonical bytes of its record: every other encoding is tampering.

Each variant below parses (where it parses at all) to a record whose hash still matches, so a verifier that
only re-hashed `json.loads(line)` would pass it; the gate's verifier must name its line instead.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import each_case
from test_audit_log import decision

from gatekeeper.audit.line import MAX_DEPTH, MAX_LINE_BYTES, canonical, parse_line
from gatekeeper.audit.log import append_decision, record_hash
from gatekeeper.audit.verify import verify_log
from gatekeeper.cli import main
from gatekeeper.errors import AuditError


def _log(tmp_path: Path, count: int = 3) -> Path:
    log = tmp_path / "decisions.jsonl"
    for n in range(count):
        d = decision(n, outcome="review" if n == 1 else "allow", rules=("core.ci",) if n == 1 else ())
        d["reasons"] = [dict(r, msg="café / résumé", paths=[".github/workflows/ci.yml"]) for r in d["reasons"]]
        append_decision(log, d)
    return log


def _dup_before(raw: bytes, key: str, value: object) -> bytes:
    """Insert `"key":value,` as the first member of the object that holds `key` (json.loads keeps the last)."""
    at = raw.find(f'"{key}":'.encode())
    if at < 0:
        return raw
    opening = 0 if key in json.loads(raw) else raw.rindex(b"{", 0, at)
    return raw[:opening + 1] + f'"{key}":{json.dumps(value)},'.encode() + raw[opening + 1:]


def _equivalents(raw: bytes) -> dict[str, bytes]:
    """Encodings of the same record that json.loads reads as the same value (so its hash still matches)."""
    record = json.loads(raw)
    return {
        "duplicate key, top level": _dup_before(raw, "outcome", "allow"),
        "duplicate key, nested": _dup_before(raw, "revision", "forged"),
        "duplicate key, in a finding": _dup_before(raw, "level", "warn"),
        "spaces after separators": json.dumps(record, sort_keys=True).encode(),
        "keys in another order": json.dumps(dict(reversed(record.items())), separators=(",", ":")).encode(),
        "raw UTF-8 instead of \\u escapes": json.dumps(record, sort_keys=True, separators=(",", ":"),
                                                       ensure_ascii=False).encode(),
        "upper-case \\u escape": raw.replace(b"\\u00e9", b"\\u00E9"),
        "escaped letter": raw.replace(b'"review"', b'"r\\u0065view"', 1),
        "escaped slash": raw.replace(b".github/workflows", b".github\\/workflows"),
        "minus zero": raw.replace(b'"deletions":0', b'"deletions":-0'),
        "trailing space": raw + b" ",
        "trailing tab": raw + b"\t",
        "CRLF line end": raw + b"\r",
        "leading space": b" " + raw,
        "byte order mark": b"\xef\xbb\xbf" + raw,
    }


def test_every_equivalent_encoding_keeps_the_hash_but_fails_verify_at_its_line(tmp_path: Path) -> None:
    base = _log(tmp_path)
    lines = base.read_bytes().splitlines()
    assert all(parse_line(line).ok for line in lines)
    for index in range(3):
        for name, variant in _equivalents(lines[index]).items():
            if variant == lines[index]:
                continue  # this record has nothing to re-encode that way
            assert variant != lines[index], name
            reread = json.loads(variant)
            if "duplicate" not in name:
                assert record_hash(reread) == reread["hash"], name  # a hash-only verifier would pass it
            tampered = list(lines)
            tampered[index] = variant
            log = tmp_path / "t.jsonl"
            log.write_bytes(b"\n".join(tampered) + b"\n")
            problem = verify_log(log).problem
            assert problem is not None, name
            assert (problem.line, problem.kind) == (index + 1, "altered"), (name, problem)
            assert "not canonical" in problem.message, (name, problem.message)


def test_duplicate_key_that_flips_the_outcome_is_tampering(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reported bypass: `{"outcome":"allow",...,"outcome":"review",...}` on the review record."""
    log = _log(tmp_path)
    lines = log.read_bytes().splitlines()
    lines[1] = _dup_before(lines[1], "outcome", "allow")
    assert b'"outcome":"allow"' in lines[1] and b'"outcome":"review"' in lines[1]
    log.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["audit", "verify", str(log)]) == 1
    out = capsys.readouterr().out
    assert "line 2: altered: not canonical: duplicate key 'outcome'" in out
    assert main(["audit", "show", str(log)]) == 2
    assert "decisions.jsonl:2: not a decision record: not canonical: duplicate key 'outcome'" in capsys.readouterr().err


def test_any_single_inserted_white_space_byte_is_caught(tmp_path: Path) -> None:
    log = _log(tmp_path)
    lines = log.read_bytes().splitlines()
    rng = random.Random(7)
    for _ in range(60):
        index = rng.randrange(3)
        raw = lines[index]
        at = rng.randrange(len(raw) + 1)
        tampered = list(lines)
        tampered[index] = raw[:at] + rng.choice([b" ", b"\t", b"\r", b"\x0c"]) + raw[at:]
        log.write_bytes(b"\n".join(tampered) + b"\n")
        problem = verify_log(log).problem
        assert problem is not None and problem.line == index + 1, (at, problem)


def _forged(raw: bytes, text: str) -> bytes:
    """A line whose hash was recomputed the way a forger using Python's json would: over what json.loads read."""
    record = json.loads(text)
    body = {k: v for k, v in record.items() if k != "hash"}
    forged_hash = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    record["hash"] = __import__("hashlib").sha256(forged_hash).hexdigest()
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode()


@each_case(("name", "old", "new", "why"), [
    ("NaN", b'"deletions":0', b'"deletions":NaN', "NaN is not JSON"),
    ("Infinity", b'"deletions":0', b'"deletions":Infinity', "Infinity is not JSON"),
    ("-Infinity", b'"deletions":0', b'"deletions":-Infinity', "-Infinity is not JSON"),
    ("huge integer", b'"deletions":0', b'"deletions":1180591620717411303424', "beyond 2**53"),
    ("huge float", b'"deletions":0', b'"deletions":1e999', "out of range"),
    ("float for an integer", b'"deletions":0', b'"deletions":0.0', "not a decision record"),
])
def test_numbers_other_languages_read_differently_are_refused(tmp_path: Path, name: str, old: bytes, new: bytes,
                                                              why: str) -> None:
    log = _log(tmp_path)
    lines = log.read_bytes().splitlines()
    text = lines[0].replace(old, new)
    assert text != lines[0]
    try:
        lines[0] = _forged(lines[0], text.decode())
    except ValueError:
        lines[0] = text  # Python itself cannot re-serialise it (1e999): write the raw text
    if name == "float for an integer":
        lines[0] = text
    log.write_bytes(b"\n".join(lines) + b"\n")
    problem = verify_log(log).problem
    assert problem is not None and problem.line == 1, name
    assert "altered" in problem.message


@pytest.mark.parametrize("opener", [b"[", b'{"a":'])
def test_deep_nesting_is_a_broken_line_not_a_crash(tmp_path: Path, opener: bytes,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    lines = log.read_bytes().splitlines()
    depth = 200_000
    closer = b"]" if opener == b"[" else b"}"
    lines[1] = lines[1].replace(b'"findings":[', b'"findings":[' + opener * depth + b"1" + closer * depth + b",", 1)
    log.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["audit", "verify", str(log)]) == 1
    captured = capsys.readouterr()
    assert f"line 2: altered: nested {depth + 2} levels deep (a record has at most {MAX_DEPTH})" in captured.out
    for command in (["audit", "show", str(log)], ["audit", "stats", str(log)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "decisions.jsonl:2: not a decision record: nested" in err and "internal error" not in err
    with pytest.raises(AuditError, match="not a log record: nested"):
        log.write_bytes(b"\n".join(lines[:2]) + b"\n")
        append_decision(log, decision(9))


def test_nul_bytes_and_binary_are_refused(tmp_path: Path) -> None:
    log = _log(tmp_path)
    lines = log.read_bytes().splitlines()
    for variant in (lines[0].replace(b"core", b"co\x00re", 1), lines[0] + b"\x00", lines[0].replace(b"a", b"\xff", 1)):
        tampered = [variant, *lines[1:]]
        log.write_bytes(b"\n".join(tampered) + b"\n")
        problem = verify_log(log).problem
        assert problem is not None and (problem.line, problem.kind) == (1, "altered"), problem


def test_an_overlong_line_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    log = _log(tmp_path)
    lines = log.read_bytes().splitlines()
    with log.open("wb") as handle:
        handle.write(lines[0] + b"\n")
        handle.write(b'{"pad":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n')
        handle.write(lines[1] + b"\n" + lines[2] + b"\n")
    problem = verify_log(log).problem
    assert problem is not None and problem.line == 2 and "longer than" in problem.message
    assert problem.kind == "inserted"  # the chain steps over it: records 1, 2, 3 are all there


def test_canonical_refuses_to_write_nan() -> None:
    with pytest.raises(ValueError):
        canonical({"x": float("nan")})


def _nested(depth: int) -> object:
    value: object = "deep"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("extra", [{"data": _nested(40)}, {"data": 2**64}, {"data": float("nan")}])
def test_a_record_verify_would_refuse_is_never_written(tmp_path: Path, extra: dict) -> None:
    """A policy's finding with odd data must not break the chain for every later reader: the gate refuses it."""
    log = _log(tmp_path)
    before = log.read_bytes()
    bad = decision(7, outcome="review", rules=("core.ci",))
    bad["reasons"][0].update(extra)
    with pytest.raises(AuditError, match="decision cannot be logged"):
        append_decision(log, bad)
    assert log.read_bytes() == before and verify_log(log).ok


def test_a_hostile_head_file_is_exit_2_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    for text in ("[" * 100_000, "{}" + " " * 10_000):
        (tmp_path / "saved.head").write_text(text)
        assert main(["audit", "verify", str(log), "--head-file", str(tmp_path / "saved.head")]) == 2
        err = capsys.readouterr().err
        assert "not valid JSON with seq and hash" in err and "internal error" not in err


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(value=_JSON, junk=st.binary(max_size=12), at=st.integers(0, 10_000))
def test_the_reader_never_raises_and_accepts_only_canonical_bytes(value: object, junk: bytes, at: int) -> None:
    """Any bytes: a verdict, never an exception; an accepted line re-serialises to itself."""
    try:
        raw = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    except ValueError:
        raw = b"[]"
    at %= len(raw) + 1
    for line in (raw, raw[:at] + junk + raw[at:]):
        parsed = parse_line(line)
        # A record comes back only for canonical bytes (a canonical object missing fields included).
        if parsed.record is not None:
            assert canonical(parsed.record) == line
        assert parsed.ok == (parsed.record is not None and parsed.reason is None)
