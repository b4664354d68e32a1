"""Red-team regressions: odd input files make the gate exit 2 with one line, never hang or trace back."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from forkcli import fork_cli
from gitrepo import GitRepo
from tables import each_case

import gatekeeper.verify as verify
from gatekeeper.cli import main
from gatekeeper.errors import GatekeeperError, InputFileError, PacketError


@pytest.fixture
def made(git_repo: GitRepo, tmp_path: Path) -> tuple[Path, Path]:
    git_repo.write("src/a.py", "x\n")
    git_repo.commit()
    git_repo.write("src/a.py", "y\n")
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    git_repo.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    return patch, packet


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # A child process with a time limit: a hang fails the test instead of stalling the suite (the endless devices,
    # read by the real program). Forked from this one (tests/forkcli.py): the subject is the reading, not the start.
    return fork_cli(["gate", *args, "--policy", str(POLICY_DIR)], tmp_path / "forked").wait(timeout=60)


def _gate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    """`gatekeeper gate ARGS` in this process (exit code, standard error): for the inputs that end by themselves
    (an empty device, one file named twice, an option's value), where the process boundary is not the subject and
    a child costs ~0.3 CPU-s of start-up. main() narrows PATH; monkeypatch puts it back."""
    monkeypatch.setenv("PATH", os.environ.get("PATH", os.defpath))
    capsys.readouterr()
    code = main(["gate", *args, "--policy", str(POLICY_DIR)])
    return code, capsys.readouterr().err


def test_packet_from_an_endless_device_is_refused(made: tuple[Path, Path], tmp_path: Path) -> None:
    patch, _ = made
    done = _run(tmp_path, "/dev/zero", "--patch", str(patch))
    assert done.returncode == 2, done.stderr
    assert "device" in done.stderr and "Traceback" not in done.stderr


def test_patch_from_an_endless_device_is_refused(made: tuple[Path, Path], tmp_path: Path) -> None:
    _, packet = made
    done = _run(tmp_path, str(packet), "--patch", "/dev/zero")
    assert done.returncode == 2, done.stderr
    assert "device" in done.stderr and "Traceback" not in done.stderr


def test_dev_null_is_still_an_empty_patch(made: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _, packet = made
    code, err = _gate(capsys, monkeypatch, str(packet), "--patch", "/dev/null")
    assert code == 1, err  # read as empty: the packet's file is missing, so deny


def test_packet_through_a_pipe_is_read_but_bounded(
    made: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, packet = made
    fifo = tmp_path / "packet.fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(verify, "MAX_PACKET_BYTES", 1 << 16)

    def feed() -> None:
        try:
            with open(fifo, "wb", buffering=0) as out:
                while True:
                    out.write(b" " * 4096)  # never ends, like `<(yes)`
        except BrokenPipeError:
            pass  # the reader stopped at its limit and closed the pipe

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    with pytest.raises(PacketError, match="larger than"):
        verify.load_packet(fifo)
    writer.join(timeout=10)
    assert verify.load_packet(packet)["schema_version"] == 1


def test_directory_as_packet_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError):
        verify.load_packet(tmp_path)


def test_patch_and_packet_the_same_file(made: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    patch, packet = made
    for same in (patch, packet):
        code, err = _gate(capsys, monkeypatch, str(same), "--patch", str(same))
        assert code == 2 and "Traceback" not in err and "internal error" not in err, err
        assert len(err.strip().splitlines()) == 1


@each_case("data", [
        b"\xef\xbb\xbf{}",
        "{}".encode("utf-16"),
        b"[" * 200_000 + b"]" * 200_000,
        b"1" * 100_000,
        b'{"a": NaN}',
        b'{"a": 1, "a": 2}',
        b"null",
        b"",
    ])
def test_malformed_packets_are_packet_errors(tmp_path: Path, data: bytes) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(data)
    with pytest.raises(GatekeeperError):
        verify.load_packet(bad)


def test_classify_path_list_from_an_endless_device_is_refused(tmp_path: Path) -> None:
    done = fork_cli(["classify", "--paths", "/dev/zero", "--policy", str(POLICY_DIR)], tmp_path / "forked").wait(
        timeout=60)  # a forked process with a time limit, as _run
    assert done.returncode == 2 and "device" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan"])
def test_gate_timeout_nan_is_a_usage_error(made: tuple[Path, Path], value: str, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    patch, packet = made
    code, err = _gate(capsys, monkeypatch, str(packet), "--patch", str(patch), "--timeout", value)
    assert code == 2, err
    assert "internal error" not in err and "--timeout" in err
