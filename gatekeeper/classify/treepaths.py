"""The paths of a tree context's trees that a test of the path alone accepts, each path asked once.

The readers of the `tree` context (treereads.py, treecontext.py) pick their files out of every tree by a test of the
path alone (an installer, a Compose file, a requirements file, a Terraform file, a Concourse definition, a
kustomization). The merge base, BASE and HEAD share most of their paths (a 10,000-file change of BASE's 20,000 files:
20,007 paths in both trees together, 40,013 in the two listings), so a test is asked once of each path of all the trees
together, and each tree gets the paths it holds that passed, in its own order: what testing each of its paths gives.
"""

from __future__ import annotations

from collections.abc import Callable

from gatekeeper.gitobjects import TreeEntry

Tree = dict[str, TreeEntry]
Test = Callable[[str], bool]  # a function of the path alone: the same path, the same answer


class _Tested:
    """The trees of one context (held, so that no other tuple can take their identity) and what passed each test."""

    __slots__ = ("trees", "union", "passed")

    def __init__(self, trees: tuple[Tree, ...]) -> None:
        self.trees = trees
        self.union: set[str] | None = None
        self.passed: dict[Test, frozenset[str]] = {}


_LAST: list[_Tested] = []  # the trees of the context read last (one gate's), with its tests' answers


def where(trees: tuple[Tree, ...], tree: Tree, test: Test) -> list[str]:
    """The paths of `tree`, one of `trees`, that `test` accepts, in `tree`'s order. `test` must be a function of the
    path alone, the same object for each tree of `trees` (its answers are kept for the trees read last, by the
    function: a module-level one, or a `partial` made once for a walk of the trees, ciwalk.ci_runs)."""
    if len(trees) < 2 or not any(tree is listed for listed in trees):
        return [path for path in tree if test(path)]
    tested = _LAST[0] if _LAST else None
    if tested is None or tested.trees is not trees:  # (read once: another thread's context may replace it meanwhile)
        tested = _Tested(trees)
        _LAST[:] = [tested]
    passed = tested.passed.get(test)
    if passed is None:
        if tested.union is None:
            tested.union = set().union(*trees)
        passed = tested.passed[test] = frozenset(path for path in tested.union if test(path))
    return [path for path in tree if path in passed] if passed else []
