"""Docs review 50: three ways past red team 35's editor reads that its docs said were reviewed.

- From a patch alone, a new task, workspace or settings file written in UTF-16 or holding a NUL is a binary section:
  the patch shows none of its lines, and the reader took the empty text as the whole file (allowed, exit 0, even with
  guardrails). Nothing of such a file is in sight: a task or workspace file is `needs-context`, a settings file
  `guardrail` and `needs-context` (VS Code reads a `tasks` key there).
- With the commits, a change that only adds the link `.vscode/settings.json -> ../tools/editor.json`, whose target
  came in earlier holding a folder-open task under `tasks`, was allowed; a link at `.vscode/tasks.json` was not. A
  VS Code settings link is ci as a task file link is.
- From a patch alone, a settings file's folder-open task whose command is edited ten lines from its `runOn` line was
  allowed: a VS Code settings file the patch does not show whole is `needs-context`, as a task file is.
Each variant is a real repository, a patch git made (`--binary`) and a packet the CLI made, gated by the CLI.
"""

from __future__ import annotations

from pathlib import Path

from changecase import Case, committed, gated_rules
from conftest import POLICY_DIR
from gitdiffs import commit_patch
from gitrepo import GitRepo
from incli import run_cli
from tables import each_case
from test_redteam35_tool_autorun import EVIL, FOLDER_OPEN, SETTINGS, TASKS, WORKSPACE_TASK

YOLO = '{\n  "chat.tools.autoApprove": true\n}\n'
# path: the new file's bytes (added by the change)
BINARY_NEW: dict[str, bytes] = {
    ".vscode/tasks.json": (FOLDER_OPEN % EVIL).encode("utf-16"),
    "web/.vscode/tasks.json": (FOLDER_OPEN % EVIL).encode("utf-16-le"),
    "nul/.vscode/tasks.json": (FOLDER_OPEN % EVIL).replace('"version"', '"version"\0', 1).encode(),
    "team.code-workspace": WORKSPACE_TASK.encode("utf-16"),
    "tools/dev.code-workspace": WORKSPACE_TASK.replace("{", "{\0", 1).encode(),
    "s/.vscode/settings.json": YOLO.encode("utf-16"),
}
SETTINGS_TASKS = SETTINGS.replace("{\n", '{\n  "tasks": ' + (FOLDER_OPEN % "%s").replace("\n", "\n  ") + ",\n", 1)


def _linked_case(root: Path, base_files: dict[str, str], links: dict[str, str]) -> Case:
    repo = GitRepo(root / "repo")
    repo.write("README.md", "app\n")
    for path, text in base_files.items():
        repo.write(path, text)
    base = repo.commit("base")
    for path, target in links.items():
        repo.symlink(path, target)
    head = repo.commit("head")
    patch = root / "change.diff"
    patch.write_bytes(commit_patch(repo, base, head, "--binary"))
    packet = root / "packet.json"
    assert run_cli(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]).returncode == 0
    return Case(repo, base, head, patch, packet)


@each_case("path", sorted(BINARY_NEW))
def test_a_new_editor_file_the_patch_shows_as_binary_needs_a_human(tmp_path: Path, path: str) -> None:
    """Default policy from the patch alone: reviewed (before: exit 0, nothing named)."""
    case = committed(tmp_path, {}, {path: BINARY_NEW[path]})  # type: ignore[dict-item]
    assert b"Binary files /dev/null" in case.patch.read_bytes() or b"GIT binary patch" in case.patch.read_bytes()
    code, named = gated_rules(case, False)
    assert (code, path in named.get("core.needs_context", []) + named.get("core.ci", [])) == (3, True), named
    if path.endswith("settings.json"):
        assert path in gated_rules(case, False, "guardrails")[1]["guardrails.edit"]


def test_a_link_to_workspace_settings_holding_a_folder_open_task_needs_a_human(tmp_path: Path) -> None:
    """With the commits: the settings file came in earlier as an ordinary file; the change adds only the link."""
    case = _linked_case(tmp_path, {"tools/editor.json": SETTINGS_TASKS % EVIL},
                        {".vscode/settings.json": "../tools/editor.json"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [".vscode/settings.json"]), named  # before: exit 0


def test_a_zed_settings_link_stays_a_guardrail(tmp_path: Path) -> None:
    """Zed runs no task from its settings: a link there is tagged (guardrails reviews it), not ci."""
    case = _linked_case(tmp_path, {"tools/zed.json": '{\n  "tab_size": 2\n}\n'},
                        {".zed/settings.json": "../tools/zed.json"})
    assert gated_rules(case, True) == (0, {})
    assert gated_rules(case, True, "guardrails")[1]["guardrails.edit"] == [".zed/settings.json"]


def test_a_settings_task_edited_away_from_its_run_on_line_needs_a_human(tmp_path: Path) -> None:
    """From the patch alone: the hunk shows the command, not the `runOn` ten lines below (before: exit 0)."""
    case = committed(tmp_path, {".vscode/settings.json": SETTINGS_TASKS % "npm run watch"},
                     {".vscode/settings.json": SETTINGS_TASKS % EVIL})
    assert b"folderOpen" not in case.patch.read_bytes()
    assert gated_rules(case, False) == (3, {"core.needs_context": [".vscode/settings.json"]})
    assert gated_rules(case, True)[0] == 3  # with the commits: ci by its content


def test_ordinary_task_files_shown_whole_stay_allowed(tmp_path: Path) -> None:
    """A new UTF-8 task file with no folder-open task, shown whole by the patch: allowed in both modes."""
    case = committed(tmp_path, {}, {".vscode/tasks.json": TASKS})
    assert (gated_rules(case, False), gated_rules(case, True)) == ((0, {}), (0, {}))
