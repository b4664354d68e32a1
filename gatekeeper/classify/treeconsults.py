"""The files of a tree one reading of the CI walk looked up, so that the reading is reused for another tree only where
they are the same (review 68a).

ciwalk reads each file once for BASE and HEAD (its cache is keyed by the file's blob id and the tree's settings). A
reader that opens another file by a name the text gives (`typedoc --options docs/td.json`, pyproject.toml's
bump-my-version hooks, a Compose file, a `.json` that is a link in one tree) read BASE's file for HEAD when HEAD
changed only that file: the plugin HEAD's options file adds stayed `src`. `Consulted` is the tree those readers are
handed; it records each path looked up (with its mode and blob id, None when absent), and a reading that lists the
tree depends on all of it (reused in that tree only).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from gatekeeper.gitobjects import TreeEntry

__all__ = ["Consulted", "Looked"]

Looked = tuple[tuple[str, TreeEntry | None], ...]  # (a path looked up, its entry then); a listing: ("\0" id, None)


class Consulted(Mapping[str, TreeEntry]):
    """A tree (read only) that records the paths a reading looks up: `take` gives them (and starts a new record),
    `same` tells whether a record holds for this tree."""

    def __init__(self, tree: Mapping[str, TreeEntry]) -> None:
        self._tree = tree
        self._looked: dict[str, TreeEntry | None] = {}
        self._listed = False
        self._mark = f"\0{id(tree)}"  # no path starts with NUL: a listing's record, true of this tree alone

    def __getitem__(self, path: str) -> TreeEntry:
        entry = self._tree.get(path)
        self._looked.setdefault(path, entry)
        if entry is None:
            raise KeyError(path)
        return entry

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.get(path) is not None

    def __iter__(self) -> Iterator[str]:
        self._listed = True
        return iter(self._tree)

    def __len__(self) -> int:
        self._listed = True
        return len(self._tree)

    def take(self) -> Looked:
        """The paths looked up since the last `take` (and the listing mark, for a reading that listed the tree)."""
        looked = (*self._looked.items(), *(((self._mark, None),) if self._listed else ()))
        self._looked, self._listed = {}, False
        return looked

    def same(self, looked: Looked) -> bool:
        """Does each path of `looked` hold the same entry here (a listing: only in the tree it was taken of)?"""
        return all(path == self._mark if path.startswith("\0") else self._tree.get(path) == entry
                   for path, entry in looked)
