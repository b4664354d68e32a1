"""Classes of misses the twenty-sixth label set found (bench/classify_accuracy/twentysixth.tsv: 61 repositories weighted
to infrastructure and CI under ordinary names, measured blind first), each with the look-alikes it must leave alone:
Terraform and Terragrunt units of a live repository's environment named `test` (iac, where the test-tree rule read
`env/test/**/projects/` as a test's sample projects; a test's fixtures and the lock file stay what they were), desktop
folder metadata (`.DS_Store`: other, but inside a CI folder still ci), vendored code in a nested `third_party/`
(deps), Jenkins Job Builder jobs under any name (ci by content; Azure Pipelines' `- job:` and a chore list are not),
a Dockerfile whose name carries a version after it (`DockerfileV0.1.1`: iac by its FROM line; a document named
`Dockerfile.md` is not), and an Ansible collection's `docs/` (documentation, not claimed by the `galaxy.yml` marker).
The real repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import is_candidate, sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # a live repository's environment named test is an environment, not a test tree
    ("env/test/hub/forms/projects/intake/security/terragrunt.hcl", "iac", "iac.test-environments"),
    ("live/testing/us-east-1/data/projects/warehouse/main.tf", "iac", "iac.test-environments"),
    ("infra/environments/tests/fixtures/network/terraform.tfvars", "iac", "iac.test-environments"),
    ("env/test/hub/forms/ecs/.terraform.lock.hcl", "deps", None),  # the lock file keeps its rule
    ("env/test/hub/forms/projects/intake/README.md", "src", None),
    ("test/fixtures/projects/basic/terragrunt.hcl", "iac", None),  # Terragrunt's fixtures: test data lowers deps only
    ("modules/vpc/test/data/main.tf", "iac", None),
    # desktop folder metadata, outside a CI system's folders
    ("site-modules/.DS_Store", "other", "other.os-metadata"),
    ("kubernetes/apps/Thumbs.db", "other", "other.os-metadata"),
    ("charts/web/desktop.ini", "other", "other.os-metadata"), (".circleci/.DS_Store", "ci", None),
    (".github/workflows/.DS_Store", "ci", None),
    # vendored code in a third_party/ folder at any depth
    ("pkg/plugin/physics/third_party/box2d/src/contact.c", "deps", "deps.vendored-nested"),
    ("lib/third-party/sha1/sha1.c", "deps", "deps.vendored-nested"),
    ("third_party/zlib/inflate.c", "deps", "deps.vendored"),
    ("src/third_party_notices.txt", "other", "other.governance"), ("src/third_partying.go", "src", None),
])
def test_path_rules_of_the_twenty_sixth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


JJB_PIPELINE_JOB = """- job:
    name: psmdb70-autobuild-RELEASE
    project-type: pipeline
    description: |
        Do not edit this job through the web!
    pipeline-scm:
      scm:
        - git:
            url: https://github.com/example/jenkins-pipelines.git
            branches:
              - master
            wipe-workspace: false
      lightweight-checkout: true
      script-path: psmdb/jenkins/psmdb-autobuild.groovy
"""
JJB_TEMPLATE = """- project:
    name: nightly
    jobs:
      - '{name}-build'

- job-template:
    name: '{name}-build'
    node: docker
    builders:
      - shell: make test
    publishers:
      - junit:
          results: build/junit.xml
"""
AZURE_JOBS = """jobs:
- job: Build
  pool:
    vmImage: ubuntu-latest
  steps:
  - script: make build
"""
CHORES = """- job: water the plants
  when: daily
- job: take out the bins
  when: weekly
"""
QUEUE_SETTINGS = """- job:
    name: send-digest
    queue: mailers
    retries: 3
    builder_class: DigestBuilder
"""


@each_case(("name", "text", "ci"), [
    ("percona-server-for-mongodb-7.0.yml", JJB_PIPELINE_JOB, True),
    ("openshift-cluster-destroy.yml", JJB_PIPELINE_JOB.replace("psmdb70-autobuild-RELEASE", "cluster-destroy"), True),
    ("nightly.yaml", JJB_TEMPLATE, True),
    ("azure.yml", AZURE_JOBS, False), ("chores.yml", CHORES, False), ("jobs.yml", QUEUE_SETTINGS, False),
    ("notes.md", JJB_PIPELINE_JOB, False),  # the same lines quoted in a document
])
def test_jenkins_job_builder_jobs_by_content(name: str, text: str, ci: bool) -> None:
    signal = sniff(name, text.encode(), RULES.context)
    assert (signal is not None and signal.rule == "ci.content.jenkins-job-builder") == ci, (name, signal)


SERVER_DOCKERFILE = """ARG BASE_RUN_IMAGE=scratch
FROM docker.io/library/golang:1.22 AS builder
WORKDIR /build
COPY . .
RUN go build -o /server ./cmd/server

FROM ${BASE_RUN_IMAGE}
COPY --from=builder /server /server
ENTRYPOINT ["/server"]
"""
DOCKERFILE_NOTES = "# Building the image\n\nRun `docker build -f DockerfileV0.1.1 .` from the root.\n"


@each_case(("name", "text", "iac"), [
    ("DockerfileV0.1.1", SERVER_DOCKERFILE, True), ("Dockerfile.v2.3", SERVER_DOCKERFILE, True),
    ("Containerfile.rhel9.0", SERVER_DOCKERFILE, True), ("dockerfile.ubi", SERVER_DOCKERFILE, True),
    ("Dockerfile.md", DOCKERFILE_NOTES, False),
    ("DockerfileParser.java", "package x;\nclass DockerfileParser {}\n", False),
    ("server.1", SERVER_DOCKERFILE, False),  # a man page's name: the path rules' job, and not read as a Dockerfile
])
def test_dockerfiles_named_with_a_version_after_them(name: str, text: str, iac: bool) -> None:
    signal = sniff(name, text.encode(), RULES.context) if is_candidate(name) else None
    assert (signal is not None and signal.rule == "iac.content.dockerfile") == iac, (name, signal)


def test_the_twenty_sixth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# pipelines and environments\n")
    git_repo.commit("base")
    texts = {
        "psmdb/jenkins/percona-server-for-mongodb-7.0.yml": JJB_PIPELINE_JOB,
        "pmm/openshift/openshift-cluster-destroy.yml": JJB_PIPELINE_JOB,
        "ops/chores.yml": CHORES,
        "server/docker/DockerfileV0.1.1": SERVER_DOCKERFILE,
        "env/test/hub/forms/projects/intake/terragrunt.hcl": 'terraform {\n  source = "../../../modules//intake"\n}\n',
        "site-modules/.DS_Store": "\0\0\0\1Bud1\0",
        # an Ansible collection: its docs are documentation, its roles' tasks stay claimed
        "collection/galaxy.yml": "namespace: example\nname: network\nversion: 1.2.0\nreadme: README.md\n",
        "collection/docs/docsite/extra-docs.yml": "---\nsections:\n  - title: Scenario guides\n    toctree:\n"
                                                  "      - guide_vlans\n",
        "collection/roles/vlan/tasks/main.yml": "- name: Create the VLANs\n  example.network.vlan:\n"
                                                "    state: merged\n",
    }
    want = {
        "psmdb/jenkins/percona-server-for-mongodb-7.0.yml": "ci", "pmm/openshift/openshift-cluster-destroy.yml": "ci",
        "ops/chores.yml": "src", "server/docker/DockerfileV0.1.1": "iac",
        "env/test/hub/forms/projects/intake/terragrunt.hcl": "iac", "site-modules/.DS_Store": "other",
        "collection/docs/docsite/extra-docs.yml": "src", "collection/roles/vlan/tasks/main.yml": "iac",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["pmm/openshift/openshift-cluster-destroy.yml"].rule == "ci.content.jenkins-job-builder"
    assert files["server/docker/DockerfileV0.1.1"].rule == "iac.content.dockerfile"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want if path != "collection/docs/docsite/extra-docs.yml"} \
        == {path: bucket for path, bucket in want.items() if path != "collection/docs/docsite/extra-docs.yml"}
