"""catfile.shared_processes: within a command, the readers of one repository take over one `git cat-file` process."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper import catfile
from gatekeeper.catfile import CatFile, shared_processes
from gatekeeper.gitcmd import scrubbed_git_env
from gatekeeper.gitobjects import GitObjects


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """Every cat-file process the readers start."""
    processes: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        process: subprocess.Popen[bytes] = real(*args, **kwargs)
        if "cat-file" in args[0]:
            processes.append(process)
        return process

    monkeypatch.setattr(catfile.subprocess, "Popen", popen)
    return processes


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    made, base, head = two_commits(tmp_path_factory.mktemp("catfile") / "r", {"a.txt": "one\n"}, {"a.txt": "two\n"})
    return made.root, base, head


def test_outside_a_block_each_reader_ends_its_own(repo: tuple[Path, str, str],
                                                   started: list[subprocess.Popen[bytes]]) -> None:
    root, base, head = repo
    for commit in (base, head):
        with GitObjects(root) as objects:
            assert objects.blob(objects.tree(commit)["a.txt"].oid).endswith(b"\n")  # blobs are never cached
    assert len(started) == 2 and all(p.returncode is not None for p in started)


def test_inside_a_block_the_next_reader_takes_the_process_over_and_the_block_ends_it(
        repo: tuple[Path, str, str], started: list[subprocess.Popen[bytes]]) -> None:
    root, base, head = repo
    with shared_processes():
        with GitObjects(root) as first:
            old = first.blob(first.tree(base)["a.txt"].oid)
        with GitObjects(root) as second:
            new = second.blob(second.tree(head)["a.txt"].oid)
        assert len(started) == 1 and started[0].poll() is None  # left for a next reader
    assert (old, new) == (b"one\n", b"two\n")
    assert started[0].returncode is not None  # nothing outlives the block


def test_a_process_that_died_or_was_left_mid_answer_is_never_taken_over(
        repo: tuple[Path, str, str], started: list[subprocess.Popen[bytes]]) -> None:
    root, base, _ = repo
    env = scrubbed_git_env()
    with shared_processes():
        dead = CatFile(root, env)
        dead.read(base.encode())
        started[0].kill()
        started[0].wait()
        dead.close()
        busy = CatFile(root, env)
        busy.read(base.encode())
        busy._busy = True  # as a read that raised half way through its answers leaves it
        busy.close()
        after = CatFile(root, env)
        header, _ = after.read(base.encode())
        after.close()
    assert header.split()[1] == b"commit"
    assert len(started) == 3 and all(p.returncode is not None for p in started)


def test_a_thread_started_in_the_block_keeps_its_own(repo: tuple[Path, str, str],
                                                      started: list[subprocess.Popen[bytes]]) -> None:
    # The gate's tree check runs in a thread beside the readers of the main one: they never share a process.
    root, base, _ = repo
    with shared_processes():
        with GitObjects(root) as objects:
            objects.blob(objects.tree(base)["a.txt"].oid)
        seen: list[int] = []

        def other() -> None:
            with GitObjects(root) as mine:
                mine.blob(mine.tree(base)["a.txt"].oid)
            seen.append(len(started))

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert seen == [2] and started[1].returncode is not None and started[0].poll() is None
    assert started[0].returncode is not None


def test_a_tree_gate_reads_through_one_process(repo: tuple[Path, str, str],
                                               started: list[subprocess.Popen[bytes]]) -> None:
    # The range's ancestry walk, BASE's configuration and the tree context: three readers, one process.
    root, base, head = repo
    code, decision = tree_gate(root, base, head)
    assert code in (0, 3) and decision["outcome"] in ("allow", "review")
    assert len(started) == 1 and started[0].returncode is not None
