"""A command behind the shell's variable assignments (`CI=1 make test`, `TOXENV=lint tox`, `NODE_ENV=test npm test`):
the shell runs the command with the variables set, so the task file it reads and what its task runs are CI's. The
walk read a task runner only at a command's start, so a script the Makefile, tox.ini or package.json ran there stayed
`src` and an edit to it was allowed (found by the lead at the merge of over-reads 2, on main 9e82262).

Real bash is the truth of which lines run their command: `make`, `tox`, `npm` and `just` are shell functions that
record their call.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import wrappers

FILES = {"Makefile": "test:\n\t./scripts/check.sh\n", "tox.ini": "[tox]\nenv_list = lint\n[testenv:lint]\n"
         "commands = ./scripts/check.sh\n", "package.json": '{"scripts": {"test": "./scripts/check.sh"}}\n',
         "justfile": "test:\n    ./scripts/check.sh\n", "scripts/check.sh": "#!/bin/sh\necho ok\n",
         "README.md": "# x\n"}
RUNNERS = {"make test": "Makefile", "tox -e lint": "tox.ini", "npm test": "package.json", "just test": "justfile"}
PREFIXES = ["CI=1 ", "TOXENV=lint ", 'A=1 B="x y" ', "PATH=$PWD/bin:$PATH ", "V=$(date) ", "X='a b' Y=2 "]
# lines that run no task runner (bash agrees): an assignment alone, a word before the assignment, an echo
LOOK_ALIKES = ["CI=1", "FOO='make test'", "export CI=1 make test", "echo CI=1 make test", "# CI=1 make test",
               "local_make=1"]


def _bash_runs(line: str, tmp_path: Path) -> bool:
    marker = tmp_path / "ran"
    marker.unlink(missing_ok=True)
    record = "; ".join(f'{tool}() {{ echo "$@" >> "{marker}"; }}' for tool in ("make", "tox", "npm", "just"))
    subprocess.run(["bash", "-c", f"{record}\n{line}"], cwd=tmp_path, capture_output=True, timeout=60, check=False)
    return marker.exists()


def _read(line: str) -> bool:
    """Does the walk read a task runner's command in `line` (at its start, or behind wrappers and assignments)?"""
    return any(command.split()[:1] in (["make"], ["tox"], ["npm"], ["just"]) for command in wrappers.commands(line))


@each_case("line", [prefix + runner for prefix in PREFIXES for runner in RUNNERS] + LOOK_ALIKES)
def test_the_commands_behind_assignments_are_what_bash_runs(line: str, tmp_path: Path) -> None:
    assert _read(line) == _bash_runs(line, tmp_path), line


@each_case(("prefix", "runner", "definition"), [(prefix, runner, definition)
                                                  for prefix in PREFIXES[:3] for runner in RUNNERS
                                                  for definition, _ in BLOCK_DEFINITIONS])
def test_the_script_a_task_runs_behind_assignments_is_ci(prefix: str, runner: str, definition: str) -> None:
    template = dict(BLOCK_DEFINITIONS)[definition]
    files = {definition: template.format(line=(prefix + runner).replace("{", "{{").replace("}", "}}")), **FILES}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict), "the walk closed"
    assert {RUNNERS[runner], "scripts/check.sh"} <= set(runs), (prefix + runner, definition, sorted(runs))


@each_case("line", LOOK_ALIKES[:4])
def test_a_look_alike_runs_nothing(line: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = one_tree_runs({definition: template.format(line=line), **FILES})
    assert isinstance(runs, dict) and "scripts/check.sh" not in runs, (line, runs)


def test_many_assignments_are_read_in_linear_time() -> None:
    for unit in ("A=1 ", "A=1 make ", "A=1; "):
        assert_linear(wrappers.commands, repeated(unit), budget=0.5)
