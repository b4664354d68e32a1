"""Review 67b: a decision log the change holds, named through a symlinked folder of the checkout. `--log
logs/decisions.jsonl` with the tracked link `logs -> data` appends to the tracked `data/decisions.jsonl`: the records
before the gate's are the change's own. check_log_place asked git for the spelling given only (`logs/decisions.jsonl`,
which no tree holds) and appended, with --tree and without it. Each spelling of the path inside the checkout (as
given, and as the kernel resolves it) is asked now; a log outside, or a tracked file of another name, still passes."""

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


# (the tracked log, the tracked links (path: target), the --log given, the folder the gate runs in)
SPELLINGS = [
    ("data/decisions.jsonl", {"logs": "data"}, "logs/decisions.jsonl", "."),
    ("data/decisions.jsonl", {"logs": "data"}, "decisions.jsonl", "logs"),
    ("data/decisions.jsonl", {"logs": "./data"}, "./logs/./decisions.jsonl", "."),
    ("deep/a/decisions.jsonl", {"logs": "deep/a", "l2": "logs"}, "l2/decisions.jsonl", "."),
    ("data/decisions.jsonl", {"src/up": "../data"}, "up/decisions.jsonl", "src"),
    ("data/decisions.jsonl", {"logs": "data"}, "ABSOLUTE/logs/decisions.jsonl", "."),
    ("data/decisions.jsonl.head", {"logs": "data"}, "logs/decisions.jsonl", "."),
]


def _checkout(root: Path, committed: str, data: bytes, links: dict[str, str]) -> GitRepo:
    repo = GitRepo(root)
    repo.write("README.md", "x\n")
    repo.write(committed, data)
    repo.write("src/keep", "x\n")
    for path, target in links.items():
        repo.symlink(path, target)
    repo.commit("pr")
    return repo


def _gate(inputs: tuple[Path, Path, bytes], args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = run_cli(["gate", *args], cwd=cwd, text=True)
    assert isinstance(done.stdout, str)
    return done  # type: ignore[return-value]


@pytest.mark.parametrize(("committed", "links", "log", "cwd"), SPELLINGS)
def test_a_tracked_log_through_a_symlinked_folder_is_refused_without_tree(
        tmp_path: Path, inputs: tuple[Path, Path, bytes], committed: str, links: dict[str, str], log: str,
        cwd: str) -> None:
    data = b"1 0000\n" if committed.endswith(".head") else inputs[2]
    repo = _checkout(tmp_path / "repo", committed, data, links)
    packet, patch, _ = inputs
    done = _gate(inputs, [str(packet), "--patch", str(patch), "--log", log.replace("ABSOLUTE", str(repo.root))],
                 repo.root / cwd)
    assert done.returncode == ExitCode.ERROR, (done.returncode, done.stdout, done.stderr)
    assert "decision log" in done.stderr
    assert (repo.root / committed).read_bytes() == data  # nothing appended


@pytest.mark.parametrize(("committed", "links", "log", "cwd"), SPELLINGS[:2] + SPELLINGS[-1:])
def test_a_tracked_log_through_a_symlinked_folder_is_refused_under_tree(
        tmp_path: Path, inputs: tuple[Path, Path, bytes], committed: str, links: dict[str, str], log: str,
        cwd: str) -> None:
    data = b"1 0000\n" if committed.endswith(".head") else inputs[2]
    repo = _checkout(tmp_path / "repo", committed, data, links)
    repo.write("src/app.py", "print(2)\n")
    repo.commit("change")
    done = _gate(inputs, ["--tree", "HEAD~1..HEAD", "--log", log], repo.root / cwd)
    assert done.returncode == ExitCode.ERROR, (done.returncode, done.stdout, done.stderr)
    assert "decision log" in done.stderr
    assert (repo.root / committed).read_bytes() == data


@pytest.mark.parametrize(("links", "log"), [({"logs": "data"}, "logs/other.jsonl"), ({"logs": "data"}, "data2/d.jsonl"),
                                            ({}, "logs/decisions.jsonl")])
def test_a_log_no_tree_holds_is_appended(tmp_path: Path, inputs: tuple[Path, Path, bytes], links: dict[str, str],
                                         log: str) -> None:
    repo = _checkout(tmp_path / "repo", "data/decisions.jsonl", inputs[2], links)
    packet, patch, _ = inputs
    done = _gate(inputs, [str(packet), "--patch", str(patch), "--log", log, "--log-init"], repo.root)
    assert done.returncode in (0, 3), (done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize("log", ["sub/decisions.jsonl", "sub/deep/decisions.jsonl", "ln/decisions.jsonl"])
def test_a_log_in_a_submodule_the_change_pins_is_refused_under_tree(tmp_path: Path, inputs: tuple[Path, Path, bytes],
                                                                   log: str) -> None:
    repo = _checkout(tmp_path / "repo", "README2.md", b"x\n", {"ln": "sub"})
    commit = repo.git("rev-parse", "HEAD").decode().strip()
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{commit},sub")
    repo.write("src/app.py", "print(2)\n")
    repo.git("add", "src/app.py")
    repo.git("commit", "-q", "-m", "change")
    (repo.root / "sub" / "deep").mkdir(parents=True)  # a checkout of the submodule: the change's own content
    (repo.root / "sub" / "decisions.jsonl").write_bytes(inputs[2])
    done = _gate(inputs, ["--tree", "HEAD~1..HEAD", "--log", log], repo.root)
    assert done.returncode == ExitCode.ERROR, (done.returncode, done.stdout, done.stderr)
    assert "decision log" in done.stderr
