"""Where a path is reached through the symlinks of a tree: a checkout follows them, so a file a link points to, or
into, is also at the link's path (and at the paths of links to that link)."""

from __future__ import annotations

from gatekeeper.classify.markers import ancestors

MAX_HOPS = 8  # links followed one after another (the kernel allows 40; a chain of 8 is already contrived)
MAX_REACHED = 256  # paths one file is reached at


def reached_at(path: str, links: dict[str, tuple[str, ...]]) -> list[tuple[str, str]] | None:
    """Every (path, link) `path` is reached at through the symlinks `links` (chains followed); None past the
    bounds. A link to the repository's root (target "") reaches every path under it."""
    seen: dict[str, str] = {}
    frontier = [path]
    for _ in range(MAX_HOPS):
        following: list[str] = []
        for here in frontier:
            for place in (here, *ancestors(here)):
                for link in links.get(place, ()):
                    there = link + here[len(place):] if place else f"{link}/{here}"
                    if there != path and there not in seen:
                        seen[there] = link
                        following.append(there)
        if len(seen) > MAX_REACHED:
            return None
        if not following:
            return list(seen.items())
        frontier = following
    return None
