"""The entry of a tree that a path CI reads lies under and that moves the file with it: a submodule's gitlink or a
symlinked folder (ciwalk.py's scripts, builds, Compose files and settings files; attack 44, red team 49, hardening 50).

A workflow that runs `./scripts/build.sh` or hands `cfg/release.yaml` to goreleaser reads whatever file the folder
`scripts` or `cfg` leads to: a change that only moves the gitlink or retargets the link changes what CI runs, so the
holder is named with the file.
"""

from __future__ import annotations

from gatekeeper.classify.treereads import Tree

__all__ = ["holder_of", "holders", "with_link"]

GITLINK = "160000"
SYMLINK = "120000"


def holder_of(tree: Tree, path: str, mode: str) -> str | None:
    """The folder of `path` that is a `mode` entry of `tree`, if any: a gitlink (160000; the file CI runs there is the
    submodule's commit, attack 44) or a symlink (120000; a file through the link, red team 49) moves with it."""
    folder = path.rpartition("/")[0]
    while folder:
        if (entry := tree.get(folder)) is not None and entry.mode == mode:
            return folder
        folder = folder.rpartition("/")[0]
    return None


def with_link(tree: Tree, path: str) -> tuple[str, ...]:
    """`path`, and the symlinked folder it lies under when it is no entry of `tree` itself (red team 49)."""
    link = None if path in tree else holder_of(tree, path, SYMLINK)
    return (path, link) if link else (path,)


def holders(tree: Tree, path: str) -> list[tuple[str, str]]:
    """(holder, how) for the submodule and the symlinked folder `path` lies under when it is no entry of `tree`."""
    if path in tree:
        return []
    found = ((holder_of(tree, path, mode), how) for mode, how in ((GITLINK, "inside the submodule"),
                                                                   (SYMLINK, "through the link")))
    return [(holder, how) for holder, how in found if holder is not None]
