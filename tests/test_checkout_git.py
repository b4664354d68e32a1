"""tests/checkout_git.py: the suite's kept git state of a bundle folder is git's answer, and git is asked again as soon
as the folder, the index or the branch moves; any other folder goes to git every time."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from checkout_git import checkout_state_once
from conftest import POLICY_DIR
from gitrepo import GitRepo

from gatekeeper.policy import bundle as policy_bundle
from gatekeeper.policy.bundle import git_state, load_bundle


def test_the_kept_answer_is_gits_and_moves_with_the_folder_the_index_and_the_branch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo(tmp_path / "repo")
    shutil.copytree(POLICY_DIR, repo.root / "policies")
    first = repo.commit("the bundle")
    folder = repo.root / "policies"
    other = GitRepo(tmp_path / "other")
    shutil.copytree(POLICY_DIR, other.root / "policies")
    other.commit("another bundle")
    asked: list[Path] = []
    real = policy_bundle.start_git_state
    monkeypatch.setattr(policy_bundle, "start_git_state", lambda path: asked.append(Path(path)) or real(path))

    with checkout_state_once(folder):
        assert load_bundle(folder).describe()["commit"] == first
        assert git_state(folder) == (first, False) and load_bundle(folder).uncommitted is False
        assert asked == [folder]  # the two later ones answered from what git said

        assert git_state(other.root / "policies")[1] is False and git_state(other.root / "policies")[1] is False
        assert asked.count(other.root / "policies") == 2  # not the kept folder: git each time

        (folder / "core" / "extra.rego").write_text("package extra\n", encoding="utf-8")  # a new file
        assert git_state(folder) == (first, True) and len(asked) == 4
        repo.git("add", "policies")  # the index moves; the folder does not
        assert git_state(folder) == (first, True) and len(asked) == 5
        second = repo.commit("extra")  # the branch moves
        assert git_state(folder) == (second, False) and len(asked) == 6
        (folder / "core" / "extra.rego").write_text("package extra\n\nx := 1\n", encoding="utf-8")  # an edit
        assert git_state(folder) == (second, True) and len(asked) == 7
        assert git_state(folder) == (second, True) and len(asked) == 7
        repo.git("config", "core.logAllRefUpdates", "false")  # and no reflog to write a line to
        shutil.rmtree(repo.root / ".git" / "logs", ignore_errors=True)
        assert git_state(folder) == (second, True) and len(asked) == 8
        repo.git("update-ref", "refs/heads/main", first)  # the branch alone moves (a `reset --soft`)
        assert git_state(folder) == (first, True) and len(asked) == 9

    assert policy_bundle.start_git_state.__name__ == "<lambda>"  # the block put back what it found
