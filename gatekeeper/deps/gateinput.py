"""The dependency delta and content facts as the gate puts them into the policy input.

Computed once per gate from the sources the gate already has: under `--tree` the TreeContext's git
objects (its one `cat-file --batch`; the changed files from the context's two tree listings: no extra process), else the
patch (`read_patch`, which also keeps the sides of the files facts are read from).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.deps import advisories
from gatekeeper.deps.facts import facts_for, wants_facts
from gatekeeper.deps.model import Problem
from gatekeeper.deps.patchscan import may_hold_dependencies, read_mapped
from gatekeeper.deps.sources import Delta, read_patch, tree_delta
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.model import FileChange

if TYPE_CHECKING:
    from gatekeeper.classify.treecontext import TreeContext

# A file larger than this has no facts (its `errors` say so): facts are small, and a workflow,
# Dockerfile or registry config of megabytes is itself suspect.
MAX_FACT_BYTES = 4 * 1024 * 1024

Index = dict[tuple[str, str], list[advisories.Affected]]
FactsOf = Callable[[FileChange], "dict[str, object] | None"]


class DepsInput:
    """`input.dependencies` and a way to get each file's `facts`.

    `delta` may be a function that computes it, called at the first `to_input()`: under `--tree` the facts come
    from blobs of their own, so the gate reads the files' facts first and the delta while the engine child takes
    the files in (gate.decide)."""

    __slots__ = ("_delta", "facts_of")

    def __init__(self, delta: Delta | Callable[[], Delta], facts_of: FactsOf) -> None:
        self._delta, self.facts_of = delta, facts_of

    @property
    def delta(self) -> Delta:
        if not isinstance(self._delta, Delta):
            self._delta = self._delta()
        return self._delta

    def to_input(self) -> dict[str, Any]:
        return dependencies_doc(self.delta)


def dependencies_doc(delta: Delta) -> dict[str, Any]:
    return {"changes": [c.to_dict() for c in delta.changes], "problems": [p.to_dict() for p in delta.problems]}


def _marked(delta: Delta, index: Index | None) -> Delta:
    if index is None:
        return delta
    return Delta(advisories.mark(delta.changes, index), delta.problems, delta.facts)


def from_patch(patch: Path, index: Index | None) -> DepsInput:
    """The delta and facts a patch alone shows (facts only where the patch shows enough; see patch_delta)."""
    if not stat.S_ISREG(os.stat(patch).st_mode):
        # A pipe can be read once, and the gate reads it: fail closed rather than steal its bytes.
        problem = Problem("", "partial", "the patch is not a regular file: no dependency delta computed")
        return DepsInput(Delta((), (problem,)), lambda change: None)
    # The gate parses (and so checks) the whole patch itself: here only sections that can matter are parsed.
    # A mapped patch is scanned once, by patch_delta itself; another is tested first, at C speed.
    # The facts now, the delta at its first use (PatchRead: while the engine child takes the files in, gate.decide).
    if not (read_mapped(patch) or may_hold_dependencies(patch)):
        return DepsInput(Delta((), ()), lambda change: None)
    read = read_patch(patch, parse_all=False)
    facts = dict(read.facts)
    return DepsInput(lambda: _marked(read.delta(), index), lambda change: facts.get(change.path))


def from_tree(context: TreeContext, index: Index | None) -> DepsInput:
    """The delta of the pull request's change (merge base → HEAD) and facts read from its blobs."""
    git = context.objects

    def delta() -> Delta:
        return _marked(tree_delta(git, context.old_commit, context.head_commit, context.read_as()), index)

    def blob(entry: TreeEntry | None) -> bytes | None:
        if entry is None or entry.mode not in ("100644", "100755"):
            return None
        return git.blob(entry.oid, MAX_FACT_BYTES + 1)

    read_as_once: list[dict[str, str]] = []  # context.read_as(), asked at the first file that needs it

    def facts_of(change: FileChange) -> dict[str, object] | None:
        read_as = change.path
        if not wants_facts(change.path):
            # A file a manifest reads (requirements a setup.py or a `-r` reads, a Gemfile's fragment) has the facts
            # of the format it is read in: an `--index-url` or `source` it adds is a new registry (red team 27).
            if not read_as_once:  # the same answer for every file of the gate: the trees' readers ran once
                read_as_once.append(context.read_as())
            named = read_as_once[0]
            read_as = named.get(change.path) or named.get(change.old_path or change.path) or ""
            if not read_as or not wants_facts(read_as):
                return None
        new = blob(context.new_tree.get(change.path)) if change.status != "deleted" else None
        old = blob(context.old_tree.get(change.old_path or change.path)) if change.status != "added" else None
        if any(side is not None and len(side) > MAX_FACT_BYTES for side in (old, new)):
            return {"kind": "oversized", "errors": [f"larger than {MAX_FACT_BYTES} bytes: no facts read"]}
        found = facts_for(change if read_as == change.path else replace(change, path=read_as, old_path=None), old, new)
        return found.to_dict() if found is not None else None

    return DepsInput(delta, facts_of)
