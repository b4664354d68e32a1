"""Runner 37: a resumed run's packet named no model for a call whose record the earlier attempt lost.

The relay writes a call's record when the call ends. A runner that dies meanwhile (SIGKILL, the machine reclaimed,
or a disk the generator filled so that the log cannot be written: the runner then stopped with "internal error")
loses it, and `--resume` runs the generator again and summarises the log as it is: the signed packet said no call
was made and no model served, although the first attempt's generator had a model's answer. The egress log has
status and summary records per attempt for this; the relay log had nothing.

The fix: the relay keeps `relay.jsonl.open` (in the run folder, read-only inside) while it runs and removes it only
once its log is closed whole; a relay that finds it at its start renames it `relay.jsonl.unclean`, and the packet's
`model.served` and `relay.served` then name `(unrecorded)`, which no allowed model list holds: the run is reviewed.
A log that cannot be closed whole stops the run with exit 2 and a clear message.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from forkcli import fork_cli
from gitrepo import GitRepo
from runbundle import RUN_STATE, STREAM_CALL, gk_in, stalled_stream

from gatekeeper.runner.relay import Relay
from gatekeeper.runner.relay_api import parse_model_api

POLICY_DIR = Path(__file__).resolve().parent.parent / "policies"

# First attempt: a streamed call, read until the answer is in (the runner is killed then); a resumed one calls
# nothing.
READER = (RUN_STATE + "import time\nif run_state()['attempts'] == 1:\n"
          + textwrap.indent(STREAM_CALL.replace("MARKER", "kept answer"), "    ")
          + "    time.sleep(60)  # the runner is killed meanwhile\nopen('resumed.txt', 'w').write('1')\n")


@pytest.fixture
def upstream() -> Iterator[int]:
    with stalled_stream("lost-model", "kept answer") as (port, _):
        yield port



def _wait_for(found: object, within: float = 60.0) -> None:
    until = time.monotonic() + within
    while not found():  # type: ignore[operator]
        assert time.monotonic() < until, "never happened"
        time.sleep(0.05)


def test_a_call_lost_with_a_killed_runner_is_named_after_resume(tmp_path: Path, upstream: int) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    (tmp_path / "reader.py").write_text(READER)
    out = tmp_path / "runs"
    env = {**os.environ, "RELAY_KEY": "k-1"}
    # A runner SIGKILLed with its group: a process of its own forked from this one (tests/forkcli.py), since the
    # subject is what its relay's log holds after the kill, not how it starts (a cold one cost ~0.4 CPU-s more).
    runner = fork_cli(
        ["run", "--repo", str(origin.root), "--out", str(out), "--sandbox", "unshare", "--model", "asked-model",
         "--model-api", f"anthropic=http://127.0.0.1:{upstream}", "--model-key", "anthropic=RELAY_KEY",
         "--format", "json", "--", sys.executable, str(tmp_path / "reader.py")],
        tmp_path / "forked", env=env, new_session=True)
    try:
        _wait_for(lambda: list(out.glob("*/workspace/answer.txt")))
    finally:
        runner.kill_group()
    (answer,) = out.glob("*/workspace/answer.txt")
    assert b"lost-model" in answer.read_bytes() and b"kept answer" in answer.read_bytes()
    run_id = answer.parent.parent.name
    done = gk_in("run", "--resume", run_id, "--out", str(out), "--format", "json", env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["attempts"] == 2 and (Path(summary["run_dir"]) / "workspace" / "resumed.txt").exists()
    packet = json.loads(Path(summary["packet"]).read_text())
    assert "(unrecorded)" in packet["model"]["served"], packet["model"]
    assert "(unrecorded)" in packet["relay"]["served"], packet["relay"]
    # The gate's provenance policy: a model was requested, and "(unrecorded)" is not it.
    gate = gk_in("gate", summary["packet"], "--patch", summary["patch"], "--policy", str(POLICY_DIR), "--enable",
                 "provenance", "--format", "json")
    decision = json.loads(gate.stdout)
    found = [str(r) for r in decision["reasons"] if r["rule"] == "provenance.mismatch"]
    assert gate.returncode == 3 and any("(unrecorded)" in m for m in found), decision["reasons"]


def test_a_relay_stopped_whole_leaves_nothing_unclean(tmp_path: Path, upstream: int) -> None:
    # The control: a relay that starts and stops twice (a resume) over a whole log names nothing unrecorded.
    upstreams = {"anthropic": parse_model_api(f"anthropic=http://127.0.0.1:{upstream}")}
    for _ in range(2):
        Relay(tmp_path / "relay.sock", tmp_path / "relay.jsonl", upstreams, {"anthropic": "k"}).start().stop()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["relay.jsonl"]
