"""Classes of misses the fifty-fourth label set showed (bench/classify_accuracy/fiftyfourth.tsv), one test each:
a Jenkins declarative pipeline in a file without an extension, a Tekton object without its apiVersion line, Salt's
own settings (a minion's roots, a Saltfile), CUE that defines Kubernetes objects, cfndsl programs (Ruby that builds
CloudFormation), and the files a Salt state installs from a folder (`file.recurse`, a path cut by a Jinja expression).
Each with look-alikes that keep their bucket."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.saltfiles import named as salt_named
from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

_DECLARATIVE = """pipeline {
    agent any

    tools {
        jdk 'jdk17'
    }

    stages {
        stage('Build') {
            steps {
                sh 'make build'
            }
        }
    }
}
"""


@each_case(("path", "text"), [
    ("jenkins", _DECLARATIVE),
    ("ci/deploy-pipeline", _DECLARATIVE),
    ("pipelines/release", _DECLARATIVE.replace("pipeline {", "pipeline\n{").replace("stages {", "stages\n    {")),
    ("jenkins", _DECLARATIVE.replace("\n", "\r\n")),  # written on Windows
    ("jenkins", "// the release job\n\n" + _DECLARATIVE.replace("agent any", "agent { label 'linux' }")),
])
def test_a_declarative_pipeline_without_an_extension_is_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.jenkins-pipeline"), signal


@each_case(("path", "text"), [
    # prose about pipelines, a pipeline block without stages, a scripted pipeline under a name that says nothing
    ("NOTES", "The pipeline {build, test} runs on every push.\n  agent: any\n"),
    ("docs/build", "pipeline {\n  description 'no stages here'\n}\n"),
    ("tools/run", "node {\n    sh 'make'\n}\n"),
    # a text file quoting one is not read for the shape (it has an extension); a Jenkinsfile is the path rules' to name
    ("docs/example.txt", _DECLARATIVE),
    ("Jenkinsfile", _DECLARATIVE),
])
def test_declarative_pipeline_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "ci.content.jenkins-pipeline", signal


# SimonDelord/UBI-Security's pipelines/first-pipeline/zero-task.yaml shape: a Tekton Task kept without apiVersion
_TEKTON_TASK = """kind: Task
metadata:
  name: check-base-image-is-signed
spec:
  params:
    - name: sourceImage
      type: string
  steps:
    - name: verify
      image: registry.example/tools:latest
      script: |
        cosign verify --key k8s://ns/key "$(params.sourceImage)"
"""
_TEKTON_RUN = """kind: PipelineRun
metadata:
  generateName: release-
spec:
  pipelineRef:
    name: release
"""


@each_case(("path", "text"), [
    ("pipelines/zero-task.yaml", _TEKTON_TASK),
    ("ci/run.yml", _TEKTON_RUN),
    ("tasks/build.yaml", "# build task\n---\n" + _TEKTON_TASK.replace("kind: Task", "kind: 'ClusterTask'")),
    ("pipe.yaml", "kind: Pipeline\nmetadata:\n  name: p\nspec:\n  tasks:\n    - name: a\n      taskRef:\n"
                  "        name: hello\n"),
])
def test_a_tekton_object_without_api_version_is_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.tekton-unversioned"), signal


@each_case(("path", "text"), [
    ("build.yaml", "kind: pipeline\nname: default\nsteps:\n  - name: test\n    image: golang\n"),  # Drone's
    ("tasks.yaml", "kind: Task\nname: chores\nspec:\n  owner: me\n"),  # no step runs an image
    ("board.yml", "kind: Pipeline\ncolumns: [todo, doing, done]\n"),  # no spec
    ("notes.md", _TEKTON_TASK),  # not YAML by name
])
def test_tekton_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "ci.content.tekton-unversioned", signal


# ygersie/salt's config/minion and Saltfile shapes, in our words
_MINION = """root_dir: ./config
file_client: local
file_roots:
  base:
    - ./states
pillar_roots:
  base:
    - ./pillars
"""


@each_case(("path", "text"), [
    ("config/minion", _MINION),
    ("master.d/roots.conf", "# roots\npillar_roots:\n\n  prod:\n    - /srv/pillar\n"),
    ("salt/master.yml", "fileserver_backend:\n  - git\nfile_roots:\n  base:\n    - /srv/salt\n"),
    ("Saltfile", "salt-call:\n  config_dir: ./config\n"),
    ("ops/Saltfile", "salt-ssh:\n  # the roster beside it\n  roster_file: ./roster\n  ssh_priv: ~/.ssh/id\n"),
])
def test_salt_settings_are_iac(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("iac", "iac.content.salt-settings"), signal


@each_case(("path", "text"), [
    ("config/app.yaml", "server:\n  file_roots:\n    base: /srv\n"),  # nested, not Salt's top-level key
    ("flags.yml", "salt-call: true\npillar_roots: []\n"),  # scalars, no environment under them
    ("README", "Run salt-call:\n  with the local file client.\n"),  # prose, not a key
])
def test_salt_settings_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "iac.content.salt-settings", signal


# iam43x/cue-project-tutorial's lib/job.cue shape: a CUE definition of the objects the project renders
_CUE_JOB = """package lib

import "k8s.io/api/batch/v1"

#Job: v1.#Job & {
\tapiVersion: "batch/v1"
\tkind:       "Job"
\tmetadata: {
\t\tname:   #ResourceName
\t}
}
"""


@each_case(("path", "text", "bucket"), [
    ("lib/job.cue", _CUE_JOB, "iac"),
    ("apps/src/app.cue", 'application: {\n\tkind: "Application"\n\tapiVersion: "argoproj.io/v1alpha1"\n}\n', "iac"),
    ("deploy/service.cue", 'apiVersion: "v1"\nkind: "Service"\nspec: ports: [{port: 80}]\n', "iac"),
    ("ci/task.cue", 'task: {\n\tapiVersion: "tekton.dev/v1"\n\tkind: "Task"\n}\n', "ci"),
])
def test_cue_that_defines_kubernetes_objects(path: str, text: str, bucket: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and signal.bucket == bucket, signal
    assert "apiVersion" in signal.evidence and "kind" in signal.evidence, signal


@each_case(("path", "text"), [
    # imported and generated packages below cue.mod/ are dependencies, whatever they hold
    ("cue.mod/pkg/k8s.io/api/batch/v1/types_gen.cue", _CUE_JOB),
    ("app/cue.mod/gen/k8s.io/api/core/v1/types_go_gen.cue", _CUE_JOB),
    # a schema (no quoted values), a module file, a non-Kubernetes kind
    ("schema/config.cue", "#Config: {\n\tapiVersion: string\n\tkind: string\n}\n"),
    ("cue.mod/module.cue", 'module: "example.com/app"\nsource: {\n\tkind: "git"\n}\n'),
    ("pkg/spec.cue", 'spec: {\n\tapiVersion: "not a version"\n\tkind: "Thing"\n}\n'),
])
def test_cue_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.bucket not in ("ci", "iac"), signal


# base2Services/ciinabox-ecs' shape: a cfndsl program, required by name or loaded by the cfndsl command
_CFNDSL_REQUIRED = """require 'cfndsl'
require_relative '../ext/helper'

CloudFormation {
  AWSTemplateFormatVersion "2010-09-09"
  Resource('Cluster') { Type 'AWS::ECS::Cluster' }
}
"""
_CFNDSL_LOADED = """CloudFormation do
  Description 'network'
  EC2_VPC(:VPC) { CidrBlock '10.0.0.0/16' }
end
"""


def test_cfndsl_programs_are_iac(git_repo: GitRepo, tmp_path: Path) -> None:
    """With the commits: below a Gemfile naming cfndsl, the Ruby files that require it or open a CloudFormation block
    are iac; a helper without either, a spec (a test), and the library's own source keep their bucket. A Ruby file
    with the same block below a Gemfile that names no IaC library is not read. From a patch alone, a program the patch
    adds (naming cfndsl) is read too."""
    base = {"ciinabox/Gemfile": "source 'https://rubygems.org'\ngem 'cfndsl', '~>0.16'\ngem 'rake'\n",
            "ciinabox/templates/lambdas.rb": _CFNDSL_REQUIRED,
            "ciinabox/templates/vpc.rb": _CFNDSL_LOADED,
            "ciinabox/ext/helper.rb": "def lookup(name, list)\n  list.find { |s| s.key?(name) }\nend\n",
            "ciinabox/spec/vpc_spec.rb": "require 'cfndsl'\ndescribe 'vpc' do\n  it { expect(1).to eq 1 }\nend\n",
            "ciinabox/vendor/cfndsl/lib/cfndsl/runner.rb": "require 'cfndsl'\nmodule CfnDsl\nend\n",
            "web/Gemfile": "source 'https://rubygems.org'\ngem 'rails'\n",
            "web/lib/cloud.rb": _CFNDSL_LOADED}
    for path, text in base.items():
        git_repo.write(path, text)
    git_repo.commit("base")
    for path, text in base.items():
        if path.endswith(".rb"):
            git_repo.write(path, text + "# touched\n")
    git_repo.write("ciinabox/templates/ecs.rb", _CFNDSL_REQUIRED)  # added: a patch shows it whole
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("ciinabox/templates/lambdas.rb", "ciinabox/templates/vpc.rb"):
        assert (files[path].bucket, files[path].rule) == ("iac", "iac.content.iac-program"), files[path]
    for path in ("ciinabox/ext/helper.rb", "ciinabox/spec/vpc_spec.rb", "web/lib/cloud.rb"):
        assert files[path].bucket not in ("ci", "iac"), files[path]
    assert files["ciinabox/vendor/cfndsl/lib/cfndsl/runner.rb"].rule != "iac.content.iac-program", files
    patched = patch_files(git_repo, tmp_path)
    assert patched["ciinabox/templates/ecs.rb"].bucket == "iac", patched["ciinabox/templates/ecs.rb"]
    assert patched["ciinabox/ext/helper.rb"].bucket not in ("ci", "iac"), patched["ciinabox/ext/helper.rb"]


def test_salt_sources_name_folders() -> None:
    """A `file.recurse` folder and the folder before a Jinja expression are named; a whole name is kept."""
    state = b"""/etc/asterisk:
  file.recurse:
    - source: salt://asterisk/conf
{% for admin in pillar.admins %}
/home/{{ admin }}/.ssh/authorized_keys:
  file.managed:
    - source: salt://login/keys/{{ admin }}
{% endfor %}
/etc/app.conf:
  file.managed:
    - source: salt://app/files/app-{{ version }}.conf
/etc/motd:
  file.managed:
    - source: salt://login/motd
"""
    got = salt_named("login/admin.sls", state)
    for path in ("asterisk/conf", "login/keys", "app/files", "login/motd"):
        assert path in got, got
    assert not any(p.endswith(("app-", "keys/")) for p in got), got


def test_files_a_salt_state_installs_from_a_folder(git_repo: GitRepo) -> None:
    """umbc-hackafe/salt-rules' shape: admins' keys installed from `salt://login/keys/{{ admin }}` and a PBX's settings
    by `file.recurse`, with no init.sls beside them: each file below the named folders is iac with the commits; a
    file of another folder keeps its bucket."""
    git_repo.write("login/admin.sls", "{% for admin in pillar.admins %}\n/home/{{ admin }}/.ssh/authorized_keys:\n"
                   "  file.managed:\n    - source: salt://login/keys/{{ admin }}\n{% endfor %}\n")
    git_repo.write("pbx.sls", "/etc/asterisk:\n  file.recurse:\n    - source: salt://pbx/conf\n")
    git_repo.write("login/keys/gina", "ssh-ed25519 AAAAC3Nza gina@host\n")
    git_repo.write("pbx/conf/extensions.conf", "[general]\nstatic=yes\n")
    git_repo.write("notes/keys/old", "ssh-ed25519 AAAAC3Nza old@host\n")
    git_repo.commit("base")
    git_repo.write("login/keys/gina", "ssh-ed25519 AAAAC3Nzb gina@laptop\n")
    git_repo.write("pbx/conf/extensions.conf", "[general]\nstatic=no\n")
    git_repo.write("notes/keys/old", "ssh-ed25519 AAAAC3Nzb old@laptop\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("login/keys/gina", "pbx/conf/extensions.conf"):
        assert (files[path].bucket, files[path].rule) == ("iac", "iac.context.salt-file"), files[path]
    assert files["notes/keys/old"].bucket not in ("ci", "iac"), files["notes/keys/old"]
