"""Runner 37: a generator that fills the disk of the run folder.

The exchange folder is writable inside and never captured: a generator filled the run folder's disk there, called the
model through the relay (its answer reached the generator; the relay's record did not reach the disk) and left the
fill behind. The runner then stopped with "internal error: OSError: [Errno 28] No space left on device (this is a
bug)", and a resumed run (space freed) made a signed packet whose relay had served no model: the lost record was in
no log. Now a log that cannot be closed whole stops the run with exit 2 and a message naming it; the relay leaves
its `relay.jsonl.unclean` mark, so the resumed packet serves `(unrecorded)` (an egress log that fails a write makes
the attempt's egress `unavailable` the same way; here its records still fit the file's last page). The generator's
stdout/stderr logs count what a full disk dropped instead of ending the runner.

Each run gets a 24 MiB tmpfs of its own, in a private mount namespace (root only).
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from forkcli import fork_cli
from gitrepo import GitRepo
from runbundle import RUN_STATE

from gatekeeper.demo_model_api import FakeModelAPI, fake_model_api

FILL = RUN_STATE + r"""
import json, os, urllib.request
if run_state()["attempts"] == 1:
    with open("../exchange/fill", "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * (1 << 20))
                handle.flush()
        except OSError:
            pass
        try:
            handle.close()
        except OSError:
            pass
    body = json.dumps({"model": "asked", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}).encode()
    request = urllib.request.Request(os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages", data=body,
                                     headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=20).read()
    except Exception as exc:  # the relay cut the reply's end (its record failed); the body came through
        open("answer.txt", "w").write(repr(exc))
"""
_CLONE_NEWNS, _MS_REC, _MS_PRIVATE = 0x00020000, 0x4000, 1 << 18


def _on_a_tmpfs_of_its_own(tmp_path: Path, origin: Path, url: str, env: dict[str, str]) -> int:
    """In a child forked for it, in a mount namespace of its own (private from the host's, as `unshare -m
    --propagation private`) with a 24 MiB tmpfs on `tmp_path/mnt`: the first run, then (its fill removed) its resume,
    each a process of its own forked from the child (tests/forkcli.py; the namespace is inherited). Their exits and
    stderr, and the resumed run's packet, are written to `tmp_path`. The child's exit: 99 when no tmpfs could be
    mounted (its reason in mount.err)."""
    mnt, runs = tmp_path / "mnt", tmp_path / "mnt" / "runs"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 70
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if (libc.unshare(_CLONE_NEWNS) != 0 or libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0
                    or libc.mount(b"tmpfs", os.fsencode(mnt), b"tmpfs", 0, b"size=24m") != 0):
                (tmp_path / "mount.err").write_text(os.strerror(ctypes.get_errno()))
                os._exit(99)
            first = fork_cli(["run", "--repo", str(origin), "--out", str(runs), "--sandbox", "unshare", "--model-api",
                              f"anthropic={url}", "--model-key", "anthropic=K", "--format", "json", "--",
                              sys.executable, str(tmp_path / "fill.py")], tmp_path / "first", env=env).wait(240)
            (tmp_path / "first.code").write_text(f"{first.returncode}\n")
            (tmp_path / "first.err").write_text(first.stderr)
            for fill in runs.glob("*/exchange/fill"):
                fill.unlink()
            run_ids = sorted(name for name in os.listdir(runs) if not name.startswith("."))
            resumed = fork_cli(["run", "--resume", " ".join(run_ids), "--out", str(runs), "--format", "json"],
                               tmp_path / "resumed", env=env).wait(240)
            (tmp_path / "resumed.code").write_text(f"{resumed.returncode}\n")
            (tmp_path / "resumed.err").write_text(resumed.stderr)
            (tmp_path / "packet.json").write_bytes(b"".join(p.read_bytes() for p in sorted(runs.glob("*/packet.json"))))
            code = 0
        except BaseException:
            with open(tmp_path / "drive.err", "w", encoding="utf-8") as err:
                traceback.print_exc(file=err)
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.fixture
def fake() -> Iterator[FakeModelAPI]:
    with fake_model_api(served="served-on-a-full-disk") as api:
        yield api


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root to mount a tmpfs")
def test_a_full_disk_stops_the_run_and_the_resumed_packet_says_a_call_went_unrecorded(
        tmp_path: Path, fake: FakeModelAPI) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    (tmp_path / "fill.py").write_text(FILL)
    (tmp_path / "mnt").mkdir()
    # The two runs are forked, not started cold (~0.2 CPU-s less in all): the subject is what a full disk leaves in
    # the logs and the resumed packet, not how the runner starts.
    code = _on_a_tmpfs_of_its_own(tmp_path, origin.root, fake.url, {**os.environ, "K": "key-1"})
    if code == 99:
        pytest.skip(f"no tmpfs mount here: {(tmp_path / 'mount.err').read_text()}")
    assert code == 0, (tmp_path / "drive.err").read_text()[-3000:]
    first = (tmp_path / "first.err").read_text()
    assert [p["body"]["model"] for p in fake.seen] == ["asked"]  # the call reached the model
    assert (tmp_path / "first.code").read_text().strip() == "2", first[-2000:]
    assert "could not be written whole" in first or "could not write its log whole" in first, first[-2000:]
    assert "internal error" not in first and "Traceback" not in first, first[-3000:]
    resumed = (tmp_path / "resumed.err").read_text()
    assert (tmp_path / "resumed.code").read_text().strip() == "0", resumed[-2000:]
    packet = json.loads((tmp_path / "packet.json").read_text())
    assert "(unrecorded)" in packet["model"]["served"], (packet["model"], packet["relay"])
    assert packet["relay"]["requests"] == 0  # the call's own record is lost: the mark is what tells of it
