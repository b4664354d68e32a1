"""A packet for people: the one-line summary and one line per file that `gatekeeper packet --format text` prints."""

from __future__ import annotations

from typing import Any

from gatekeeper.readable import count, printable


def summary(built: dict[str, Any]) -> str:
    """`run ID: N files, +A -D (bucket counts), sha256 ...` for a packet."""
    diff = built["diff"]
    radius = ", ".join(
        f"{bucket} {totals['files']}" for bucket, totals in built["blast_radius"].items() if totals["files"]
    )
    return (
        f"run {built['run_id']}: {count(diff['file_count'], 'file')}, +{diff['additions']} -{diff['deletions']}"
        f" ({radius or 'no files'}), sha256 {diff['sha256']}"
    )


def render_text(built: dict[str, Any]) -> str:
    """The summary line, then status, bucket, counts and path of every file (ends in a newline)."""
    return "\n".join([summary(built), *(_file_line(entry) for entry in built["files"])]) + "\n"


def _file_line(entry: dict[str, Any]) -> str:
    counts = "binary" if entry["binary"] else f"+{entry['additions']} -{entry['deletions']}"
    path = entry["path"] if entry["old_path"] is None else f"{entry['old_path']} -> {entry['path']}"
    return f"  {entry['status']:<12} {entry['bucket']:<5} {counts:<12} {printable(path)}"
