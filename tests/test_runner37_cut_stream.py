"""Runner 37: a streamed model answer that the generator read, then left, went unrecorded.

The relay writes a call's record when the call ends (the upstream's last byte, or an error). A generator that reads
a streamed answer's first events (the model's name, its text) and then exits, while the upstream is still
streaming, ends its sandbox; the runner then stopped the relay and closed its log at once. The relay's handler was
still waiting for the upstream's next bytes, and its record came after the log was closed: lost (the write raised
in a thread nobody watched). The signed packet said no call was made and no model served, although the generator had
the model's answer in its patch.

The fix: stopping the relay cuts every call still under way (its upstream connection is shut), waits for their
records, and writes one itself for a call whose handler does not finish in time, with every model named so far.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import BACKENDS, STREAM_CALL, gk_in, stalled_stream

from gatekeeper.runner.relaylog import read_log

# The generator: a streamed call through the relay (raw HTTP), read until the answer's text is in, then leave.
READER = STREAM_CALL.replace("MARKER", "the answer the generator keeps")


@pytest.fixture
def upstream() -> Iterator[tuple[int, threading.Event]]:
    with stalled_stream("streamed-model", "the answer the generator keeps") as served:
        yield served



@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stream_the_generator_left_is_in_the_packet(tmp_path: Path, upstream: tuple[int, threading.Event],
                                                      backend: str) -> None:
    port, released = upstream
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    (tmp_path / "reader.py").write_text(READER)
    try:
        done = gk_in("run", "--repo", str(origin.root), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                     "--model-api", f"anthropic=http://127.0.0.1:{port}", "--model-key", "anthropic=RELAY_KEY",
                     "--format", "json", "--", sys.executable, str(tmp_path / "reader.py"),
                     env={**os.environ, "RELAY_KEY": "k-123"})
    finally:
        released.set()
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    answer = (Path(summary["run_dir"]) / "workspace" / "answer.txt").read_bytes()
    assert b"the answer the generator keeps" in answer and b"streamed-model" in answer  # the generator had it
    packet = json.loads(Path(summary["packet"]).read_text())
    records = read_log(Path(summary["run_dir"]) / "relay.jsonl")
    assert [r.get("models") for r in records] == [["streamed-model"]], records
    assert packet["relay"]["requests"] == 1 and packet["model"]["served"] == ["streamed-model"]
    assert packet["relay"]["tokens"] == 7
