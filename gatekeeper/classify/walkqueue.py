"""The CI walk's queue with the tasks each file is asked for (taskunits.py; over-reads 2): a task file a runner's
command names is read for the tasks that command runs, again when a later caller asks for more, whole when any caller
names it otherwise."""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsIndex

from gatekeeper.classify.taskunits import Tasks, joined

__all__ = ["TaskQueue", "asked"]


def asked(resolved: list[tuple[str, Tasks | None]], others: list[str]) -> dict[str, Tasks]:
    """{a resolved path every naming of which is a runner's: the tasks asked of it} (taskunits.py)."""
    out: dict[str, Tasks | None] = {path: None for path in others}
    for path, tasks in resolved:
        out[path] = joined(out[path], tasks) if path in out else tasks
    return {path: tasks for path, tasks in out.items() if tasks is not None}


# Reads of one file again for more of its tasks (then: the whole file; bounded work)
_MAX_AGAIN = 16


class TaskQueue(list[tuple[str, str]]):
    """The walk's queue of (path, origin), with the tasks each file is asked for (taskunits.py): a file queued by any
    other way than `ask` with tasks is read whole; one asked for more tasks than were read is read again (`again`). The
    spellings a folding checkout opens for a missing file (treereads.walked queues them between `pop` and the next
    `reading`) are asked for its tasks."""

    def __init__(self, items: list[tuple[str, str]], most_again: int) -> None:
        super().__init__()
        self.most_again = most_again  # reads again of the tree's files (then: whole files)
        self.wanted: dict[str, Tasks | None] = {}
        self.done: dict[str, Tasks | None] = {}
        self.reads: dict[str, int] = {}
        self.popped: str | None = None
        self.again_reads = 0
        self.extend(items)

    def append(self, item: tuple[str, str]) -> None:
        if self.popped is not None:  # another spelling of a missing file
            self.ask(*item, self.wanted.get(self.popped))
            return
        self.wanted[item[0]] = None
        super().append(item)

    def pop(self, index: SupportsIndex = -1) -> tuple[str, str]:
        item = super().pop(index)
        self.popped = item[0]
        return item

    def extend(self, items: Iterable[tuple[str, str]]) -> None:
        for item in items:
            self.append(item)

    def __iadd__(self, items: Iterable[tuple[str, str]]) -> TaskQueue:  # type: ignore[override,misc]
        self.extend(items)
        return self

    def ask(self, path: str, origin: str, tasks: Tasks | None) -> None:
        """Queue `path` for `tasks` of it (None: all)."""
        self.wanted[path] = joined(self.wanted[path], tasks) if path in self.wanted else tasks
        super().append((path, origin))

    def again(self, path: str) -> bool:
        """`path`, read already, is asked for tasks it was not read for."""
        wanted, done = self.wanted.get(path), self.done.get(path)
        return done is not None and (wanted is None or not wanted.names <= done.names)

    def reading(self, path: str) -> Tasks | None:
        """The tasks `path` is read for now (all of them past _MAX_AGAIN reads of it, or of the tree's files)."""
        self.popped = None
        self.reads[path] = self.reads.get(path, 0) + 1
        self.again_reads += self.reads[path] > 1
        if self.reads[path] > _MAX_AGAIN or self.again_reads > self.most_again:
            self.wanted[path] = None
        self.done[path] = self.wanted.get(path)
        return self.done[path]
