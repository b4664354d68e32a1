"""Red team: a `git` planted in the checkout must never be the git the gate runs.

CI jobs often put relative folders on PATH (`./node_modules/.bin`, `bin`, a leading or doubled `:` that
means the working folder). The gate runs in the pull request's checkout, so a PATH lookup of the bare name
`git` found the pull request's own `node_modules/.bin/git`: a program the change controls answered every
question the gate asked git (BASE's configuration, the trees, the change itself). Every git process is
started by its absolute path (gitcmd.git_program: PATH's absolute entries only), and the PATH git itself
searches for its helpers holds absolute entries only.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli
from tables import each_case

from gatekeeper.gitcmd import absolute_path, scrubbed_git_env

ROOT = Path(__file__).resolve().parent.parent
# Where a CI job's relative PATH entries point inside the checkout: each gets a planted git.
PLANTED = ("git", "node_modules/.bin/git", "bin/git")
FAKE_GIT = """#!/bin/sh
echo "$0 $*" >> {canary}
exit 1
"""


def _checkout(git_repo: GitRepo, canary: Path) -> GitRepo:
    git_repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    runs-on: x\n    steps: []\n")
    git_repo.commit("base")
    git_repo.git("checkout", "-q", "-b", "pr")
    git_repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    runs-on: y\n    steps: []\n")
    for path in PLANTED:
        git_repo.write(path, FAKE_GIT.format(canary=canary), mode=0o755)
    git_repo.commit("pr")
    return git_repo


def _env(path: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GIT_", "PYTHON"))}
    env["PATH"] = path
    return env


def _cli(args: list[str], cwd: Path, path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-m", "gatekeeper", *args], cwd=cwd, env=_env(path),
                          capture_output=True, text=True, timeout=120)


@each_case("relative", ["node_modules/.bin", "", ".", "bin"])
def test_a_git_in_the_checkout_is_never_run_by_the_gate(git_repo: GitRepo, tmp_path: Path, relative: str) -> None:
    canary = tmp_path / "ran-planted-git"
    repo = _checkout(git_repo, canary)
    real = os.environ.get("PATH", os.defpath)
    # In-process: every git the gate starts is looked up on os.environ's PATH at the call, which `env` replaces
    # for it (a real process with every relative entry at once: test_no_program_planted_in_the_checkout_...).
    done = run_cli(["gate", "--tree", "main..pr"], cwd=repo.root, env=_env(f"{relative}:{real}"), text=True)
    assert isinstance(done.stdout, str)
    assert not canary.exists(), canary.read_text()
    assert done.returncode == 3, done.stderr  # the workflow change, judged by the real git: review
    assert "core.ci" in done.stdout


def test_classify_and_deps_with_the_commits_never_run_a_planted_git(git_repo: GitRepo, tmp_path: Path) -> None:
    canary = tmp_path / "ran-planted-git"
    repo = _checkout(git_repo, canary)
    path = f"node_modules/.bin::{os.environ.get('PATH', os.defpath)}"
    for args in (["classify", "--tree", "main..pr"], ["deps", "--tree", "main..pr"]):
        done = _cli(args, repo.root, path)
        assert done.returncode == 0, done.stderr
    assert not canary.exists(), canary.read_text()


def test_the_path_git_searches_holds_absolute_folders_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "node_modules/.bin::/usr/bin:.:bin:/bin:")
    assert scrubbed_git_env()["PATH"] == "/usr/bin:/bin"
    assert absolute_path("a:/b:") == "/b"


def _spawned_by_name(tree: ast.AST) -> list[int]:
    """Lines where a list or tuple literal starts with the string "git" (a command run by its bare name)."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.List | ast.Tuple) and node.elts and isinstance(node.elts[0], ast.Constant)
            and node.elts[0].value == "git"]


def test_no_module_runs_git_by_its_bare_name() -> None:
    """The class stays closed: every git process starts from gitcmd.git_program()'s absolute path."""
    found = []
    for module in sorted((ROOT / "gatekeeper").rglob("*.py")):
        for line in _spawned_by_name(ast.parse(module.read_text(encoding="utf-8"))):
            found.append(f"{module.relative_to(ROOT)}:{line}")
    assert found == []


# Names a library may look up on PATH while the gate runs: platform's `uname -p` (regopy's import asks
# platform.uname() for the OS name), ctypes.util's `ldconfig`/`gcc`/`objdump`, a shell, an interpreter.
PROGRAMS = ("uname", "ldconfig", "gcc", "cc", "ld", "objdump", "file", "sh", "bash", "python3", "id", "hostname",
            "getconf", "which", "env", "opa")


def test_no_program_planted_in_the_checkout_runs_during_any_command(git_repo: GitRepo, tmp_path: Path) -> None:
    """The class beyond git: whatever program a library looks up by name must not come from the checkout."""
    canary = tmp_path / "ran-planted-program"
    repo = _checkout(git_repo, canary)
    for folder in ("", "node_modules/.bin", "bin"):
        for name in PROGRAMS:
            planted = repo.root / folder / name
            planted.parent.mkdir(parents=True, exist_ok=True)
            planted.write_text(FAKE_GIT.format(canary=canary))
            planted.chmod(0o755)
    path = f"node_modules/.bin::.:bin:{os.environ.get('PATH', os.defpath)}"
    bundle = ROOT / "policies"
    # `test` loads both engines and compiles the whole bundle as a full run does; one Rego test is run, not 63 in
    # each engine (~0.9 of its ~1.4 CPU-s): evaluating policy looks nothing up on PATH.
    for args in (["gate", "--tree", "main..pr", "--policy", str(bundle)],
                 ["test", "--policy", str(bundle), "--run", "^test_ci_file_needs_review$"]):
        done = _cli(args, repo.root, path)
        assert done.returncode in (0, 3), done.stderr
        assert args[0] != "test" or "PASS: 1 passed" in done.stdout, done.stdout  # the selected test ran
    assert not canary.exists(), canary.read_text()
