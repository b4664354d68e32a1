"""Attack 28: a resume restores the base plus the last checkpoint, not what the generator left in `.git`.

Red team 34 left the resume's `git checkout BASE` reading the workspace's own index and object store (without
alternates or replace refs). Both are the generator's:
- an index entry that keeps the stat of a file the generator rewrote, but names the base's blob, made checkout
  believe the file was the base's: the generator's content survived the restore;
- a store whose object for a base blob id holds other content (a pack unpacked, one loose object rewritten: git
  does not check an object's id on read) made the restore check that content out as the base.
The resumed generator then started from a work tree that is not base + checkpoint. Now the restore drops the
workspace's index and checks out from the runner's copy of the base's objects (checkpoint.git).
"""

from __future__ import annotations

import glob
import hashlib
import os
import subprocess
import zlib
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.runner import checkpoint, rundir, workspace

pytestmark = pytest.mark.usefixtures("runner_bundle")

BASE = "# sample\n"


def _run(tmp_path: Path) -> tuple[rundir.RunDir, workspace.Repository]:
    origin = GitRepo(tmp_path / "origin")
    origin.write("README.md", BASE)
    origin.commit()
    run = rundir.create(tmp_path / "runs")
    return run, workspace.clone(workspace.repo_url(str(origin.root)), None, run)


def _git(ws: Path, *args: str, data: bytes | None = None) -> str:
    return subprocess.run(["git", *args], cwd=ws, input=data, capture_output=True, check=True).stdout.decode().strip()


def _forge_index(ws: Path) -> None:
    base_oid = _git(ws, "rev-parse", ":README.md")
    (ws / "README.md").write_text("# planted\n")
    os.utime(ws / "README.md", (946684800, 946684800))  # long before the index: git trusts the stat
    _git(ws, "add", "README.md")
    data = bytearray((ws / ".git" / "index").read_bytes())
    at = data.index(bytes.fromhex(_git(ws, "rev-parse", ":README.md")))
    data[at:at + 20] = bytes.fromhex(base_oid)
    body = bytes(data[:-20])
    (ws / ".git" / "index").write_bytes(body + hashlib.sha1(body).digest())


def _forge_store(ws: Path) -> None:
    oid = _git(ws, "rev-parse", ":README.md")
    for pack in glob.glob(str(ws / ".git" / "objects" / "pack" / "*.pack")):
        data = Path(pack).read_bytes()
        os.unlink(pack)
        os.unlink(pack[:-5] + ".idx")
        _git(ws, "unpack-objects", "-q", data=data)
    loose = ws / ".git" / "objects" / oid[:2] / oid[2:]
    loose.chmod(0o644)
    loose.write_bytes(zlib.compress(b"blob 10\0# planted\n"))
    (ws / "README.md").write_text("changed after the checkpoint\n")


@pytest.mark.parametrize("forge", [_forge_index, _forge_store], ids=["index-stat", "object-store"])
@pytest.mark.parametrize("with_checkpoint", [False, True])
def test_a_resume_restores_the_base_not_the_generators_git(tmp_path: Path, forge, with_checkpoint: bool) -> None:  # type: ignore[no-untyped-def]
    run, repo = _run(tmp_path)
    entries = []
    if with_checkpoint:
        (run.workspace / "new.txt").write_text("kept by the checkpoint\n")
        entry = checkpoint.take(run, repo.base_commit, [])
        assert entry is not None
        entries.append(entry)
    forge(run.workspace)
    workspace.restore(run, repo, checkpoint.last(run, entries))
    assert (run.workspace / "README.md").read_text() == BASE
    assert (run.workspace / "new.txt").exists() == with_checkpoint
    assert _git(run.workspace, "status", "--porcelain") == ("?? new.txt" if with_checkpoint else "")
