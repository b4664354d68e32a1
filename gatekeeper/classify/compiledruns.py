"""The source of a program a CI command compiles and then runs (misses 6).

`crystal build run_specs.cr -o bin/run_specs`, then `kcov … ./bin/run_specs` (omarluq/termisu's coverage job, the
seventy-fourth set): the job runs what `run_specs.cr` says, but the walk names a file by a script's extension or by a
run path, and `bin/run_specs` is no file of the tree, so `run_specs.cr` stayed `src`. What a step only builds is the
product (ci left 67); what it builds and then runs is the job's program, as `go run` (gorun.py) and Cargo's binaries
are. So: a compiler's command with an output option (`-o OUT`, `-o=OUT`, `--output OUT`, gcc's glued `-oOUT`) and
source operands, where OUT is named again in the text at a word's start with a folder (`./bin/run_specs`,
`bin/run_specs`, `$PWD/…` read by the walk as `./…`) or as `./OUT`; each source file operand is named (`.cr`, `.c`,
`.cc`, `.cpp`, `.cxx`, `.rs`, `.go`, `.nim`, `.d`, `.zig`, `.swift`), and a Go package folder (`go build -o bin/gen
./tools/gen`) its Go files. Compilers: `crystal build`, `crystal run`/`crystal FILE` (which run at once), gcc, g++, cc,
clang, clang++, rustc, `go build`, `nim c`, `zig build-exe`/`zig run`, swiftc, ldc2, dmd. Not: an output that is not
used again (the product's build), a source that is a variable.
"""

from __future__ import annotations

import re

from gatekeeper.classify import toolbuilds
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_BUILDS", "sources", "unhandled"]

MAX_BUILDS = 64  # compiler commands read of one text; past it the rest name nothing (a real job has a few)
_SOURCE_TYPES = (".cr", ".c", ".cc", ".cpp", ".cxx", ".rs", ".go", ".nim", ".d", ".zig", ".swift")
# a compiler at a command's start (after an operator, a list mark, `run:`), then its words to the segment's end
_COMPILE = lazy(r"(?:^|[;&|(`]|\$\()[ \t]*+(?:-[ \t]++)?+(?:run:[ \t]*+(?:[|>][-+]?+[ \t]*+)?+)?+"
                r"(crystal[ \t]++(?:build|run)|crystal(?=[ \t]++[\w./-]+\.cr\b)|gcc|g\+\+|cc|clang\+\+|clang|rustc"
                r"|go[ \t]++build|nim[ \t]++c(?:ompile)?+|zig[ \t]++(?:build-exe|run)|swiftc|ldc2|dmd)"
                r"(?![\w+-])([^;&|\n`)]{0,2048}+)", re.MULTILINE)
_OUTPUT = lazy(r"(?<![\w-])(?:-o|--output|-out)(?:=|[ \t]++)['\"]?+([\w.@+/-]{1,512}+)|(?<![\w-])-o([\w./-]{1,512}+)")
_AFTER_OPTION = lazy(r"(?:-o|--output|-out)(?:=|[ \t]++)['\"]?+\Z|-o\Z")  # what precedes an output's own naming
_WORD = lazy(r"['\"]?+([^\s'\"]{1,1024}+)")
# a file command that copies, moves, links, strips, lists or removes its operands and runs none of them (tupelo's
# `cp tupelo $(GOPATH)/bin/` in a Makefile target CI never runs: the label93 round)
_FILE_COMMAND = lazy(r"(?:^|[;&|(`])[ \t]*+(?:sudo[ \t]++(?:-\S++[ \t]++)*+)?(?:cp|mv|ln|rm|chmod|chown|strip|install"
                     r"|ls|stat|du|file|sha\d*sum|md5sum|tar|zip|gzip)(?![\w.-])[^\n;&|`)]*+", re.MULTILINE)


def sources(text: str) -> list[str]:
    """The paths (and Go package globs) of the sources of each program `text` compiles and then runs, or runs at
    once (`crystal run x.cr`, `zig run x.zig`), and the folders of the tools it builds and runs (toolbuilds.py)."""
    return _compiled(text) + toolbuilds.folders(text)


def _compiled(text: str) -> list[str]:
    if not any(name in text for name in ("crystal", "cc", "clang", "rustc", "go", "nim", "zig", "swiftc", "ldc2",
                                         "dmd", "gcc", "g++")):
        return []
    found: list[str] = []
    used = ""  # the text without its file commands' operands, made at the first output read
    for count, hit in enumerate(_COMPILE.finditer(text)):
        if count >= MAX_BUILDS:
            break
        compiler, rest = hit[1].split()[0], hit[2]
        runs_now = hit[1].startswith(("crystal run", "zig run")) or hit[1] == "crystal"
        output = _OUTPUT.search(rest)
        out = (output[1] or output[2]).removeprefix("./") if output is not None else ""
        used = used or (unhandled(text) if out else "")
        if not runs_now and not (out and _used_again(used, out)):
            continue
        for word in _WORD.findall(_OUTPUT.sub(" ", rest)):
            if word.startswith(("-", "$", "/")) or ".." in word.split("/"):
                continue
            if word.endswith(_SOURCE_TYPES):
                found.append(word.removeprefix("./"))
            elif compiler == "go" and word.startswith("./") and word.strip("./"):
                found.append(f"{word.removeprefix('./').removesuffix('/...').rstrip('/')}/*.go")
    return list(dict.fromkeys(found))


def unhandled(text: str) -> str:
    """`text` with each file command (`cp`, `mv`, `ln`, `install`, `strip`, `chmod`, `rm`, ...) blanked, its length
    kept: the program a build writes is used again only where another command names it."""
    return _FILE_COMMAND.sub(lambda command: " " * len(command.group()), text)


def _used_again(text: str, out: str) -> bool:
    """Whether `out` (the output, from the root) is named in `text` other than as an output option's value (anywhere:
    a later step's line may come first in the text): at a word's start as `./OUT`, or as `OUT` when it has a folder."""
    pattern = (r"(?<![\w./-])(?:\./)?+" if "/" in out else r"(?<![\w./-])\./") + re.escape(out) + r"(?![\w.-])"
    for hit in re.finditer(pattern, text):
        if not _AFTER_OPTION.search(text[max(0, hit.start() - 12):hit.start()]):
            return True
    return False
