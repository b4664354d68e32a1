"""The code the tools and installers a CI text runs load, read by the readers of misses 8 (one call from ciwalk).

Each reader takes the text a walk reads (and where it is) and gives path patterns, as ciwalk's other `brought_up`
readers do: fixtureinstalls.py (the fixture packages a line installs), gotools.py (`go tool NAME`'s package from
go.mod's `tool` directives), typedocplugins.py (TypeDoc's local plugins), noderuns.mains (the `main` of a
folder `node` runs: review 68b).
"""

from __future__ import annotations

from gatekeeper.classify import fixtureinstalls, gobuilds, gotools, noderuns, typedocplugins
from gatekeeper.classify.treereads import Read, Tree

__all__ = ["Reads", "loaded"]


class Reads:
    """What the readers read of a tree beyond the text: its go.mod files (gobuilds.Modules) and TypeDoc's options
    files (and the root tsconfig.json and package.json: `typedocOptions`, and the `main` `node .` runs); its repr
    is their blob ids (a cache key of what the walk reads: BASE's reading is no answer for HEAD's)."""

    def __init__(self, tree: Tree, read_blob: Read, mods: gobuilds.Modules) -> None:
        self.tree = tree
        self.read_blob = read_blob
        self.mods = mods

    def __repr__(self) -> str:
        read = (*typedocplugins.OPTIONS, *typedocplugins.HOSTS)
        return repr((self.mods, [(path, self.tree[path].oid) for path in read if path in self.tree]))


def loaded(path: str, text: str, folders: list[str], reads: Reads) -> list[str]:
    """The patterns of the files the tools `text` (the file at `path`, its commands in `folders`) runs load."""
    return [*fixtureinstalls.installed(text, path, folders), *gotools.ran(text, path, folders, reads.mods),
            *typedocplugins.plugins(text, reads.tree, reads.read_blob),
            *noderuns.mains(path, text, folders, reads.tree, reads.read_blob)]
