"""Output files: atomic for files; a device or pipe the user names gets the bytes, and stays what it was."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gatekeeper.atomic import write_atomic, write_output
from gatekeeper.errors import InputFileError
from tests.gitrepo import GitRepo


def _read_fifo(fifo: Path, got: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


@pytest.mark.parametrize("through_link", [False, True])
def test_a_pipe_named_as_output_gets_the_bytes_and_stays_a_pipe(tmp_path: Path, through_link: bool) -> None:
    # `-o /dev/null` as root renamed a regular file over the device node: /dev/null became a file.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    named = fifo
    if through_link:
        named = tmp_path / "link"
        named.symlink_to(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    write_output(named, "report\n")
    reader.join(timeout=10)
    assert got == [b"report\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and named.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_dev_null_stays_a_device() -> None:
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    write_output("/dev/null", b"x" * 100)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_file_is_replaced_whole_and_a_folder_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    write_output(target, "new")
    assert target.read_text() == "new"
    with pytest.raises(InputFileError, match="cannot write"):
        write_output(tmp_path, "x")


def test_internal_writes_replace_a_planted_link_never_write_through_it(tmp_path: Path) -> None:
    # The runner restores files inside a workspace the generator wrote: a link it planted is replaced.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    planted = tmp_path / "config"
    planted.symlink_to(fifo)
    write_atomic(planted, "[core]\n")
    assert not planted.is_symlink() and planted.read_text() == "[core]\n"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_packet_out_to_a_pipe_through_the_cli(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit()
    repo.write("main.go", "package main\n")
    patch = repo.save_patch(tmp_path / "p.diff")
    fifo = tmp_path / "packet"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    done = subprocess.run([sys.executable, "-m", "gatekeeper", "packet", str(patch), "--out", str(fifo)],
                          capture_output=True, timeout=60)
    reader.join(timeout=10)
    assert done.returncode == 0, done.stderr
    assert got and b'"schema_version": 1' in got[0] and stat.S_ISFIFO(os.stat(fifo).st_mode)
