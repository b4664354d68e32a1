"""What the CI definitions a patch shows run, and in turn what the shown files they run run (patchcontext.ci_run).

A Makefile or justfile a definition runs by target (`make lint`, `just test`) is read for those targets alone, as
`--tree` reads it (tasktexts.restricted; the label92 round, the ninety-first set's class 9: fyndiq's `make lint`
made every target's script `ci` from the patch). Only where the patch shows it all: a definition shown as hunks may
run other tasks out of sight, and a task file shown as hunks may hide where a task starts, so either reads the task
file whole (fail closed), as does any word naming it whole or a pattern with a variable part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gatekeeper.classify import cidefaults, ciruns, tasktexts, walkpaths
from gatekeeper.classify.contexttypes import Shown
from gatekeeper.classify.tasks import MAX_DEFINITIONS
from gatekeeper.classify.taskunits import Tasks, joined
from gatekeeper.classify.treereads import PastBound
from gatekeeper.model import FileChange

__all__ = ["ShownNames", "read"]


def _by_target(path: str) -> bool:
    """A Makefile or justfile: read for the targets a shown definition runs. A package.json's scripts stay read whole
    (the eighty-eighth set: vite-plugin-react's `scripts/override-react.sh`, a script of its package.json, is run by a
    workflow the patch left out; other workflows and git hooks run scripts by name too)."""
    name = path.rpartition("/")[2]
    return tasktexts.is_makefile(name) or name.lower() in ("justfile", ".justfile")


class ShownNames:
    """What one definition names (walkpaths.shown_names' patterns), asked for every file of a patch: its patterns
    without a variable part are looked up in one set instead of compared one by one (a 2,000-file patch showing 20
    workflows asked ~450,000 `reaches`);
    `reach(path)` is `any(walkpaths.reaches(pattern, path) for pattern in patterns)`."""

    __slots__ = ("exact", "variable")

    def __init__(self, patterns: Iterable[str]) -> None:
        patterns = list(patterns)
        self.exact = frozenset(p for p in patterns if ciruns.ANY not in p and walkpaths.ONE not in p)
        self.variable = tuple(p for p in patterns if ciruns.ANY in p or walkpaths.ONE in p)

    def reach(self, path: str) -> bool:
        return path in self.exact or any(walkpaths.reaches(pattern, path) for pattern in self.variable)

    def patterns(self) -> Iterable[str]:
        return (*self.exact, *self.variable)


def read(pipelines: list[FileChange], shown_files: dict[str, FileChange],
         content: Callable[[FileChange], list[Shown]]) -> list[tuple[str, ShownNames, ShownNames]]:
    """What each definition of `pipelines` names, and in turn what each file of `shown_files` (the patch's, by path)
    they run names, read for the tasks they run of it; at most MAX_DEFINITIONS files read (`content`: what the patch
    shows of a change)."""
    out: list[tuple[str, ShownNames, ShownNames]] = []
    queue, seen = list(pipelines), {c.path for c in pipelines}
    definitions = frozenset(seen)  # read whole, always
    asked: dict[str, Tasks | None] = {}  # a file a definition runs: the tasks run of it (None: whole)
    read_for: dict[str, Tasks | None] = {}  # the tasks each file was read for
    order = {path: index for index, path in enumerate(shown_files)}
    while queue and len(out) < MAX_DEFINITIONS:
        change = queue.pop(0)
        for shown in content(change):
            if shown.path != change.path:
                continue
            # with what its actions (and a root Travis file without a script) run by default, as --tree reads it
            text = cidefaults.with_default(shown.path, shown.data.decode("utf-8", "replace"))
            tasks = read_for[shown.path] = asked.get(shown.path) if shown.complete and _by_target(shown.path) else None
            text = tasktexts.restricted(shown.path, text, tasks) if tasks is not None else text
            try:
                scripts, composed, tasked = walkpaths.shown_names(shown.path, text)
                names = ShownNames(scripts)
            except PastBound:  # what it names cannot be told (shellvars.MAX_OUT): every path (attack 35)
                names, composed, tasked = ShownNames([ciruns.ANY]), [], {}
            out.append((shown.path, names, ShownNames(composed)))
            # The shown files it names, in the patch's order: with no variable pattern, only its exact names.
            named = order if names.variable else sorted(names.exact & order.keys(), key=order.__getitem__)
            for path in named:
                if path == shown.path or path in definitions or not names.reach(path):
                    continue
                # the tasks it runs of the file, where it is shown whole and names the file by them alone
                wanted = tasked.get(path) if shown.complete and path in names.exact else None
                asked[path] = joined(asked[path], wanted) if path in asked else wanted
                if path not in seen:
                    seen.add(path)
                    queue.append(shown_files[path])
                elif read_for.get(path) not in (None, asked[path]):  # read for fewer tasks than now asked: again
                    del read_for[path]
                    queue.append(shown_files[path])
    return out
