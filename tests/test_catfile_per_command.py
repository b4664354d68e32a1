"""One `git cat-file --batch` per command (catfile.shared_processes): every `--tree` command's readers of the
repository (the range's ancestry walk, the tree context, BASE's configuration) share one process.

`gate` and `classify --tree` shared it; `packet --tree` and `verify --tree` started one for the range's ancestry walk
and another for the tree context, `audit replay --tree` three on a linear history (the walk, then and today's tree
contexts). Each command runs in this process, on linear and diverged histories, and the `cat-file
--batch` processes it starts are counted (no other git: replay's one-shot `cat-file -e` asks the policy folder's own
repository whether it holds the recorded bundle's commit)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from incli import run_cli


def _histories(root: Path) -> dict[str, tuple[Path, Path]]:
    """(repository, patch of main...pr) for a pull request on top of main, and one main moved past."""
    made = {}
    for shape in ("linear", "diverged"):
        repo = GitRepo(root / shape)
        repo.write("src/app.py", "print(1)\n")
        repo.write("README.md", "# r\n")
        repo.commit("base")
        repo.git("checkout", "-q", "-b", "pr")
        repo.write("src/app.py", "print(2)\n")
        repo.write(".github/workflows/ci.yml", "on: push\njobs: {}\n")
        repo.commit("change")
        if shape == "diverged":
            repo.git("checkout", "-q", "main")
            repo.write("README.md", "# moved on\n")
            repo.commit("main moves")
            repo.git("checkout", "-q", "pr")
        patch = root / f"{shape}.diff"
        patch.write_bytes(repo.git("diff", "--binary", "main...pr"))
        made[shape] = (repo.root, patch)
    return made


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    started: list[list[str]] = []
    real = subprocess.Popen.__init__

    def init(self: subprocess.Popen[Any], args: Any, *rest: Any, **kw: Any) -> None:
        if isinstance(args, (list, tuple)) and "cat-file" in args and "--batch" in args:
            started.append([str(a) for a in args])
        real(self, args, *rest, **kw)

    monkeypatch.setattr(subprocess.Popen, "__init__", init)
    return started


def test_every_tree_command_starts_one_cat_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = _counting(monkeypatch)
    wrong = []
    for shape, (repo, patch) in _histories(tmp_path).items():
        packet = tmp_path / f"{shape}.json"
        commands = {
            "packet": ["packet", patch, "--tree", "main..pr", "--repo", repo, "--policy", POLICY_DIR, "--out",
                       packet],
            "verify": ["verify", packet, "--patch", patch, "--tree", "main..pr", "--repo", repo, "--policy",
                       POLICY_DIR],
            "classify": ["classify", "--tree", "main..pr", "--repo", repo, "--policy", POLICY_DIR],
            "gate": ["gate", "--tree", "main..pr", "--repo", repo, "--policy", POLICY_DIR],
        }
        for name, args in commands.items():
            started.clear()
            done = run_cli(args, text=True)
            if done.returncode not in (0, 1, 3) or len(started) != 1:
                wrong.append((shape, name, done.returncode, len(started), str(done.stderr)[-300:]))
    assert not wrong, wrong


def test_audit_replay_of_a_tree_record_starts_one_cat_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = []
    for shape, (repo, patch) in _histories(tmp_path).items():
        packet, log = tmp_path / f"{shape}.json", tmp_path / f"{shape}.jsonl"
        tree = ["--tree", "main..pr", "--repo", repo]
        assert run_cli(["packet", patch, "--out", packet, "--policy", POLICY_DIR], text=True).returncode == 0
        gated = run_cli(["gate", packet, "--patch", patch, "--policy", POLICY_DIR, *tree, "--log", log], text=True)
        assert gated.returncode in (0, 1, 3), gated.stderr
        started = _counting(monkeypatch)
        done = run_cli(["audit", "replay", log, "1", "--packet", packet, "--patch", patch, "--policy", POLICY_DIR,
                        *tree], text=True)
        if done.returncode != 0 or len(started) != 1:
            wrong.append((shape, done.returncode, len(started), str(done.stdout)[-300:] + str(done.stderr)[-300:]))
        monkeypatch.undo()
    assert not wrong, wrong
