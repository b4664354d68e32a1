"""The gate's own configuration must not come from the patch it judges.

CI often runs the gate in a checkout of the change itself (a pull request), where
`gatekeeper.yaml` and a `./policies` bundle are read from the working tree. A patch that edits
them would be judged by rules it wrote (`disable: [core]`, a bundle with no findings), so the
gate refuses to decide instead: exit 2, naming the file.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from gatekeeper.classify.change import path_variants, plain_spelling
from gatekeeper.errors import PolicyError
from gatekeeper.model import ClassifiedFile


@dataclass(frozen=True, slots=True)
class Guarded:
    """A file or folder of the configuration in use, as a repository path (casefolded) and as given."""

    path: str
    shown: str
    what: str


def checkout_root(start: Path) -> Path | None:
    """The top of the git work tree holding `start` (the folder with `.git`), or None outside one."""
    here = Path(os.path.abspath(start))
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def guarded_paths(cwd: Path, items: Iterable[tuple[Path, str]]) -> tuple[Guarded, ...]:
    """The `(path, what)` items that lie inside the checkout around `cwd`, as repository paths.

    Inside a git checkout a path need not exist: deleting the `gatekeeper.yaml` that enabled a
    policy changes the configuration as much as editing it. Outside one, `cwd` is taken as the
    top of the tree and only existing paths count.
    """
    root = checkout_root(cwd)
    top_known = root is not None
    root = root if root is not None else Path(os.path.abspath(cwd))
    roots = {os.path.abspath(root), os.path.realpath(root)}
    found: dict[str, Guarded] = {}
    for item, what in items:
        absolute = os.path.abspath(cwd / item)
        if not top_known and not os.path.lexists(absolute):
            continue
        for candidate in {absolute, os.path.realpath(absolute)}:
            for top in roots:
                rel = os.path.relpath(candidate, top)
                if rel == os.curdir:
                    found.setdefault("", Guarded("", str(item), what))
                elif rel != os.pardir and not rel.startswith(os.pardir + os.sep):
                    spelled = Path(rel).as_posix()
                    # The guard is folded the way the patch's names are (refuse_self_change): both sides meet.
                    for key in {spelled.casefold(), *(v.casefold() for v in path_variants(spelled))}:
                        found.setdefault(key, Guarded(key, str(item), what))
    return tuple(found.values())


def refuse_self_change(files: Iterable[ClassifiedFile], guarded: Sequence[Guarded]) -> None:
    """Raise PolicyError when a change touches a guarded file, a file below a guarded folder, or a parent of one."""
    for _, side, guard in touching(files, guarded):
        raise PolicyError(
            f"the patch changes {side!r}, part of {guard.what} ({guard.shown}): "
            "a change cannot be judged by configuration it brings along",
            where=str(guard.shown),
            hint="run the gate with the target branch's gatekeeper.yaml and bundle "
            "(check them out apart from the change and pass --policy DIR)",
        )


def touching(files: Iterable[ClassifiedFile],
             guarded: Sequence[Guarded]) -> Iterator[tuple[ClassifiedFile, str, Guarded]]:
    """Each change (with the side and the first guard it meets) that touches a guarded file, a file below a guarded
    folder, or a parent of one, on either side of a rename, under every spelling a checkout folds together."""
    if not guarded:
        return

    # One set lookup and one C-level startswith per path: a patch may hold 100,000 files.
    exact: dict[str, Guarded] = {}
    for each in guarded:
        exact.setdefault(each.path, each)
        parts = each.path.split("/")
        for depth in range(1, len(parts)):
            exact.setdefault("/".join(parts[:depth]), each)  # a parent folder: replacing it replaces the guard
    below = tuple(each.path + "/" for each in guarded if each.path)
    whole = next((each for each in guarded if not each.path), None)
    for item in files:
        change = item.change
        sides = [change.path] if change.old_path is None else [change.path, change.old_path]
        yield from _first_guard(item, sides, exact, below, whole, guarded)


def _first_guard(item: ClassifiedFile, sides: list[str], exact: dict[str, Guarded], below: tuple[str, ...],
                 whole: Guarded | None, guarded: Sequence[Guarded]) -> Iterator[tuple[ClassifiedFile, str, Guarded]]:
    for side in sides:
        for spelling in (side,) if plain_spelling(side) else (side, *path_variants(side)):
            path = spelling.casefold()
            guard = whole or exact.get(path)
            if guard is None and path.startswith(below):
                guard = next(g for g in guarded if g.path and path.startswith(g.path + "/"))
            if guard is not None:
                yield item, side, guard
                return


def repository_guards(items: Iterable[tuple[str, str, str]]) -> tuple[Guarded, ...]:
    """Guards for `(repository path, as shown, what)` items, folded as the patch's names are (see touching)."""
    found: dict[str, Guarded] = {}
    for spelled, shown, what in items:
        for key in {spelled.casefold(), *(v.casefold() for v in path_variants(spelled))}:
            found.setdefault(key, Guarded(key, shown, what))
    return tuple(found.values())
