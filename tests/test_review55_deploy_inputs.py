"""Review 55: what a deploy command reads on its standard input, and a command inside `$(…)`.

deployruns.py left a redirection and its file out of a deploy command's words, so an INPUT redirection lost the file
the command reads its values or manifests from: `helm upgrade app ./chart -f - < conf/prod.yaml` named no
`conf/prod.yaml`, and an edit of it was `src`, allowed by `gate --tree` (exit 0 on integ 2a5b937). Only an output
redirection's file (`> out.yaml`, `2> err`, `&> log`) is no input. helm reading its values from standard input
(`-f -`, `--values /dev/stdin`) was read as no input either (`cat conf/prod.yaml | helm upgrade ... -f -`).
And a command inside `$(…)` kept the closing parenthesis on its last word (`$(helm upgrade ... --values
conf/prod.yaml)` named `conf/prod.yaml)`, nothing), allowed on main 41076f0 and integ alike.

Deploy commands are read with `--tree` only (docs/classification.md): every variant is gated so, one repository for
all, a workflow and a folder per variant.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify import deployruns

CHART = "apiVersion: v2\nname: app\nversion: 0.1.0\n"
BEFORE, AFTER = "replicaCount: 1\n", "replicaCount: 2\nimage:\n  repository: evil.example/x\n"
DEPLOYS = {  # name: the command, FILE standing for the file it reads
    "helm -f -": "helm upgrade app ./chart -f -",
    "helm --values /dev/stdin": "helm upgrade --install app ./chart --values /dev/stdin",
    "helm no stdin flag": "helm upgrade app ./chart",
    "kubectl apply -f -": "kubectl apply -f -",
    "kubectl create -f -": "kubectl create -f -",
}
INPUTS = {  # name: how FILE reaches the command's standard input
    "<": "{cmd} < {file}",
    "<glued": "{cmd} <{file}",
    "0<": "{cmd} 0< {file}",
    "0<glued": "{cmd} 0<{file}",
    "<quoted": '{cmd} < "{file}"',
    "< then 2>&1": "{cmd} < {file} 2>&1",
    "< before": "< {file} {cmd}",
    "<>": "{cmd} <> {file}",
    "cat pipe": "cat {file} | {cmd}",
}
SUBSTITUTIONS = {  # name: the command inside a substitution
    "echo quoted": 'echo "$({cmd})"',
    "echo bare": "echo $({cmd})",
    "assignment": 'OUT="$({cmd})"',
    "cat": "cat $({cmd})",
    "printf": "printf '%s' \"$({cmd})\"",
    "if": "if $({cmd}); then echo ok; fi",
    "nested": 'echo "$(echo "$({cmd})")"',
}
SUBSTITUTED = {  # name: the command, naming FILE
    "helm --values": "helm upgrade app ./chart --values {file}",
    "helm -f=": "helm upgrade app ./chart -f={file}",
    "kubectl -f": "kubectl apply -f {file}",
    "terraform -var-file": "terraform -chdir=infra apply -var-file={file}",
}
WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {run}\n        working-directory: {folder}\n")
CASES = [f"in {deploy} {way}" for deploy in DEPLOYS for way in INPUTS
         if not (way == "cat pipe" and deploy == "helm no stdin flag")]
CASES += [f"sub {command} {form}" for command in SUBSTITUTED for form in SUBSTITUTIONS]


def _run(case: str, file: str) -> str:
    kind, _, rest = case.partition(" ")
    if kind == "in":
        deploy = next(name for name in DEPLOYS if rest.startswith(f"{name} "))
        return INPUTS[rest.removeprefix(f"{deploy} ")].format(cmd=DEPLOYS[deploy], file=file)
    command = next(name for name in SUBSTITUTED if rest.startswith(f"{name} "))
    form = SUBSTITUTIONS[rest.removeprefix(f"{command} ")]
    return form.format(cmd=SUBSTITUTED[command].format(file=file))


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, bool]]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, case in enumerate(CASES):
        run = _run(case, "conf/prod.yaml").replace("'", "''")
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(run=f"'{run}'", folder=f"v{number}")
        base[f"v{number}/chart/Chart.yaml"] = CHART
        base[f"v{number}/infra/main.tf"] = 'variable "x" {}\n'
        base[f"v{number}/conf/prod.yaml"] = BEFORE
        head[f"v{number}/conf/prod.yaml"] = AFTER
    code, named = gated_rules(committed(tmp_path_factory.mktemp("inputs"), base, head), True)
    found = {*named.get("core.ci", []), *named.get("core.iac", [])}
    return code, {case: f"v{number}/conf/prod.yaml" in found for number, case in enumerate(CASES)}


@each_case("case", CASES)
def test_the_file_a_deploy_command_reads_is_reviewed(reviewed: tuple[int, dict[str, bool]], case: str) -> None:
    assert reviewed[0] == 3
    assert reviewed[1][case]  # on integ 2a5b937: 51 of 72 were src, gate --tree exit 0 with no other file


CONTROLS = {  # the command line: the words it deploys (an output's file, a reading command's input: none)
    "helm template ./chart > conf/out.yaml": ["chart"],
    "helm template ./chart >conf/out.yaml 2>conf/err.log": ["chart"],
    "helm template ./chart &> conf/out.yaml": ["chart"],
    "helm template ./chart >> conf/out.yaml 2>&1": ["chart"],
    "kubectl apply -f m.yaml 1> conf/out.yaml": ["m.yaml"],
    "kubectl get -f - < conf/x.yaml": [],
    "helm upgrade app ./chart <<EOF": ["chart"],
    "helm upgrade app ./chart < /dev/null": ["chart"],
    'helm upgrade app ./chart -f - <<< "$VALUES"': ["chart"],
    "echo $(helm upgrade app ./chart --values conf/prod.yaml)": ["chart", "conf/prod.yaml"],
    "X=`helm upgrade app ./chart --values conf/prod.yaml`": ["chart", "conf/prod.yaml"],
    "echo $(helm lint ./chart --values conf/prod.yaml)": [],
    "echo \"$(grep helm conf/prod.yaml)\"": [],
}


@each_case("line", CONTROLS)
def test_an_output_file_and_a_reading_command_name_nothing(line: str) -> None:
    assert deployruns.targets(line) == CONTROLS[line]


def test_an_edited_output_file_stays_src(tmp_path: Path) -> None:
    run = "helm template ./chart --values conf/prod.yaml > conf/out.yaml"
    case = committed(tmp_path, {".github/workflows/d.yml": WORKFLOW.format(run=run, folder="."),
                                "chart/Chart.yaml": CHART, "conf/prod.yaml": BEFORE, "conf/out.yaml": "a: 1\n"},
                     {"conf/out.yaml": "a: 2\n"})
    assert gated_rules(case, True) == (0, {})
