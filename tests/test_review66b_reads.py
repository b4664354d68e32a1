"""Review 66b: `bounded.read_bytes` reads the size fstat reports and a byte more, then on to the cap if the file grew.

Attacks: the size fstat reports is wrong in every direction (a /proc file says 0, a file grew or shrank between
fstat and read), sparse files either side of the cap, FIFOs and symlinks to them, a file replaced while open. The
answer is the whole content as the open file holds it, or a refusal: never a prefix taken as the whole.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from gatekeeper import bounded
from gatekeeper.bounded import Limits, read_bytes
from gatekeeper.errors import LimitError

CAP = Limits(max_bytes=4096, max_depth=64, max_values=1000)
SIZES = [0, 1, 4095, 4096, 4097, 10_000]  # around the cap (4096)
REPORTED = ["zero", "half", "minus1", "exact", "plus1", "double", "cap", "huge"]


def _reported(kind: str, real: int) -> int:
    return {"zero": 0, "half": real // 2, "minus1": max(real - 1, 0), "exact": real, "plus1": real + 1,
            "double": 2 * real, "cap": CAP.max_bytes, "huge": 1 << 40}[kind]


def test_every_reported_size_gives_the_whole_file_or_the_cap_refusal(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    real_fstat = os.fstat
    wrong = []
    for size in SIZES:
        content = bytes(i % 251 for i in range(size))
        path = tmp_path / f"f{size}"
        path.write_bytes(content)
        for kind in REPORTED:
            def fstat(fd: int, kind: str = kind, size: int = size) -> Any:
                status = real_fstat(fd)
                fields = list(status)
                fields[6] = _reported(kind, size)  # st_size
                return os.stat_result(fields)
            monkeypatch.setattr(bounded.os, "fstat", fstat)
            try:
                got: bytes | str = read_bytes(path, CAP)
            except LimitError:
                got = "refused"
            monkeypatch.setattr(bounded.os, "fstat", real_fstat)
            expected: bytes | str = content if size <= CAP.max_bytes else "refused"
            if got != expected:
                wrong.append((size, kind, got if isinstance(got, str) else len(got)))
    assert not wrong, wrong


@pytest.mark.parametrize("grow", [1, 100, 4096])
def test_a_file_appended_to_while_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grow: int) -> None:
    """The file grows between fstat and the read: the read goes on to the grown end, or the cap refuses it."""
    path = tmp_path / "f"
    path.write_bytes(b"a" * 2000)
    real_fstat = os.fstat

    def fstat(fd: int) -> Any:
        status = real_fstat(fd)
        with open(path, "ab") as more:
            more.write(b"b" * grow)
        return status
    monkeypatch.setattr(bounded.os, "fstat", fstat)
    if 2000 + grow > CAP.max_bytes:
        with pytest.raises(LimitError):
            read_bytes(path, CAP)
    else:
        assert read_bytes(path, CAP) == b"a" * 2000 + b"b" * grow


def test_a_file_replaced_while_open_is_read_whole_as_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"old" * 100)
    real_fstat = os.fstat

    def fstat(fd: int) -> Any:
        (tmp_path / "new").write_bytes(b"new" * 10)
        os.replace(tmp_path / "new", path)
        return real_fstat(fd)
    monkeypatch.setattr(bounded.os, "fstat", fstat)
    assert read_bytes(path, CAP) == b"old" * 100


def test_proc_files_that_report_size_zero_are_read_whole() -> None:
    proc = Path("/proc/self/maps")
    if not proc.exists():
        pytest.skip("no /proc")
    assert os.stat(proc).st_size == 0
    data = read_bytes(proc)
    assert data.endswith(b"\n") and len(data) > 100


@pytest.mark.parametrize("size", [CAP.max_bytes, CAP.max_bytes + 1, 1 << 30])
def test_sparse_files(tmp_path: Path, size: int) -> None:
    path = tmp_path / "sparse"
    with open(path, "wb") as handle:
        handle.truncate(size)
    if size > CAP.max_bytes:
        with pytest.raises(LimitError):
            read_bytes(path, CAP)
    else:
        assert read_bytes(path, CAP) == bytes(size)


def test_fifos_and_links_to_them_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "link").symlink_to(fifo)
    (tmp_path / "dangling").symlink_to(tmp_path / "absent")
    for path in (fifo, tmp_path / "link", tmp_path / "dangling", tmp_path):
        with pytest.raises(OSError):
            read_bytes(path, CAP)
    (tmp_path / "file").write_bytes(b"x")
    (tmp_path / "to-file").symlink_to(tmp_path / "file")
    assert read_bytes(tmp_path / "to-file", CAP) == b"x"
