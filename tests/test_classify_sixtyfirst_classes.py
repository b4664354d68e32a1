"""Classes of misses the sixty-first label set showed (bench/classify_accuracy/sixtyfirst.tsv), one test each: Jenkins
Configuration as Code under ordinary names, a CircleCI orb's source, GitLab CI templates made of hidden jobs, and Job
DSL views. Each with the look-alikes that keep their bucket, and a real repository classified from its commits and from
its patch."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.cpucost import assert_linear
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# Minreaux/jenkins-test's configs/casc/*.yaml shapes, in our words
_CASC_SYSTEM = """# Manage Jenkins >> System
jenkins:
  # the controller itself
  systemMessage: "CI for the team"
  numExecutors: 2
  labelString: "controller"
  mode: NORMAL
"""
_CASC_NODES = """jenkins:
  nodeMonitors:
  - "clock"
  - diskSpace:
      freeSpaceThreshold: "1GiB"
"""
_CASC_SECURITY = """security:
  scriptApproval:
    approvedSignatures: []
"""
_CASC_PROVIDERS = """globalCredentialsConfiguration:
  configuration:
    providerFilter:
      includes:
        classNames:
        - "com.cloudbees.plugins.credentials.SystemCredentialsProvider$ProviderImpl"
"""
_CASC_LIBRARIES = """unclassified:
  globalLibraries:
    libraries:
    - name: "pipeline-lib"
      defaultVersion: "main"
"""


@each_case(("path", "text"), [
    ("configs/casc/system.yaml", _CASC_SYSTEM),
    ("configs/casc/nodes.yaml", _CASC_NODES),
    ("casc/security.yml", _CASC_SECURITY),
    ("configs/casc/providers.yaml", _CASC_PROVIDERS),
    ("jenkins/casc_configs/libraries.yaml", _CASC_LIBRARIES),
    ("settings/controller.yaml", _CASC_SYSTEM.replace("\n", "\r\n")),
    ("settings/tabs.yaml", "jenkins:\n\tviewsTabBar: standard\n"),  # a tab-indented child
    # kept as a test's input: test data never lowers ci (issue 12 item 6)
    ("src/test/resources/smoke/jenkins.yaml", _CASC_SYSTEM),
    # Minreaux/jenkins-test's configs/jenkins.yaml, casc/tools.yaml and casc/jobs.yaml shapes, in our words
    ("configs/jenkins.yaml", "credentials:\n  system:\n    domainCredentials:\n    - credentials: []\n"),
    ("configs/casc/tools.yaml", "tool:\n  # git\n  git:\n    installations:\n    - name: Default\n"),
    ("configs/casc/jobs.yaml", "# seed\njobs:\n  - providedEnv:\n      BRANCH: main\n  - file: ./seed.groovy\n"),
    ("casc/jobs.yml", "jobs:\n  - script: >\n      pipelineJob('build') {}\n"),
])
def test_jenkins_configuration_as_code_is_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.jenkins-casc"), signal


@each_case(("path", "text"), [
    # an umbrella chart's values: `numExecutors` sits under `controller:`, not under the root key itself
    ("deploy/values.yaml", "jenkins:\n  controller:\n    numExecutors: 0\n    systemMessage: hi\n"),
    ("app/security.yaml", "security:\n  headers:\n    hsts: true\n"),  # a root key JCasC shares, no JCasC key
    ("app/settings.yaml", "systemMessage: hello\nnumExecutors: 3\n"),  # the keys at the top, no root
    ("docs/casc.md", _CASC_SYSTEM),  # prose quoting it
    ("configs/casc/system.json", '{"jenkins": {"systemMessage": "x"}}\n'),  # not YAML by name
    ("app/jobs.yaml", "jobs:\n  build:\n    - file: a.txt\n"),  # job ids first, as a workflow's jobs
    ("app/creds.yaml", "credentials:\n  aws:\n    profile: default\n"),  # no key only JCasC writes
])
def test_jcasc_look_alikes_are_not_raised_to_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "ci.content.jenkins-casc", signal


# bluemarblepayroll/circleci-orbs' src/orbs/*.yml shape, in our words
_ORB = """# publishes a job's status to a chat channel
version: 2.1
description: Report the status of a job.
examples:
  report:
    description: report after the build
commands:
  report:
    parameters:
      webhook_url:
        type: string
    steps:
      - run:
          name: Send the status
          command: ./notify.sh
"""
_ORB_EXECUTORS = "version: 2.1\nexecutors:\n  default:\n    docker:\n      - image: cimg/base:stable\n"


@each_case(("path", "text"), [
    ("src/orbs/status_to_chat.yml", _ORB),
    ("orb/executors.yaml", _ORB_EXECUTORS),
    ("src/@orb.yml", 'version: 2.1\ndescription: "An orb."\ndisplay:\n  home_url: https://example.org\n'),
])
def test_a_circleci_orb_source_is_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.circleci"), signal


@each_case(("path", "text"), [
    ("docker-compose.yml", "version: '2'\nservices:\n  web:\n    image: nginx\n"),
    ("tools/commands.yaml", "version: 2\ncommands:\n  build: make\n  test: make test\n"),  # no steps or image below
    ("docs/orb.yml", "description: notes about orbs\ncommands:\n  - build\n"),  # no CircleCI version
])
def test_orb_look_alikes_are_not_raised_to_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "ci.content.circleci", signal


# getindata/gitlab_cicd_templates' dataops/gcp/gcp_setup_template.yml shape, in our words
_GITLAB_SETUP = """variables:
  KEY_PATH: TBS
  REGISTRY: europe-docker.pkg.dev

.cloud_login: &cloud_login
  - gcloud auth activate-service-account --key-file ${KEY_PATH}

.dev_setup:
  before_script:
    - *cloud_login
"""


@each_case(("path", "text"), [
    ("dataops/gcp/gcp_setup_template.yml", _GITLAB_SETUP),
    ("templates/base.yaml", ".base:\n  image: alpine\n  script:\n    - echo base\n"),
    ("ci/after.yml", ".cleanup:\n  after_script:\n    - rm -rf tmp\n"),
])
def test_a_gitlab_template_of_hidden_jobs_is_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.gitlab-ci"), signal


@each_case(("path", "text"), [
    ("snap/snapcraft.yaml", "name: app\nconfinement: strict\n.parts-common:\n  script:\n    - make\n"),
    ("config/app.yaml", ".defaults: &defaults\n  timeout: 30\nserver:\n  <<: *defaults\n"),  # no script below
    ("tasks/run.yml", "- name: run it\n  script: ./run.sh\n"),  # an Ansible task using the script module
])
def test_hidden_job_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "ci.content.gitlab-ci", signal


@each_case("text", [
    "listView('Build Docker') {\n  jobs {\n    regex('^Build-Docker-.*$')\n  }\n}\n",
    'nestedView("Teams") {\n  views {\n    listView("api") {}\n  }\n}\n',
    "organizationFolder('acme') {\n  description('every repository')\n}\n",
    "buildPipelineView('deploy') {\n  selectedJob('build')\n}\n",
])
def test_job_dsl_views_are_ci(text: str) -> None:
    signal = sniff("source/view/technical.groovy", text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.jenkins-pipeline"), signal


@pytest.mark.parametrize("text", [
    "def view = listView(items)\nprintln view\n",  # a method of the same name, no literal name
    "class Views {\n  List listView(String name) { [] }\n}\n",
])
def test_job_dsl_view_look_alikes_stay_src(text: str) -> None:
    signal = sniff("src/main/groovy/Views.groovy", text.encode(), RULES.context)
    assert signal is None or signal.bucket != "ci", signal


def test_the_jcasc_shape_is_linear_in_hostile_input() -> None:
    """Thousands of root keys and children that never make a JCasC document: one pass over the lines, at 64 and
    256 KiB (read whole up to the full-read limit)."""
    block = "jenkins:\n  controller:\n    numExecutors: 1\nsecurity:\n  headers: {}\n"

    def read(text: bytes) -> None:
        signal = sniff("deploy/values.yaml", text, RULES.context)
        assert signal is None or signal.rule != "ci.content.jenkins-casc"

    assert_linear(read, lambda size: (block * (4 * size // len(block))).encode(), budget=1.0)  # at 64 and 256 KiB


def _write_repo(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "# jenkins\n")
    git_repo.commit("base")
    git_repo.write("configs/casc/system.yaml", _CASC_SYSTEM)
    git_repo.write("configs/casc/providers.yaml", _CASC_PROVIDERS)
    git_repo.write("src/orbs/status_to_chat.yml", _ORB)
    git_repo.write("dataops/gcp/gcp_setup_template.yml", _GITLAB_SETUP)
    git_repo.write("source/view/dockerBuilder.groovy", "listView('Build Docker') {\n  jobs { regex('^B.*$') }\n}\n")
    git_repo.write("deploy/values.yaml", "jenkins:\n  controller:\n    numExecutors: 0\n")
    git_repo.write("config/app.yaml", ".defaults: &defaults\n  timeout: 30\n")
    git_repo.commit("head")


_EXPECTED = {
    "configs/casc/system.yaml": "ci",
    "configs/casc/providers.yaml": "ci",
    "src/orbs/status_to_chat.yml": "ci",
    "dataops/gcp/gcp_setup_template.yml": "ci",
    "source/view/dockerBuilder.groovy": "ci",
    "deploy/values.yaml": "iac",  # a deploy/ folder's values: infrastructure by its folder, as before
    "config/app.yaml": "src",
}


def test_a_real_repository_from_its_commits(git_repo: GitRepo) -> None:
    _write_repo(git_repo)
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in _EXPECTED} == _EXPECTED


def test_a_real_repository_from_its_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    _write_repo(git_repo)
    files = patch_files(git_repo, tmp_path)
    assert {path: files[path].bucket for path in _EXPECTED} == _EXPECTED
