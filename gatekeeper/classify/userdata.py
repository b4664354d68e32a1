"""The scripts a server's user data runs from a clone of this repository (misses 7).

A CloudFormation `UserData` (kraigh/minecraft-hibernated-server's `cloudformation/*.yaml`), an inline Heat
`user_data` or a cloud-config's `runcmd` that clones the repository onto the instance and then runs one of its
scripts (`git clone https://github.com/o/r.git /opt/mc && cd /opt/mc && ./scripts/server/setup-server.sh`) makes that
script the server's provisioning: `iac`, as a CodeDeploy hook's script (`iac.context.deploy-hook`; principle:
what configures a machine a template creates is infrastructure). Its paths are the clone's, so from the repository's
root (not the template's folder): a relative command path, or an absolute one below the clone's folder (`bash
/srv/app/deploy/bootstrap.sh`, the folder `git clone URL DIR` names or the URL's last part). Without a `git clone`
the user data's paths are the image's own files and name nothing. Found as heatfiles.py finds what Heat templates
ship (heatfiles.Shipped: the YAML and `.template` files near a changed file; not JSON); a template longer than read
counts as naming every file near it (heatfiles.PAST). Not followed: what the script in turn copies onto the server
(its systemd units, configuration), which needs the script's text.
"""

from __future__ import annotations

import re

from gatekeeper.classify import ciruns
from gatekeeper.classify.codedeployhooks import RULE
from gatekeeper.classify.heatfiles import PAST, Shipper
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["USER_DATA", "ran"]

_TYPES = (".yaml", ".yml", ".template")  # Heat's: JSON templates are left out (each counts to MAX_READS)
# where user data starts: CloudFormation's `UserData`, Heat's `user_data`, cloud-init's `runcmd`
_START = lazy(r"""["']?(?:UserData|user_data|runcmd)["']?[ \t]*+:""")
_CLONE = lazy(r"(?<![\w-])git[ \t]++clone(?:[ \t]++-[-\w=]++(?:[ \t]++[0-9]++)?+)*+[ \t]++['\"]?+([^\s'\"]++)['\"]?+"
              r"(?:[ \t]++['\"]?+([^\s'\";&|\\]++))?")  # `?`, not `?+`: a group in a possessive repeat (3.11)


def ran(template: str, data: bytes) -> tuple[str, ...]:
    """The repository paths the user data of the template at `template` runs from its clone (module docstring)."""
    head = data[:FULL_READ].decode("utf-8", "replace")
    start = _START.search(head)
    if start is None or "clone" not in head:
        return ()
    text = head[start.end():]
    clones = [(folder or url.rstrip("/").rpartition("/")[2].removesuffix(".git")).rstrip("/")
              for url, folder in _CLONE.findall(text)]
    clones = [folder for folder in clones if folder and "$" not in folder]
    if not clones:
        return ()
    for folder in sorted(clones, key=len, reverse=True):  # its absolute paths as the clone's own
        text = re.sub(rf"(?<![\w.-]){re.escape(folder)}/", "./", text)
    scripts, _composed, folders = ciruns.named(text)
    cloned = {folder.strip("/").rpartition("/")[2] for folder in clones}
    out = [path for pattern in scripts if ciruns.ANY not in pattern and (path := pattern.removeprefix("./"))
           and path != template and not path.startswith(("../", "/"))]
    out += [f"{folder}/{path}" for folder in folders if folder not in cloned and ciruns.ANY not in folder
            and not folder.startswith(("/", "."))
            for path in list(out)]
    past = (PAST,) if len(data) > FULL_READ else ()
    return tuple(dict.fromkeys(out)) + past


USER_DATA = Shipper(RULE, _TYPES, ran, "runs {path} on the server it creates (user data run from a clone)",
                    "templates near it read for the scripts their user data runs from a clone")
