"""The human rendering of a packet: one summary line, one line per file, odd names escaped."""

from __future__ import annotations

from typing import Any

from gatekeeper.packet_text import render_text, summary
from gatekeeper.readable import printable


def _packet(files: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "run_id": "r-1",
        "diff": {"file_count": len(files), "additions": 3, "deletions": 1, "sha256": "ab" * 32},
        "blast_radius": {"ci": {"files": 1}, "iac": {"files": 0}, "src": {"files": len(files) - 1}},
        "files": files,
    }


def _file(path: str, **extra: Any) -> dict[str, Any]:
    entry = {"path": path, "old_path": None, "status": "modified", "bucket": "src", "binary": False}
    return {**entry, "additions": 1, "deletions": 0, **extra}


def test_summary_names_only_buckets_with_files() -> None:
    line = summary(_packet([_file("a.py"), _file(".github/workflows/x.yml", bucket="ci")]))
    assert line == f"run r-1: 2 files, +3 -1 (ci 1, src 1), sha256 {'ab' * 32}"
    assert "(no files)" in summary(_packet([]) | {"blast_radius": {"src": {"files": 0}}})


def test_one_line_per_file_with_renames_and_binaries() -> None:
    text = render_text(_packet([_file("new.txt", old_path="old.txt", status="renamed"), _file("b.bin", binary=True)]))
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == 3
    assert lines[1].split() == ["renamed", "src", "+1", "-0", "old.txt", "->", "new.txt"]
    assert lines[2].split() == ["modified", "src", "binary", "b.bin"]


def test_control_characters_and_undecodable_bytes_are_escaped() -> None:
    name = b"x\n\x1b[31m\xff.txt".decode("utf-8", "surrogateescape")
    assert printable(name) == "x\\n\\x1b[31m\\xff.txt"
    assert "\n" not in render_text(_packet([_file(name)])).splitlines()[1]
    assert printable("caf\u00e9.txt") == "caf\u00e9.txt"
