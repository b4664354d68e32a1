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

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
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
DRIVE = r"""
mount -t tmpfs -o size=24m tmpfs "$MNT" || exit 99
"$PY" -m gatekeeper run --repo "$REPO" --out "$MNT/runs" --sandbox unshare --model-api "anthropic=$URL" \
    --model-key anthropic=K --format json -- "$PY" "$GEN" > "$OUT/first.out" 2> "$OUT/first.err"
echo $? > "$OUT/first.code"
rm -f "$MNT"/runs/*/exchange/fill
"$PY" -m gatekeeper run --resume "$(ls "$MNT/runs")" --out "$MNT/runs" --format json > "$OUT/resumed.out" \
    2> "$OUT/resumed.err"
echo $? > "$OUT/resumed.code"
cat "$MNT"/runs/*/packet.json > "$OUT/packet.json"
"""


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
    env = {**os.environ, "MNT": str(tmp_path / "mnt"), "OUT": str(tmp_path), "PY": sys.executable,
           "REPO": str(origin.root), "URL": fake.url, "GEN": str(tmp_path / "fill.py"), "K": "key-1"}
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", DRIVE], env=env,
                          capture_output=True, text=True, timeout=300)
    if done.returncode == 99:
        pytest.skip(f"no tmpfs mount here: {done.stderr[-300:]}")
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
