"""Files a configuration names through `../` from a folder beside them (with `--tree`).

`terraform_ref` (treecontext.py) reads the Terraform, OpenTofu, Terragrunt, Packer, Bicep and Dockerfile
configurations of a changed file's own folder and of the folders above it. A configuration in a folder beside the
file reaches it through `../`: a stack's `templatefile("../../modules/docker-registry/config.yaml", …)` renders the
registry's settings, a Packer template's `script = "../provisioners/install.sh"` runs on the image (the thirty-eighth
and thirty-ninth sets: each was `src`). Here every configuration of the trees whose text holds `../` is read once and
reduced (tfrefs.names_in) to the paths it names outside its own folder; a changed file among them is `iac` as one
named from above is. A path with a variable part counts only when its file name has a literal part
(`../provisioners/harden-${var.os}.sh`): `../../warehouse/${each.value}` uploads a whole project's files (a dbt
project and its DAGs as bucket objects), application code the configuration deploys rather than infrastructure.

Bounded: a tree with more than MAX_CONFIGURATIONS configurations is not indexed, and its files named only from beside
them keep their bucket, as before this reader (what the folders above name still counts, with terraform_ref's own
fail-closed bound). Not in a patch: a patch holds the changed files, not the configurations beside them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gatekeeper.classify import tfrefs
from gatekeeper.classify.markers import ancestors
from gatekeeper.gitobjects import TreeEntry

MAX_CONFIGURATIONS = 4096


class Siblings:
    """The paths configurations name through `../`: {path: evidence}, and the ones with a variable part."""

    def __init__(self, configurations: Mapping[str, Sequence[tuple[str, TreeEntry, bool]]],
                 read: Callable[[str], bytes]) -> None:
        """`configurations`: every configuration of the trees by folder, as terraform_ref lists them (path, entry,
        whether a Dockerfile); `read`: a blob's first bytes by its id."""
        listed = sorted({(path, entry.oid) for found in configurations.values() for path, entry, _ in found})
        self.files: dict[str, str] = {}
        self.folders: dict[str, str] = {}  # folders read whole (a Packer file provisioner's, a fileset's): evidence
        # Paths with a variable part by the folder they lie below: (order read, configuration, pattern). A changed
        # file asks only the folders it is in (walking every pattern for every file: attack 24's stall).
        self.wildcards: dict[str, list[tuple[tuple[int, int], str, tfrefs.Wildcard]]] = {}
        self.indexed = len(listed) <= MAX_CONFIGURATIONS
        if not self.indexed:
            return
        for seq, (where, oid) in enumerate(listed):
            data = read(oid)
            if b"../" not in data:
                continue  # names nothing outside its folder and the folders below
            folder = where.rpartition("/")[0]
            named = tfrefs.names_in(where, data.decode("utf-8", "replace"))
            for path in sorted(named.files):
                if not _below(path, folder):
                    self.files.setdefault(path, f"{where}: names {path} (through ../)")
            # a Packer template's folders (what a file provisioner uploads); a Terraform fileset of a folder beside
            # it uploads a project's files, application code as often (as `../../warehouse/${each.value}` does)
            for path in sorted(named.folders) if tfrefs.is_packer(where) else ():
                if path and not _below(path, folder) and path != folder:
                    self.folders.setdefault(path, f"{where}: names {path} (through ../), every file below it")
            for number, wildcard in enumerate(named.wildcards):
                if not _below(wildcard.base, folder) and wildcard.base != folder and _literal_name(wildcard.word):
                    self.wildcards.setdefault(wildcard.base, []).append(((seq, number), where, wildcard))

    def first(self, sides: Sequence[str]) -> str | None:
        """How a configuration in another folder names the first of `sides` it names, or None."""
        return next((how for side in sides if (how := self.reaches(side)) is not None), None)

    def reaches(self, side: str) -> str | None:
        """How a configuration in another folder names the repository path `side` through `../`, or None."""
        if (how := self.files.get(side)) is not None:
            return how
        if not self.folders and not self.wildcards:  # nothing named through ../ but files: the common case, at once
            return None
        # A pattern names `side` only when its base is `side` itself, a folder above it, or the root.
        above = ancestors(side)[-2::-1]  # outermost first, not the root: bounded at MAX_PATH (cost 44)
        if self.folders and (folder := next((f for f in above if f in self.folders), None)) is not None:
            return self.folders[folder]
        bases = {"", side} | set(above)
        hits = [hit for base in bases for hit in self.wildcards.get(base, ()) if hit[2].names(side)]
        if not hits:
            return None
        _, where, wildcard = min(hits, key=lambda hit: hit[0])  # the first the old walk met
        return f"{where}: names {side} (as {wildcard.word}) (through ../)"


def _literal_name(word: str) -> bool:
    """Whether the file name of a path with a variable part says something of its own (`harden-${var.os}.sh`): one
    that is the variable alone (`../../warehouse/${each.value}`, a whole project uploaded as bucket objects: the
    thirty-ninth set's dbt models and DAGs) names a folder's every file, application code included."""
    return bool(word.rpartition("/")[2].replace("${…}", "").strip("*?."))


def _below(path: str, folder: str) -> bool:
    return not folder or path.startswith(f"{folder}/")
