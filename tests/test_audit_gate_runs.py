"""The audit trail of real gate runs: every outcome, dry runs and could-not-decide runs, CI context, and the one
command docs/audit.md gives for "how many CI/IaC changes went to a human last week, out of how many"."""

from __future__ import annotations

import datetime as dt
import json
import shlex
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.attest.keys import generate
from gatekeeper.audit.log import append_decision, failure_decision
from gatekeeper.audit.read import load_entries, snapshot_file
from gatekeeper.audit.verify import verify_log
from gatekeeper.cli import main
from gatekeeper.errors import PatchError

BASE = {"src/app.py": "print(1)\n", ".github/workflows/ci.yml": "name: ci\non: [push]\njobs: {}\n",
        "infra/main.tf": 'resource "null_resource" "a" {}\n'}
CHANGES = {"src": {"src/app.py": "print(2)\n"},
           "ci": {".github/workflows/ci.yml": BASE[".github/workflows/ci.yml"] + "# touched\n"},
           "iac": {"infra/main.tf": BASE["infra/main.tf"] + 'resource "null_resource" "b" {}\n'}}


def _clean_ci_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GITHUB_ACTIONS", "GITLAB_CI", "GITHUB_EVENT_PATH", "GITHUB_REF", "GITHUB_REPOSITORY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> tuple[GitRepo, Path, dict[str, tuple[Path, Path]]]:
    """A real repository, and for each kind of change its patch (made by git) and packet (made by the CLI)."""
    _clean_ci_env(monkeypatch)
    repo = GitRepo(tmp_path / "repo")
    for path, text in BASE.items():
        repo.write(path, text)
    repo.commit("base")
    work = tmp_path / "work"
    work.mkdir()
    made = {}
    for name, files in CHANGES.items():
        for path, text in files.items():
            repo.write(path, text)
        patch = repo.save_patch(work / f"{name}.diff")
        repo.git("reset", "-q", "--hard")
        assert main(["packet", str(patch), "--out", str(work / f"{name}.json"), "--run-id", f"run-{name}"]) == 0
        made[name] = (work / f"{name}.json", patch)
    (work / "broken.json").write_text("{not json\n")
    capsys.readouterr()
    monkeypatch.chdir(work)
    return repo, work, made


def gate(packet: Path, patch: Path, *extra: str) -> int:
    return main(["gate", str(packet), "--patch", str(patch), "--log", "decisions.jsonl", *extra])


def documented_command() -> list[str]:
    """The command docs/audit.md gives for the question, exactly as written there."""
    text = (REPO_ROOT / "docs" / "audit.md").read_text(encoding="utf-8")
    section = text.split("## How many CI/IaC changes went to a human last week?", 1)[1].split("\n## ", 1)[0]
    commands = [line[2:] for line in section.splitlines() if line.startswith("$ gatekeeper audit stats ")]
    assert len(commands) == 1, commands
    return shlex.split(commands[0])


def test_the_documented_command_answers_the_question(changes: tuple[GitRepo, Path, dict],
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    repo, work, made = changes
    # Eight days ago (the clock of the log only): a CI review outside the last seven days.
    old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=8)).isoformat().replace("+00:00", "Z")
    with monkeypatch.context() as patched:
        patched.setattr("gatekeeper.audit.log.utc_now", lambda: old)
        assert gate(*made["ci"]) == 3
    assert gate(*made["src"]) == 0  # allow: not CI/IaC
    assert gate(*made["ci"]) == 3  # review
    assert gate(*made["iac"]) == 3  # review
    assert gate(made["src"][0], made["iac"][1]) == 1  # the packet of another patch: deny, on an IaC change
    assert gate(*made["ci"], "--dry-run") == 0  # a review, but a dry run: nobody was asked
    assert gate(made["ci"][0].parent / "broken.json", made["ci"][1]) == 2  # could not decide
    capsys.readouterr()

    command = documented_command()
    assert command[:4] == ["gatekeeper", "audit", "stats", "decisions.jsonl"]
    assert main(command[1:]) == 0
    first, second = capsys.readouterr().out.splitlines()[:2]
    assert first.startswith("3 decisions touching ci or iac (of 4 in the period) since ")
    assert first.endswith(": sent to a human (review): 2 of 3 = 66.7%")
    assert second == "counted apart: 1 dry run (1 would have gone to a human), 1 could not decide (exit 2)"
    assert main([*command[1:], "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["decisions"], stats["in_period"], stats["outcomes"]) == (3, 4, {"allow": 0, "review": 2, "deny": 1})
    assert (stats["dry_run"], stats["could_not_decide"]) == (1, 1)
    assert set(stats["rules"]) == {"core.ci", "core.iac", "gatekeeper.integrity"}
    # Without the window the old review counts too: the window, not the log, excluded it.
    assert main(["audit", "stats", "decisions.jsonl", "--bucket", "ci", "--bucket", "iac", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcomes"]["review"] == 3
    assert verify_log(work / "decisions.jsonl").ok


def test_records_carry_the_ci_context_and_the_tree_range(changes: tuple[GitRepo, Path, dict], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    repo, work, made = changes
    base = repo.git("rev-parse", "HEAD").decode().strip()
    for path, text in CHANGES["ci"].items():
        repo.write(path, text)
    head = repo.commit("an agent's change")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 41, "base": {"sha": base}, "head": {"sha": head}}}))
    for name, value in {"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_REF": "refs/pull/41/merge",
                        "GITHUB_EVENT_PATH": str(event), "GITHUB_RUN_ID": "9", "GITHUB_SHA": "f" * 40}.items():
        monkeypatch.setenv(name, value)
    tree = f"{base}..{head}"
    assert main(["gate", "--tree", tree, "--repo", str(repo.root), "--log", "decisions.jsonl"]) == 3
    assert main(["gate", "--tree", f"{base}..nosuchref", "--repo", str(repo.root), "--log", "decisions.jsonl"]) == 2
    decided, failed = (e.record for e in load_entries(snapshot_file(work / "decisions.jsonl")))
    for record in (decided, failed):
        ci = record["ci"]
        assert (ci["repository"], ci["number"], ci["change"]) == ("github.com/acme/shop", 41,
                                                                 "https://github.com/acme/shop/pull/41")
        assert (ci["base_sha"], ci["head_sha"]) == (base, head)
        assert ci["run_url"] == "https://github.com/acme/shop/actions/runs/9"
    assert decided["ci"]["tree"] == tree and decided["outcome"] == "review"
    assert failed["ci"]["tree"] == f"{base}..nosuchref" and failed["outcome"] == "error"


def test_could_not_decide_is_chained_signed_shown_and_never_replayed(changes: tuple[GitRepo, Path, dict],
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    repo, work, made = changes
    signers = work / "signers"
    signers.write_text(generate("gate", work / "keys")[2].line() + "\n")
    key = str(work / "keys" / "gate.key")
    assert gate(*made["src"], "--sign", key) == 0
    assert gate(work / "broken.json", made["src"][1], "--sign", key) == 2
    assert gate(*made["ci"], "--sign", key) == 3
    err = capsys.readouterr().err
    assert "not valid JSON" in err
    records = [e.record for e in load_entries(snapshot_file(work / "decisions.jsonl"))]
    assert [r["outcome"] for r in records] == ["allow", "error", "review"]
    error = records[1]
    assert error["error"]["kind"] == "PacketError" and "broken.json:1" in error["error"]["message"]
    assert (error["findings"], error["policies"], error["bundle"], error["log_version"]) == ([], [], None, 4)
    assert all("signature" in r for r in records)
    assert main(["audit", "verify", "decisions.jsonl", "--trust", str(signers)]) == 0
    assert "intact: 3 records" in capsys.readouterr().out
    assert main(["audit", "show", "decisions.jsonl"]) == 0
    shown = [line for line in capsys.readouterr().out.splitlines() if "could not decide:" in line]
    assert len(shown) == 1 and "could not decide: PacketError: " in shown[0] and "broken.json:1" in shown[0]
    assert main(["audit", "replay", "decisions.jsonl", "2", "--packet", str(made["src"][0]),
                 "--patch", str(made["src"][1])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "could-not-decide record" in err


def test_a_failed_gate_never_creates_a_log_folder(changes: tuple[GitRepo, Path, dict]) -> None:
    repo, work, made = changes
    log = work / "typo" / "decisions.jsonl"
    assert main(["gate", str(work / "broken.json"), "--patch", str(made["src"][1]), "--log", str(log)]) == 2
    assert not log.parent.exists()
    # The missing folder is itself the failure: still nothing is created.
    assert main(["gate", *map(str, made["src"]), "--log", str(log)]) == 2
    assert not log.parent.exists()


def test_a_shared_git_log_gets_the_could_not_decide_record(changes: tuple[GitRepo, Path, dict],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    repo, work, made = changes
    subprocess.run(["git", "init", "-q", "--bare", str(work / "audit.git")], check=True)
    assert main(["gate", str(work / "broken.json"), "--patch", str(made["src"][1]), "--log-git", "audit.git"]) == 2
    capsys.readouterr()
    assert main(["audit", "show", "--git", "audit.git", "--format", "json"]) == 0
    [record] = json.loads(capsys.readouterr().out)
    assert record["outcome"] == "error" and record["seq"] == 1


def test_show_of_an_unknown_run_is_exit_1_in_one_line(changes: tuple[GitRepo, Path, dict],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    repo, work, made = changes
    assert gate(*made["src"]) == 0
    capsys.readouterr()
    assert main(["audit", "show", "decisions.jsonl", "run-nosuch"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "no decision for run 'run-nosuch'" in err
    assert main(["audit", "show", "decisions.jsonl", "run-src"]) == 0


def test_verify_of_an_empty_log_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "decisions.jsonl"
    log.write_bytes(b"")
    assert main(["audit", "verify", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{log}: empty: no records to verify") and "None" not in out


@each_case("message", ["line one\nline two", "nul \x00 byte", "caf\u00e9 \u202e", "bad \udc80 path",
                                     "x" * 100_000, ""])
def test_any_error_message_makes_a_canonical_bounded_record(tmp_path: Path, message: str) -> None:
    """The message can hold a path from the change under review: whatever it holds, the record stays verifiable."""
    log = tmp_path / "decisions.jsonl"
    record = append_decision(log, failure_decision(PatchError(message)))
    assert record["outcome"] == "error" and len(record["error"]["message"]) <= 2003
    assert record["error"]["message"] == (message[:2000] + "..." if len(message) > 2000 else message or "PatchError")
    assert verify_log(log).ok
    [entry] = load_entries(snapshot_file(log))
    assert entry.record == record
