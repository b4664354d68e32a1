"""The code the tools and installers a CI text runs load, read by the readers of misses 8 (one call from ciwalk).

Each reader takes the text a walk reads (and where it is) and gives path patterns, as ciwalk's other `brought_up`
readers do: fixtureinstalls.py (the fixture packages a line installs), gotools.py (`go tool NAME`'s package from
go.mod's `tool` directives), typedocplugins.py (TypeDoc's local plugins), noderuns.mains (the `main` of a
folder `node` runs: review 68b).
"""

from __future__ import annotations

from collections.abc import Mapping

from gatekeeper.classify import fixtureinstalls, gobuilds, gotools, noderuns, typedocplugins
from gatekeeper.classify.treeconsults import Consulted
from gatekeeper.classify.treereads import Read
from gatekeeper.gitobjects import TreeEntry

__all__ = ["Reads", "loaded"]


class Reads:
    """What the readers read of a tree beyond the text: its go.mod files (gobuilds.Modules) and TypeDoc's options
    files; its repr is their blob ids (a cache key of what the walk reads: BASE's reading is no answer for HEAD's).
    `seen` is the tree the walk's readers look a file up in by a name their text gives (`typedoc --options X`, the
    `extends` it follows, tsconfig.json's `typedocOptions`, a folder's package.json `main` that `node DIR` runs): it
    records what each reading looked up (treeconsults.py), which the key cannot hold (reviews 68a, 68b)."""

    def __init__(self, tree: Mapping[str, TreeEntry], read_blob: Read, mods: gobuilds.Modules) -> None:
        self.tree = tree
        self.read_blob = read_blob
        self.mods = mods
        self.seen = Consulted(tree)

    def __repr__(self) -> str:
        return repr((self.mods, [(path, self.tree[path].oid) for path in typedocplugins.OPTIONS if path in self.tree]))


def loaded(path: str, text: str, folders: list[str], reads: Reads) -> list[str]:
    """The patterns of the files the tools `text` (the file at `path`, its commands in `folders`) runs load."""
    return [*fixtureinstalls.installed(text, path, folders), *gotools.ran(text, path, folders, reads.mods),
            *typedocplugins.plugins(text, reads.seen, reads.read_blob),
            *noderuns.mains(path, text, folders, reads.seen, reads.read_blob)]
