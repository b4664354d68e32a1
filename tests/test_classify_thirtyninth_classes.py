"""Classes of misses the thirty-ninth label set showed (bench/classify_accuracy/thirtyninth.tsv), one test each.

Real git repositories shaped as the set's were, classified with the commits (`--tree`) and from the patch, with the
look-alikes beside each positive case.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import siblingrefs
from gatekeeper.classify.iacprograms import iac_program
from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files

_TROPOSPHERE_STACK = '''"""RDS Postgres for an install: security group, subnet group, secret, instance."""

from troposphere import GetAtt, Output, Parameter, Ref, Template
from troposphere.rds import DBInstance, DBSubnetGroup


def build() -> Template:
    t = Template()
    subnets = t.add_parameter(Parameter("SubnetIds", Type="List<AWS::EC2::Subnet::Id>"))
    group = t.add_resource(DBSubnetGroup("DbSubnets", DBSubnetGroupDescription="db", SubnetIds=Ref(subnets)))
    db = t.add_resource(DBInstance("Db", Engine="postgres", DBSubnetGroupName=Ref(group)))
    t.add_output(Output("Endpoint", Value=GetAtt(db, "Endpoint.Address")))
    return t
'''
_PYINFRA_DEPLOY = '''import io

from pyinfra.context import host
from pyinfra.operations import files, server

UDEV_RULES_PATH = "/etc/udev/rules.d/99-amd-kfd.rules"

files.put(name="Install udev rules", src=io.StringIO('KERNEL=="kfd", MODE="0666"\\n'), dest=UDEV_RULES_PATH)
server.shell(name="Reload udev", commands=["udevadm control --reload-rules"])
'''
# The libraries' own source: troposphere's modules import the package, pyinfra's operations and CLI import theirs.
_TROPOSPHERE_OWN = "from troposphere import AWSObject, AWSProperty\n\n\nclass Server(AWSObject):\n    pass\n"
_PYINFRA_OWN = "from pyinfra import host\nfrom pyinfra.api import operation\nfrom pyinfra.operations import files\n"


@each_case(("path", "text", "iac"), [
    ("src/cardinal_cfn/infra_rds.py", _TROPOSPHERE_STACK, True),
    ("deploys/ryzen-apu-host.py", _PYINFRA_DEPLOY, True),
    ("examples/EC2InstanceSample.py", "import troposphere.ec2 as ec2\nfrom troposphere import Template\n", True),
    ("pyinfra/deploy.py", "from pyinfra.operations import apt\n", False),  # below a folder named as the library
    # the libraries' own packages and companions, and pyinfra imports that run nothing
    ("troposphere/openstack/nova.py", _TROPOSPHERE_OWN, False),
    ("pyinfra/operations/apt.py", _PYINFRA_OWN, False),
    ("pyinfra_cli/main.py", _PYINFRA_OWN, False),
    ("scripts/generate_docs.py", "from pyinfra.api import FactBase\nfrom pyinfra import operations\n", False),
    ("app/views.py", "# built with troposphere\nimport requests\n", False),
    ("app/tropo.py", "from troposphere_helpers import x\nimport pyinfra_extras\n", False),
])
def test_troposphere_and_pyinfra_programs_by_their_imports(path: str, text: str, iac: bool) -> None:
    found = iac_program(text.encode(), path)
    assert (found is not None and found.rule == "iac.content.iac-program") == iac, found


def test_troposphere_and_pyinfra_programs_in_repositories(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# lakerunner\n")
    git_repo.write("requirements.txt", "troposphere==4.10.1\ncfn-lint==1.49.3\n")
    git_repo.write("homelab/pyproject.toml", '[project]\nname = "homelab"\ndependencies = ["pyinfra>=3.5"]\n')
    git_repo.write("service/requirements.txt", "flask==3.0\n")
    git_repo.commit("base")
    git_repo.write("src/cardinal_cfn/infra_rds.py", _TROPOSPHERE_STACK)
    git_repo.write("tests/test_infra_rds.py", "from troposphere import Template\n\nassert Template\n")
    git_repo.write("homelab/deploys/ryzen.py", _PYINFRA_DEPLOY)
    git_repo.write("homelab/pyinfra_cli/main.py", _PYINFRA_OWN)
    git_repo.write("service/app.py", "from flask import Flask\n\napp = Flask(__name__)\n")
    git_repo.commit("head")
    want = {"src/cardinal_cfn/infra_rds.py": "iac", "tests/test_infra_rds.py": "src", "homelab/deploys/ryzen.py": "iac",
            "homelab/pyinfra_cli/main.py": "src", "service/app.py": "src"}
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {path: files[path].bucket for path in want} == want
        assert files["homelab/deploys/ryzen.py"].rule == "iac.content.iac-program"


def test_a_python_program_outside_any_manifest_naming_the_library_is_not_read(git_repo: GitRepo) -> None:
    """With the commits the imports are read only below a manifest that names the library (as for CDK and Pulumi):
    without one, the deploy keeps the path tier's bucket."""
    git_repo.write("requirements.txt", "requests==2.32\n")
    git_repo.commit("base")
    git_repo.write("deploys/ryzen.py", _PYINFRA_DEPLOY)
    git_repo.commit("head")
    assert tree_files(git_repo)["deploys/ryzen.py"].bucket == "src"


_STACK = '''resource "kubernetes_config_map" "registry" {
  metadata {
    name      = "registry-config"
    namespace = "registry"
  }
  data = {
    "config.yml" = templatefile("../../modules/docker-registry/config.yaml", { host = var.host })
  }
}
'''
_PACKER = '''source "amazon-ebs" "agent" {
  ami_name      = "agent-${local.stamp}"
  instance_type = "t3.small"
}

build {
  sources = ["source.amazon-ebs.agent"]
  provisioner "shell" {
    scripts = ["../provisioners/install-docker.sh", "${path.root}/../provisioners/harden-${var.os}.sh"]
  }
}
'''


def _estate(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "# estate\n")
    git_repo.write("stacks/infra/main.tf", _STACK)
    git_repo.write("modules/docker-registry/main.tf", 'variable "host" {}\n')
    git_repo.write("images/aws/agent.pkr.hcl", _PACKER)
    # a whole dbt project uploaded as bucket objects: application code the configuration deploys
    git_repo.write("stacks/composer/objects.tf", 'resource "google_storage_bucket_object" "dbt" {\n'
                   '  for_each = fileset("../../warehouse", "**")\n  name     = "data/${each.value}"\n'
                   '  source   = "../../warehouse/${each.value}"\n  bucket   = "composer"\n}\n')
    git_repo.commit("base")


def test_files_a_configuration_names_through_dotdot_from_a_folder_beside_them(
        git_repo: GitRepo, tmp_path: Path) -> None:
    _estate(git_repo)
    texts = {
        "modules/docker-registry/config.yaml": "version: 0.1\nstorage:\n  cache:\n    blobdescriptor: inmemory\n",
        "images/provisioners/install-docker.sh": "#!/bin/sh\napt-get install -y docker.io\n",
        "images/provisioners/harden-ubuntu.sh": "#!/bin/sh\nsysctl -w kernel.kptr_restrict=2\n",
        # look-alikes: beside the named files but named by nothing, and a name that only resembles one
        "modules/docker-registry/NOTES.md": "# registry notes\n",
        "images/provisioners/README.md": "# provisioners\n",
        "images/provisioners/install-docker.sh.orig": "#!/bin/sh\n",
        "docs/config.yaml": "site: estate\n",
        "warehouse/models/staging/stg_trips.sql": "select * from {{ source('gtfs', 'trips') }}\n",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    want = {"modules/docker-registry/config.yaml": "iac", "images/provisioners/install-docker.sh": "iac",
            "images/provisioners/harden-ubuntu.sh": "iac", "modules/docker-registry/NOTES.md": "src",
            "images/provisioners/README.md": "src", "images/provisioners/install-docker.sh.orig": "src",
            "docs/config.yaml": "src", "warehouse/models/staging/stg_trips.sql": "src"}
    assert {path: files[path].bucket for path in want} == want
    assert files["modules/docker-registry/config.yaml"].rule == "iac.context.terraform-file"
    assert "stacks/infra/main.tf: names modules/docker-registry/config.yaml (through ../)" in \
        files["modules/docker-registry/config.yaml"].evidence
    # a patch holds the changed files, not the configurations beside them: the path tier's bucket
    assert patch_files(git_repo, tmp_path)["modules/docker-registry/config.yaml"].bucket == "src"


def test_a_dotdot_above_the_root_names_nothing_and_a_large_tree_is_not_indexed(
        git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.write("main.tf", 'locals {\n  x = file("../outside/config.yaml")\n}\n')
    git_repo.write("a/main.tf", 'locals {\n  y = file("../../outside/config.yaml")\n}\n')
    _estate(git_repo)
    git_repo.write("outside/config.yaml", "x: 1\n")
    git_repo.write("modules/docker-registry/config.yaml", "version: 0.1\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["outside/config.yaml"].bucket == "src"
    assert files["modules/docker-registry/config.yaml"].bucket == "iac"
    monkeypatch.setattr(siblingrefs, "MAX_CONFIGURATIONS", 4)  # six configurations: past the bound, as before
    assert tree_files(git_repo)["modules/docker-registry/config.yaml"].bucket == "src"


@each_case(("path", "bucket", "rule"), [
    # helm-unittest snapshots: the rendered output a suite compares with
    ("charts/connect/tests/__snapshot__/hpa_test.yaml.snap", "src", "src.helm-unittest"),
    ("charts/keycloak-operator/tests/__snapshot__/operand_test.yaml.snap", "src", "src.helm-unittest"),
    ("mozcloud/application/tests/__snapshot__/preview_test.yaml.snap", "src", "src.helm-unittest"),
    # look-alikes: what a chart renders keeps its rule, and a .snap file outside a tests/ folder is no suite's
    ("charts/connect/templates/__snapshot__/hpa.yaml.snap", "iac", "iac.chart-templates"),
    ("charts/connect/values.snap", "iac", None),
])
def test_helm_unittest_snapshots_are_tests(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)
