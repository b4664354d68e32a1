"""Red team: `gate --tree BASE..HEAD` with a name that more than one ref answers to.

git resolves a short name in a fixed order (refs/NAME, refs/tags/NAME, refs/heads/NAME, refs/remotes/NAME, then
refs/remotes/NAME/HEAD) and, for a short hex name, prefers a ref over the commit it abbreviates. An agent that can
push a tag or a branch (hosted agents push to the repository itself; actions/checkout with fetch-depth: 0 fetches
every tag) could make `origin/main` (docs/ci.md's BASE) or the pull request's own name mean its own commit: BASE
became HEAD, the change empty, and the gate allowed. A name two refs answer to is now refused (exit 2).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gitrepo import GIT_ENV
from incli import run_cli
from tables import each_case

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policies"


def _git(repo: Path, *args: str) -> str:
    env = {**GIT_ENV, "PATH": os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True).stdout.decode().strip()


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A clone as CI has it: main and its remote-tracking ref at BASE, the pull request's branch `pr` at HEAD (a
    workflow change: review)."""
    repo = tmp_path_factory.mktemp("rt15-refs") / "clone"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main", "--template=")
    shutil.copytree(POLICY_DIR, repo / "policies", ignore=shutil.ignore_patterns("__pycache__"))
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    base = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "-b", "pr")
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {t: {runs-on: x}}\n")
    _git(repo, "commit", "-q", "-am", "agent change")
    head = _git(repo, "rev-parse", "HEAD")
    _git(repo, "update-ref", "refs/remotes/origin/main", base)
    _git(repo, "update-ref", "refs/remotes/origin/pr", head)
    return repo, base, head


def _copy(origin: tuple[Path, str, str], tmp_path: Path) -> tuple[Path, str, str]:
    repo, base, head = origin
    shutil.copytree(repo, tmp_path / "clone", symlinks=True)
    return tmp_path / "clone", base, head


def _gate(repo: Path, tree: str) -> tuple[int, str]:
    done = run_cli(["gate", "--tree", tree], cwd=repo, text=True)
    return done.returncode, str(done.stdout) + str(done.stderr)


def test_the_plain_names_judge_the_change(origin: tuple[Path, str, str], tmp_path: Path) -> None:
    repo, base, _ = _copy(origin, tmp_path)
    for tree in ("origin/main..pr", "main..pr", f"{base}..pr", f"{base[:10]}..origin/pr"):
        assert _gate(repo, tree)[0] == 3, tree


# (the range, the ref the agent pushes, which side of the range it shadows with which commit)
SHADOWS = {
    "tag-shadows-the-remote-base": ("origin/main..pr", "refs/tags/origin/main", "head"),
    "branch-shadows-the-remote-base": ("origin/main..pr", "refs/heads/origin/main", "head"),
    "top-level-ref-shadows-the-base": ("origin/main..pr", "refs/origin/main", "head"),
    "tag-shadows-the-base-branch": ("main..pr", "refs/tags/main", "head"),
    "tag-shadows-the-head-branch": ("main..pr", "refs/tags/pr", "base"),
    "remote-head-alias": ("origin..pr", "refs/heads/origin", "head"),
    "branch-named-like-a-short-id": ("{short}..pr", "refs/heads/{short}", "head"),
}


@each_case("name", sorted(SHADOWS))
def test_a_name_two_refs_answer_to_is_refused(origin: tuple[Path, str, str], tmp_path: Path, name: str) -> None:
    repo, base, head = _copy(origin, tmp_path)
    tree, ref, target = SHADOWS[name]
    short = base[:10]
    if name == "remote-head-alias":
        _git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
    _git(repo, "update-ref", ref.format(short=short), head if target == "head" else base)
    code, out = _gate(repo, tree.format(short=short))
    assert code == 2 and "ambiguous" in out, out
