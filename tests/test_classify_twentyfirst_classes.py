"""Classes of misses a twenty-first label set found (bench/classify_accuracy/twentyfirst.tsv: 60 repositories weighted
to infrastructure under ordinary names, measured blind first), each with the look-alikes it must leave alone: CircleCI
1.0's root `circle.yml` (ci), Jenkins X's Lighthouse schedulers by their API group and kind (ci; the same group's
secret schemas stay iac), OS installer answer files by the names installers read (preseed, kickstart, AutoYaST,
FreeBSD's `installerconfig`, OpenBSD's autoinstall answers; a generic `install.conf` only below `http/`), Helm values
named `*-values.yaml`, a Packer template kept in a `templates/` folder (the folder above it is the image's root: the
scripts, assets and toolsets beside `templates/`), a salt-formulas formula's reclass classes (`metadata/service/`),
ChefSpec's `spec/` inside a cookbook (src, not the cookbook), and names
that are `other` (a committed virtualenv's `pyvenv.cfg`, dotagents' `agents.toml` and `agents.lock`). The real
repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # CircleCI 1.0 read a root circle.yml; anywhere else the name is nobody's configuration
    ("circle.yml", "ci"), ("docs/examples/circle.yml", "src"), (".circleci/config.yml", "ci"),
    # installers' answer files by the names the installers read
    ("http/preseed.cfg", "iac"), ("debian11/http/preseed-desktop.cfg", "iac"), ("kickstart/ks.cfg", "iac"),
    ("http/rhel/centos7-ks.cfg", "iac"), ("http/fedora.ks", "iac"), ("http/sles/autoinst.xml", "iac"),
    ("http/freebsd-11.1/installerconfig", "iac"), ("openbsd/auto_install.conf", "iac"),
    ("http/openbsd-6.1/install.conf", "iac"), ("packer/http/openbsd/install.conf", "iac"),
    # a generic install.conf outside an http/ folder, and names that merely contain the words, are not
    ("install.conf", "src"), ("etc/install.conf", "src"), ("conf/hooks.cfg", "src"), ("docs/preseed.md", "src"),
    # Helm values by the *-values.yaml convention (chart CI values, Flux HelmRelease values, homelab releases)
    ("certmanager/prod/helm/helm-values.yaml", "iac"), ("apps/production/podinfo-values.yaml", "iac"),
    ("charts/kong/ci/certificates-enabled-values.yaml", "iac"),
    # ... but a test's fixture named so stays test data
    ("test/fixtures/vault-values.yaml", "iac"), ("values.md", "src"),
    # ... and a developer script's sample values in hack/ stay src, as the scripts there are
    ("hack/migrate/sample-v40-values.yaml", "src"), ("charts/traefik/values.yaml", "iac"),
    # a salt-formulas formula's reclass classes at its root
    ("metadata/service/system/cis/cis-1-1-1-6.yml", "iac"), ("metadata/service/server/single.yml", "iac"),
    ("docs/metadata/service/notes.yml", "src"), ("metadata/service/README.md", "src"),
    # other by name
    ("flask-docker-app/pyvenv.cfg", "other"), ("pyvenv.cfg", "other"), ("agents.toml", "other"),
    ("agents.lock", "other"), ("pkg/agents.toml", "src"),
])
def test_path_rules_of_the_twenty_first_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_dotagents_settings_carry_the_guardrail_tag() -> None:
    assert "guardrail" in RULES.match("agents.toml").tags


SCHEDULER = """apiVersion: gitops.jenkins-x.io/v1alpha1
kind: Scheduler
metadata:
  name: environment
spec:
  approve:
    lgtm_acts_as_approve: true
  merger:
    merge_method: merge
"""
SECRET_SCHEMA = """apiVersion: gitops.jenkins-x.io/v1alpha1
kind: Schema
spec:
  objects:
  - name: jenkins-x-bucketrepo
    mandatory: true
"""
LIGHTHOUSE_JOB = """apiVersion: lighthouse.jenkins.io/v1alpha1
kind: LighthouseJob
metadata:
  name: pr-42-build
spec:
  type: presubmit
  job: build
"""


@each_case(("name", "text", "bucket"), [
    ("schedulers/environment.yaml", SCHEDULER, "ci"), ("config/job.yaml", LIGHTHOUSE_JOB, "ci"),
    ("charts/jxgh/bucketrepo/secret-schema.yaml", SECRET_SCHEMA, "iac"),
])
def test_jenkins_x_objects_by_group_and_kind(name: str, text: str, bucket: str) -> None:
    found = sniff(name, text.encode(), RULES.context)
    assert found is not None and found.bucket == bucket, found


PACKER_TEMPLATE = """build {
  sources = ["source.azure-arm.image"]
  provisioner "shell" {
    scripts = ["${path.root}/../scripts/build/configure-snap.sh"]
  }
  provisioner "file" {
    source      = "${path.root}/../assets/bootstrap/change_password"
    destination = "/tmp/"
  }
}
"""


def test_the_twenty_first_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# estate\n")
    git_repo.commit("base")
    texts = {
        # a Packer template in templates/ builds from scripts/, assets/ and toolsets/ beside it
        "images/ubuntu/templates/build.ubuntu.pkr.hcl": PACKER_TEMPLATE,
        "images/ubuntu/scripts/build/configure-snap.sh": "#!/bin/bash -e\nsnap set system refresh.hold=now\n",
        "images/ubuntu/assets/bootstrap/change_password": "#!/bin/bash\nsysadminctl -resetPasswordFor \"$1\"\n",
        "images/ubuntu/toolsets/toolset-2404.json": '{"xcode": {"default": "16"}}\n',
        "images/ubuntu/README.md": "# Ubuntu image\n",
        # ... and a template folder that holds no Packer template claims nothing above it
        "site/templates/page.html": "<html></html>\n",
        "site/scripts/build.sh": "#!/bin/sh\nhugo\n",
        # ChefSpec's spec/ inside a cookbook is the cookbook's tests; its recipes stay iac
        "ops/nginx/recipes/default.rb": "package 'nginx'\n",
        "ops/nginx/attributes/default.rb": "default['nginx']['port'] = 80\n",
        "ops/nginx/spec/spec_helper.rb": "require 'chefspec'\nrequire 'chefspec/berkshelf'\n",
        "ops/nginx/spec/recipes/default_spec.rb": "describe 'nginx::default' do\nend\n",
        # Lighthouse's scheduler in an ordinary folder
        "schedulers/environment.yaml": SCHEDULER,
    }
    want = {
        "images/ubuntu/scripts/build/configure-snap.sh": "iac", "images/ubuntu/assets/bootstrap/change_password": "iac",
        "images/ubuntu/toolsets/toolset-2404.json": "iac", "images/ubuntu/README.md": "src",
        "site/templates/page.html": "src", "site/scripts/build.sh": "src",
        "ops/nginx/recipes/default.rb": "iac", "ops/nginx/attributes/default.rb": "iac",
        "ops/nginx/spec/spec_helper.rb": "src", "ops/nginx/spec/recipes/default_spec.rb": "src",
        "schedulers/environment.yaml": "ci",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["images/ubuntu/scripts/build/configure-snap.sh"].rule == "iac.marker.packer-scripts"
    assert files["images/ubuntu/toolsets/toolset-2404.json"].rule == "iac.marker.packer"
    # the patch adds every file whole: the same markers are in the patch's own paths
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
