"""Attack 28: the runner's `git add -A` (outside the sandbox) ran a program a nested repository's config named.

For a gitlink whose HEAD has not changed, `git add` asks whether that repository is dirty: it runs `git status
--porcelain=2 -uno` inside it, and that child reads the nested `.git/config` and `.gitattributes`, both the
generator's: a `filter.<name>.process` (or `clean`) driver ran as the runner's user with no sandbox. Reproduced with
git 2.39 on the second checkpoint after the generator made a nested repository (the first records it), and on the
first when the base already has a submodule at that path and the generator's HEAD file names the recorded commit.
Now the runner's snapshot git runs with GIT_EXEC_PATH at a private folder whose `git` says "clean" and runs nothing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.runner import checkpoint, rundir, workspace

pytestmark = pytest.mark.usefixtures("runner_bundle")


def _plant(tmp_path: Path, sub: Path, driver: str) -> Path:
    marker = tmp_path / "RAN-OUTSIDE"
    program = tmp_path / "evil.sh"
    program.write_text(f"#!/bin/sh\necho ran >> {marker}\ncat\n")
    program.chmod(0o755)
    with open(sub / ".git" / "config", "a") as config:
        config.write(f'[filter "x"]\n\t{driver} = {program}\n[core]\n\tfsmonitor = {program}\n')
    (sub / ".gitattributes").write_text("* filter=x\n")
    return marker


@pytest.mark.parametrize("driver", ["process", "clean"])
def test_checkpoints_never_run_a_nested_repositorys_filter(tmp_path: Path, driver: str) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("README.md", "# sample\n")
    origin.commit()
    run = rundir.create(tmp_path / "runs")
    repo = workspace.clone(workspace.repo_url(str(origin.root)), None, run)
    sub = GitRepo(run.workspace / "vendored")
    sub.write("f.txt", "one\n")
    sub.commit()
    marker = _plant(tmp_path, run.workspace / "vendored", driver)
    entries: list[dict[str, object]] = []
    for text in ("two\n", "six\n", "ten\n"):  # the size of the committed text: git must hash it
        (run.workspace / "vendored" / "f.txt").write_text(text)
        entry = checkpoint.take(run, repo.base_commit, entries)
        if entry is not None:
            entries.append(entry)
    assert not marker.exists()
    assert entries  # the nested repository is recorded (its HEAD), as before


def test_a_base_submodule_path_never_runs_a_filter(tmp_path: Path) -> None:
    inner = GitRepo(tmp_path / "inner")
    inner.write("f.txt", "one\n")
    inner.commit()
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=inner.root, capture_output=True, text=True,
                            check=True).stdout.strip()
    origin = GitRepo(tmp_path / "origin")
    origin.write("README.md", "# sample\n")
    origin.commit()
    subprocess.run(["git", "update-index", "--add", "--cacheinfo", f"160000,{commit},lib"], cwd=origin.root, check=True)
    subprocess.run(["git", "commit", "-qm", "submodule"], cwd=origin.root, check=True)
    run = rundir.create(tmp_path / "runs")
    repo = workspace.clone(workspace.repo_url(str(origin.root)), None, run)
    lib = run.workspace / "lib"
    lib.rmdir()
    subprocess.run(["git", "clone", "-q", str(inner.root), str(lib)], check=True)  # at the recorded commit: unchanged,
    (lib / "f.txt").write_text("two\n")  # so git asks whether it is dirty (same size: git must hash the file)
    marker = _plant(tmp_path, lib, "process")
    snap = workspace.snapshot(run, repo.base_commit, run.path / "check.diff")
    assert not marker.exists()
    assert snap.bytes == 0  # the submodule is at its recorded commit: no change
