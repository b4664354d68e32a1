"""Attack 28: the runner's `git add` (outside the sandbox) lstats a work-tree file, then opens it, following links.

A generator that swaps a file (or a folder above it) for a link to a host file between the two, while a checkpoint
runs, had git read the host file into the checkpoint; a resume applies that checkpoint to the work tree the resumed
generator reads, and the final patch carries it. Reproduced with real git 2.39 and a flipping process: 1 checkpoint in
150 carried the host file (`/tmp/attack28/race_pre.py`, 5 and 50 flipped files). Now every staged regular file is read
again with no link followed in its path (gatekeeper/runner/stagecheck.py) and a snapshot that is not the work tree
fails (a checkpoint is skipped, the capture stops). The mechanism is checked deterministically below; the race itself
is run a bounded number of times (it cannot be forced, so that test guards, it does not prove).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.errors import RunError
from gatekeeper.runner import checkpoint, rundir, stagecheck, workspace

pytestmark = pytest.mark.usefixtures("runner_bundle")

SECRET = "TOP SECRET 28: only the host may read this\n"


def _run(tmp_path: Path) -> tuple[rundir.RunDir, workspace.Repository]:
    origin = GitRepo(tmp_path / "origin")
    origin.write("README.md", "# sample\n")
    origin.commit()
    run = rundir.create(tmp_path / "runs")
    return run, workspace.clone(workspace.repo_url(str(origin.root)), None, run)


def _stage(run: rundir.RunDir) -> dict[str, str]:
    """The runner's own checkpoint staging (its git folder and index), run once, and its environment."""
    env = workspace._local_env(run, {"GIT_DIR": str(run.snapshot_git), "GIT_COMMON_DIR": str(run.snapshot_git),
                                     "GIT_INDEX_FILE": str(run.checkpoint_index)})
    subprocess.run(["git", "read-tree", "HEAD"], cwd=run.workspace, env={**env, "GIT_DIR": str(run.workspace / ".git"),
                   "GIT_COMMON_DIR": str(run.workspace / ".git")}, check=True)
    subprocess.run(["git", "add", "-A"], cwd=run.workspace, env=env, check=True)
    return env


def _host_secret(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "host"
    folder.mkdir()
    (folder / name).write_text(SECRET)
    return folder


@pytest.mark.parametrize("change", ["content", "file-link", "folder-link", "fifo", "removed"])
def test_a_staged_file_that_is_not_the_work_tree_is_found(tmp_path: Path, change: str) -> None:
    run, repo = _run(tmp_path)
    (run.workspace / "sub").mkdir()
    (run.workspace / "sub" / "leak.txt").write_text(SECRET)  # staged with the secret: what a won race leaves
    env = _stage(run)
    target = run.workspace / "sub" / "leak.txt"
    host = _host_secret(tmp_path, "leak.txt")  # the very content that is staged, but behind a link
    if change == "content":
        target.write_text("x" * len(SECRET))
    elif change == "file-link":
        target.unlink()
        target.symlink_to(host / "leak.txt")
    elif change == "folder-link":
        target.unlink()
        (run.workspace / "sub").rmdir()
        (run.workspace / "sub").symlink_to(host)
    elif change == "fifo":
        target.unlink()
        os.mkfifo(target)
    else:
        target.unlink()
    assert stagecheck.changed_files(run.workspace, repo.base_commit, env, 30.0) == ["sub/leak.txt"]


def test_git_conversions_of_gitattributes_are_not_a_difference(tmp_path: Path) -> None:
    run, repo = _run(tmp_path)
    (run.workspace / ".gitattributes").write_text(
        "*.crlf text eol=crlf\n*.id ident\n*.u16 working-tree-encoding=UTF-16\n")
    (run.workspace / "a.crlf").write_bytes(b"one\r\ntwo\r\n")
    (run.workspace / "b.id").write_text("$Id: anything the generator wrote $\n")
    (run.workspace / "c.u16").write_bytes("text\n".encode("utf-16"))
    (run.workspace / "tool.sh").write_text("#!/bin/sh\n")
    (run.workspace / "tool.sh").chmod(0o755)
    (run.workspace / "link").symlink_to("/etc/passwd")  # recorded as a link: git reads its target, not the file
    (run.workspace / "big.bin").write_bytes(os.urandom(3 << 20))  # hashed in chunks, never held whole
    with open(run.workspace / "big.crlf", "wb") as big:  # converted, and streamed to git from the checked descriptor
        big.write(b"line\r\n" * (1 << 19))
    env = _stage(run)
    assert stagecheck.changed_files(run.workspace, repo.base_commit, env, 30.0) == []
    snap = workspace.snapshot(run, repo.base_commit, run.path / "check.diff")
    assert b"$Id$" in snap.path.read_bytes() and b"root:" not in snap.path.read_bytes()


def _commit_in(folder: Path, text: str) -> str:
    repo = GitRepo(folder)
    repo.write("file.txt", text)
    repo.commit()
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.parametrize("form", ["gitdir-file", "commondir"])
def test_a_checkpoint_records_no_host_repository_through_a_nested_git(tmp_path: Path, form: str) -> None:
    """Red team 34 checked nested `.git` redirects at the final capture only; a checkpoint recorded the host
    repository's commit id (it stays in the run folder and a resume applies it)."""
    run, repo = _run(tmp_path)
    host = _commit_in(tmp_path / "hostrepo", "host\n")
    sub = run.workspace / "sub"
    sub.mkdir()
    if form == "gitdir-file":
        (sub / ".git").write_text(f"gitdir: {tmp_path / 'hostrepo' / '.git'}\n")
    else:
        _commit_in(sub, "mine\n")
        (sub / ".git" / "commondir").write_text(str(tmp_path / "hostrepo" / ".git") + "\n")
    with pytest.raises(RunError, match="changed while the runner read them"):
        workspace.snapshot(run, repo.base_commit, run.path / "check.diff")
    assert not (run.path / "check.diff").exists() and host


def test_a_checkpoint_records_a_nested_repository_of_the_generator(tmp_path: Path) -> None:
    run, repo = _run(tmp_path)
    mine = _commit_in(run.workspace / "vendored", "mine\n")
    snap = workspace.snapshot(run, repo.base_commit, run.path / "check.diff")
    assert f"Subproject commit {mine}" in snap.path.read_text()


FLIPPER = r"""
import os, sys
secret, count = sys.argv[1], int(sys.argv[2])
names = [f"f{i}.txt" for i in range(count)]
for name in names:
    open(name, "w").write("x" * 100)
open("ready", "w").close()
while True:
    for name in names:
        try:
            os.unlink(name + ".l")
        except OSError:
            pass
        os.symlink(secret, name + ".l")
        os.rename(name + ".l", name)
        open(name + ".r", "w").write("x" * 100)
        os.rename(name + ".r", name)
"""


def test_checkpoints_under_a_link_swapping_generator_never_carry_the_host_file(tmp_path: Path) -> None:
    run, repo = _run(tmp_path)
    secret = _host_secret(tmp_path, "secret.txt") / "secret.txt"
    flipper = subprocess.Popen([sys.executable, "-c", FLIPPER, str(secret), "20"], cwd=run.workspace)
    try:
        until = time.monotonic() + 20
        while not (run.workspace / "ready").exists() and time.monotonic() < until:
            time.sleep(0.05)
        entries: list[dict[str, object]] = []
        for _ in range(40):
            try:
                entry = checkpoint.take(run, repo.base_commit, entries)
            except RunError:
                continue  # skipped, as the runner skips it
            if entry is not None:
                entries.append(entry)
    finally:
        flipper.kill()
        flipper.wait()
    for diff in run.checkpoints.glob("*.diff"):
        assert b"TOP SECRET" not in diff.read_bytes(), diff.name
