"""Red team 16: a gate whose standard output cannot take the report.

The exit code is the gate's answer (0 allow, 1 deny, 3 review, 2 could not decide), and a report that cannot be
written is "could not decide" with one line saying so. Before:
- a pipe whose reader had gone (`gatekeeper gate ... | head -c0`, a CI step's log collector that died): click
  turned the EPIPE into `sys.exit(1)` — the deny code, on a review (or an allow), and no message;
- a full device (`>/dev/full`): exit 2, but as "internal error: OSError ... (this is a bug)";
- a closed standard output (`>&-`): exit 2, "internal error: AttributeError ... (this is a bug)", even with
  `--output FILE`, where standard output is not needed: the engine's fork flushed a stream that is not there.

The CLI boundary is what is tested: each case is one `python -m gatekeeper` process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def review_repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    """A pull request the default bundle sends to review (a workflow)."""
    repo = GitRepo(tmp_path_factory.mktemp("stdout") / "repo")
    repo.write("README.md", "x\n")
    repo.commit("base")
    repo.write(".github/workflows/ci.yml", "on: push\njobs: {}\n")
    repo.commit("head")
    return repo


def _gate(repo: GitRepo, *extra: str, **popen: object) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "gatekeeper", "gate", "--tree", "main~1..main", "--repo",
                           str(repo.root), "--format", "json", *extra], env=env, stderr=subprocess.PIPE,
                          check=False, **popen)  # type: ignore[call-overload]


def _one_error(done: subprocess.CompletedProcess[bytes]) -> str:
    err = done.stderr.decode()
    assert done.returncode == 2, (done.returncode, err)
    assert "internal error" not in err and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith("gatekeeper: error:"), err
    return lines[0]


def test_a_pipe_without_a_reader_is_exit_2(review_repo: GitRepo) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the gate writes: every write is EPIPE
    try:
        done = _gate(review_repo, stdout=write_end)
    finally:
        os.close(write_end)
    assert "standard output" in _one_error(done)


def test_a_full_device_is_exit_2(review_repo: GitRepo) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "wb") as full:
        done = _gate(review_repo, stdout=full)
    assert "standard output" in _one_error(done)


def test_a_closed_standard_output(review_repo: GitRepo, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    # With --output the report does not need standard output: the gate decides as ever.
    done = _gate(review_repo, "--output", str(report), preexec_fn=lambda: os.close(1))
    assert done.returncode == 3, done.stderr.decode()
    assert '"outcome": "review"' in report.read_text()
    assert "standard output" in _one_error(_gate(review_repo, preexec_fn=lambda: os.close(1)))
