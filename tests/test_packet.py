"""Packet building: derive (hash + parse + classify in one pass), build_packet, and `gatekeeper packet`."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest
from diffcheck import BUNDLE_REVISION, make_bundle
from gitrepo import GitRepo

from gatekeeper.classify import load_rules
from gatekeeper.cli import main
from gatekeeper.errors import PatchError
from gatekeeper.packet import build_packet, derive, write_packet
from gatekeeper.verify import validate_packet

RFC3339_OFFSET = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")

CHECKPOINTS = [{"seq": 1, "at": "2026-01-01T00:00:00+00:00", "sha256": "a" * 64, "bytes": 10}]


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return make_bundle(tmp_path / "bundle")


@pytest.fixture
def patch(git_repo: GitRepo, tmp_path: Path) -> Path:
    git_repo.write("src/app.py", "a = 1\n")
    git_repo.write(".github/workflows/ci.yml", "on: push\n")
    git_repo.write("old.txt", "x\n" * 30)
    git_repo.commit()
    git_repo.write("src/app.py", "a = 2\nb = 3\n")
    git_repo.write(".github/workflows/ci.yml", "on: [push, pull_request]\n")
    git_repo.write(b"data/\xff\xfe.bin", b"\0\1")
    os.rename(git_repo.root / "old.txt", git_repo.root / "new.txt")
    return git_repo.save_patch(tmp_path / "change.diff")


def test_derive_hashes_parses_and_classifies(patch: Path, bundle: Path) -> None:
    rules = load_rules(bundle)
    derived = derive(patch, rules)
    data = patch.read_bytes()
    assert derived.sha256 == hashlib.sha256(data).hexdigest() and derived.bytes == len(data)
    assert [f.change.path for f in derived.files] == [
        ".github/workflows/ci.yml",
        os.fsdecode(b"data/\xff\xfe.bin"),
        "new.txt",
        "src/app.py",
    ]
    assert derived.diff == {
        "sha256": derived.sha256,
        "bytes": len(data),
        "file_count": 4,
        "additions": 3,
        "deletions": 2,
    }
    assert derived.files[0].bucket == "ci"
    assert derived.blast_radius["ci"] == {"files": 1, "additions": 1, "deletions": 1}
    assert sum(t["files"] for t in derived.blast_radius.values()) == 4
    assert sum(t["additions"] for t in derived.blast_radius.values()) == 3
    assert derived.unsafe == ()


def test_build_packet_fields(patch: Path, bundle: Path) -> None:
    rules = load_rules(bundle)
    packet = build_packet(
        derive(patch, rules), rules, model_requested="m-large", bundle_revision="rev-1", checkpoints=CHECKPOINTS
    )
    assert validate_packet(packet, "p") is packet
    assert packet["schema_version"] == 1
    assert RFC3339_OFFSET.match(packet["created_at"])
    assert re.fullmatch(r"\d{8}T\d{6}Z-[0-9a-f]{8}", packet["run_id"])
    assert packet["model"] == {"requested": "m-large", "reported": None, "reported_by": None}
    assert packet["sandbox"] == {"backend": "none", "network": "unknown", "egress_checked": False, "env_passed": []}
    assert packet["classifier"] == {"bundle_revision": "rev-1", "rules_digest": rules.digest, "context": "patch"}
    assert packet["files"][2]["old_path"] == "old.txt" and packet["files"][2]["status"] == "renamed"
    assert packet["checkpoints"] == CHECKPOINTS
    assert packet["diff"]["file_count"] == len(packet["files"])
    other = build_packet(derive(patch, rules), rules)
    assert other["run_id"] != packet["run_id"]


def test_build_packet_refuses_unsafe_paths(git_repo: GitRepo, tmp_path: Path, bundle: Path) -> None:
    git_repo.write("ok.txt", "1\n")
    git_repo.write("hook.txt", "1\n")
    git_repo.commit()
    git_repo.write("ok.txt", "2\n")
    git_repo.write("hook.txt", "2\n")
    bad = tmp_path / "bad.diff"
    bad.write_bytes(git_repo.staged_patch().replace(b"hook.txt", b".git/hooks/post-checkout"))
    rules = load_rules(bundle)
    derived = derive(bad, rules)
    assert [c.path for c in derived.unsafe] == [".git/hooks/post-checkout"]
    with pytest.raises(PatchError) as info:
        build_packet(derived, rules)
    assert info.value.where == f"{bad}:1" and ".git/hooks/post-checkout" in info.value.what


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prints_packet_json(patch: Path, bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "packet", patch, "--policy", bundle, "--run-id", "run-42", "--model-requested", "m1")
    assert code == 0 and err == ""
    packet = json.loads(out)
    validate_packet(packet, "stdout")
    assert packet["run_id"] == "run-42"
    assert packet["classifier"]["bundle_revision"] == BUNDLE_REVISION
    assert packet["files"][1]["path"] == os.fsdecode(b"data/\xff\xfe.bin")  # surrogate escapes survive JSON
    assert out.isascii()


def test_cli_writes_packet_atomically(
    patch: Path, bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "out" / "packet.json"
    code, out, _ = _run(capsys, "packet", patch, "--policy", bundle, "--out", out_file, "--model-reported", "m2")
    assert code == 0
    note = json.loads(out)
    assert note["packet"] == str(out_file.resolve()) and note["file_count"] == 4
    packet = json.loads(out_file.read_text())
    assert packet["model"] == {"requested": None, "reported": "m2", "reported_by": "command-line"}
    assert sorted(p.name for p in out_file.parent.iterdir()) == ["packet.json"]  # no temp file left behind
    code, out, _ = _run(capsys, "packet", patch, "--policy", bundle, "--out", out_file, "--format", "text")
    assert code == 0 and out.startswith(f"{out_file}: run ") and "4 files, +3 -2" in out


def test_cli_text_summary(patch: Path, bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "packet", patch, "--policy", bundle, "--format", "text")
    assert code == 0
    assert "renamed" in out and "old.txt -> new.txt" in out and "\\xff" in out


def test_cli_refuses_unsafe_and_writes_nothing(
    git_repo: GitRepo, tmp_path: Path, bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git_repo.write("a.txt", "1\n")
    git_repo.commit()
    git_repo.write("a.txt", "2\n")
    bad = tmp_path / "bad.diff"
    bad.write_bytes(
        git_repo.staged_patch()
        .replace(b"a/a.txt", b"a/../../etc/cron.d/x")
        .replace(b"b/a.txt", b"b/../../etc/cron.d/x")
    )
    out_file = tmp_path / "packet.json"
    code, out, err = _run(capsys, "packet", bad, "--policy", bundle, "--out", out_file)
    assert code == 2 and out == ""
    assert f"{bad}:1: unsafe path '../../etc/cron.d/x'" in err and "Traceback" not in err
    assert not out_file.exists()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"not a patch\n", ":1: not a git patch"),
        (b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n", ":6: the patch ends inside a hunk"),
    ],
)
def test_cli_malformed_patch(
    tmp_path: Path, bundle: Path, capsys: pytest.CaptureFixture[str], content: bytes, expected: str
) -> None:
    bad = tmp_path / "bad.diff"
    bad.write_bytes(content)
    code, out, err = _run(capsys, "packet", bad, "--policy", bundle, "--out", tmp_path / "p.json")
    assert code == 2 and out == "" and expected in err
    assert err.count("\n") == 1 and not (tmp_path / "p.json").exists()


def test_cli_bad_arguments(patch: Path, bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "packet", patch, "--policy", bundle, "--run-id", "../escape")
    assert code == 2 and "--run-id" in err
    code, _, err = _run(capsys, "packet", tmp_path / "missing.diff", "--policy", bundle)
    assert code == 2 and "missing.diff" in err and "cannot read" in err
    code, _, err = _run(capsys, "packet", patch, "--policy", tmp_path)
    assert code == 2 and "not a policy bundle" in err


def test_empty_patch_makes_an_empty_packet(tmp_path: Path, bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.diff"
    empty.write_bytes(b"")
    code, out, _ = _run(capsys, "packet", empty, "--policy", bundle)
    packet = json.loads(out)
    assert code == 0 and packet["files"] == [] and packet["diff"]["file_count"] == 0
    assert packet["diff"]["sha256"] == hashlib.sha256(b"").hexdigest()


def test_write_packet_round_trips(patch: Path, bundle: Path, tmp_path: Path) -> None:
    rules = load_rules(bundle)
    packet = build_packet(derive(patch, rules), rules, run_id="r1")
    target = tmp_path / "p.json"
    write_packet(target, packet)
    assert json.loads(target.read_text("ascii")) == packet
