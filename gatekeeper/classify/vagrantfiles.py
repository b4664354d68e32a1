"""The files a Vagrant machine's provisioning copies from the synced folder (the forty-eighth set,
tests/test_classify_fortyeighth_classes.py).

Vagrant mounts the folder holding the Vagrantfile at `/vagrant` inside every machine it boots, and the provisioning
scripts the Vagrantfile runs install files from it: `cp /vagrant/scripts/services/kafka.service /etc/systemd/system/`
in oracle/vagrant-projects' `OracleGoldenGate/19.3.0/scripts/install.sh`. The Vagrantfile is `iac` by its name, the
script by the Vagrantfile naming it (`iac.context.machine-file`); the unit file it installs was `src`, and an edit of
it changes the service every machine runs. A file a script, a playbook or a Vagrantfile below a folder holding a
Vagrantfile (in either tree) names by a `/vagrant/PATH` path is `iac` (`iac.context.vagrant-file`).

Found as heatfiles.py finds what Heat templates ship (its `Shipped`, rooted like the CDK's at a marker file): the
scripts in the folders above a changed file and directly inside those folders' sub-folders. The synced folder is the
Vagrantfile's folder unless the Vagrantfile says otherwise, so each folder from the script's own up to the root is
taken as its root (over-reading makes a file `iac`, a review). `/home/vagrant/...` and other paths that only end in
`/vagrant/` name nothing. A named folder ships every file below it (`cp -r /vagrant/units /etc/systemd/system/`,
`rsync -a /vagrant/config/nginx/ /etc/nginx/`: attack 30). *Limits:* a path built from a variable (`$SYNC/x`) or a
glob (`/vagrant/units/*.service`) is not expanded, and a synced folder mounted elsewhere (`config.vm.synced_folder
".", "/srv"`) is not read.
"""

from __future__ import annotations

from gatekeeper.classify.heatfiles import Shipper
from gatekeeper.classify.markers import against_ancestors
from gatekeeper.lazy_pattern import lazy

__all__ = ["RULE", "VAGRANT", "named"]

RULE = "iac.context.vagrant-file"
# The provisioning definitions read: shell and PowerShell scripts, Ansible playbooks, Puppet manifests and the
# Vagrantfile itself (its inline scripts).
_TYPES = (".sh", ".bash", ".ps1", ".yml", ".yaml", ".pp", "Vagrantfile")
# `/vagrant/` opening a path (not `/home/vagrant/`), then the path up to a shell or quoting character.
_SYNCED = lazy(r"""(?<![\w.~/-])/vagrant/([^\s"'`;|&<>(),\\]{1,300})""")
_EXPANDED = lazy(r"[$*?\[\]{}]")  # a variable or a glob: the shell builds the path, no file is named


def named(script: str, data: bytes) -> tuple[str, ...]:
    """The repository paths a provisioning script names below `/vagrant/`, against each folder from the script's own
    up to the root (the synced folder is the Vagrantfile's, somewhere above the script)."""
    out: list[str] = []
    for word in _SYNCED.findall(data.decode("utf-8", "replace")):
        word = word.rstrip(".:")
        if not word or _EXPANDED.search(word):
            continue
        out += against_ancestors(script, word)
    return tuple(dict.fromkeys(out))


VAGRANT = Shipper(RULE, _TYPES, named, "installs {path} from the machine's /vagrant synced folder",
                  "provisioning scripts of Vagrant projects near it read for the files they copy", root="Vagrantfile",
                  folders=True)
