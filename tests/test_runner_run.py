"""`gatekeeper run` end to end: model fields, timeout, failing generator, empty change, bad repository.

Runs are in-process (runbundle.gk_in) where the subject is the run's record; the text summary, a bad
repository (exit 2), the default runs folder and one usage error go through a real process (runbundle.gk)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from datetime import datetime
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import DeadlineClock, gk, gk_in, use_bundle

from gatekeeper.runner import env as genenv
from gatekeeper.runner import generator, rundir

RULES = """version: 1
rules:
  - id: t.ci
    bucket: ci
    description: CI workflows
    match: [".github/workflows/**"]
  - id: t.deps
    bucket: deps
    description: manifests
    match: ["go.mod", "package.json"]
  - id: t.src
    bucket: src
    description: everything else
    match: ["**"]
"""


@pytest.fixture(autouse=True)
def _bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_bundle(tmp_path, monkeypatch, RULES)


def sample_repo(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "origin")
    repo.write("src/app.py", "print('hello')\n")
    repo.write("README.md", "# sample\n")
    repo.commit()
    return repo.root


def run_json(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict, str]:
    repo = sample_repo(tmp_path)
    done = gk_in("run", "--repo", str(repo), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
                 "--checkpoint-interval", "0.2", "--format", "json", *args, env=env)
    summary = json.loads(done.stdout) if done.stdout.strip() else {}
    return done.returncode, summary, done.stderr


def packet_of(summary: dict) -> dict:
    return json.loads(Path(summary["packet"]).read_text())


def test_model_requested_and_reported(tmp_path: Path) -> None:
    script = (
        'echo "{\\"model\\": \\"served-model-7\\"}" > "$GATEKEEPER_MODEL_REPORT"; echo "$GATEKEEPER_MODEL" > asked.txt'
    )
    code, summary, _ = run_json(tmp_path, "--model", "requested-model", "--", "sh", "-c", script)
    assert code == 0
    packet = packet_of(summary)
    assert packet["model"] == {"requested": "requested-model", "reported": "served-model-7", "reported_by": "generator"}
    assert "+requested-model" in Path(summary["patch"]).read_text()
    assert packet["run_id"] == summary["run_id"]
    for key in ("run_dir", "patch", "packet"):
        assert Path(summary[key]).is_absolute() and Path(summary[key]).exists()


def test_text_summary_says_where_things_are(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    # In-process: the text format's fields (test_text_output_and_default_runs_folder prints it from a real process).
    done = gk_in("run", "--repo", str(repo), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
                 "--model", "m-1", "--", "sh", "-c", "echo x > new.txt")
    assert done.returncode == 0, done.stderr
    fields = dict(line.split(":", 1) for line in done.stdout.splitlines())
    assert list(fields) == ["run_id", "run_dir", "patch", "packet", "generator", "sandbox", "model"]
    assert Path(fields["packet"].strip()).is_file() and "new.txt" in Path(fields["patch"].strip()).read_text()
    assert fields["generator"].strip() == "exit code 0" and fields["sandbox"].strip().startswith("unshare, network ")
    assert fields["model"].strip() == "requested m-1, reported null"


def test_model_not_reported_is_null(tmp_path: Path) -> None:
    code, summary, _ = run_json(tmp_path, "--", "sh", "-c", 'env > seen.txt')
    assert code == 0
    packet = packet_of(summary)
    assert packet["model"] == {"requested": None, "reported": None, "reported_by": None}
    seen = Path(summary["patch"]).read_text()
    assert "GATEKEEPER_MODEL=" not in seen and "GATEKEEPER_MODEL_REPORT=" in seen


def test_unusable_model_report_is_ignored_with_a_warning(tmp_path: Path) -> None:
    code, summary, stderr = run_json(
        tmp_path, "--model", "m", "--", "sh", "-c", 'echo "not json" > "$GATEKEEPER_MODEL_REPORT"'
    )
    assert code == 0
    assert packet_of(summary)["model"]["reported"] is None
    assert any("model report" in w for w in summary["warnings"]) and "warning" in stderr


def test_timeout_kills_the_whole_group_and_keeps_the_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The timeout strikes once the partial work is written (runbundle.DeadlineClock), however long a loaded
    # machine takes to start the sandbox; test_a_timeout_counts_real_seconds covers the real clock.
    clock = DeadlineClock(lambda: any((tmp_path / "runs").glob("*/workspace/partial.txt")), ahead=20)
    monkeypatch.setattr(generator, "time", clock)
    began = time.monotonic()
    code, summary, _ = run_json(
        tmp_path,
        "--timeout",
        "20",
        "--",
        "sh",
        "-c",
        "echo partial > partial.txt; echo written; sleep 61.5 & sleep 61.5; echo late > late.txt",
    )
    assert time.monotonic() - began < 45  # no wait for the 61.5 s sleeps
    assert code == 1
    gen = packet_of(summary)["generator"]
    assert gen["timed_out"] is True and gen["exit_code"] != 0
    assert clock.jumped_at is not None
    took = datetime.fromisoformat(gen["finished_at"]) - clock.jumped_at
    assert took.total_seconds() < generator.KILL_GRACE  # SIGTERM ended the group, no SIGKILL grace needed
    patch = Path(summary["patch"]).read_text()
    assert "partial.txt" in patch and "late.txt" not in patch
    leftover = subprocess.run(["pgrep", "-f", "sleep 61.5"], capture_output=True, text=True)
    assert leftover.stdout.strip() == ""


def test_a_timeout_counts_real_seconds(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    began = time.monotonic()
    result = generator.run(
        ["sh", "-c", "sleep 61.6 & sleep 61.6"], cwd=tmp_path, env={"PATH": os.environ["PATH"]},
        logs=tmp_path / "logs", timeout=0.2, tick=lambda: None, tick_interval=30,
    )
    assert result.timed_out is True and result.exit_code != 0
    assert 0.2 <= time.monotonic() - began < 45  # not before the timeout, and not after the 61.6 s sleeps
    leftover = subprocess.run(["pgrep", "-f", "sleep 61.6"], capture_output=True, text=True)
    assert leftover.stdout.strip() == ""


def test_a_group_of_zombies_runs_nothing() -> None:
    # A sandbox whose first process went first leaves its child a zombie of the machine's init: kill() still
    # reaches it, yet nothing of the generator runs any more, and the run goes on to the capture.
    sleeper = subprocess.Popen(["sleep", "61.7"], start_new_session=True)
    try:
        assert generator._group_runs(sleeper.pid)
        os.kill(sleeper.pid, signal.SIGKILL)
        os.waitid(os.P_PID, sleeper.pid, os.WEXITED | os.WNOWAIT)  # dead, and left unreaped: a zombie
        os.killpg(sleeper.pid, 0)  # the group can still be signalled
        assert not generator._group_runs(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()


def test_failing_generator_still_gets_a_marked_packet(tmp_path: Path) -> None:
    code, summary, stderr = run_json(tmp_path, "--", "sh", "-c", "echo half > half.txt; echo boom >&2; exit 3")
    assert code == 1
    packet = packet_of(summary)
    assert packet["generator"]["exit_code"] == 3 and packet["generator"]["timed_out"] is False
    assert [f["path"] for f in packet["files"]] == ["half.txt"]
    assert "boom" in (Path(summary["run_dir"]) / "logs" / "stderr.log").read_text()
    for stamp in (packet["generator"]["started_at"], packet["generator"]["finished_at"]):
        assert stamp.endswith("+00:00")


def test_missing_command_is_exit_127_in_the_packet(tmp_path: Path) -> None:
    code, summary, _ = run_json(tmp_path, "--", "no-such-generator-command")
    assert code == 1
    assert packet_of(summary)["generator"]["exit_code"] == 127


def test_empty_change(tmp_path: Path) -> None:
    code, summary, _ = run_json(tmp_path, "--", "true")
    assert code == 0
    assert Path(summary["patch"]).read_bytes() == b""
    packet = packet_of(summary)
    assert packet["diff"]["file_count"] == 0 and packet["files"] == []
    state = json.loads((Path(summary["run_dir"]) / "state.json").read_text())
    assert state["stage"] == "done" and state["checkpoints"] == []


def test_repository_and_ref_recorded(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "origin")
    repo.write("a.txt", "one\n")
    first = repo.commit("one")
    repo.git("branch", "feature")
    repo.write("a.txt", "two\n")
    repo.commit("two")
    out = tmp_path / "runs"
    done = gk_in("run", "--repo", str(repo.root), "--ref", "feature", "--out", str(out), "--sandbox", "unshare",
                 "--format", "json", "--", "sh", "-c", "cat a.txt > seen.txt")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    packet = packet_of(summary)
    assert packet["repository"]["base_ref"] == "feature"
    assert packet["repository"]["base_commit"] == first
    assert packet["repository"]["url"] == "file://" + str(repo.root.resolve())
    assert packet["repository"]["run_branch"] == f"gatekeeper/run/{summary['run_id']}"
    assert "+one" in Path(summary["patch"]).read_text()
    by_commit = gk_in("run", "--repo", str(repo.root), "--ref", first, "--out", str(out), "--sandbox", "unshare",
                      "--format", "json", "--", "true")
    assert by_commit.returncode == 0, by_commit.stderr
    assert packet_of(json.loads(by_commit.stdout))["repository"]["base_commit"] == first


@pytest.mark.parametrize("repo_arg", ["missing-folder", "file:///nonexistent/gatekeeper-test-repo"])
def test_uncloneable_repository_is_exit_2(tmp_path: Path, repo_arg: str) -> None:
    target = str(tmp_path / repo_arg) if "://" not in repo_arg else repo_arg
    out = tmp_path / "runs"
    # One through a real process (the exit code and message of the process), the other in-process.
    cli = gk if repo_arg == "missing-folder" else gk_in
    done = cli("run", "--repo", target, "--out", str(out), "--sandbox", "unshare", "--", "true")
    assert done.returncode == 2
    assert "cannot clone the repository" in done.stderr and "--repo" in done.stderr
    assert "Traceback" not in done.stderr
    assert not out.exists() or list(out.iterdir()) == []


def test_unknown_ref_is_exit_2(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    done = gk_in("run", "--repo", str(repo), "--ref", "no-such-branch", "--out", str(tmp_path / "runs"),
                 "--sandbox", "unshare", "--", "true")
    assert done.returncode == 2 and "no-such-branch" in done.stderr


def test_usage_errors(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    no_command = gk("run", "--repo", str(repo), "--out", str(tmp_path / "runs"))  # one through a real process
    assert no_command.returncode == 2 and "no generator command" in no_command.stderr
    # The others are refused in Python: in-process.
    bad_name = gk_in("run", "--repo", str(repo), "--out", str(tmp_path / "runs"), "--pass-env", "A=B", "--", "true")
    assert bad_name.returncode == 2 and "--pass-env" in bad_name.stderr
    bad_resume = gk_in("run", "--resume", "../etc", "--out", str(tmp_path / "runs"))
    assert bad_resume.returncode == 2 and "not a run id" in bad_resume.stderr
    mixed = gk_in("run", "--resume", "20260101T000000Z-00000000", "--model", "x", "--out", str(tmp_path / "runs"))
    assert mixed.returncode == 2 and "--resume takes only" in mixed.stderr
    for option in ("--timeout", "--checkpoint-interval"):
        for value in ("nan", "inf", "0", "-1"):
            done = gk_in("run", "--repo", str(repo), "--out", str(tmp_path / "runs"), option, value, "--", "true")
            assert done.returncode == 2 and f"{option}: " in done.stderr, (option, value, done.stderr)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_text_output_and_default_runs_folder(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    done = gk("run", "--repo", str(repo), "--sandbox", "unshare", "--", "sh", "-c", "echo x > x.txt", env=env)
    assert done.returncode == 0, done.stderr
    assert f"run_dir:   {tmp_path / 'state' / 'gatekeeper' / 'runs'}/" in done.stdout
    assert "gatekeeper run: packet" in done.stderr  # progress goes to stderr


def test_default_runs_root_is_never_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert rundir.default_runs_root({"XDG_STATE_HOME": "/srv/state"}) == Path("/srv/state/gatekeeper/runs")
    # A relative XDG_STATE_HOME is invalid by the XDG spec and is ignored.
    assert rundir.default_runs_root({"XDG_STATE_HOME": "rel", "HOME": str(tmp_path)}) == (
        tmp_path / ".local/state/gatekeeper/runs"
    )


def test_env_allowlist_unit(tmp_path: Path) -> None:
    caller = {"PATH": "/bin", "LC_ALL": "C", "LANG": "C", "GITHUB_TOKEN": "t", "KEEP": "k", "GATEKEEPER_RUN_ID": "fake"}
    built = genenv.build(caller, home=tmp_path, run_id="r1", model=None, model_report=tmp_path / "m.json",
                         pass_env=["KEEP", "ABSENT"])
    assert built.values["GATEKEEPER_RUN_ID"] == "r1" and built.values["KEEP"] == "k"
    assert "GITHUB_TOKEN" not in built.values and "GATEKEEPER_MODEL" not in built.values
    assert built.passed == ("KEEP",) and built.missing == ("ABSENT",)
    assert built.names == sorted(built.values)


def test_logs_are_bounded_and_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gatekeeper.runner import generator

    monkeypatch.setattr(generator, "LOG_CAP", 4096)
    logs = tmp_path / "logs"
    logs.mkdir()
    ticks: list[int] = []

    def tick() -> None:
        ticks.append(1)
        (tmp_path / "ticked").touch()

    # It ends once a checkpoint was asked for (20 s at most), however slow the machine.
    wait = "i=0; until [ -e ticked ] || [ $i -ge 2000 ]; do sleep 0.01; i=$((i+1)); done"
    result = generator.run(
        ["sh", "-c", f"head -c 100000 /dev/zero | tr '\\0' a; echo tail >&2; {wait}"], cwd=tmp_path,
        env={"PATH": os.environ["PATH"]}, logs=logs, timeout=None, tick=tick, tick_interval=0.1,
    )
    assert result.exit_code == 0 and result.truncated == ("stdout.log",)
    text = (logs / "stdout.log").read_text()
    assert len(text) < 4096 + 200 and "log truncated at 4096 bytes" in text
    assert "tail" in (logs / "stderr.log").read_text()
    assert ticks  # checkpoints were asked for while it ran
