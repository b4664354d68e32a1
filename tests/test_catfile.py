"""catfile.sharing: inside a gate run the readers of one repository take turns on one `git cat-file` process."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper import catfile
from gatekeeper.cli import main
from gatekeeper.gitobjects import GitObjects


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """Every `git cat-file` process catfile starts, in order."""
    processes: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def recording(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        process = popen(args, **kwargs)  # type: ignore[call-overload]
        if "cat-file" in args:
            processes.append(process)
        return process  # type: ignore[no-any-return]

    monkeypatch.setattr(catfile.subprocess, "Popen", recording)
    return processes


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write("a.txt", "one\n")
    repo.write("sub/b.txt", "two\n")
    repo.commit("base")
    return repo


def _read(repo: GitRepo) -> bytes | None:
    with GitObjects(repo.root) as objects:
        return objects.read(objects.commit("HEAD"), "sub/b.txt")


def test_readers_share_one_process_inside_the_scope_and_it_ends_with_it(
    repo: GitRepo, started: list[subprocess.Popen[bytes]]
) -> None:
    with catfile.sharing():
        with catfile.sharing():  # nested (or a second gate in another thread): the outer one ends the processes
            assert [_read(repo), _read(repo)] == [b"two\n", b"two\n"]
        assert len(started) == 1 and started[0].poll() is None  # left for the scope's next reader
        assert _read(repo) == b"two\n" and len(started) == 1
    assert started[0].poll() is not None  # ended with the scope: nothing outlives the gate
    assert _read(repo) == b"two\n" and len(started) == 2  # outside a scope, a reader's own process, as before
    assert started[1].poll() is not None


def test_a_reader_that_fails_mid_answer_leaves_the_next_a_fresh_process(
    repo: GitRepo, started: list[subprocess.Popen[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = catfile._answer

    def broken(*args: object) -> object:
        raise OSError("cut off")

    with catfile.sharing():
        assert _read(repo) == b"two\n"
        monkeypatch.setattr(catfile, "_answer", broken)
        with pytest.raises(Exception, match="cut off"), GitObjects(repo.root) as objects:
            objects.blob(objects.tree(objects.commit("HEAD"))["a.txt"].oid)
        monkeypatch.setattr(catfile, "_answer", answer)
        assert started[0].poll() is not None  # its unread answers went with it
        assert _read(repo) == b"two\n" and len(started) == 2


def test_a_tree_gate_starts_one_cat_file_and_leaves_none_running(
    repo: GitRepo, started: list[subprocess.Popen[bytes]], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base = repo.git("rev-parse", "HEAD").decode().strip()
    repo.write("src/app.py", "x = 1\n")
    patch = repo.save_patch(repo.root.parent / "change.diff")
    head = repo.commit("change")
    packet = repo.root.parent / "packet.json"
    monkeypatch.chdir(repo.root)
    assert main(["packet", str(patch), "--out", str(packet)]) == 0
    started.clear()
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--tree", f"{base}..{head}", "--format", "json"])
    assert code == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["outcome"] == "allow"
    # The range's ancestry walk, BASE's configuration and the tree context read through one process.
    assert len(started) == 1 and started[0].poll() is not None
