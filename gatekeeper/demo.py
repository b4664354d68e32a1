"""`make demo`: a sample repository, a sandboxed run of the sample generator, then the gate's decisions.

Everything lives under `./.demo/<timestamp>/` (git-ignored); nothing leaves the machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gatekeeper import demo_generator
from gatekeeper.cli import main as cli_main
from gatekeeper.demo_model_api import fake_model_api
from gatekeeper.errors import ExitCode, GatekeeperError
from gatekeeper.gitcmd import absolute_path, git_program
from gatekeeper.policy_dir import resolve_policy_dir
from gatekeeper.runner.run import RunRequest, start

# Run as a script inside the sandbox, never imported here (it imports the anthropic SDK).
SAMPLE_AGENT = Path(__file__).with_name("demo_agent.py")

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "Demo", "GIT_AUTHOR_EMAIL": "demo@example.invalid",
    "GIT_COMMITTER_NAME": "Demo", "GIT_COMMITTER_EMAIL": "demo@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
}
SAMPLE_FILES = {
    "README.md": "# sample\n\nA sample repository made by `make demo`.\n",
    "src/app.py": 'def greet(name: str) -> str:\n    return f"hello, {name}"\n',
    ".github/workflows/ci.yml": "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
    "    steps:\n      - uses: actions/checkout@v4\n      - run: python -m pytest\n",
    "go.mod": "module example.com/sample\n\ngo 1.22\n",
    "package.json": '{\n  "name": "sample",\n  "version": "1.0.0"\n}\n',
}
OUTCOMES = {0: "allow", 1: "deny", 3: "review"}
FAREWELL = 'def farewell(name: str) -> str:\n    return f"goodbye, {name}"\n'
DEMO_KEY = "demo-key-held-by-the-relay-only"


def say(text: str = "") -> None:
    print(text, flush=True)


def make_sample_repo(folder: Path) -> Path:
    """A fresh git repository with one commit holding SAMPLE_FILES."""
    for rel, text in SAMPLE_FILES.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    env = {**os.environ, **_GIT_ENV}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "sample base"]):
        subprocess.run([git_program(), *args], cwd=folder, env=env, check=True)
    return folder


def _progress(line: str) -> None:
    print(f"gatekeeper run: {line}", file=sys.stderr, flush=True)


def gatekeeper_run(request: RunRequest, out: Path, environ: dict[str, str]) -> dict[str, Any] | None:
    """`gatekeeper run --format json` in this process (one interpreter start for the demo's two runs and three
    gates, not one each): its progress on stderr, as the CLI prints it; the summary, or None when the run failed."""
    try:
        result = start(request, out=out, environ=environ, progress=_progress)
    except GatekeeperError as exc:
        print(f"gatekeeper: error: {exc}", file=sys.stderr, flush=True)
        code = int(exc.exit_code)
    else:
        code = int(result.exit_code)
        if result.exit_code == ExitCode.OK:
            return result.to_dict()
    say(f"demo: the run failed (exit code {code}); see the messages above")
    return None


def show_gate(packet: str, patch: str, policy: Path, extra: list[str], base: Path) -> bool:
    """`gatekeeper gate` on the run's packet, in this process (one cold start for the demo's three gates, not
    one each): its report goes to a file under `base`, its one-line verdict to stderr."""
    label = "default policies" + (" + " + " ".join(extra[1::2]) if extra else "")
    report = base / ("gate-" + "-".join([Path(packet).parent.name, "default", *extra[1::2]]) + ".json")
    code = cli_main(["gate", packet, "--patch", patch, "--policy", str(policy), *extra, "--format", "json",
                     "--output", str(report)])
    if code not in OUTCOMES:
        say(f"gate ({label}): could not decide (exit code {code})")
        return False
    decision = json.loads(report.read_text(encoding="utf-8"))
    say(f"gate ({label}): {decision['outcome'].upper()} (exit code {code}, report {report})")
    for reason in decision.get("reasons", []):
        unnamed = [p for p in reason.get("paths", []) if p not in reason["msg"]]
        say(
            f"  - [{reason['level']}] {reason['rule']}: {reason['msg']}"
            + (f" ({', '.join(unnamed)})" if unnamed else "")
        )
    return True


def main() -> int:
    """Run the demo; 0 when every step ran (whatever the gate decided), 2 when one broke."""
    # As the CLI does for every command: no relative PATH entry finds a program in the folder a command works in.
    os.environ["PATH"] = absolute_path(os.environ.get("PATH", os.defpath))
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = Path.cwd() / ".demo" / stamp
    policy = resolve_policy_dir(None).resolve()
    repo = make_sample_repo(base / "sample-repo")
    say(f"demo: sample repository {repo}")
    say("demo: running the sample generator with `gatekeeper run` (sandbox auto, offline)")
    summary = gatekeeper_run(RunRequest(
        command=(sys.executable, "-I", demo_generator.__file__), repo=str(repo), model="sample-model",
        policy=str(policy), checkpoint_interval=1, timeout=120,
    ), base / "runs", dict(os.environ))
    if summary is None:
        return 2
    packet = json.loads(Path(summary["packet"]).read_text(encoding="utf-8"))
    say(f"demo: run {summary['run_id']} in {summary['run_dir']}")
    say(f"  sandbox: {packet['sandbox']['backend']}, network {packet['sandbox']['network']}, "
        f"egress checked: {packet['sandbox']['egress_checked']}")
    say(f"  model: requested {packet['model']['requested']!r}, reported {packet['model']['reported']!r}")
    for item in packet["files"]:
        say(f"  {item['bucket']:<5} {item['status']:<9} {item['path']} (+{item['additions']} -{item['deletions']})")
    say(f"  patch:  {summary['patch']}")
    say(f"  packet: {summary['packet']}")
    ok = show_gate(summary["packet"], summary["patch"], policy, [], base)
    ok = show_gate(summary["packet"], summary["patch"], policy, ["--enable", "deps"], base) and ok
    return (0 if ok else 2) or agent_through_relay(base, repo, policy)


def agent_through_relay(base: Path, repo: Path, policy: Path) -> int:
    """The second run: an SDK-based agent whose only way out is the model relay, to a fake API on loopback."""
    if importlib.util.find_spec("anthropic") is None:
        say("demo: the anthropic SDK is not installed (pip install anthropic); skipping the relay run")
        return 0
    with fake_model_api(served="claude-demo-served-2026", reply=FAREWELL) as api:
        say(f"demo: running an anthropic-SDK agent through the model relay (fake model API at {api.url})")
        summary = gatekeeper_run(RunRequest(
            command=(sys.executable, "-I", str(SAMPLE_AGENT)), repo=str(repo), model="claude-demo",
            policy=str(policy), model_apis=(f"anthropic={api.url}",), model_keys=("anthropic=DEMO_MODEL_KEY",),
            timeout=120,
        ), base / "runs", {**os.environ, "DEMO_MODEL_KEY": DEMO_KEY})
        keys = {call["headers"].get("x-api-key") for call in api.seen}
    if summary is None:
        return 2
    packet = json.loads(Path(summary["packet"]).read_text(encoding="utf-8"))
    relay = packet["relay"]
    box, model = packet["sandbox"], packet["model"]
    say(f"demo: run {summary['run_id']}: sandbox {box['backend']}, network {box['network']}")
    say(f"  model: requested {model['requested']!r}, served (recorded by the relay) {model['served']}")
    say(f"  relay: {relay['requests']} call(s), {relay['refused']} refused, {relay['tokens']} tokens; "
        f"the upstream saw the real key: {keys == {DEMO_KEY}}; log {Path(summary['run_dir']) / 'relay.jsonl'}")
    ok = show_gate(summary["packet"], summary["patch"], policy, ["--enable", "provenance", "--enable", "sandbox"],
                   base)
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
