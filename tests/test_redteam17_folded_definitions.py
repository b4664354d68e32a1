"""Red team 17: a file a reader opens by its own name, under the spelling a folding checkout opens.

Red team 16 folded the paths the readers name (`uses: ./tools/Setup`) but left their own files exact: a Windows or
macOS runner running `uses: ./tools/setup` opens `tools/setup/Action.yml` for `action.yml`, and runs the entry point
it names (`main: ../../scripts/run.js`, outside the action's folder). The walk looked for `action.yml` only, read no
definition, and an edit of `scripts/run.js` was `src`: `gate --tree` allowed it (exit 0; now 3, `core.ci`). The walks
(local actions, GitLab includes, requirements includes) now open a path a checkout folds to another spelling.
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits
from tables import each_case

from tests.gitrepo import GitRepo
from tests.incli import tree_gate

WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: windows-latest\n    steps:\n      - uses: ./{uses}\n"


def _gate(repo: GitRepo, old: str, new: str, *extra: str) -> tuple[int, list[dict[str, object]]]:
    code, decision = tree_gate(repo.root, old, new, None, *extra)
    return code, decision["reasons"]


@each_case(("uses", "definition"), [
    ("tools/setup", "tools/setup/Action.yml"), ("tools/setup", "tools/setup/ACTION.YAML"),
    ("Tools/Setup", "tools/setup/action.yml"), ("", "Action.yml"),
])
def test_a_definition_under_a_folded_name_is_read(tmp_path: Path, uses: str, definition: str) -> None:
    base = {".github/workflows/t.yml": WORKFLOW.format(uses=uses),
            definition: "runs:\n  using: node20\n  main: scripts/run.js\n" if not uses else
            "runs:\n  using: node20\n  main: ../../scripts/run.js\n",
            "scripts/run.js": "console.log(1)\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, {"scripts/run.js": "require('child_process')\n"})
    code, reasons = _gate(repo, old, new)
    assert code == 3, reasons
    assert [(r["rule"], r["paths"]) for r in reasons] == [("core.ci", ["scripts/run.js"])]


def test_a_requirements_include_under_a_folded_name_is_followed(tmp_path: Path) -> None:
    base = {"requirements.txt": "-r Tools/Base.txt\n", "tools/base.txt": "-r nested.txt\n", "tools/nested.txt": "six\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, {"tools/nested.txt": "six\nevil-pkg==1.0\n"})
    code, reasons = _gate(repo, old, new, "--enable", "deps")
    assert code == 3, reasons
    assert {p for r in reasons for p in r.get("paths", ())} == {"tools/nested.txt"}


def test_links_that_open_nothing_under_every_spelling_end_the_walk(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write(".github/workflows/t.yml", WORKFLOW.format(uses="tools/setup"))
    repo.write("scripts/run.js", "console.log(1)\n")
    repo.symlink("tools/setup/Action.yml", "ACTION.yml")
    repo.symlink("tools/setup/ACTION.yml", "action.YML")
    repo.symlink("tools/setup/action.YML", "Action.yml")
    old = repo.commit("base")
    repo.write("scripts/run.js", "require('child_process')\n")
    new = repo.commit("head")
    code, reasons = _gate(repo, old, new)
    assert code == 0, reasons  # nothing the action runs is outside its folder: the walk ended, nothing named
