"""Hardening 50: a decision log the checkout's commit holds, extended by a gate run without --tree.

Red team 49 refused (exit 2) under --tree a `--log` file BASE's or HEAD's tree holds: its earlier records would be
the change's own, chained as it likes (the chain has no key). With a packet and a patch alone the gate still
appended to it: in a CI checkout of the pull request, `decisions.jsonl` committed by the change opened the chain.
Now, without --tree, a log (or its `.head` file) that the commit checked out in the log's own repository holds
(git's HEAD there, git the truth) is refused the same way; a log the job creates, one outside any repository, or a
tracked file of the same name in another folder are appended as before.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gatekeeper.errors import ExitCode
from tests.gitrepo import GitRepo
from tests.incli import packet_patch_and_chain, run_cli


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, bytes]:
    """(packet, patch, an intact chain the gate wrote elsewhere: what a change can commit)."""
    return packet_patch_and_chain(tmp_path_factory.mktemp("inputs"))


def _checkout(root: Path, committed: dict[str, bytes]) -> GitRepo:
    repo = GitRepo(root)
    repo.write("README.md", "x\n")
    for path, data in committed.items():
        repo.write(path, data)
    repo.commit("pr")
    return repo


def _gate(inputs: tuple[Path, Path, bytes], log: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    packet, patch, _ = inputs
    done = run_cli(["gate", str(packet), "--patch", str(patch), "--log", log], cwd=cwd, text=True)
    assert isinstance(done.stdout, str)
    return done  # type: ignore[return-value]


@pytest.mark.parametrize(("committed", "log", "cwd"), [
    ("decisions.jsonl", "decisions.jsonl", "."),
    ("logs/decisions.jsonl", "logs/decisions.jsonl", "."),
    ("logs/decisions.jsonl", "logs/../logs/decisions.jsonl", "."),
    ("logs/decisions.jsonl", "ABSOLUTE/logs/decisions.jsonl", "."),
    ("logs/decisions.jsonl", "decisions.jsonl", "logs"),
    ("logs/decisions.jsonl", "../logs/decisions.jsonl", "src"),
    ("decisions.jsonl", "ABSOLUTE/decisions.jsonl", "OUTSIDE"),
    ("decisions.jsonl.head", "decisions.jsonl", "."),
    ("deep/a/b/decisions.jsonl", "deep/a/b/decisions.jsonl", "."),
])
def test_a_log_the_checked_out_commit_holds_is_refused(tmp_path: Path, inputs: tuple[Path, Path, bytes],
                                                       committed: str, log: str, cwd: str) -> None:
    data = b"1 0000\n" if committed.endswith(".head") else inputs[2]
    repo = _checkout(tmp_path / "repo", {committed: data, "src/keep": b"x\n"})
    (tmp_path / "outside").mkdir()
    where = tmp_path / "outside" if cwd == "OUTSIDE" else repo.root / cwd
    done = _gate(inputs, log.replace("ABSOLUTE", str(repo.root)), where)
    assert done.returncode == ExitCode.ERROR, (done.returncode, done.stdout, done.stderr)
    assert "decision log" in done.stderr
    assert (repo.root / committed).read_bytes() == data  # nothing appended
    assert not (repo.root / (committed + ".head")).exists() or committed.endswith(".head")


@pytest.mark.parametrize("log", ["decisions.jsonl", "out/decisions.jsonl", "OUTSIDE", "NOREPO"])
def test_a_log_the_job_keeps_is_appended(tmp_path: Path, inputs: tuple[Path, Path, bytes], log: str) -> None:
    # Look-alikes: a tracked file of the same name in another folder; a log the job creates in the checkout (untracked);
    # one outside the checkout; one in a folder no repository holds.
    repo = _checkout(tmp_path / "repo", {"other/decisions.jsonl": inputs[2]})
    (repo.root / "out").mkdir()
    (tmp_path / "norepo").mkdir()
    target = {"OUTSIDE": str(tmp_path / "outside.jsonl"), "NOREPO": str(tmp_path / "norepo" / "d.jsonl")}.get(log, log)
    done = _gate(inputs, target, repo.root)
    assert done.returncode in (ExitCode.OK, ExitCode.REVIEW), done.stderr
    written = Path(target) if log in ("OUTSIDE", "NOREPO") else repo.root / log
    assert written.read_bytes().count(b"\n") == 1
    assert (repo.root / "other/decisions.jsonl").read_bytes() == inputs[2]
