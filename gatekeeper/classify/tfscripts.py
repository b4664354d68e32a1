"""Scripts a Terraform configuration runs by path: a `local-exec` provisioner, an external data source, a Terragrunt
hook or a Packer HCL provisioner names the script it executes.

A module's helper script (`modules/kube-audit/scripts/confirm-rollout-status.sh`) is plain shell: neither its name
nor its content says infrastructure. What does is the `.tf` file beside it, or in the folder above, whose
`command = "${path.module}/scripts/confirm-rollout-status.sh ..."` runs it on every apply with the credentials of
the apply. The configurations are read only where such a script changes, in its own folder and the one above (the
module's root and its `scripts/` folder), as Concourse task definitions are (tasks.py).
"""

from __future__ import annotations

import re

from gatekeeper.classify.markers import extension

CONFIGURATION_EXTENSIONS = frozenset({"tf", "tofu", "hcl"})  # Terraform, OpenTofu, Terragrunt and Packer HCL
# Characters a reference to the script starts after: a path separator (`${path.module}/`, `./`), a quote, or
# blank space in a command line; and what may follow it: the end of the string, an argument, a closing bracket.
_BEFORE = frozenset("/\"' \t=([,")
_AFTER = re.compile(r"""[\s"'),\]}]|\Z""")
# Occurrences of the script's name looked at per configuration: past this many, the file counts as naming it (the
# careful answer: iac), so that a configuration repeating the name cannot make the search slow.
MAX_OCCURRENCES = 256


def is_configuration(path: str) -> bool:
    """A Terraform, OpenTofu, Terragrunt or Packer HCL file, which may run a script by path."""
    return extension(path.rpartition("/")[2]) in CONFIGURATION_EXTENSIONS


def named_by(configuration_path: str, text: str, script_path: str) -> str | None:
    """The line of `text` (the configuration at `configuration_path`) that names `script_path` relative to the
    configuration's folder (`scripts/x.sh`, `./x.sh`, `${path.module}/scripts/x.sh`), or None. A bare file name
    counts only for a script in the configuration's own folder; a comment line names nothing. Linear in `text`,
    and at most MAX_OCCURRENCES places are looked at (past them the file counts as naming the script)."""
    folder = configuration_path.rpartition("/")[0]
    if folder and not script_path.startswith(f"{folder}/"):
        return None
    relative = script_path[len(folder) + 1:] if folder else script_path
    if relative not in text:
        return None
    seen = 0
    for line in text.splitlines():
        if relative not in line or line.lstrip().startswith(("#", "//")):
            continue
        start = 0
        while (found := line.find(relative, start)) != -1:
            start = found + 1
            seen += 1
            if seen > MAX_OCCURRENCES:
                return f"names {relative} more than {MAX_OCCURRENCES} times"
            before = line[found - 1] if found else " "
            if before not in _BEFORE:
                continue  # a longer name that ends in this one (`other-x.sh`)
            if before == "/" and not _module_relative(line, found):
                continue  # `/usr/bin/x.sh`, `other/scripts/x.sh`: some other folder's file of the same name
            if _AFTER.match(line, found + len(relative)) is None:
                continue
            return line.strip()[:200]
    return None


def _module_relative(text: str, found: int) -> bool:
    """Whether the `/` before `found` ends `${path.module}`, `${path.root}`, `${path.cwd}`, `.` or
    `${get_terragrunt_dir()}` (the configuration's own folder), not some other folder."""
    head = text[max(0, found - 40):found - 1]
    return head.endswith(("${path.module}", "${path.root}", "${path.cwd}", "${get_terragrunt_dir()}")) or (
        head.endswith(".") and not head.endswith(".."))
