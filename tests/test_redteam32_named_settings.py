"""Red team 32: the settings files a CI step hands a deploy command by path are infrastructure, whatever their name.

`terraform apply -var-file=conf/prod.json` in a workflow sets what the apply creates: an edit of `conf/prod.json` is an
edit of the deployment. Red team 25 read Terraform's `-chdir=` only; the variable and backend files it reads were `src`
unless their name said Terraform (`*.tfvars`), and `gate --tree` allowed them (exit 0 on dd4a159, every DEPLOYS row:
tree mode `src.default`). So were an Azure Pipelines task's inputs that name them (`TerraformTaskV4`'s
`commandOptions`, `HelmDeploy`'s `valueFile`, the ARM template task's `csmFile`/`csmParametersFile`). Now each is `iac`
(`iac.context.deployed`). From the patch alone (the definition in BASE, not in the patch) such a file cannot be known:
a JSON or YAML file there is `needs-context` (reviewed), which every row checks too.

Look-alikes stay as they were: the command echoed, in a comment, a `-backend-config=key=value` pair."""

from __future__ import annotations

from pathlib import Path

from changecase import patch_entries
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

GH = "on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
AZ = "trigger: [main]\npool:\n  vmImage: ubuntu-latest\nsteps:\n- task: {task}\n  inputs:\n{inputs}"
GL = "deploy:\n  stage: deploy\n  script:\n    - {cmd}\n"
SETTINGS = '{\n  "region": "eu-west-1",\n  "admins": []\n}\n'
EVIL = '{\n  "region": "eu-west-1",\n  "admins": ["arn:aws:iam::1:root"]\n}\n'
STACK = {"stack/main.tf": 'variable "admins" {}\n'}

# name: (definition path, its text, base files beside it, the settings file the change edits)
DEPLOYS: dict[str, tuple[str, str, dict[str, str], str]] = {}
for form, command in {
    "equals": "terraform apply -auto-approve -var-file=conf/prod.json",
    "space": "terraform plan -var-file conf/prod.json",
    "quoted": 'terraform apply -var-file="conf/prod.json"',
    "double-dash": "tofu apply --var-file=conf/prod.json",
    "chdir-relative": "terraform -chdir=stack apply -var-file=../conf/prod.json",
    "chdir-inside": "terraform -chdir=stack apply -var-file=prod.json",
    "terragrunt": "terragrunt apply -var-file=conf/prod.json",
    "backend": "terraform init -backend-config=conf/prod.json",
    "after-cd": "cd stack && terraform apply -var-file ../conf/prod.json",
}.items():
    target = "stack/prod.json" if form == "chdir-inside" else "conf/prod.json"
    DEPLOYS[f"gh-{form}"] = (".github/workflows/deploy.yml", GH.format(steps=f"      - run: {command}\n"), STACK,
                             target)
    DEPLOYS[f"gitlab-{form}"] = (".gitlab-ci.yml", GL.format(cmd=command), STACK, target)
DEPLOYS |= {
    "azure-terraform-task": ("azure-pipelines.yml", AZ.format(
        task="TerraformTaskV4@4", inputs="    command: apply\n    workingDirectory: stack\n"
                                         "    commandOptions: -var-file=conf/prod.json -auto-approve\n"),
        STACK, "conf/prod.json"),
    "azure-helm-valuefile": ("azure-pipelines.yml", AZ.format(
        task="HelmDeploy@0", inputs="    command: upgrade\n    chartType: Name\n    chartName: stable/web\n"
                                    "    valueFile: conf/prod.json\n"), {}, "conf/prod.json"),
    "azure-arm-parameters": ("azure-pipelines.yml", AZ.format(
        task="AzureResourceManagerTemplateDeployment@3", inputs="    deploymentScope: Resource Group\n"
                                                               "    csmFile: tpl/main.json\n"
                                                               "    csmParametersFile: conf/prod.json\n"),
        {"tpl/main.json": "{}\n"}, "conf/prod.json"),
    "azure-arm-template": ("azure-pipelines.yml", AZ.format(
        task="AzureResourceManagerTemplateDeployment@3", inputs="    csmFile: conf/prod.json\n"), {},
        "conf/prod.json"),
}
# name: (definition path, its text): the settings file conf/prod.json is named by no deploy command
LOOK_ALIKES: dict[str, tuple[str, str]] = {
    "echo": (".github/workflows/deploy.yml",
             GH.format(steps="      - run: echo terraform apply -var-file=conf/prod.json\n")),
    "comment": (".github/workflows/deploy.yml", GH.format(
        steps="      - run: |\n          # terraform apply -var-file=conf/prod.json\n          make\n")),
    "backend-pair": (".github/workflows/deploy.yml", GH.format(
        steps="      - run: terraform init -backend-config=key=conf/prod.json\n")),
    "other-task": ("azure-pipelines.yml", AZ.format(task="CopyFiles@2", inputs="    contents: conf/prod.json\n")),
}


@each_case("case", sorted(DEPLOYS))
def test_a_settings_file_a_deploy_command_names_is_iac(tmp_path: Path, case: str) -> None:
    definition, text, beside, target = DEPLOYS[case]
    repo, base, head = two_commits(tmp_path / "repo", {definition: text, target: SETTINGS, **beside},
                                   {target: EVIL})
    found = tree_classify(repo.root, base, head)[target]
    assert (found["bucket"], found["rule"]) == ("iac", "iac.context.deployed"), found
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3, decision
    shown = patch_entries(repo.root, base, head, tmp_path)[target]
    assert shown["bucket"] in ("ci", "iac") or "needs-context" in shown["tags"], shown


@each_case("case", sorted(LOOK_ALIKES))
def test_a_look_alike_names_no_settings_file(tmp_path: Path, case: str) -> None:
    definition, text = LOOK_ALIKES[case]
    repo, base, head = two_commits(tmp_path / "repo", {definition: text, "conf/prod.json": SETTINGS, **STACK},
                                   {"conf/prod.json": EVIL})
    found = tree_classify(repo.root, base, head)["conf/prod.json"]
    assert found["bucket"] not in ("ci", "iac"), found
