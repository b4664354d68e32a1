"""Git submodules: a gitlink's commit, as git writes it in a patch (`Subproject commit <sha>`)."""

from __future__ import annotations

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

_LINE = lazy(r"^Subproject commit ([0-9a-f]{40}|[0-9a-f]{64})(-dirty)?$")


def parse_gitlink(path: str, data: bytes) -> list[Dependency]:
    """The commit a submodule at `path` points to (`data` is the patch's or a synthesised pointer line)."""
    out = []
    for line in text(data).splitlines():
        m = _LINE.match(line.strip())
        if m:
            out.append(Dependency("git-submodule", path, m.group(1), path, True, "build"))
    return out


def pointer(oid: str) -> bytes:
    """The pointer line git shows for a gitlink at `oid`."""
    return f"Subproject commit {oid}\n".encode()
