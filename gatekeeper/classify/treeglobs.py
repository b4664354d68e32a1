"""Which of a CI-walk reader's globs name a file of the tree at all (merge of 2026-12-07's last stop).

Attack 48's readers name a package's program by globs: `go build ./cmd/t && ./t` names `cmd/t/*.go` from every folder
the step may run in, and a workspace package's bin its `*.js`, `*.mjs`, `*.ts`, ... . The walk counts the patterns with
a variable part it matches against every path and fails closed past `ciruns.MAX_WILD` (every file any CI may run is
then `ci`). In a monorepo those globs alone crossed the bound (apache/arrow-adbc, jahands/workers-packages): the
globs that match no path of the tree name nothing, so they are dropped before the count. A glob is kept when a path
starts with its literal head and ends with its literal tail (a superset of what it matches: never one dropped that
names a file); past `_MAX_CHECKED` globs none is dropped (the bound then fails closed as before)."""

from __future__ import annotations

from bisect import bisect_left

from gatekeeper.classify import ciruns
from gatekeeper.classify.treereads import Tree

__all__ = ["Present"]

_MAX_CHECKED = 256  # globs checked per call; more are kept as they are


class Present:
    """The tree's paths, sorted on the first glob with a variable part, to keep the globs that may name one."""

    def __init__(self, tree: Tree) -> None:
        self._tree = tree
        self._paths: list[str] | None = None

    def kept(self, globs: list[str]) -> list[str]:
        """`globs` without those whose literal head and tail no path of the tree has (a literal glob is kept)."""
        if len(globs) > _MAX_CHECKED or not any(ciruns.ANY in glob for glob in globs):
            return globs
        if self._paths is None:
            self._paths = sorted(self._tree)
        return [glob for glob in globs if ciruns.ANY not in glob or self._names_one(glob)]

    def _names_one(self, glob: str) -> bool:
        assert self._paths is not None
        head, _, rest = glob.partition(ciruns.ANY)
        tail = rest.rpartition(ciruns.ANY)[2]
        at = bisect_left(self._paths, head)
        while at < len(self._paths) and self._paths[at].startswith(head):
            if self._paths[at].endswith(tail) and len(self._paths[at]) >= len(head) + len(tail):
                return True
            at += 1
        return False
