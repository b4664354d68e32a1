"""The local package `go tool NAME` runs: a `tool` directive of the tree's go.mod (Go 1.24; misses 8).

`tool example.com/m/cmd/mygen` in go.mod (a line, or a `tool ( … )` block) makes `go tool mygen` (the path's last
element) or `go tool example.com/m/cmd/mygen` build and run that package. A package of the tree's own module is the
job's code, as `go run example.com/m/cmd/mygen` is (gobuilds.packages reads it so: the module path to its folder).
Go's own tools (`go tool cover`, `pprof`) and a dependency's are in no module here: they name nothing. A go.mod that
cannot be read names nothing more than gobuilds does with it (its unreadable module is that reader's fail-closed case);
one past what is read (FULL_READ) names, for a bare NAME no directive read declares, every package of that name below
its folder. Every directive is read, line by line (review 68a: a `tool (` block scanned to its `)` from each such line
was quadratic, and the 65th directive of a go.mod was left).
"""

from __future__ import annotations

import posixpath

from gatekeeper.classify import gobuilds
from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["names", "ran"]

# (go's `-C dir` before `tool`; `tool`'s own flags, `-modfile tools/go.mod` and `-modfile=…` with a path: review 68b)
_RUN = lazy(r"(?<![\w./-])go[ \t]++(?:-C[ \t=]*+[^\s;&|]++[ \t]++)?+tool[ \t]++"
            r"(?:-modfile[ \t]++[^\s;&|]++[ \t]++|-[^\s;&|]*+[ \t]++)*+([^\s;&|`)'\"-][^\s;&|`)'\"]*+)")
_TOOL = lazy(r"[ \t]*+tool(?![\w.-])[ \t]*+(\(?+)([^\n]*+)")  # a directive's line: `tool x/y`, or a block's `tool (`


def ran(text: str, definition: str, folders: list[str], mods: gobuilds.Modules) -> list[str]:
    """The globs of the Go files of the tree's packages `text`'s `go tool NAME` commands run; of a go.mod past what is
    read, every package of that name below its folder (fail closed: its directive may be in the rest)."""
    if "tool" not in text:
        return []
    names = [hit.group(1) for hit in _RUN.finditer(text) if not gobuilds.quiet(text, hit.start())]
    if not names:
        return []
    by_name: dict[str, list[str]] = {}  # a tool's path and its last element: the directives' paths (each read once)
    unread: list[str] = []  # the folders of the go.mod files past what is read
    for folder, source in mods.texts():
        unread += [folder] if len(source) > FULL_READ else []
        for tool in _tools(source):
            by_name.setdefault(tool, []).append(tool)
            by_name.setdefault(tool.rpartition("/")[2], []).append(tool)
    runs = [tool for name in dict.fromkeys(names) for tool in by_name.get(name, ())]
    found = gobuilds.packages("\n".join(f"go run {tool}" for tool in dict.fromkeys(runs)), definition, folders, mods) \
        if runs else []
    return found + [posixpath.join(folder, ANY, name, f"{ANY}.go") for folder in unread
                    for name in dict.fromkeys(names) if "/" not in name and name not in by_name]


def names(commands: list[str]) -> list[str]:
    """The tools the `go tool NAME` commands of `commands` (one line each: `//go:generate` lines, at most 4096
    characters) run, a name or a package path, each once; a command after one that prints it on its line runs none."""
    return [*dict.fromkeys(hit.group(1) for command in commands if "tool" in command
                           for hit in _RUN.finditer(command) if not gobuilds.quiet(command, hit.start()))]


def _tools(source: str) -> list[str]:
    """The package paths of a go.mod text's `tool` directives (comments aside), line by line: a block runs to its
    `)`, a line's words before it."""
    found: list[str] = []
    block = False
    for line in source[:FULL_READ].splitlines():
        line = line.split("//", 1)[0]
        if block:
            words, closed, _ = line.partition(")")
            found += words.split()
            block = not closed
        elif (directive := _TOOL.match(line)) is not None:
            words, closed, _ = directive[2].partition(")")
            found += words.split() if directive[1] or closed else words.split()[:1]
            block = bool(directive[1]) and not closed
    return [word.strip("\"`") for word in found]  # go.mod may quote a path (review 68b)
