"""Red team 49: a decision log the change under review committed, extended by the gate as its own.

The hash chain proves that no record of a log was changed after it was written; it cannot prove who wrote the
records before the gate's. A `--log` file (or the action's `log` input) in the checkout that the pull request's
commits hold is the change's own text: it could open with any records it likes, chained correctly (the chain has
no key), and the gate appended its decision after them: `audit verify` said "intact" for a history the change
wrote. Under --tree the gate now refuses (exit 2) a log, or its head file, that BASE's or HEAD's tree holds;
a log the job creates in the checkout (untracked) or keeps outside it is appended as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.errors import ExitCode
from tests.gitrepo import GitRepo
from tests.incli import run_cli


def _forged_chain(tmp: Path) -> bytes:
    """A real, intact chain written by the gate elsewhere: what a change can commit."""
    repo = GitRepo(tmp / "elsewhere")
    repo.write("README.md", "x\n")
    repo.commit("base")
    log = tmp / "elsewhere.jsonl"
    done = run_cli(["gate", "--tree", "main..main", "--repo", str(repo.root), "--log", str(log)], text=True)
    assert done.returncode == 0, done.stderr
    return log.read_bytes()


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return _forged_chain(tmp_path_factory.mktemp("chain"))


def _pull_request(root: Path, committed: dict[str, bytes], *, in_base: bool = False) -> GitRepo:
    repo = GitRepo(root)
    repo.write("README.md", "x\n")
    if in_base:
        for path, data in committed.items():
            repo.write(path, data)
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("src/app.py", "print(1)\n")
    if not in_base:
        for path, data in committed.items():
            repo.write(path, data)
    repo.commit("pr")
    return repo


@pytest.mark.parametrize(("committed", "log", "in_base"), [
    ({"decisions.jsonl": None}, "decisions.jsonl", False),
    ({"logs/decisions.jsonl": None}, "logs/decisions.jsonl", False),
    ({"logs/decisions.jsonl": None}, "logs/../logs/decisions.jsonl", False),
    ({"logs/decisions.jsonl": None}, "ABSOLUTE/logs/decisions.jsonl", False),
    ({"decisions.jsonl.head": b"1 0000\n"}, "decisions.jsonl", False),
    ({"decisions.jsonl": None}, "decisions.jsonl", True),
])
def test_a_log_the_repository_holds_is_refused(tmp_path: Path, chain: bytes, committed: dict[str, bytes | None],
                                               log: str, in_base: bool) -> None:
    files = {path: chain if data is None else data for path, data in committed.items()}
    repo = _pull_request(tmp_path / "repo", files, in_base=in_base)
    target = log.replace("ABSOLUTE", str(repo.root))
    before = {path: (repo.root / path).read_bytes() for path in files}
    done = run_cli(["gate", "--tree", "main..pr", "--log", target], cwd=repo.root, text=True)
    assert done.returncode == ExitCode.ERROR, (done.returncode, done.stdout, done.stderr)
    assert "decision log" in str(done.stderr)
    assert {path: (repo.root / path).read_bytes() for path in files} == before  # nothing appended


@pytest.mark.parametrize("log", ["decisions.jsonl", "out/decisions.jsonl", "OUTSIDE"])
def test_a_log_the_job_keeps_is_appended(tmp_path: Path, chain: bytes, log: str) -> None:
    # Look-alikes: a tracked file of the same name elsewhere; a log the job creates; one outside the checkout.
    repo = _pull_request(tmp_path / "repo", {"other/decisions.jsonl": chain})
    (repo.root / "out").mkdir()
    target = str(tmp_path / "outside.jsonl") if log == "OUTSIDE" else log
    done = run_cli(["gate", "--tree", "main..pr", "--log", target], cwd=repo.root, text=True)
    assert done.returncode in (ExitCode.OK, ExitCode.REVIEW), done.stderr
    written = Path(target) if log == "OUTSIDE" else repo.root / log
    assert written.read_bytes().count(b"\n") == 1
