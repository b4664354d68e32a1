"""The gatekeeper CLI called in-process (`gatekeeper.cli.main`, the console script's entry point).

For tests whose subject is what a command prints and which exit code it returns, not the process
boundary: a cold `python -m gatekeeper` costs an interpreter start and every import per call. What
only a real process shows (the C library's writes to fd 1, signals, `-I`, the installed script) keeps
its subprocess tests; each command and exit-code class keeps at least one.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from gitrepo import GitRepo, two_commits

from gatekeeper.cli import main


def run_cli(
    args: Sequence[str | os.PathLike[str]],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    input: str | bytes | None = None,
    text: bool = False,
) -> subprocess.CompletedProcess[bytes] | subprocess.CompletedProcess[str]:
    """Run `gatekeeper ARGS` in this process; return what `subprocess.run(..., capture_output=True)` would.

    `env`, as for subprocess, replaces the whole environment for the call; `cwd` is entered and left.
    """
    argv = [os.fspath(a) for a in args]
    overrides: dict[str, str | None] | None = None
    if env is not None:
        overrides = {name: None for name in os.environ if name not in env}
        overrides.update(env)
    runner = CliRunner()
    with runner.isolation(input=input, env=overrides) as (out, err, _):
        with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
            code = main(argv)
        sys.stdout.flush()
        sys.stderr.flush()
    stdout, stderr = out.getvalue(), err.getvalue()
    if text:
        return subprocess.CompletedProcess(["gatekeeper", *argv], code, stdout.decode(), stderr.decode())
    return subprocess.CompletedProcess(["gatekeeper", *argv], code, stdout, stderr)


def cli_result(args: Sequence[str]) -> tuple[int, Any]:
    """`gatekeeper ARGS...` in this process: the exit code and the JSON document it printed (else its text)."""
    done = run_cli(list(args), text=True)
    out = str(done.stdout)
    return done.returncode, json.loads(out) if out.strip().startswith("{") else out


def tree_gate(repo: Path, base: str, head: str, policy: Path | None = None, *extra: str) -> tuple[int, dict[str, Any]]:
    """`gatekeeper gate --tree BASE..HEAD --format json [--policy POLICY] EXTRA...` on `repo`, in this process: the
    exit code and the decision."""
    chosen = ["--policy", policy] if policy is not None else []
    done = run_cli(["gate", "--tree", f"{base}..{head}", "--repo", repo, *chosen, "--format", "json", *extra],
                   text=True)
    return done.returncode, json.loads(done.stdout)


def tree_classify(repo: Path, base: str, head: str) -> dict[str, dict[str, Any]]:
    """`gatekeeper classify --tree BASE..HEAD --repo REPO --format json`, in this process: each changed file's entry by
    its path (the command must succeed)."""
    done = run_cli(["classify", "--tree", f"{base}..{head}", "--repo", repo, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    return {f["path"]: f for f in json.loads(done.stdout)["files"]}


def classify_and_gate(root: Path, base: Mapping[str, str],
                      head: Mapping[str, str]) -> tuple[dict[str, str], dict[str, Any]]:
    """A new repository at `root` with two commits (`base`'s files, then `head`'s edits), classified from inside it
    (`classify --tree`) and gated (`gate --tree --repo`), in this process: each changed path's bucket and the decision.
    Classify must succeed; the gate must exit with its outcome's code and print no traceback."""
    repo, first, last = two_commits(root, dict(base), dict(head))
    done = run_cli(["classify", "--tree", f"{first}..{last}", "--format", "json"], cwd=repo.root, text=True)
    assert done.returncode == 0, done.stderr
    buckets = {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}
    gated = run_cli(["gate", "--tree", f"{first}..{last}", "--repo", repo.root, "--format", "json"], text=True)
    assert "Traceback" not in str(gated.stderr), gated.stderr
    decision: dict[str, Any] = json.loads(str(gated.stdout))
    assert gated.returncode == {"allow": 0, "deny": 1, "review": 3}[decision["outcome"]], decision
    return buckets, decision


def reviewed_paths(decision: Mapping[str, Any], rule: str) -> set[str]:
    """The paths the findings of `rule` (`core.iac`) name in a decision."""
    return {path for reason in decision["reasons"] if reason["rule"] == rule for path in reason.get("paths", ())}


def packet_patch_and_chain(tmp: Path) -> tuple[Path, Path, bytes]:
    """In `tmp`: a packet and its patch (one added source file), and the bytes of an intact decision log the gate wrote
    for them elsewhere (what a change can commit as its own log)."""
    repo = GitRepo(tmp / "src")
    repo.write("README.md", "x\n")
    repo.commit("base")
    repo.write("src/app.py", "print(1)\n")
    patch = repo.save_patch(tmp / "change.diff")
    packet = tmp / "packet.json"
    done = run_cli(["packet", str(patch), "--out", str(packet), "--run-id", "run-1"], cwd=tmp, text=True)
    assert done.returncode == 0, done.stderr
    log = tmp / "chain.jsonl"
    done = run_cli(["gate", str(packet), "--patch", str(patch), "--log", str(log)], cwd=tmp, text=True)
    assert done.returncode in (0, 3), done.stderr
    return packet, patch, log.read_bytes()
