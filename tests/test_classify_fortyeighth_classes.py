"""Classes of misses the forty-eighth label set showed (bench/classify_accuracy/fortyeighth.tsv), one test each: the
files a Vagrant machine's provisioning copies from its `/vagrant` synced folder (a systemd unit a script installs),
and a Puppet module whose classes all sit in sub-folders of `manifests/` (a profile module: its templates and files)."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.vagrantfiles import named
from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

# oracle/vagrant-projects' shape: a project folder with a Vagrantfile, its scripts and the unit files they install
_VAGRANTFILE = """Vagrant.configure("2") do |config|
  config.vm.box = "oraclelinux/8"
  config.vm.provision "shell", path: "scripts/install.sh"
end
"""
_INSTALL = """#!/bin/bash
sudo cp /vagrant/scripts/services/kafka.service /etc/systemd/system/
sudo cp "/vagrant/scripts/services/zookeeper.service" /etc/systemd/system/
install -m 0644 /vagrant/conf/app.properties /opt/app/
echo 'export PATH=$PATH' >> /home/vagrant/.bashrc
"""
_UNIT = "[Unit]\nDescription=Apache Kafka\n[Service]\nExecStart=/usr/local/kafka/bin/kafka-server-start.sh\n"


@each_case(("script", "text", "want"), [
    ("gg/scripts/install.sh", "cp /vagrant/scripts/services/kafka.service /etc/systemd/system/\n",
     {"gg/scripts/scripts/services/kafka.service", "gg/scripts/services/kafka.service",
      "scripts/services/kafka.service"}),
    # quoted, after `=`, and in an inline script of the Vagrantfile itself
    ("Vagrantfile", 'config.vm.provision "shell", inline: "cp /vagrant/units/a.service /etc/systemd/system/"\n',
     {"units/a.service"}),
    ("box/setup.sh", "CONF=/vagrant/conf/app.ini\n", {"box/conf/app.ini", "conf/app.ini"}),
    # look-alikes: a home folder, another root that ends in vagrant, a variable, a glob, a URL, a path leaving the tree
    ("setup.sh", "cat key.pub >> /home/vagrant/.ssh/authorized_keys\n", set()),
    ("setup.sh", "cp /opt/vagrant/embedded/cacert.pem /tmp/\n", set()),
    ("setup.sh", "cp /vagrant/$UNIT /etc/systemd/system/\n", set()),
    ("setup.sh", "cp /vagrant/units/*.service /etc/systemd/system/\n", set()),
    ("setup.sh", "curl -O https://example.org/vagrant/box.json\n", set()),
    ("setup.sh", "cp /vagrant/../../etc/passwd /tmp/\n", set()),
])
def test_what_a_provisioning_script_copies(script: str, text: str, want: set[str]) -> None:
    assert set(named(script, text.encode())) == want


def test_files_vagrant_provisioning_installs_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """A Vagrant project: the unit files and the settings its provisioning script copies from /vagrant are iac with
    the commits; a unit file of a project without a Vagrantfile, one no script names, and a document stay src."""
    git_repo.write("gg/19.3.0/Vagrantfile", _VAGRANTFILE)
    git_repo.write("gg/19.3.0/scripts/install.sh", _INSTALL)
    for path in ("gg/19.3.0/scripts/services/kafka.service", "gg/19.3.0/scripts/services/zookeeper.service",
                 "gg/19.3.0/scripts/services/unused.service", "packaging/systemd/app.service"):
        git_repo.write(path, _UNIT)
    git_repo.write("packaging/install.sh", "cp /vagrant/packaging/systemd/app.service /etc/systemd/system/\n")
    git_repo.write("gg/19.3.0/conf/app.properties", "port=9092\n")
    git_repo.write("gg/19.3.0/README.md", "# GoldenGate\n")
    git_repo.commit("base")
    changed = ("gg/19.3.0/scripts/services/kafka.service", "gg/19.3.0/scripts/services/zookeeper.service",
               "gg/19.3.0/scripts/services/unused.service", "packaging/systemd/app.service")
    for path in changed:
        git_repo.write(path, _UNIT.replace("Kafka", "Kafka broker"))
    git_repo.write("gg/19.3.0/conf/app.properties", "port=9093\n")
    git_repo.write("gg/19.3.0/README.md", "# GoldenGate on Vagrant\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    want = {"gg/19.3.0/scripts/services/kafka.service": "iac", "gg/19.3.0/scripts/services/zookeeper.service": "iac",
            "gg/19.3.0/conf/app.properties": "iac", "gg/19.3.0/scripts/services/unused.service": "src",
            "packaging/systemd/app.service": "src", "gg/19.3.0/README.md": "src"}
    assert {path: files[path].bucket for path in want} == want
    for path in ("gg/19.3.0/scripts/services/kafka.service", "gg/19.3.0/conf/app.properties"):
        assert files[path].rule == "iac.context.vagrant-file", files[path]
    assert "gg/19.3.0/scripts/install.sh" in files["gg/19.3.0/scripts/services/kafka.service"].evidence
    # from the patch alone no script is shown: nothing is raised by one
    patched = patch_files(git_repo, tmp_path)
    assert all(patched[path].rule != "iac.context.vagrant-file" for path in want), patched


def test_a_script_removed_with_its_unit_still_names_it(git_repo: GitRepo) -> None:
    """Either tree's scripts count: a change that deletes the provisioning script and edits the unit is reviewed."""
    git_repo.write("vm/Vagrantfile", _VAGRANTFILE)
    git_repo.write("vm/scripts/install.sh", _INSTALL)
    git_repo.write("vm/scripts/services/kafka.service", _UNIT)
    git_repo.commit("base")
    git_repo.git("rm", "-q", "vm/scripts/install.sh")
    git_repo.write("vm/scripts/services/kafka.service", _UNIT + "User=root\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["vm/scripts/services/kafka.service"].bucket == "iac", files["vm/scripts/services/kafka.service"]


# Icinga/icinga-vagrant's shape: a profiles module whose classes are all in sub-folders (profiles::icinga::web)
_PROFILE = "class profiles::icinga::web {\n  file { '/etc/icingaweb2/config.ini':\n" \
           "    content => template('profiles/icinga/web/config.ini.erb'),\n  }\n}\n"


def test_a_puppet_module_with_classes_only_in_sub_folders(git_repo: GitRepo) -> None:
    """`manifests/<area>/<class>.pp` makes its folder a Puppet module: its templates and files are iac; a folder
    named manifests holding no Puppet code, and a module's spec/, are not claimed."""
    git_repo.write(".puppet/modules/profiles/manifests/icinga/web.pp", _PROFILE)
    git_repo.write(".puppet/modules/profiles/templates/icinga/web/config.ini.erb", "[global]\nshow = 0\n")
    git_repo.write(".puppet/modules/profiles/files/motd", "welcome\n")
    git_repo.write(".puppet/modules/profiles/spec/classes/web_spec.rb", "describe 'profiles::icinga::web' do\nend\n")
    git_repo.write("app/manifests/icons/list.json", '{"icons": []}\n')
    git_repo.write("app/templates/page.erb", "<p><%= @title %></p>\n")
    git_repo.commit("base")
    edits = {".puppet/modules/profiles/templates/icinga/web/config.ini.erb": "[global]\nshow = 1\n",
             ".puppet/modules/profiles/files/motd": "hello\n",
             ".puppet/modules/profiles/spec/classes/web_spec.rb": "describe 'profiles::icinga::web' do\n  it {}\nend\n",
             "app/templates/page.erb": "<h1><%= @title %></h1>\n"}
    for path, text in edits.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    want = {".puppet/modules/profiles/templates/icinga/web/config.ini.erb": "iac",
            ".puppet/modules/profiles/files/motd": "iac", ".puppet/modules/profiles/spec/classes/web_spec.rb": "src",
            "app/templates/page.erb": "src"}
    assert {path: files[path].bucket for path in want} == want
    assert files[".puppet/modules/profiles/files/motd"].rule == "iac.marker.puppet-module"
