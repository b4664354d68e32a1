"""Classes of misses an eleventh label set found (bench/classify_accuracy/eleventh.tsv: 59 repositories none of the
other sets holds, measured blind first), each with the look-alikes it must leave alone: test fixtures kept in a
singular `fixture/`, Codeception's `tests/_data/` and `test_resources/` folders, helm-unittest suites in sub-folders
of `unittests/` (and quoting template actions), Vagrantfiles under other names, Google Cloud blueprint metadata
(Kubernetes-shaped, never applied), a `setup.cfg` that holds only tool settings, Hugo's and pip's `_vendor/`
folders, Buf's lock file, ROS packages' package.xml, Packer variables kept as copies to fill in, chart-releaser's
settings, and the settings of server applications and developer tools.
The real repositories below check them with the commits and, where a patch can show it, from the patch alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # a singular fixture/ folder and Codeception's _data/ inside test trees are test data, as fixtures/ is
    ("test/fixture/node_modules/@fixture/lib/package.json", "src"), ("test/fixture/wrangler.toml", "iac"),
    ("packages/app/tests/fixture/Dockerfile", "iac"), ("tests/_data/.gitignore", "src"),
    ("tests/_data/dump.sql", "src"), ("tests/test_resources/cwp/Jenkinsfile", "ci"),
    # ... but not outside a test tree, and never inside a CI folder (principle 0)
    ("fixture/Dockerfile", "iac"), ("src/_data/seed.yaml", "src"), ("_data/rules.yml", "src"),
    # ansible-test's own package data is no test data: the requirements it installs stay deps
    ("test/lib/ansible_test/_data/requirements/sanity.integration-aliases.in", "deps"),
    (".github/workflows/test_resources/x.yml", "ci"), (".github/actions/a/test_resources/action.yml", "ci"),
    ("Jenkinsfile", "ci"), ("docker/fixture.yaml", "src"),
    # helm-unittest suites at any depth below unittests/ or tests/ (the chart's templates/tests/ are hooks)
    ("charts/common/test-chart/unittests/ingress/field_hosts_host_test.yaml", "src"),
    ("charts/web/tests/env/values_test.yaml", "src"), ("charts/web/templates/tests/conn_test.yaml", "iac"),
    # Packer variables (any HCL) kept as a copy to fill in, like terraform.tfvars.example
    ("builds/build.pkrvars.hcl.example", "iac"), ("builds/vsphere.pkrvars.hcl.sample", "iac"),
    ("terragrunt.hcl.template", "iac"), ("docs/hcl.example.md", "src"),
    # Buf's lock file; vendored code in Hugo's and pip's _vendor/ folders
    ("proto/buf.lock", "deps"), ("docs/_vendor/github.com/imfing/hextra/layouts/llms.txt", "deps"),
    ("src/pip/_vendor/requests/api.py", "deps"), (".github/workflows/_vendor/x.yml", "ci"),
    ("src/vendor_helpers.py", "src"),
    # a ROS (catkin/ament) or PEAR package.xml declares the package's dependencies
    ("examples/tools/ros/rosenv/workspace/str_printer/package.xml", "deps"), ("package.xml", "deps"),
    ("docs/package.xml.md", "src"), ("src/package_xml.py", "src"),
    # chart-releaser's settings at the root: the release job signs and publishes with them
    ("cr.yaml", "ci"), (".cr.yaml", "ci"), ("pkg/cr.yaml", "src"),
    # settings of server applications deployed or baked into images, and of developer tools
    ("examples/Caddyfile", "other"), ("hatchbox/Caddyfile", "other"), ("docker/site.caddyfile", "other"),
    ("priv/jit/postgres/pg_hba.conf", "other"), ("scripts/dockers/grafana-init/grafana.ini", "other"),
    ("roles/web/templates/Caddyfile.j2", "iac"), ("charts/web/templates/Caddyfile", "iac"),
    ("templates/pg_hba.conf.j2", "src"), ("src/caddyfile.go", "src"), (".github/Caddyfile", "ci"),
    (".ps-rule/UnsupportedPipBastion.Rule.yaml", "other"), ("ps-rule.yaml", "other"), ("tbump.toml", "other"),
    ("nest-cli.json", "other"), ("backend/.nestcli.json", "other"), ("tools/templates/yamllint-config.yaml", "other"),
    ("dev-docs/static/.nojekyll", "other"),
])
def test_path_rules_of_the_eleventh_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


# -- content ----------------------------------------------------------------------------------------------------

VAGRANT_TEMPLATE = """\
Vagrant.configure(2) do |config|
  config.vm.box = "lavabit/magma-ubuntu1604"
  config.vm.provider :libvirt do |v, override|
    v.memory = 2048
  end
end
"""
LEGACY_VAGRANT = 'Vagrant::Config.run do |config|\n  config.vm.box = "lucid32"\nend\n'
VAGRANT_MENTION = "Use Vagrant.configure to describe machines; see the Vagrant docs.\nconfig.vm.box is the box.\n"
SUITE = """\
suite: ingress - fields - hosts - host
templates:
  - common.yaml
tests:
  - it: host with template should pass
    set:
      ingress.main:
        hosts:
          - host: "{{ .Release.Name }}.hostname"
    asserts:
      - equal:
          path: spec.rules[0].host
          value: release-name.hostname
"""
FRAGMENT = "{{- range .Values.hosts }}\n- host: {{ . | quote }}\n{{- end }}\n"  # a template, not a suite
TEMPLATE = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ include "web.fullname" . }}\n'
BLUEPRINT = """\
apiVersion: blueprints.cloud.google.com/v1alpha1
kind: BlueprintMetadata
metadata:
  name: terraform-google-network-display
  annotations:
    config.kubernetes.io/local-config: "true"
spec:
  info:
    title: Terraform Network Module
"""
CONFIG_CONNECTOR = """\
apiVersion: compute.cnrm.cloud.google.com/v1beta1
kind: ComputeNetwork
metadata:
  name: vpc
spec:
  routingMode: REGIONAL
"""


@each_case(("path", "text", "rule"), [
    ("check/magma-ubuntu1604.tpl", VAGRANT_TEMPLATE, "iac.content.vagrant"),
    ("boxes/legacy", LEGACY_VAGRANT, "iac.content.vagrant"),
    ("charts/common/test-chart/unittests/ingress/host_test.yaml", FRAGMENT, "iac.content.helm-template"),
    ("deploy/network.yaml", CONFIG_CONNECTOR, "iac.content.kubernetes"),
    ("metadata.display.yaml", BLUEPRINT, "other.content.blueprint-metadata"),
])
def test_content_signals_of_the_eleventh_round(path: str, text: str, rule: str) -> None:
    signal = sniff(path, text.encode(), RULES.context, as_yaml=True)
    assert signal is not None and signal.rule == rule, signal


@pytest.mark.parametrize(("path", "text"), [
    ("docs/vagrant.txt", VAGRANT_MENTION), ("charts/common/test-chart/unittests/ingress/host_test.yaml", SUITE),
])
def test_look_alikes_of_the_eleventh_round_say_nothing(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context, as_yaml=True)
    assert signal is None or signal.bucket not in ("ci", "iac"), signal


def test_blueprint_metadata_beside_a_module_is_not_infrastructure(git_repo: GitRepo) -> None:
    git_repo.write("main.tf", 'resource "google_compute_network" "vpc" {\n  name = var.name\n}\n')
    git_repo.write("metadata.yaml", BLUEPRINT.replace("-display", ""))
    git_repo.commit("base")
    git_repo.write("metadata.display.yaml", BLUEPRINT)
    git_repo.write("metadata.yaml", BLUEPRINT.replace("-display", "") + "    version: 9.0.0\n")
    git_repo.write("config-connector/vpc.yaml", CONFIG_CONNECTOR)
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert files["metadata.display.yaml"].bucket == "other", files["metadata.display.yaml"]
    assert files["metadata.yaml"].bucket == "other", files["metadata.yaml"]
    assert files["config-connector/vpc.yaml"].bucket == "iac"


def test_a_vagrantfile_under_another_name_is_iac(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("robox.sh", "#!/bin/bash\npacker build generic-libvirt.json\n")
    git_repo.commit("base")
    git_repo.write("check/magma-ubuntu1604.tpl", VAGRANT_TEMPLATE)
    git_repo.write("check/README.txt", VAGRANT_MENTION)
    git_repo.commit("change")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert files["check/magma-ubuntu1604.tpl"].rule == "iac.content.vagrant", files["check/magma-ubuntu1604.tpl"]
        assert files["check/README.txt"].bucket == "src"


def test_a_helm_unittest_suite_quoting_template_actions_stays_a_test(git_repo: GitRepo) -> None:
    chart = "charts/library/common/test-chart"
    git_repo.write(f"{chart}/Chart.yaml", "apiVersion: v2\nname: common-test\nversion: 1.0.0\n")
    git_repo.write(f"{chart}/templates/common.yaml", '{{ include "bjw-s.common.loader.all" . }}\n')
    git_repo.commit("base")
    git_repo.write(f"{chart}/unittests/ingress/host_test.yaml", SUITE)
    git_repo.write(f"{chart}/templates/service.yaml", TEMPLATE)
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert files[f"{chart}/unittests/ingress/host_test.yaml"].bucket == "src"
    assert files[f"{chart}/templates/service.yaml"].bucket == "iac"


# -- a setup.cfg that holds only tool settings ------------------------------------------------------------------

TOOLS_CFG = """\
[coverage:run]
branch = True
omit =
    manage.py

[flake8]
exclude = migrations
max-line-length = 88

[metadata]
license-file = LICENSE.md

[isort]
profile = black

[tool:pytest]
addopts = -p no:warnings
"""
PACKAGE_CFG = """\
[metadata]
name = storefront
version = 1.4.2

[options]
packages = find:
install_requires =
    requests>=2.31

[flake8]
max-line-length = 88
"""


def test_a_setup_cfg_of_tool_settings_is_other_with_the_commits(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("setup.cfg", TOOLS_CFG)
    git_repo.write("lib/setup.cfg", TOOLS_CFG)
    git_repo.commit("base")
    git_repo.write("setup.cfg", TOOLS_CFG + "\n[mypy]\nstrict = True\n")
    git_repo.write("lib/setup.cfg", PACKAGE_CFG)  # the change turns the tool settings into packaging
    git_repo.write("pkg/setup.cfg", PACKAGE_CFG.replace("[flake8]", "[isort]"))
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert (files["setup.cfg"].bucket, files["setup.cfg"].rule) == ("other", "other.content.setup-cfg-tools")
    assert files["lib/setup.cfg"].bucket == "deps"  # every side must prove it: the head names a package
    assert files["pkg/setup.cfg"].bucket == "deps"
    # a patch's hunks are never proof: from the patch alone every setup.cfg stays deps
    assert {files.bucket for files in patch_files(git_repo, tmp_path).values()} == {"deps"}


def test_a_long_setup_cfg_is_not_judged_by_its_head(git_repo: GitRepo) -> None:
    padding = "".join(f"[flake8:local-plugins-{n}]\nextension = X{n} = x{n}:X\n" for n in range(400))
    git_repo.write("README.md", "# app\n")
    git_repo.commit("base")
    git_repo.write("setup.cfg", TOOLS_CFG + padding + "[options]\ninstall_requires = requests\n")
    git_repo.commit("change")
    assert tree_files(git_repo)["setup.cfg"].bucket == "deps"


def test_the_suite_guard_stays_linear_on_hostile_input() -> None:
    # thousands of `suite:` lines and no `tests:` after them, behind a template action: one pass, not one per line
    text = '{{ .Values.x }}\n' + "suite:\n" * 9000
    signal = sniff("charts/x/unittests/a_test.yaml", text.encode(), RULES.context)
    assert signal is not None and signal.rule == "iac.content.helm-template"
