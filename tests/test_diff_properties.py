"""Property tests: damaged real git patches are parsed or refused with PatchError, never anything else.

Flips, truncations, dropped, duplicated and inserted lines of real patches go through the parser
and through the CLI (`packet`, `verify`): exit 0, 1 (verify: differs) or 2 with one clear line, never a traceback.
"""

from __future__ import annotations

import atexit
import io
import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from diffcheck import make_bundle, parse_bytes
from gitrepo import GitRepo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatekeeper.cli import main
from gatekeeper.errors import PatchError
from gatekeeper.model import STATUSES


@lru_cache(maxsize=1)
def _workdir() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="gk-props-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


@lru_cache(maxsize=1)
def real_patches() -> tuple[bytes, ...]:
    """A few patches git made, covering most forms the parser knows."""
    repo = GitRepo(_workdir() / "repo")
    body = "".join(f"line {i}\n" for i in range(30))
    repo.write("src/app.py", body)
    repo.write("move me.txt", body.replace("line", "row"))
    repo.write("tool.sh", "echo\n")
    repo.write("f2link", "x\n")
    repo.write("assets/logo.bin", b"\0" + bytes(range(256)) * 4)
    repo.write("nonl.txt", "a\nb")
    repo.commit()
    repo.write("src/app.py", body.replace("line 3\n", "-- line 3\n+++ x\n"))
    os.rename(repo.root / "move me.txt", repo.root / "moved here.txt")
    (repo.root / "tool.sh").chmod(0o755)
    (repo.root / "f2link").unlink()
    repo.symlink("f2link", "src/app.py")
    repo.write("assets/logo.bin", b"\0" + bytes(range(255, -1, -1)) * 4)
    repo.write("nonl.txt", "a\nc\r\n")
    repo.write(b"caf\xc3\xa9 \xff\t.txt", "q\n")
    repo.write("empty", "")
    first = repo.staged_patch("-M")
    repo.commit("second")
    repo.write("src/app.py", body)
    second = repo.staged_patch("--no-renames")
    return first, second


@lru_cache(maxsize=1)
def bundle() -> Path:
    return make_bundle(_workdir() / "bundle")


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from(real_patches()))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "truncate", "drop", "dup", "insert", "swap"]))
        if not data:
            break
        if kind == "flip":
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
        elif kind == "truncate":
            data = data[: draw(st.integers(0, len(data) - 1))]
        else:
            lines = _lines(data)
            at = draw(st.integers(0, len(lines) - 1))
            if kind == "drop":
                del lines[at]
            elif kind == "dup":
                lines.insert(at, lines[at])
            elif kind == "insert":
                lines.insert(
                    at, draw(st.sampled_from([b"\n", b"@@ -1 +1 @@\n", b"diff --git a/x b/x\n", b"+\n", b"\\ x\n"]))
                )
            elif at + 1 < len(lines):
                lines[at], lines[at + 1] = lines[at + 1], lines[at]
            data = b"".join(lines)
    return data


def test_the_real_patches_parse() -> None:
    first, second = (parse_bytes(p) for p in real_patches())
    assert {c.status for c in first} >= {"modified", "renamed", "mode_changed", "type_changed", "added"}
    assert any(c.binary for c in first) and len(second) == 1


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damaged_patches_parse_or_raise_patch_error(data: bytes) -> None:
    try:
        changes = parse_bytes(data)
    except PatchError as exc:
        assert exc.where and exc.where.startswith("test.diff:") and exc.hint
        return
    for change in changes:
        assert change.status in STATUSES and change.path
        assert change.additions >= 0 and change.deletions >= 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damaged_patches_through_the_cli(data: bytes) -> None:
    folder = Path(tempfile.mkdtemp(dir=_workdir()))
    patch, out = folder / "p.diff", folder / "packet.json"
    patch.write_bytes(data)
    stderr = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stderr", stderr)
        mp.setattr("sys.stdout", io.StringIO())
        code = main(["packet", str(patch), "--policy", str(bundle()), "--out", str(out)])
        assert code in (0, 2)
        assert "internal error" not in stderr.getvalue() and "Traceback" not in stderr.getvalue()
        if code == 2:
            assert not out.exists() and stderr.getvalue().count("\n") == 1
            return
        original = folder / "orig.diff"
        original.write_bytes(real_patches()[0])
        verified = main(["verify", str(out), "--patch", str(original), "--policy", str(bundle())])
        assert verified == (0 if data == real_patches()[0] else 1)  # differs: 1
        assert "internal error" not in stderr.getvalue()
