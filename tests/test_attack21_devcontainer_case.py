"""Attack 21: GitHub resolves `uses: DevContainers/ci@v0.3` (owner and repository names of any case) to the
devcontainers/ci action, but devcontainers.py's first test looked for two casings only: the Dev Container that
step brings up stayed an editor's settings (`other`), and an edit making CI run `curl ... | sh` was allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.classify.devcontainers import configurations
from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files
from tests.test_redteam23_devcontainer_ci import ACTION, DC, EVIL


@pytest.mark.parametrize("spelling", ["DevContainers/ci@v0.3", "DevContainers/CI@v0.3", "'Devcontainers/Ci@v0.3'"])
def test_the_action_of_any_case_brings_up_the_dev_container(tmp_path: Path, spelling: str) -> None:
    workflow = ACTION.replace("devcontainers/ci@v0.3", spelling)
    target = ".devcontainer/devcontainer.json"
    repo, base, head = two_commits(tmp_path / "repo", {".github/workflows/dev.yml": workflow, target: DC},
                                   {target: DC.replace("make setup", EVIL)})
    assert tree_files(repo, f"{base}..{head}")[target].bucket == "ci"


def test_a_name_of_another_case_alone_brings_up_nothing() -> None:
    assert configurations("steps:\n  - uses: DevContainers/ci@v0.3\n") != []
    assert configurations("steps:\n  - run: echo DevContainers are nice\n") == []
