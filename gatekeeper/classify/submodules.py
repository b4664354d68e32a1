"""What a configuration names inside a submodule's folder: a gitlink's files are not in the tree, so a path a
kustomization, a GitLab include or a Terraform file names below the gitlink's path stands for a file the submodule
holds (treecontext.TreeContext asks this for gitlink changes only)."""

from __future__ import annotations

from gatekeeper.classify.tfrefs import Named


def below_glob(pattern: str, folder: str) -> bool:
    """Whether an include pattern may name a file inside `folder` (a submodule's): a path below it, or a glob or
    variable whose literal start does not rule that out."""
    written = pattern.lstrip("/").removeprefix("./")
    lead = f"{folder}/"
    cut = next((i for i, ch in enumerate(written) if ch in "*?[$"), None)
    if cut is None:
        return written.startswith(lead)
    return written[:cut].startswith(lead) or lead.startswith(written[:cut])


def named_inside(folder: str, named: Named) -> str | None:
    """A path a configuration names (a file, a fileset folder) at or inside `folder`, if any."""
    return next((path for path in (*sorted(named.files), *sorted(named.folders))
                 if path == folder or path.startswith(f"{folder}/")), None)
