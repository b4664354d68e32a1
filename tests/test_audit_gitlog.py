"""The decision log in a git ref: real pushes racing into one bare repository, and tampering found at its record."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from forkcli import fork_cli
from gitrepo import GIT_ENV
from incli import run_cli
from tables import each_case
from test_audit_log import decision

from gatekeeper.audit import gitlog
from gatekeeper.audit.gitlog import DEFAULT_REF, Retry, append_git, parse_spec, read_git
from gatekeeper.audit.line import canonical
from gatekeeper.audit.log import record_hash
from gatekeeper.cli import main
from gatekeeper.errors import AuditError, UsageError

FAST = Retry(attempts=40, backoff=0.01, max_backoff=0.1)


def _bare(tmp_path: Path) -> Path:
    repo = tmp_path / "audit.git"
    subprocess.run(["git", "init", "-q", "--bare", str(repo)], check=True)
    return repo


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> str:
    env = {**os.environ, **GIT_ENV, "GIT_DIR": str(repo)}
    return subprocess.run(["git", *args], env=env, input=stdin, capture_output=True, check=True).stdout.decode().strip()


def _append_in_child(remote: str, n: int, barrier) -> None:  # runs in another process
    barrier.wait(timeout=60)
    append_git(parse_spec(remote), decision(n), retry=FAST)


def _gate_inputs(tmp_path: Path, git_repo) -> tuple[Path, Path]:
    git_repo.write("src/app.py", "print('hi')\n")
    git_repo.commit()
    git_repo.write("src/app.py", "print('hello')\n")
    patch = git_repo.save_patch(tmp_path / "change.diff")
    packet = tmp_path / "packet.json"
    made = run_cli(["packet", patch, "--out", packet, "--run-id", "cli-gate"])  # setup, in-process
    assert made.returncode == 0, made.stderr
    return packet, patch


def test_eight_concurrent_gates_push_eight_records_once_in_one_chain(tmp_path: Path, git_repo,
                                                                      capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    remote = _bare(tmp_path)
    packet, patch = _gate_inputs(tmp_path, git_repo)
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(6)
    procs = [ctx.Process(target=_append_in_child, args=(str(remote), n, barrier)) for n in range(6)]
    monkeypatch.chdir(tmp_path)  # the gates' folder, as each cold one had (no bundle or configuration there)
    # The two gates race as processes of their own, forked from this one (tests/forkcli.py): the subject is their
    # pushes into one log, not how the command starts (a cold `python -m gatekeeper` each cost ~0.35 CPU-s more).
    gates = [fork_cli(["gate", str(packet), "--patch", str(patch), "--log-git", str(remote), "--format", "json"],
                      tmp_path / f"gate{n}") for n in range(2)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=120)
        assert proc.exitcode == 0
    outputs = [gate.wait(timeout=120) for gate in gates]
    assert [done.returncode for done in outputs] == [0, 0], [done.stderr for done in outputs]
    logged = [json.loads(done.stdout)["decision_log"][0] for done in outputs]
    assert {entry["sink"] for entry in logged} == {"git"}

    snapshot, tip = read_git(parse_spec(str(remote)))
    records = [json.loads(item.raw) for item in snapshot.items]
    assert [r["seq"] for r in records] == list(range(1, 9))
    assert sorted(r["run_id"] for r in records) == sorted([*(f"run-{n}" for n in range(6)), "cli-gate", "cli-gate"])
    assert {(e["seq"], e["hash"]) for e in logged} <= {(r["seq"], r["hash"]) for r in records}
    assert _git(remote, "rev-list", "--count", DEFAULT_REF) == "8"
    assert _git(remote, "rev-list", "--merges", DEFAULT_REF) == ""
    assert tip == _git(remote, "rev-parse", DEFAULT_REF)
    capsys.readouterr()
    assert main(["audit", "verify", "--git", str(remote)]) == 0
    assert "intact: 8 records" in capsys.readouterr().out
    assert main(["audit", "show", "--git", str(remote), "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    def key(r: dict) -> tuple:
        return r["seq"], r["outcome"], r["hash"]

    assert [key(r) for r in shown] == [key(r) for r in records]


class Logs:
    """Logs of `count` records appended by `append_git` (the third to ever be a review): each count appended once per
    module (~8 git processes an append) and copied for each test, which then rewrites its own copy."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.built: dict[int, tuple[Path, list[dict]]] = {}

    def of(self, tmp_path: Path, count: int) -> tuple[Path, list[dict]]:
        """A bare repository in `tmp_path` holding the log of `count` records, and the records."""
        if count not in self.built:
            remote = _bare(self.folder / str(count))
            self.built[count] = remote, [append_git(parse_spec(str(remote)),
                                                    decision(n, outcome="review" if n == 2 else "allow"))
                                         for n in range(count)]
        built, records = self.built[count]
        shutil.copytree(built, tmp_path / "audit.git", symlinks=True)
        return tmp_path / "audit.git", [dict(record) for record in records]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    return Logs(tmp_path_factory.mktemp("logs"))


def _rewrite(remote: Path, blobs: list[bytes]) -> list[str]:
    """Force the ref to a new line of commits holding `blobs` (what `git push --force` of an edit leaves)."""
    parent: str | None = None
    commits = []
    for blob in blobs:
        blob_id = _git(remote, "hash-object", "-w", "--stdin", stdin=blob)
        tree = _git(remote, "mktree", stdin=f"100644 blob {blob_id}\trecord.json\n".encode())
        parent = _git(remote, "commit-tree", tree, *(["-p", parent] if parent else []), stdin=b"edited\n")
        commits.append(parent)
    _git(remote, "update-ref", DEFAULT_REF, commits[-1])
    return commits


def test_a_force_pushed_edit_is_reported_at_its_record(tmp_path: Path, logs: Logs,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    remote, records = logs.of(tmp_path, 5)
    blobs = [canonical(r) + b"\n" for r in records]
    edited = dict(records[2], outcome="allow")  # the review decision, quietly turned into an allow
    blobs[2] = canonical(edited) + b"\n"
    commits = _rewrite(remote, blobs)
    capsys.readouterr()
    assert main(["audit", "verify", "--git", str(remote), "--format", "json"]) == 1
    problem = json.loads(capsys.readouterr().out)["problem"]
    assert (problem["line"], problem["kind"], problem["commit"]) == (3, "altered", commits[2])
    assert main(["audit", "verify", "--git", str(remote)]) == 1
    expected = f"record 3 (commit {commits[2][:12]}): altered: record seq 3 does not match its hash"
    assert expected in capsys.readouterr().out


def test_a_rechained_forgery_is_caught_by_a_head_kept_elsewhere(tmp_path: Path, logs: Logs) -> None:
    remote, records = logs.of(tmp_path, 5)
    saved = tmp_path / "saved.head"
    saved.write_text(json.dumps({"seq": 5, "hash": records[4]["hash"]}))
    forged = [dict(r) for r in records]
    forged[2]["outcome"] = "allow"
    for index in range(2, 5):
        forged[index]["prev"] = forged[index - 1]["hash"]
        forged[index]["hash"] = record_hash(forged[index])
    _rewrite(remote, [canonical(r) + b"\n" for r in forged])
    assert main(["audit", "verify", "--git", str(remote)]) == 0  # the chain alone cannot tell
    assert main(["audit", "verify", "--git", str(remote), "--head-file", str(saved)]) == 1


@each_case("damage", ["non-canonical", "deep", "two files", "merge", "crlf"])
def test_broken_commits_are_reported_at_their_record(tmp_path: Path, logs: Logs, damage: str) -> None:
    remote, records = logs.of(tmp_path, 3)
    blobs = [canonical(r) + b"\n" for r in records]
    if damage == "non-canonical":
        blobs[1] = json.dumps(records[1]).encode() + b"\n"
    elif damage == "deep":
        blobs[1] = blobs[1].replace(b'"findings":[', b'"findings":[' + b"[" * 50_000 + b"]" * 50_000 + b",")
    elif damage == "crlf":
        blobs[1] = blobs[1][:-1] + b"\r\n"
    commits = _rewrite(remote, blobs)
    if damage in ("two files", "merge"):
        blob_id = _git(remote, "hash-object", "-w", "--stdin", stdin=blobs[1])
        tree = _git(remote, "mktree", stdin=f"100644 blob {blob_id}\trecord.json\n100644 blob {blob_id}\tx\n".encode())
        parents = ["-p", commits[0]]
        if damage == "merge":  # a second line of history joined in: the log is no longer one line
            tree = _git(remote, "rev-parse", f"{commits[1]}^{{tree}}")
            side = _git(remote, "commit-tree", tree, stdin=b"side\n")
            parents += ["-p", side]
        middle = _git(remote, "commit-tree", tree, *parents, stdin=b"x\n")
        tree3 = _git(remote, "rev-parse", f"{commits[2]}^{{tree}}")
        last = _git(remote, "commit-tree", tree3, "-p", middle, stdin=b"x\n")
        _git(remote, "update-ref", DEFAULT_REF, last)
    snapshot, _ = read_git(parse_spec(str(remote)))
    from gatekeeper.audit.verify import verify_snapshot

    problem = verify_snapshot(snapshot, None).problem
    assert problem is not None and problem.line == 2, problem
    with pytest.raises(AuditError, match="record 2"):
        from gatekeeper.audit.read import load_entries

        load_entries(snapshot)


def test_appending_on_a_broken_tip_is_refused(tmp_path: Path, logs: Logs) -> None:
    remote, records = logs.of(tmp_path, 2)
    _rewrite(remote, [canonical(records[0]) + b"\n", json.dumps(records[1]).encode() + b"\n"])
    with pytest.raises(AuditError, match="not a log record: not canonical"):
        append_git(parse_spec(str(remote)), decision(9))


def test_missing_ref_and_remote_are_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remote = _bare(tmp_path)
    assert main(["audit", "verify", "--git", str(remote)]) == 2
    assert f"has no {DEFAULT_REF}" in capsys.readouterr().err
    assert main(["audit", "stats", "--git", str(tmp_path / "nowhere.git")]) == 2
    assert "cannot fetch the decision log" in capsys.readouterr().err
    assert main(["audit", "verify"]) == 2
    assert "name one decision log" in capsys.readouterr().err


def test_hostile_remote_specs_are_refused() -> None:
    for spec in ("--upload-pack=touch /tmp/x", "ext::sh -c touch% /tmp/x", "fd::3", "/tmp/a.git#heads/main",
                 "/tmp/a.git#refs/bad..ref", "/tmp/a.git#refs/x\n"):
        with pytest.raises(UsageError):
            parse_spec(spec)
    log = parse_spec("https://user:s3cret@example.invalid/audit.git#refs/audit/log")
    assert log.ref == "refs/audit/log" and "s3cret" not in log.name
    assert parse_spec("relative/audit.git").remote == str(Path("relative/audit.git").absolute())


def test_the_jobs_git_environment_cannot_redirect_the_scratch_repository(tmp_path: Path) -> None:
    remote = _bare(tmp_path)
    decoy = tmp_path / "decoy.git"
    subprocess.run(["git", "init", "-q", "--bare", str(decoy)], check=True)
    env = {**os.environ, "GIT_DIR": str(decoy), "GIT_OBJECT_DIRECTORY": str(decoy / "objects"),
           "GIT_CONFIG_PARAMETERS": "'core.hooksPath'='/nonexistent'", "GIT_INDEX_FILE": str(tmp_path / "idx")}
    record = append_git(parse_spec(str(remote)), decision(1), env=env)
    assert record["seq"] == 1
    assert _git(remote, "rev-list", "--count", DEFAULT_REF) == "1"
    assert _git(decoy, "count-objects").startswith("0 objects")


def test_retries_back_off_with_jitter_and_give_up(tmp_path: Path, logs: Logs,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    remote, _ = logs.of(tmp_path, 1)
    slept: list[float] = []
    # Another gate always wins: every push of ours finds the ref moved.
    monkeypatch.setattr(gitlog._Scratch, "push", lambda self, commit: (False, "! [rejected] (fetch first)"))
    with pytest.raises(AuditError, match="4 attempts"):
        append_git(parse_spec(str(remote)), decision(2), retry=Retry(4, 0.1, 0.3, slept.append))
    assert len(slept) == 3 and 0.05 <= slept[0] <= 0.15 and all(s <= 0.45 for s in slept)


def test_a_gate_whose_record_cannot_be_pushed_exits_2_and_writes_nothing(
        tmp_path: Path, git_repo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    packet, patch = _gate_inputs(tmp_path, git_repo)
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "decisions.jsonl"
    missing = tmp_path / "no-such-audit.git"
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--log", str(log), "--log-git", str(missing)])
    assert code == 2
    err = capsys.readouterr().err
    assert f"{missing}#{DEFAULT_REF}: cannot fetch the decision log" in err and "Traceback" not in err
    # The decision was written nowhere; the file log records that the gate could not decide, and why.
    [record] = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert record["outcome"] == "error" and record["findings"] == [] and record["run_id"] is None
    assert "cannot fetch the decision log" in record["error"]["message"]
    assert main(["gate", str(packet), "--patch", str(patch), "--log-git", "ext::sh -c id"]) == 2
    assert "remote helpers" in capsys.readouterr().err


def test_a_token_in_the_remote_url_never_reaches_the_output(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    url = "https://gatekeeper:glpat-SECRET@127.0.0.1:9/audit.git"  # port 9: nothing answers
    for command in (["audit", "verify", "--git", url], ["audit", "show", "--git", url, "--format", "json"]):
        assert main(command) == 2
        captured = capsys.readouterr()
        assert "SECRET" not in captured.out + captured.err and "***@127.0.0.1:9" in captured.err


def test_a_server_that_refuses_the_push_fails_at_once_without_retrying(tmp_path: Path) -> None:
    """A protected ref (a server-side hook declines) is not a race: no retries, git's reason in the message."""
    remote = _bare(tmp_path)
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'ref is protected' >&2\nexit 1\n")
    hook.chmod(0o755)
    slept: list[float] = []
    with pytest.raises(AuditError, match="cannot push the decision record") as caught:
        append_git(parse_spec(str(remote)), decision(1), retry=Retry(5, 0.01, 0.01, slept.append))
    assert slept == []
    assert "ref is protected" in str(caught.value) or "pre-receive hook declined" in str(caught.value), caught.value


def test_the_scratch_repository_is_what_git_init_bare_writes(tmp_path: Path) -> None:
    # The scratch repository of every append and read is written without a git process (gitlog._init_bare): it must
    # be the repository git itself makes there, file for file and byte for byte.
    from gatekeeper.audit.gitlog import _init_bare

    ours, theirs = tmp_path / "ours.git", tmp_path / "theirs.git"
    _init_bare(ours)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "LC_ALL": "C",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "--quiet", "--bare", "--template=", str(theirs)], env=env, check=True)

    def tree(root: Path) -> dict[str, bytes | None]:
        return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in root.rglob("*")}

    assert tree(ours) == tree(theirs)
