"""The paths of a tree a checkout that folds names opens for a path (`tools/setup/Action.yml` for `action.yml` on a
Windows or macOS runner: red team 17), for the walks of treereads.py: a walk that misses a file asks here for its other
spellings.
"""

from __future__ import annotations

from gatekeeper.classify.change import folded, plain_spelling
from gatekeeper.gitobjects import TreeEntry

Tree = dict[str, TreeEntry]

# The spelling index of the trees walked last: a gate's walks (GitLab includes, local actions, requirements includes)
# each miss a file in the same two trees, and folding every path of a 10,000-file tree costs ~25 ms a time.
_FOLDED: list[tuple[Tree, int, dict[str, list[str]]]] = []
_FOLDS: dict[str, str] = {}  # every path of the trees indexed last, folded (path strings are the trees' own)
_FOLDS_MAX = 200_000


def spelled(tree: Tree, path: str) -> list[str]:
    """The paths of `tree` a folding checkout opens for `path`, in the tree's order (_spellings). Folding turns a `\\`
    into a `/` and makes or drops no other: a root file's spellings are root entries, asked of those alone (the common
    miss, a root `.gitlab-ci.yml`, then folds no path of a 20,000-file tree)."""
    key = folded(path)
    if "/" in key:
        return _spellings(tree).get(key, [])
    return [listed for listed in tree if "/" not in listed and "\\" not in listed and (
        listed.lower() if plain_spelling(listed) else folded(listed)) == key]


def _spellings(tree: Tree) -> dict[str, list[str]]:
    """{folded spelling: the paths of `tree` a folding checkout opens under it} (kept for the last four trees; a tree
    is never changed once listed, and its size is checked all the same)."""
    for known, size, kept in _FOLDED:
        if known is tree and size == len(tree):
            return kept
    if len(_FOLDS) > _FOLDS_MAX:
        _FOLDS.clear()
    index: dict[str, list[str]] = {}
    for listed in tree:
        spelled = _FOLDS.get(listed)  # BASE and HEAD share most of their paths: each folded once
        if spelled is None:
            # A plain ASCII path folds to its lower case (casefold is lower(), NFC changes nothing): no calls.
            spelled = _FOLDS[listed] = listed.lower() if plain_spelling(listed) else folded(listed)
        index.setdefault(spelled, []).append(listed)
    _FOLDED[:] = [(tree, len(tree), index), *_FOLDED[:3]]
    return index
