"""Where a path is reached through the symlinks of a tree: a checkout follows them, so a file a link points to, or
into, is also at the link's path (and at the paths of links to that link)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from gatekeeper.classify.markers import ancestors
from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.model import ClassifiedFile

MAX_HOPS = 8  # links followed one after another (the kernel allows 40; a chain of 8 is already contrived)
MAX_REACHED = 256  # paths one file is reached at
LOOP_PASSES = 2  # times one path is taken through loops (links to their own folder or above)
MAX_LINKS = 10_000  # symlinks read per gate: bounded work, whatever the trees hold


def reached_at(path: str, links: dict[str, tuple[str, ...]]) -> list[tuple[str, str]] | None:
    """Every (path, link) `path` is reached at through the symlinks `links` (chains followed); None past the
    bounds. A link to the repository's root (target "") reaches every path under it.

    A loop (a link to its own folder or one above it: `examples/app/lib -> ../..`, `tests/repo-root -> ../..`)
    reaches the same files again at every pass, one copy of its name longer each time, until the kernel's
    ELOOP. Each path is taken through loops LOOP_PASSES times: a longer name only repeats folders already
    matched (rules anchor at the root or match any depth), and more passes would make every file of a
    repository with two loops `ci.symlink-bound`, as if it were past the bounds."""
    seen: dict[str, str] = {}
    frontier = [(path, 0)]
    for _ in range(MAX_HOPS):
        following: list[tuple[str, int]] = []
        for here, passes in frontier:
            for place in (here, *ancestors(here)):
                for link in links.get(place, ()):
                    loop = _loops(link, place)
                    if loop and passes >= LOOP_PASSES:
                        continue
                    there = link + here[len(place):] if place else f"{link}/{here}"
                    if there != path and there not in seen:
                        seen[there] = link
                        following.append((there, passes + loop))
        if len(seen) > MAX_REACHED:
            return None
        if not following:
            return list(seen.items())
        frontier = following
    return None


def tagged_at(item: ClassifiedFile, rules: RuleSet, path: str) -> ClassifiedFile:
    """`item` with the tags the tag rules give `path`, a path a checkout also opens it at through a link: an agent
    reads `CLAUDE.md -> notes/style.txt` as its instructions, GitHub `.github/CODEOWNERS -> ../team/owners` as its
    code owners, so the target's edit is a guardrail edit (red team 13, second round: the bucket was raised, the tags
    never were, and `--enable guardrails` allowed it)."""
    tags = {tag for hit in rules.tag_hits(path) for tag in hit.rule.tags}
    if tags.issubset(item.tags):
        return item
    return replace(item, tags=tuple(sorted(tags.union(item.tags))))


def _loops(link: str, target: str) -> bool:
    """Whether `link` points to its own folder or one above it (the root is above every folder)."""
    return target == "" or link.startswith(target + "/")


_MAX_FOLLOWED = 40  # links a path's folders pass through before the kernel gives up (ELOOP)


def physical_target(link: str, written: str, tree: Mapping[str, TreeEntry],
                    read: Callable[[TreeEntry], str]) -> str | None:
    """The repository path the symlink `link` (saying `written`) points to as the kernel walks it in a checkout of
    `tree`: a folder on the way that is itself a link is followed before a `..` after it applies (`lnk/../tools`
    with `lnk -> deep/a/b` is `deep/a/tools`, not `tools`). The last name is left as written (a link to a link
    is a chain, context.py follows those). None when the walk leaves the tree, enters `.git` or loops."""
    if not written or written.startswith("/"):
        return None
    resolved = link.split("/")[:-1]
    pending = written.split("/")
    followed = 0
    while pending:
        name = pending.pop(0)
        if name in ("", "."):
            continue
        if name == "..":
            if not resolved:
                return None
            resolved.pop()
            continue
        resolved.append(name)
        entry = tree.get("/".join(resolved))
        if pending and entry is not None and entry.mode == "120000":  # a folder on the way is a link: into it
            followed += 1
            inner = read(entry)
            if followed > _MAX_FOLLOWED or not inner or inner.startswith("/"):
                return None
            resolved.pop()
            pending = inner.split("/") + pending
    target = "/".join(resolved)
    if target == ".git" or target.startswith(".git/"):
        return None  # git's own folder is not content (as resolve_link)
    return target



_REGULAR = ("100644", "100755")
_PATH_MAX = 4096  # Linux's PATH_MAX, in bytes


def opened(tree: Mapping[str, TreeEntry], path: str, read: Callable[[TreeEntry], str]) -> TreeEntry | None:
    """The regular file a checkout of `tree` opens at `path`, as the kernel walks it: a folder on the way, or the
    last name, that is a link is followed (a chain of them too, up to the kernel's 40), so a runner, kustomize or
    pip reading `tools/setup/action.yml` reads `vendor/setup/action.yml` through `tools/setup -> ../vendor/setup`
    (red team 16). None when there is no such file, or the walk leaves the tree, enters `.git` or loops."""
    entry = tree.get(path)
    if entry is not None and entry.mode in _REGULAR:
        return entry  # nothing on the way can be a link: git keeps no file below a link
    if len(path) > _PATH_MAX:
        return None  # the kernel opens no longer name (ENAMETOOLONG); and the walk below stays bounded
    followed = 0
    resolved = ""
    pending = path.split("/")
    while True:
        entry = tree.get(resolved) if resolved else None
        if entry is not None and entry.mode == "120000":
            followed += 1
            target = physical_target(resolved, read(entry), tree, read) if followed <= _MAX_FOLLOWED else None
            if target is None:
                return None
            resolved = target
            continue
        if not pending:
            return entry if entry is not None and entry.mode in _REGULAR else None
        if entry is not None:
            return None  # a file (or gitlink) on the way is no folder
        name = pending.pop(0)
        resolved = f"{resolved}/{name}" if resolved else name


def folder_at(tree: Mapping[str, TreeEntry], path: str, read: Callable[[TreeEntry], str]) -> str | None:
    """The repository folder a checkout of `tree` shows at the folder `path` when a folder on the way is a link
    (`.github -> config/github`: `.github/workflows` is `config/github/workflows`); None when none is, or the walk
    leaves the tree, enters `.git` or loops."""
    resolved = ""
    followed = 0
    for name in path.split("/"):
        resolved = f"{resolved}/{name}" if resolved else name
        entry = tree.get(resolved)
        while entry is not None and entry.mode == "120000":
            followed += 1
            target = physical_target(resolved, read(entry), tree, read) if followed <= _MAX_FOLLOWED else None
            if target is None:
                return None
            resolved = target
            entry = tree.get(resolved)
        if entry is not None:
            return None  # a file on the way is no folder
    return resolved if followed else None


def links_by_target(trees: Sequence[dict[str, TreeEntry]], blob: Callable[[str, int], bytes]
                    ) -> dict[str, tuple[str, ...]] | None:
    """Every symlink of `trees` by the repository path it points to (a file or a folder): {target: every link to
    it}; each link's text read once through `blob(id, limit)`. None past MAX_LINKS symlinks (treecontext.py)."""
    links: dict[str, set[str]] = {}
    count = 0
    written: dict[str, str] = {}  # by blob id: what a link says

    def read(entry: TreeEntry) -> str:
        if entry.oid not in written:
            written[entry.oid] = blob(entry.oid, 4096).decode("utf-8", "replace")
        return written[entry.oid]

    for tree in trees:
        for path, entry in tree.items():
            if entry.mode != "120000":
                continue
            count += 1
            if count > MAX_LINKS:
                return None
            if (target := physical_target(path, read(entry), tree, read)) is not None:
                links.setdefault(target, set()).add(path)
    return {target: tuple(sorted(paths)) for target, paths in links.items()}


def every_path(path: str, links: dict[str, tuple[str, ...]] | None) -> list[str] | None:
    """`path` and every path a checkout reaches it at through the symlinks `links` (links_by_target); None past the
    bounds (`links` None: too many links to read)."""
    reached = reached_at(path, links) if links else []
    return None if reached is None else [path, *(at for at, _link in reached)]
