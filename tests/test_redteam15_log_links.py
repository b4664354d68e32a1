"""Red team: a decision log path that is a symbolic link (or no regular file) is refused, never written through.

The log often lies in the checkout (gatekeeper.yaml `log:` is relative to it), and under `--tree` the working tree
is the pull request's: a `decisions.jsonl` committed as a link made the gate create a file wherever the link
pointed (a dangling link) or append a record to whatever empty file or other log it named. Held before: a FIFO,
a device and a folder were refused (exit 2) without a half-written record.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from incli import run_cli
from tables import each_case

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policies"
PATCH = ROOT / "fixtures" / "ci-workflow" / "patch.diff"


def _gate(work: Path, log: Path | str) -> tuple[int, str]:
    """A gate of the CI fixture's patch (exit 3: review) logging to `log`, run in `work`."""
    if not (work / "packet.json").exists():
        shutil.copyfile(PATCH, work / "patch.diff")
        made = run_cli(["packet", "patch.diff", "--out", "packet.json", "--policy", str(POLICY_DIR)], cwd=work)
        assert made.returncode == 0
    done = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--policy", str(POLICY_DIR), "--log", str(log)],
                   cwd=work, text=True)
    return done.returncode, str(done.stderr)


@each_case("kind", ["dangling-outside", "empty-file", "another-log", "relative-up", "link-to-link"])
def test_a_linked_log_is_refused_and_nothing_is_written_through_it(tmp_path: Path, kind: str) -> None:
    work, outside = tmp_path / "checkout", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    target = outside / "planted.jsonl"
    if kind == "empty-file":
        target.write_bytes(b"")
    elif kind == "another-log":
        assert _gate(outside, target)[0] == 3
    before = target.read_bytes() if target.exists() else None
    link = work / "decisions.jsonl"
    if kind == "relative-up":
        link.symlink_to(os.path.relpath(target, work))
    elif kind == "link-to-link":
        (outside / "hop.jsonl").symlink_to(target)
        link.symlink_to(outside / "hop.jsonl")
    else:
        link.symlink_to(target)
    code, stderr = _gate(work, "decisions.jsonl")
    assert code == 2 and "link" in stderr, stderr
    assert (target.read_bytes() if target.exists() else None) == before
    assert link.is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_log_that_is_no_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    log = tmp_path / "decisions.jsonl"
    if kind == "fifo":
        os.mkfifo(log)
    elif kind == "folder":
        log.mkdir()
    else:
        log = Path("/dev/null")
    code, stderr = _gate(tmp_path, log)
    assert code == 2 and ("decision log" in stderr or "--log" in stderr), stderr
    assert kind != "fifo" or log.exists()


def test_a_plain_log_in_a_linked_folder_still_appends(tmp_path: Path) -> None:
    """Only the log file itself must not be a link: a linked folder (a mounted volume) is the CI owner's choice."""
    real = tmp_path / "volume"
    real.mkdir()
    (tmp_path / "audit").symlink_to(real)
    assert _gate(tmp_path, Path("audit") / "decisions.jsonl")[0] == 3
    assert json.loads((real / "decisions.jsonl").read_text())["seq"] == 1
