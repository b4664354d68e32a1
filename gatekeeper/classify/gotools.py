"""The local package `go tool NAME` runs: a `tool` directive of the tree's go.mod (Go 1.24; misses 8).

`tool example.com/m/cmd/mygen` in go.mod (a line, or a `tool ( … )` block) makes `go tool mygen` (the path's last
element) or `go tool example.com/m/cmd/mygen` build and run that package. A package of the tree's own module is the
job's code, as `go run example.com/m/cmd/mygen` is (gobuilds.packages reads it so: the module path to its folder).
Go's own tools (`go tool cover`, `pprof`) and a dependency's are in no module here: they name nothing. A go.mod that
cannot be read names nothing more than gobuilds does with it (its unreadable module is that reader's fail-closed case).
"""

from __future__ import annotations

import re

from gatekeeper.classify import gobuilds
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_TOOLS", "ran"]

MAX_TOOLS = 64  # tool directives read of a tree's go.mod files; past it the rest name nothing (a real one has a few)
# (go's `-C dir` before `tool`; `tool`'s own flags, `-modfile tools/go.mod` and `-modfile=…` with a path: review 68b)
_RUN = lazy(r"(?<![\w./-])go[ \t]++(?:-C[ \t=]*+[^\s;&|]++[ \t]++)?+tool[ \t]++"
            r"(?:-modfile[ \t]++[^\s;&|]++[ \t]++|-[^\s;&|]*+[ \t]++)*+([^\s;&|`)'\"-][^\s;&|`)'\"]*+)")
_TOOL_LINE = lazy(r"^[ \t]*+tool[ \t]++(?!\()([^\s/]++/[^\s]*+|[^\s(]++)", re.MULTILINE)
_TOOL_BLOCK = lazy(r"^[ \t]*+tool[ \t]*+\(([^)]{0,65536}+)\)", re.MULTILINE)


def ran(text: str, definition: str, folders: list[str], mods: gobuilds.Modules) -> list[str]:
    """The globs of the Go files of the tree's packages `text`'s `go tool NAME` commands run."""
    if "tool" not in text:
        return []
    names = [hit.group(1) for hit in _RUN.finditer(text) if not gobuilds.quiet(text, hit.start())]
    if not names:
        return []
    tools = [tool for source in mods.texts() for tool in _tools(source)][:MAX_TOOLS]
    runs = [tool for tool in tools for name in names if name in (tool, tool.rpartition("/")[2])]
    return gobuilds.packages("\n".join(f"go run {tool}" for tool in dict.fromkeys(runs)), definition, folders, mods) \
        if runs else []


def _tools(source: str) -> list[str]:
    """The package paths of a go.mod text's `tool` directives (comments aside)."""
    text = "\n".join(line.split("//", 1)[0] for line in source[:FULL_READ].splitlines())
    words = [*_TOOL_LINE.findall(text), *(word for block in _TOOL_BLOCK.findall(text) for word in block.split())]
    return [word.strip("\"`") for word in words]  # go.mod may quote a path (review 68b)
