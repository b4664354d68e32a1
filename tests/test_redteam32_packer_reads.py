"""Red team 32: Packer templates that name their files through a variable, and Packer templates written in YAML.

A Packer template's provisioners upload files onto the image and run scripts on it. When the template names them
through a local or a variable (`locals { setup = "${path.root}/../../shared/setup" }`, then
`source = "${local.setup}/limits.conf"`), the `../` reader saw only `${…}/limits.conf` below the template's own
folder, and the shared folder's files were `src` (the thirty-ninth set's e2b-dev/infra miss; `gate --tree` exit 0 on
dd4a159 for every NAMED row). Now a `local.NAME` or `var.NAME` whose value the same file sets to a literal path
(a `locals` entry, a variable's `default`) is read as that path, and a folder a Packer template names is read whole
(a file provisioner uploads a folder with everything in it).

Travis' Packer templates are YAML (converted to JSON before `packer build`): `builders:`, a list of typed builders,
beside `provisioners:` or a builder key. They were `src` under any name but a `packer` folder; now
`iac.content.packer` as the JSON form, from the patch too (a new file's hunk is its whole content); the top-level
`packer-*/` and `packer_*/` folders their provisioners read are `iac.folders` as `packer/` is.

Look-alikes: a Terraform configuration's local that names an application folder (`archive_file`'s `source_dir`) does
not make the folder's other files iac; a build tool's YAML `builders:` list without Packer's keys stays src."""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import patch_entries
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

LIMITS = "* soft nofile 1024\n"
EVIL = "* soft nofile 1024\n* hard core unlimited\n"
TEMPLATE = ('source "amazon-ebs" "img" {{\n  ami_name = "img"\n}}\n\n{defs}\nbuild {{\n'
            '  sources = ["source.amazon-ebs.img"]\n{body}}}\n')
# name: (template path, its text, the file the change edits)
NAMED: dict[str, tuple[str, str, str]] = {
    "local-interpolated": ("images/aws/main.pkr.hcl", TEMPLATE.format(
        defs='locals {\n  setup = "${path.root}/../../shared/setup"\n}\n',
        body='  provisioner "file" {\n    source      = "${local.setup}/limits.conf"\n'
             '    destination = "/etc/security/limits.conf"\n  }\n'), "shared/setup/limits.conf"),
    "local-folder-upload": ("images/aws/main.pkr.hcl", TEMPLATE.format(
        defs='locals {\n  setup = "${path.root}/../../shared/setup"\n}\n',
        body='  provisioner "file" {\n    source      = local.setup\n    destination = "/tmp/setup"\n  }\n'),
        "shared/setup/limits.conf"),
    "local-folder-upload-slash": ("images/aws/main.pkr.hcl", TEMPLATE.format(
        defs='locals {\n  setup = "../../shared/setup/"\n}\n',
        body='  provisioner "file" {\n    source      = "${local.setup}"\n    destination = "/tmp/setup"\n  }\n'),
        "shared/setup/nested/limits.conf"),
    "variable-default": ("images/gcp/image.pkr.hcl", TEMPLATE.format(
        defs='variable "scripts_dir" {\n  type    = string\n  default = "../../shared/setup"\n}\n',
        body='  provisioner "shell" {\n    script = "${var.scripts_dir}/install.sh"\n  }\n'),
        "shared/setup/install.sh"),
    "local-in-script-list": ("images/aws/main.pkr.hcl", TEMPLATE.format(
        defs='locals {\n  setup_dir = "${path.root}/../../shared/setup"\n}\n',
        body='  provisioner "shell" {\n    scripts = ["${local.setup_dir}/a.sh", "${local.setup_dir}/run"]\n  }\n'),
        "shared/setup/run"),
}

PACKER_YAML = ("---\ndescription: build image\nvariables:\n  image_name: img-{{ timestamp }}\nbuilders:\n"
               "- type: googlecompute\n  name: googlecompute\n  ssh_username: packer\n  source_image: ubuntu-2204\n"
               "  zone: us-central1-a\nprovisioners:\n- type: shell\n  scripts:\n  - packer-scripts/setup\n")
PACKER_YAML_DOCKER = ("builders:\n  - type: docker\n    image: ubuntu:22.04\n    commit: true\n"
                      "provisioners:\n  - type: shell\n    inline: apt-get update\n")
NOT_PACKER = ("builders:\n- type: html\n  output: site/\n- type: pdf\n  output: book.pdf\nchapters:\n- intro.md\n")


@each_case("case", sorted(NAMED))
def test_a_file_a_packer_template_names_through_a_variable_is_iac(tmp_path: Path, case: str) -> None:
    template, text, target = NAMED[case]
    repo, base, head = two_commits(tmp_path / "repo", {template: text, target: LIMITS, "README.md": "x\n"},
                                   {target: EVIL})
    found = tree_classify(repo.root, base, head)[target]
    assert found["bucket"] == "iac", found
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3, decision


def test_a_terraform_local_naming_an_application_folder_leaves_its_code_src(tmp_path: Path) -> None:
    config = ('locals {\n  app = "${path.module}/../../app"\n}\n'
              'data "archive_file" "fn" {\n  type        = "zip"\n  source_dir  = local.app\n'
              '  output_path = "fn.zip"\n}\n')
    repo, base, head = two_commits(tmp_path / "repo", {"infra/fn/main.tf": config, "app/handler.py": "x = 1\n"},
                                   {"app/handler.py": "x = 2\n"})
    assert tree_classify(repo.root, base, head)["app/handler.py"]["bucket"] == "src"


@pytest.mark.parametrize("text", [PACKER_YAML, PACKER_YAML_DOCKER], ids=["gce", "docker"])
@pytest.mark.parametrize("path", ["ci-stevonnie.yml", "images/base.yaml"])
def test_a_yaml_packer_template_is_iac_in_both_modes(tmp_path: Path, text: str, path: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"README.md": "x\n"}, {path: text})
    found = tree_classify(repo.root, base, head)[path]
    assert (found["bucket"], found["rule"]) == ("iac", "iac.content.packer"), found
    shown = patch_entries(repo.root, base, head, tmp_path)[path]
    assert (shown["bucket"], shown["rule"]) == ("iac", "iac.content.packer"), shown


@pytest.mark.parametrize("path", ["packer-scripts/install-kernel", "packer-assets/commands.yml",
                                  "packer_files/limits.conf"])
def test_a_top_level_packer_folder_is_iac(tmp_path: Path, path: str) -> None:
    # Travis' templates run `packer-scripts/*` and upload `packer-assets/*` (the thirty-ninth set's two misses)
    repo, base, head = two_commits(tmp_path / "repo", {path: "a\n"}, {path: "a\nb\n"})
    assert tree_classify(repo.root, base, head)[path]["rule"] == "iac.folders"
    assert patch_entries(repo.root, base, head, tmp_path)[path]["rule"] == "iac.folders"


def test_a_build_tools_yaml_builders_list_stays_src(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"README.md": "x\n"}, {"book.yml": NOT_PACKER})
    assert tree_classify(repo.root, base, head)["book.yml"]["bucket"] not in ("ci", "iac")


def test_a_variable_given_another_value_still_names_its_files(tmp_path: Path) -> None:
    # the default names shared/setup; a -var or .tfvars may point the variable elsewhere: `${var.dir}/install.sh`
    # still names any install.sh below the template's folder, as before this round
    template = TEMPLATE.format(defs='variable "dir" {\n  default = "../../shared/setup"\n}\n',
                               body='  provisioner "shell" {\n    script = "${var.dir}/install.sh"\n  }\n')
    repo, base, head = two_commits(tmp_path / "repo", {"images/aws/main.pkr.hcl": template,
                                                       "images/aws/other/install.sh": "echo 1\n"},
                                   {"images/aws/other/install.sh": "echo 2\n"})
    assert tree_classify(repo.root, base, head)["images/aws/other/install.sh"]["bucket"] == "iac"
