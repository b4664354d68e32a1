"""Classes of misses a nineteenth label set found (bench/classify_accuracy/nineteenth.tsv: 61 repositories weighted
to infrastructure), measured blind first, each with the look-alikes it must leave alone: a Dockerfile's RUN whose
comment lines sit between its continuation lines (Docker drops them; the parser ended the RUN at the first), packaged
archives by their first member (a chart packed by `helm package` is `iac`, an npm package packed by `npm pack` is
`deps`, any other archive stays `other`), the files a Vagrantfile or a Test Kitchen file names (its settings, a
Vagrant block), a Puppet module without an `init.pp` (a control repository's profile module), test code by its test
runner's name below a top-level infrastructure folder and a test's keys, the pipeline scripts of Azure's module
libraries (`utilities/pipelines/`), and names that are `other` (Probot apps' settings in `.github/`, Regal's folder,
PDK's settings, Gradle's project cache). The real repository below checks them with the commits."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

from tables import each_case

from gatekeeper.classify.archives import packaged
from gatekeeper.classify.dockerrefs import run_scripts
from gatekeeper.classify.tfrefs import is_machine_definition
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # test code by its runner's name, also below a top-level infrastructure folder; what it tests stays iac
    ("charts/k8s-metacollector/tests/unit/serviceAccountTemplate_test.go", "src"),
    ("deploy/lib/updateDeployment.test.js", "src"), ("terraform/test/vpc_test.go", "src"),
    ("infra/test/stack.test.ts", "src"), ("deploy/lib/updateDeployment.js", "iac"),
    ("charts/app/templates/deployment.yaml", "iac"), (".github/workflows/tests/check.test.js", "ci"),
    # a test's keys and certificates; a deployment's own stay where their folder puts them
    ("deploy/tests/e2e/tls-auth/client-certs/wrong.key", "src"), ("deploy/certs/ca.crt", "iac"),
    # the pipeline scripts of CARML and Azure Verified Modules
    ("utilities/pipelines/resourceRemoval/helper/Invoke-ResourceRemoval.ps1", "ci"),
    ("avm/utilities/pipelines/sharedScripts/Set-EnvironmentOnAgent.ps1", "ci"), ("utilities/tools/Format.ps1", "src"),
    # Probot apps' settings in .github/ are other; a workflow of the same name is ci
    (".github/lock.yml", "other"), (".github/no-response.yml", "other"), (".github/workflows/lock.yml", "ci"),
    # other by name: Regal's folder, PDK's settings, Gradle's project cache (its build scripts stay deps)
    (".regal/config.yaml", "other"), ("pdk.yaml", "other"),
    ("examples/java-gradle-8/.gradle/8.2.1/executionHistory/executionHistory.lock", "other"),
    ("examples/java-gradle-8/build.gradle", "deps"),
])
def test_path_rules_of_the_nineteenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


MODULES_DOCKERFILE = """\
FROM nginx:mainline AS builder
COPY ./ /modules/
RUN for module in $ENABLED_MODULES; do \\
        if [ -d /modules/$module ]; then \\
            # if a module has a build dependency that is not in a distro, provide a
            # shell script to fetch/build/install those

            if [ -x /modules/$module/prebuild ]; then \\
                /modules/$module/prebuild; \\
            fi; \\
        fi; \\
    done
"""


def test_comment_and_blank_lines_inside_a_run_do_not_end_it() -> None:
    found, wild = run_scripts("modules", MODULES_DOCKERFILE)
    assert ("/modules/$…/prebuild", "modules", "prebuild") in wild, (found, wild)
    # a comment between instructions still separates nothing, and a RUN that ended is not continued by the next line
    found, _ = run_scripts("", "FROM alpine\nCOPY a.sh /a.sh\n# note\nRUN /a.sh\nCOPY b.sh /b.sh\n")
    assert found == {"a.sh"}


def _tgz(members: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


CHART_TGZ = _tgz({"falco-talon/Chart.yaml": b"apiVersion: v2\nname: falco-talon\nversion: 0.4.0\n",
                  "falco-talon/values.yaml": b"replicaCount: 2\n"})
NPM_TGZ = _tgz({"package/LICENSE": b"MIT\n" * 300, "package/package.json": b'{"name": "blueprints"}\n'})
# look-alikes: an archive of a chart repository's folder (Chart.yaml two folders deep), a test's data archive
NESTED_TGZ = _tgz({"charts/web/Chart.yaml": b"apiVersion: v2\n"})
DATA_TGZ = _tgz({"data/prices.csv": b"a,b\n1,2\n"})


def test_packaged_archives_by_their_first_members() -> None:
    chart = packaged(CHART_TGZ)
    assert chart is not None and (chart.bucket, chart.rule) == ("iac", "iac.content.packaged-chart")
    npm = packaged(NPM_TGZ)
    assert npm is not None and (npm.bucket, npm.rule) == ("deps", "deps.content.packed-npm-package")
    for data in (NESTED_TGZ, DATA_TGZ, b"\x1f\x8b" + b"\0" * 64, b"PK\x03\x04 a zip", CHART_TGZ[:20]):
        assert packaged(data) is None
    # a hostile head inflates no further than the bound and names nothing
    assert packaged(gzip.compress(b"\0" * (1 << 20))) is None


@each_case(("path", "machine"), [
    ("Vagrantfile", True), ("rancher/vagrant/Vagrantfile", True), (".kitchen.vagrant.yml", True),
    ("kitchen.dokken.yml", True), ("kitchen.yml", True),
    ("Vagrantfile.md", False), ("kitchen/config.yml", False), ("kitchenette.yml", False),
])
def test_the_machine_definitions_by_name(path: str, machine: bool) -> None:
    assert is_machine_definition(path) is machine


VAGRANTFILE = """\
require 'yaml'
x = YAML.load_file(File.join(File.dirname(__FILE__), 'config.yaml'))
Vagrant.configure("2") do |config|
  config.vm.box = "opensuse/Leap-15.2.x86_64"
  config.vm.provision "shell", path: "scripts/bootstrap.sh"
end
"""
KITCHEN = """\
driver:
  name: vagrant
  vagrantfiles:
    - kitchen_vagrant_block.rb
provisioner:
  name: ansible_playbook
  playbook: default.yml
platforms:
  - name: ubuntu-22.04
"""
PROFILE = "class profile::mirror {\n  file { '/srv/sync.sh': content => template('profile/sync.sh.erb') }\n}\n"


def test_the_nineteenth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# lab\n")
    git_repo.commit("base")
    want = {
        "falco-talon-0.4.0.tgz": "iac", "vendor/blueprints-1.13.1.tgz": "deps", "assets/data.tgz": "other",
        "modules/Dockerfile": "iac", "modules/echo/prebuild": "iac", "modules/echo/notes": "src",
        "rancher/vagrant/Vagrantfile": "iac", "rancher/vagrant/config.yaml": "iac",
        "rancher/vagrant/scripts/bootstrap.sh": "iac", "rancher/vagrant/other.yaml": "src",
        ".kitchen.vagrant.yml": "iac", "kitchen_vagrant_block.rb": "iac", "default.yml": "iac", "tools.rb": "src",
        "dist/profile/manifests/mirror.pp": "iac", "dist/profile/templates/sync.sh.erb": "iac",
        "dist/profile/README.md": "src", "dist/tools/sync.sh.erb": "src",
    }
    texts: dict[str, bytes | str] = {
        "falco-talon-0.4.0.tgz": CHART_TGZ, "vendor/blueprints-1.13.1.tgz": NPM_TGZ, "assets/data.tgz": DATA_TGZ,
        "modules/Dockerfile": MODULES_DOCKERFILE, "modules/echo/prebuild": "#!/bin/sh\nexit 0\n",
        "modules/echo/notes": "notes\n", "rancher/vagrant/Vagrantfile": VAGRANTFILE,
        "rancher/vagrant/config.yaml": "admin_password: adminPassword\nserver:\n  cpus: 2\n",
        "rancher/vagrant/scripts/bootstrap.sh": "#!/bin/sh\nzypper in -y docker\n",
        "rancher/vagrant/other.yaml": "title: notes\n", ".kitchen.vagrant.yml": KITCHEN,
        "kitchen_vagrant_block.rb": "Vagrant.configure(2) do |config|\nend\n",
        "default.yml": "- hosts: all\n  roles:\n    - ssh-hardening\n", "tools.rb": "puts 'hello'\n",
        "dist/profile/manifests/mirror.pp": PROFILE,
        "dist/profile/templates/sync.sh.erb": "#!/bin/sh\nrsync <%= @a %>\n",
        "dist/profile/README.md": "# profile\n", "dist/tools/sync.sh.erb": "#!/bin/sh\necho <%= @b %>\n",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["falco-talon-0.4.0.tgz"].rule == "iac.content.packaged-chart"
    assert files["rancher/vagrant/config.yaml"].rule == "iac.context.machine-file"
    assert files["modules/echo/prebuild"].rule == "iac.context.dockerfile-script"
    # from the patch alone the Vagrantfile and the Dockerfile the patch adds name their files too
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in ("modules/echo/prebuild", "rancher/vagrant/config.yaml",
                                                     "kitchen_vagrant_block.rb")} == {
        "modules/echo/prebuild": "iac", "rancher/vagrant/config.yaml": "iac", "kitchen_vagrant_block.rb": "iac"}
    # a later change of the settings alone: the Vagrantfile that loads them is read from the trees
    git_repo.write("rancher/vagrant/config.yaml", "admin_password: other\n")
    git_repo.commit("edit")
    assert tree_files(git_repo)["rancher/vagrant/config.yaml"].bucket == "iac"
