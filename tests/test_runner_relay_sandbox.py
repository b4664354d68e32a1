"""The model relay end to end: the official SDKs inside the sandbox (both backends), a fake API outside."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from forkcli import fork_cli
from gitrepo import GitRepo
from runbundle import BACKENDS, RUN_STATE, gk_in

from gatekeeper.demo_model_api import FakeModelAPI, fake_model_api
from gatekeeper.runner.relaylog import read_log

REAL_KEY = "sk-ant-REAL-KEY-0123456789-must-never-be-inside"
# The generator: every call an agent makes, and every way out it could try. Results go to probe.json.
AGENT = r"""
import json, os, socket, sys, urllib.request
import time
t0 = time.monotonic()
import anthropic, openai
out = {"import_s": time.monotonic() - t0, "env_key": os.environ.get("ANTHROPIC_API_KEY"),
       "openai_key": os.environ.get("OPENAI_API_KEY"),
       "base": os.environ.get("ANTHROPIC_BASE_URL")}
client = anthropic.Anthropic(max_retries=0, timeout=20)
out["json"] = client.messages.create(model="claude-asked", max_tokens=8,
                                     messages=[{"role": "user", "content": "hi"}]).model
with client.messages.stream(model="claude-asked", max_tokens=8, messages=[{"role": "user", "content": "hi"}]) as s:
    out["stream"] = "".join(s.text_stream)
out["openai"] = openai.OpenAI(max_retries=0, timeout=20).chat.completions.create(
    model="gpt-asked", messages=[{"role": "user", "content": "hi"}]).model
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).close()
    out["direct"] = "connected"
except OSError as exc:
    out["direct"] = type(exc).__name__
try:
    socket.getaddrinfo("api.anthropic.com", 443)
    out["dns"] = "resolved"
except OSError as exc:
    out["dns"] = type(exc).__name__
try:
    urllib.request.urlopen(os.environ["ANTHROPIC_BASE_URL"] + "/v1/files", data=b"{}", timeout=5)
    out["other_path"] = "allowed"
except urllib.error.HTTPError as exc:
    out["other_path"] = exc.code
proxy = urllib.request.build_opener(urllib.request.ProxyHandler({"http": os.environ["ANTHROPIC_BASE_URL"]}))
try:
    proxy.open("http://metadata.google.internal/computeMetadata/v1/", timeout=5)
    out["other_host"] = "allowed"
except urllib.error.HTTPError as exc:
    out["other_host"] = exc.code
environ = b""
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            environ += open(f"/proc/{pid}/environ", "rb").read()
        except OSError:
            pass
out["key_in_proc"] = bytes.fromhex("5245414c2d4b4559") in environ  # the real key's marker
open("probe.json", "w").write(json.dumps(out))
"""


@pytest.fixture()
def fake() -> Iterator[FakeModelAPI]:
    with fake_model_api(served="claude-served-by-fake") as api:
        yield api


def origin(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "origin")
    repo.write("agent.py", AGENT)
    repo.commit()
    return repo.root


def _env() -> dict[str, str]:
    return {**os.environ, "FAKE_ANTHROPIC_KEY": REAL_KEY, "FAKE_OPENAI_KEY": REAL_KEY + "-openai"}


def _relay_args(fake: FakeModelAPI) -> list[str]:
    return ["--model-api", f"anthropic={fake.url}", "--model-key", "anthropic=FAKE_ANTHROPIC_KEY",
            "--model-api", f"openai={fake.url}", "--model-key", "openai=FAKE_OPENAI_KEY"]


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_sdks_reach_only_the_model_api_and_the_key_stays_outside(tmp_path: Path, fake: FakeModelAPI,
                                                                  backend: str) -> None:
    # In-process (runbundle.gk_in): the subject is the sandbox, the relay and what the run records.
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                 "--model", "claude-asked", *_relay_args(fake), "--format", "json", "--",
                 sys.executable, "agent.py", str(fake.port), env=_env())
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    run_dir = Path(summary["run_dir"])
    probe = json.loads((run_dir / "workspace" / "probe.json").read_text())
    assert probe["json"] == probe["openai"] == "claude-served-by-fake" and probe["stream"] == "hello from the fake"
    assert probe["env_key"] == probe["openai_key"] == "gatekeeper-relay-placeholder-key"
    assert probe["base"].startswith("http://127.0.0.1:") and probe["key_in_proc"] is False
    assert probe["direct"] != "connected" and probe["dns"] != "resolved"
    assert probe["other_path"] == 403 and probe["other_host"] == 403
    packet = json.loads(Path(summary["packet"]).read_text())
    assert packet["model"]["served"] == ["claude-served-by-fake"] and packet["model"]["requested"] == "claude-asked"
    assert packet["sandbox"]["network"] == "allowlist"
    assert {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"} <= set(packet["sandbox"]["env_passed"])
    relay = packet["relay"]
    assert relay["requests"] == 3 and relay["refused"] == 2 and relay["apis"] == ["anthropic", "openai"]
    # The signed summary names the log it sums up (red team 20: nothing tied relay.jsonl to the packet).
    assert relay["log_sha256"] == hashlib.sha256((run_dir / "relay.jsonl").read_bytes()).hexdigest()
    assert relay["refused_by_host"] == [{"host": "127.0.0.1", "count": 1},
                                        {"host": "metadata.google.internal", "count": 1}]
    # Around the relay: the DNS lookup went to the sandbox's catch-all, recorded by name (A and AAAA).
    egress = packet["sandbox"]["egress"]
    assert egress["recording"] == "recorded"
    assert egress["refused_by_host"] == [{"host": "api.anthropic.com", "count": 2}]
    # The upstream got the real keys; nothing the run wrote holds them.
    assert {call["headers"].get("x-api-key") for call in fake.seen if "x-api-key" in call["headers"]} == {REAL_KEY}
    for path in run_dir.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert REAL_KEY.encode() not in path.read_bytes(), path


def test_a_key_variable_that_is_not_set_or_passed_inside_is_refused(tmp_path: Path, fake: FakeModelAPI) -> None:
    args = ["run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", "unshare"]
    # Refusals decided in Python before anything runs: in-process (runbundle.gk_in).
    unset = gk_in(*args, "--model-api", f"anthropic={fake.url}", "--model-key", "anthropic=NOT_SET_ANYWHERE",
                  "--", "true")
    assert unset.returncode == 2 and "NOT_SET_ANYWHERE holds no key" in unset.stderr
    leaked = gk_in(*args, "--model-api", f"anthropic={fake.url}", "--model-key", "anthropic=FAKE_ANTHROPIC_KEY",
                   "--pass-env", "FAKE_ANTHROPIC_KEY", "--", "true", env=_env())
    assert leaked.returncode == 2 and "would put the model API key inside" in leaked.stderr
    remote = gk_in(*args, "--model-api", "openai=http://example.com", "--", "true")
    assert remote.returncode == 2 and "loopback" in remote.stderr


# Its first attempt makes two calls, then waits to be killed (so the kill lands between calls however slow the
# machine); a resumed attempt goes on to four. Each call is the SDK's request (the SDKs themselves are the first
# test's, on both backends) made with urllib: importing the anthropic SDK costs ~2 CPU-s per attempt.
RESUMABLE = RUN_STATE + r"""
import json, os, time, urllib.request
def create():
    body = {"model": "claude-asked", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]}
    request = urllib.request.Request(
        os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages", data=json.dumps(body).encode(), method="POST",
        headers={"x-api-key": os.environ["ANTHROPIC_API_KEY"], "anthropic-version": "2023-06-01",
                 "content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as response:
        assert json.loads(response.read())["model"]
calls = int(open("calls.txt").read()) if os.path.exists("calls.txt") else 0
first = run_state()["attempts"] == 1
while calls < 4:
    if first and calls == 2:
        time.sleep(600)  # stopped by the test's kill long before
    create()
    calls += 1
    open("calls.txt", "w").write(str(calls))
"""


@pytest.mark.usefixtures("runner_bundle")
def test_resume_after_sigkill_keeps_the_relay_log_whole(tmp_path: Path, fake: FakeModelAPI) -> None:
    repo = GitRepo(tmp_path / "origin")
    repo.write("agent.py", RESUMABLE)
    repo.commit()
    out = tmp_path / "runs"
    # The runner to kill is a process of its own, forked (tests/forkcli.py); a cold one's SIGKILL is
    # tests/test_runner_resume.py's.
    runner = fork_cli(["run", "--repo", str(repo.root), "--out", str(out), "--sandbox", "unshare",
                       "--checkpoint-interval", "0.1", *_relay_args(fake)[:4], "--format", "json", "--",
                       sys.executable, "agent.py"], tmp_path / "forked", env=_env(), new_session=True)
    try:
        until = time.monotonic() + 60
        while time.monotonic() < until and not list(out.glob("*/relay.jsonl")):
            time.sleep(0.05)
        (log,) = out.glob("*/relay.jsonl")
        while time.monotonic() < until and len(read_log(log)) < 2:
            time.sleep(0.05)
    finally:
        runner.kill_group()
    before = read_log(log)
    assert 2 <= len(before) < 4
    # The kill needs a process of its own; the resume runs in-process (runbundle.gk_in).
    done = gk_in("run", "--resume", log.parent.name, "--out", str(out), "--format", "json", env=_env())
    assert done.returncode == 0, done.stderr
    after = read_log(log)
    assert after[: len(before)] == before and len(after) >= 4
    assert all(r["status"] == 200 and r["served"] == "claude-served-by-fake" for r in after)
    assert log.read_bytes().endswith(b"\n")
    packet = json.loads(Path(json.loads(done.stdout)["packet"]).read_text())
    assert packet["relay"]["requests"] == len(after)
