"""Red-team regressions: paths that stand for a CI folder without matching its globs.

Each patch is made by real git, checked with real `git apply`, and run through the real gate
with the shipped default policies: the gate must not say `allow` (exit 0).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GIT_ENV, GitRepo
from tables import each_case

from gatekeeper.classify import classify_change, load_rules
from gatekeeper.cli import main
from gatekeeper.model import FileChange

REVIEW = 3
SHA = "1" * 40


def _gate(capsys: pytest.CaptureFixture[str], repo: GitRepo, folder: Path) -> tuple[int, dict[str, object]]:
    patch, packet = folder / "change.diff", folder / "packet.json"
    patch.write_bytes(repo.git("diff", "--cached", "--binary"))
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json"])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, json.loads(out.out)


def _applies(repo: GitRepo, patch_bytes: bytes, tmp_path: Path) -> None:
    """The patch really applies with git to the base commit (so the attack is real)."""
    clone = tmp_path / "clone"
    env = {**GIT_ENV, "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "clone", "-q", str(repo.root), str(clone)], check=True, env=env, capture_output=True)
    subprocess.run(["git", "apply", "--index", "-"], cwd=clone, input=patch_bytes, check=True, capture_output=True)


def _base(repo: GitRepo) -> None:
    repo.write("README.md", "base\n")
    repo.commit()


def test_symlink_at_dot_github_pointing_at_new_workflows_is_ci(
    capsys: pytest.CaptureFixture[str], git_repo: GitRepo, tmp_path: Path
) -> None:
    # `.github` becomes a link to a folder this same patch fills with a workflow (as `src`).
    _base(git_repo)
    git_repo.write("tools/gh/workflows/x.yml", "on: push\njobs: {}\n")
    git_repo.symlink(".github", "tools/gh")
    git_repo.git("add", "-A")
    _applies(git_repo, git_repo.git("diff", "--cached", "--binary"), tmp_path)
    code, decision = _gate(capsys, git_repo, tmp_path)
    assert (code, decision["outcome"]) == (REVIEW, "review")


def test_submodule_at_dot_github_is_ci(capsys: pytest.CaptureFixture[str], git_repo: GitRepo, tmp_path: Path) -> None:
    # A gitlink at `.github` makes another repository's tree the CI folder.
    _base(git_repo)
    git_repo.git("update-index", "--add", "--cacheinfo", f"160000,{SHA},.github")
    _applies(git_repo, git_repo.git("diff", "--cached", "--binary"), tmp_path)
    code, decision = _gate(capsys, git_repo, tmp_path)
    assert (code, decision["outcome"]) == (REVIEW, "review")


@each_case("folder", [".circleci", "ci", ".gitlab", ".github/workflows"])
def test_links_and_gitlinks_at_a_ci_folder_are_ci(folder: str) -> None:
    rules = load_rules(POLICY_DIR)
    link = FileChange(path=folder, old_path=None, status="added", new_mode="120000", symlink_target="src")
    gitlink = FileChange(path=folder, old_path=None, status="added", new_mode="160000", submodule=True)
    for change in (link, gitlink):
        assert classify_change(change, rules).bucket == "ci", change


def test_link_removed_from_a_ci_folder_path_is_ci() -> None:
    # Deleting a `.github` link (or turning it back into a file) changes what the CI folder is, too.
    rules = load_rules(POLICY_DIR)
    gone = FileChange(path=".github", old_path=None, status="deleted", old_mode="120000", old_symlink_target="x")
    assert classify_change(gone, rules).bucket == "ci"


def test_plain_links_and_submodules_keep_their_buckets() -> None:
    rules = load_rules(POLICY_DIR)
    link = FileChange(path="src/x", old_path=None, status="added", new_mode="120000", symlink_target="y.go")
    sub = FileChange(path="third/lib", old_path=None, status="added", new_mode="160000", submodule=True)
    assert classify_change(link, rules).bucket == "src"
    assert (classify_change(sub, rules).bucket, classify_change(sub, rules).rule) == ("deps", "builtin.submodule")


@each_case(
    "path",
    [
        ".github\\workflows\\x.yml",  # a Windows checkout reads `\` as a folder separator
        ".github/workflows\\x.yml",
        ".git\u200chub/workflows/x.yml",  # HFS+ ignores U+200C: `.github` on a Mac
        "\uff0egithub/workflows/x.yml".replace("\uff0e", "\u200d."),
        "Jenkins\u200cfile",
        "Jenkinsfile ",  # NTFS drops trailing spaces and dots
        ".github/workflows./x.yml",
        ".circleci /config.yml",
    ],
)
def test_separator_and_ignorable_character_variants_are_ci(path: str) -> None:
    rules = load_rules(POLICY_DIR)
    change = FileChange(path=path, old_path=None, status="added", new_mode="100644")
    assert classify_change(change, rules).bucket == "ci"


def test_backslash_workflow_path_through_the_gate(
    capsys: pytest.CaptureFixture[str], git_repo: GitRepo, tmp_path: Path
) -> None:
    _base(git_repo)
    git_repo.write(".github\\workflows\\x.yml", "on: push\n")
    git_repo.git("add", "-A")
    code, decision = _gate(capsys, git_repo, tmp_path)
    assert (code, decision["outcome"]) == (REVIEW, "review")


def test_classify_paths_reads_variants_like_the_gate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    listed = tmp_path / "paths.txt"
    listed.write_bytes(".github\\workflows\\x.yml\n.git\u200chub/workflows/y.yml\nsrc/a.py\n".encode())
    assert main(["classify", "--paths", str(listed), "--policy", str(POLICY_DIR), "--format", "json"]) == 0
    buckets = [f["bucket"] for f in json.loads(capsys.readouterr().out)["files"]]
    assert buckets == ["ci", "ci", "src"]


def test_file_turned_into_a_link_to_the_workflows_folder(
    capsys: pytest.CaptureFixture[str], git_repo: GitRepo, tmp_path: Path
) -> None:
    git_repo.write("src/b", "x\n")
    git_repo.write(".github/workflows/ci.yml", "on: push\n")
    git_repo.commit()
    git_repo.symlink("src/b", "../.github/workflows")
    git_repo.git("add", "-A")
    _applies(git_repo, git_repo.git("diff", "--cached", "--binary"), tmp_path)
    code, decision = _gate(capsys, git_repo, tmp_path)
    assert (code, decision["outcome"]) == (REVIEW, "review")


def test_link_chain_into_ci_within_one_patch(
    capsys: pytest.CaptureFixture[str], git_repo: GitRepo, tmp_path: Path
) -> None:
    # a -> b/workflows, b -> .github: the link that reaches the CI folder is itself ci.
    _base(git_repo)
    git_repo.symlink("b", ".github")
    git_repo.symlink("a", "b/workflows")
    git_repo.git("add", "-A")
    code, decision = _gate(capsys, git_repo, tmp_path)
    assert (code, decision["outcome"]) == (REVIEW, "review")
