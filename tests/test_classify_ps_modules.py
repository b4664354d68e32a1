"""An Azure Pipelines task's `ps_modules/` folder (the forty-third set: azure-devops-cli-extension's
`BuildTasks/<task>/ps_modules/VstsTaskSdk/`): the PowerShell modules a task ships there, where the agent loads them
from, are another project's code copied in (`deps.vendored-nested`), as `node_modules/` is for a Node task. Only a
folder named exactly `ps_modules` counts; the task's own scripts, `task.json` and look-alike names stay `src`, a CI or
container file inside keeps its kind, and principle 0 keeps a copy inside a CI folder `ci`.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, both_ways

_TASK = "BuildTasks/markStale"
_SDK = f"{_TASK}/ps_modules/VstsTaskSdk"


@each_case(("path", "bucket", "rule"), [
    (f"{_SDK}/VstsTaskSdk.psd1", "deps", "deps.vendored-nested"),
    (f"{_SDK}/VstsTaskSdk.psm1", "deps", "deps.vendored-nested"),
    (f"{_SDK}/FindFunctions.ps1", "deps", "deps.vendored-nested"),
    (f"{_SDK}/lib.json", "deps", "deps.vendored-nested"),
    (f"{_SDK}/Strings/resources.resjson/en-US/resources.resjson", "deps", "deps.vendored-nested"),
    ("ps_modules/VstsTaskSdk/VstsTaskSdk.psm1", "deps", "deps.vendored-nested"),  # a task kept at the root
    ("Tasks/Deploy/ps_modules/TlsHelper_/TlsHelper_.psm1", "deps", "deps.vendored-nested"),
    # look-alikes: the task's own files and other names stay the project's code
    ("BuildTasks/markStale/markStale.ps1", "src", None),
    ("BuildTasks/markStale/task.json", "src", None),
    ("BuildTasks/markStale/ps_modules.ps1", "src", None),
    ("src/ps_module/Helpers.psm1", "src", None),
    ("src/my_ps_modules/Helpers.psm1", "src", None),
    ("modules/Helpers/Helpers.psd1", "src", None),
    # what the CI and IaC rules name keeps its bucket; principle 0 decides inside a CI folder
    ("BuildTasks/markStale/ps_modules/Dockerfile", "iac", "iac.containers"),
    ("BuildTasks/markStale/ps_modules/VstsTaskSdk/azure-pipelines.yml", "ci", "ci.azure-pipelines"),
    (".github/actions/stale/ps_modules/VstsTaskSdk/VstsTaskSdk.psm1", "ci", None),
    ("ci/tasks/ps_modules/VstsTaskSdk/VstsTaskSdk.psm1", "ci", "ci.script-folders"),
])
def test_ps_modules_paths(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


INFRA_FOLDERS = ["infra", "infrastructure", "terraform", "opentofu", "deploy", "deployment", "deployments", "k8s",
                 "kubernetes", "helm", "charts", "pulumi", "packer"]


@each_case("folder", INFRA_FOLDERS)
def test_ps_modules_inside_an_infrastructure_folder_stay_iac(folder: str) -> None:
    """Installed code inside a top-level infrastructure folder is deployed with it (iac.folders-installed-code, as
    node_modules/ there): the new deps rule must not lower `deploy/ps_modules/x.ps1` from iac to deps, which the
    default policy allows (the lead's review of this round: 13 of 13 folders were lowered)."""
    match = RULES.match(f"{folder}/scripts/ps_modules/VstsTaskSdk/Deploy.ps1")
    assert (match.bucket, match.rule) == ("iac", "iac.folders-installed-code"), match


def test_ps_modules_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """A task that ships the SDK, read with the tree's context and as a patch: the folder decides, both ways."""
    git_repo.write("README.md", "# extension\n")
    git_repo.commit("base")
    texts = {
        f"{_SDK}/VstsTaskSdk.psd1": "@{\n    RootModule = 'VstsTaskSdk.psm1'\n    ModuleVersion = '0.11.0'\n}\n",
        f"{_SDK}/VstsTaskSdk.psm1": "function Get-VstsInput { param([string]$Name) }\nExport-ModuleMember *\n",
        f"{_TASK}/markStale.ps1": "Import-Module $PSScriptRoot/ps_modules/VstsTaskSdk\nGet-VstsInput -Name days\n",
        f"{_TASK}/task.json": '{"name": "markStale", "execution": {"PowerShell3": {"target": "markStale.ps1"}}}\n',
        "src/my_ps_modules/Helpers.psm1": "function Get-Helper { 'x' }\n",
    }
    want = {f"{_SDK}/VstsTaskSdk.psd1": "deps", f"{_SDK}/VstsTaskSdk.psm1": "deps",
            f"{_TASK}/markStale.ps1": "src", f"{_TASK}/task.json": "src",
            "src/my_ps_modules/Helpers.psm1": "src"}
    _, patched = both_ways(git_repo, tmp_path, texts, want)
    assert {patched[path].rule for path in want if want[path] == "deps"} == {"deps.vendored-nested"}
