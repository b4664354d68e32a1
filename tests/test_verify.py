"""`gatekeeper verify` and the packet schema: every claim is re-derived from the patch; every bad field is named."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from diffcheck import make_bundle
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.classify import load_rules
from gatekeeper.cli import main
from gatekeeper.errors import InputFileError, LimitError, PacketError
from gatekeeper.packet import build_packet, derive, write_packet
from gatekeeper.verify import compare, load_packet, validate_packet


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return make_bundle(tmp_path / "bundle")


@pytest.fixture
def patch(git_repo: GitRepo, tmp_path: Path) -> Path:
    git_repo.write("src/a.py", "1\n2\n")
    git_repo.write(".github/workflows/ci.yml", "on: push\n")
    git_repo.commit()
    git_repo.write("src/a.py", "1\ntwo\n3\n")
    git_repo.write(".github/workflows/ci.yml", "on: pull_request\n")
    git_repo.write(b"odd \xff name.txt", "x\n")
    return git_repo.save_patch(tmp_path / "change.diff")


@pytest.fixture
def packet(patch: Path, bundle: Path) -> dict[str, Any]:
    rules = load_rules(bundle)
    return build_packet(derive(patch, rules), rules, run_id="run-1")


def _verify(capsys: pytest.CaptureFixture[str], packet_file: Path, patch: Path, bundle: Path) -> tuple[int, str, str]:
    code = main(["verify", str(packet_file), "--patch", str(patch), "--policy", str(bundle)])
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_agrees(
    packet: dict[str, Any], patch: Path, bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "packet.json"
    write_packet(target, packet)
    code, out, err = _verify(capsys, target, patch, bundle)
    assert (code, err) == (0, "")
    assert "matches" in out and packet["diff"]["sha256"] in out


def test_verify_lists_every_difference(
    packet: dict[str, Any], patch: Path, bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packet["files"][0]["bucket"] = "src"  # the workflow file, claimed harmless
    packet["files"][2]["additions"] = 1
    packet["diff"]["additions"] = 3
    packet["blast_radius"]["ci"]["files"] = 0
    target = tmp_path / "packet.json"
    write_packet(target, packet)
    code, out, err = _verify(capsys, target, patch, bundle)
    assert code == 1 and out == ""  # differs: 1; cannot read: 2
    assert "files[0].bucket ('.github/workflows/ci.yml'): packet says 'src', patch shows 'ci'" in err
    assert "files[2].additions ('src/a.py'): packet says 1, patch shows 2" in err
    assert "diff.additions: packet says 3, patch shows 4" in err
    assert "blast_radius.ci.files: packet says 0, patch shows 1" in err
    assert "(4 differences, listed above)" in err and "Traceback" not in err


def test_verify_other_patch(
    packet: dict[str, Any], patch: Path, bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "packet.json"
    write_packet(target, packet)
    edited = tmp_path / "edited.diff"
    edited.write_bytes(patch.read_bytes().replace(b"+two", b"+TWO"))
    code, _, err = _verify(capsys, target, edited, bundle)
    assert code == 1 and "diff.sha256: packet says" in err and "1 difference," in err


def test_compare_file_list(packet: dict[str, Any], patch: Path, bundle: Path) -> None:
    derived = derive(patch, load_rules(bundle))
    assert compare(packet, derived) == []
    dropped = json.loads(json.dumps(packet))
    gone = dropped["files"].pop(1)
    assert f"files: the patch changes {gone['path']!r}, the packet does not list it" in compare(dropped, derived)
    extra = json.loads(json.dumps(packet))
    extra["files"].append(dict(extra["files"][0], path="invented.txt"))
    assert "files[3]: the packet lists 'invented.txt', the patch does not change it" in compare(extra, derived)
    twice = json.loads(json.dumps(packet))
    twice["files"].append(twice["files"][0])
    assert any("a second time" in d for d in compare(twice, derived))
    swapped = json.loads(json.dumps(packet))
    swapped["files"].reverse()
    assert compare(swapped, derived) == ["files: the packet lists the files in another order than the patch"]
    status = json.loads(json.dumps(packet))
    status["files"][2]["status"] = "added"
    assert compare(status, derived) == ["files[2].status ('src/a.py'): packet says 'added', patch shows 'modified'"]


def test_non_utf8_path_round_trips(packet: dict[str, Any], tmp_path: Path) -> None:
    target = tmp_path / "packet.json"
    write_packet(target, packet)
    assert "\\udcff" in target.read_text("ascii")
    assert load_packet(target)["files"][1]["path"] == os.fsdecode(b"odd \xff name.txt")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda p: p["files"][1].update(status="bogus"), "packet.json: files[1].status: 'bogus' is not one of ["),
        (lambda p: p["sandbox"].update(network="open"), "packet.json: sandbox.network: 'open' is not one of ["),
        (lambda p: p.update(schema_version=2), "packet.json: schema_version: 1 was expected"),
        (
            lambda p: p.update(runid="x"),
            "packet.json: $: Additional properties are not allowed ('runid' was unexpected)",
        ),
        (
            lambda p: p["diff"].update(bytes=2**60),
            "packet.json: diff.bytes: 1152921504606846976 is greater than the maximum",
        ),
        (
            lambda p: p.update(created_at="2026-01-01T00:00:00Z"),
            "packet.json: created_at: '2026-01-01T00:00:00Z' does not match",
        ),
        (lambda p: p["diff"].pop("sha256"), "packet.json: diff: 'sha256' is a required property"),
        (
            lambda p: p["blast_radius"]["ci"].update(files=-1),
            "packet.json: blast_radius.ci.files: -1 is less than the minimum",
        ),
        (
            lambda p: p["sandbox"].update(env_passed=["TOKEN=abc"]),
            "packet.json: sandbox.env_passed[0]: 'TOKEN=abc' does not match",
        ),
        (lambda p: p["sandbox"].update(backend="docker"), "packet.json: sandbox.backend: 'docker' is not one of ["),
        (
            lambda p: p.update(checkpoints=[{"seq": 1, "at": "2026-01-01T00:00:00+00:00", "bytes": 3}]),
            "packet.json: checkpoints[0]: 'sha256' is a required property",
        ),
    ],
)
def test_schema_errors_name_the_field(packet: dict[str, Any], tmp_path: Path, edit: Any, message: str) -> None:
    edit(packet)
    target = tmp_path / "packet.json"
    target.write_text(json.dumps(packet))
    with pytest.raises(PacketError) as info:
        load_packet(target)
    assert str(info.value).startswith(str(tmp_path / message))


@each_case(("content", "message"), [
        (b'{"a": 1,\n "a": 2}', "duplicate key 'a'"),
        (b'{"a": NaN}', "NaN is not valid JSON"),
        (b'{\n\n "a": }', "packet.json:3: not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[]", "packet.json: $: [] is not of type 'object'"),
        (b"[" * 100000 + b"]" * 100000, "packet.json:1: nested deeper than 64 levels"),
    ])
def test_unreadable_packets(tmp_path: Path, content: bytes, message: str) -> None:
    target = tmp_path / "packet.json"
    target.write_bytes(content)
    with pytest.raises((PacketError, LimitError)) as info:
        load_packet(target)
    assert message in str(info.value)


def test_missing_packet_and_cli_exit(
    tmp_path: Path, patch: Path, bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(InputFileError):
        load_packet(tmp_path / "nope.json")
    code, out, err = _verify(capsys, tmp_path / "nope.json", patch, bundle)
    assert code == 2 and out == "" and "nope.json: cannot read the packet" in err


def test_validate_packet_returns_the_object(packet: dict[str, Any]) -> None:
    assert validate_packet(packet, "x") is packet
    with pytest.raises(PacketError) as info:
        validate_packet({**packet, "files": [{"path": ""}]}, "x")
    assert str(info.value).startswith("x: files[0]")


def _mutations(packet: dict[str, Any]) -> list[dict[str, Any]]:
    """Packets that differ from a valid one in one value each, many of them invalid."""
    values: list[Any] = [None, True, 0, 1.0, -1, 2**54, "", "x", "bogus", [], {}, "100644", "a" * 5000, "\n"]
    out = []

    def walk(node: Any, path: list[Any]) -> None:
        keys = range(len(node)) if isinstance(node, list) else list(node) if isinstance(node, dict) else []
        for key in keys:
            for value in values:
                copy = json.loads(json.dumps(packet))
                target = copy
                for step in path:
                    target = target[step]
                target[key] = value
                out.append(copy)
            walk(node[key], [*path, key])

    walk(packet, [])
    return out


def test_fast_schema_check_never_accepts_what_jsonschema_rejects(packet: dict[str, Any]) -> None:
    from gatekeeper.schema_compiler import compile_schema
    from gatekeeper.schema_validation import validator
    from gatekeeper.verify import SCHEMA_FILE, schema

    fast = compile_schema(schema())
    assert fast(packet)
    mutants = _mutations(packet)
    rejected = 0
    for mutant in mutants:
        valid = validator(SCHEMA_FILE).is_valid(mutant)
        if fast(mutant):
            assert valid, mutant
        rejected += not valid
    assert rejected > len(mutants) // 2
