"""The processes below one, read from /proc: what a test of process isolation checks is left behind."""

from __future__ import annotations

from pathlib import Path


def living_children(pid: int) -> list[int]:
    """Processes whose parent is `pid`, zombies (exited, not reaped yet) left out."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def gone(pid: int) -> bool:
    """Whether `pid` has ended (a zombie, or reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] in ("Z", "X")
    except OSError:
        return True
