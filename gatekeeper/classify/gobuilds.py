"""The Go package CI builds or installs and then runs, and the one it runs by its module path (attack 48).

gorun.py names the folder of `go run ./cmd/release`. Three spellings of the same job named nothing, and an edit of the
program was exit 0: `go install ./cmd/tool && tool` (installed, then run by its name), `go build -o bin/t ./cmd/t &&
./bin/t` (built, then run by its path), and `go run example.com/x/cmd/tool` (a package of the tree's own module, by
its import path: the `go.mod` files of the tree say which folder). A build or install counts when its program's name
(the package folder's last name, or `-o`'s) is a word of the text after the command (not an operand of `cp`, `mv`,
`ln`, `install`, `strip`, `chmod`, `rm`, ...: compiledruns.unhandled); a build nothing runs is the product's. `go run`
counts always. Not named: `.` and `...` patterns (the product), a path with `@version` (fetched:
the deps reader's), a path of no module the tree declares. Fail closed: a `go.mod` without a readable `module` line
(none, two, or one Go refuses; its block form and a quoted path are read) makes each tail of the path a candidate folder
below it; a `go.mod` that is a symlink is read where it points, and several modules of one path are each named.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Callable
from typing import NamedTuple

from gatekeeper.classify import ciruns, compiledruns
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import opened
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_DEPTH", "Module", "Modules", "command_words", "module_path", "packages", "quiet"]

MAX_DEPTH = 4  # `go.mod` files read this many folders deep (`deep/mods/sub/go.mod`)
_MAX_WORDS = 2048  # characters of one command's words split (shlex costs more than linear on one long word)
_FILES = ("100644", "100755", "120000")  # a `go.mod` a checkout opens (a link: where it points)
_MAX_MODULES = 64  # more `go.mod` files than this: the first ones, in the tree's order

# `go run|build|install` at a command's start (not `echo go …`, `cargo`, `pgo`), then its words to the command's end
_GO = lazy(r"(?<![\w./-])go[ \t]++(run|build|install)\b([^\n;&|`)]*+)")
# what comes before a `go` on its line when it runs nothing: a command that prints it, a comment line
_QUIET = lazy(r"(?:\A|[;&|(`])[^;&|(`]*\b(?:echo|printf)\b[^;&|(`]*\Z|\A[ \t]*#")
_WORD = lazy(r"[^\s;&|()`'\"=]++")  # a word that may run a program (by its name, or a path that ends with it)
_DIRECTIVE = lazy(r"[ \t]*+module(?![\w.-])(.*+)")  # a line's `module` directive, and its rest
_PATH = lazy(r"[^\s\"`'()/\\][^\s\"`'()\\]*+")  # a module path Go reads (unquoted)
# the build flags whose value may be the next word (any other flag: a switch, or `-flag=value`)
_VALUED = frozenset({"o", "C", "p", "tags", "ldflags", "gcflags", "asmflags", "gccgoflags", "mod", "modfile", "pkgdir",
                     "toolexec", "exec", "overlay", "pgo", "buildmode", "compiler", "installsuffix", "covermode",
                     "coverpkg", "buildvcs"})


class Module(NamedTuple):
    path: str | None  # its `module` line; None: unreadable (fail closed)
    folder: str  # where its `go.mod` is ("" at the root)


class Modules:
    """The modules of a tree's `go.mod` files (MAX_DEPTH folders deep at most), read only when a command names a
    package by its module path (most trees' walks never do: no blob read); its repr is the files' blob ids (a cache
    key of what the walk reads)."""

    def __init__(self, tree: Tree, read_blob: Read) -> None:
        self._tree = tree
        self._read_blob = read_blob
        self._files = [path for path in tree if (path == "go.mod" or path.endswith("/go.mod"))
                       and path.count("/") <= MAX_DEPTH and tree[path].mode in _FILES][:_MAX_MODULES]
        self._read: tuple[Module, ...] | None = None

    def __repr__(self) -> str:
        return repr([(path, self._tree[path].oid) for path in self._files])

    def read(self) -> tuple[Module, ...]:
        """The modules: the unreadable ones first, then the longest module path first (the one Go builds a package
        of both from). A `go.mod` that is a symlink is read where it points (review 67b)."""
        if self._read is None:
            found = []
            text: Callable[[TreeEntry], str] = lambda entry: (  # noqa: E731
                self._read_blob(entry)[:FULL_READ].decode("utf-8", "replace"))
            for path in self._files:
                entry = opened(self._tree, path, text)
                found.append(Module(module_path(text(entry)) if entry else None, path.rpartition("/")[0]))
            self._read = tuple(sorted(found, key=lambda module: (module.path is not None, -len(module.path or ""))))
        return self._read


    def texts(self) -> list[tuple[str, str]]:
        """(folder, text) of the tree's go.mod files (gotools.py: their `tool` directives), where each symlink points;
        a text longer than FULL_READ is one past what is read."""
        text: Callable[[TreeEntry], str] = lambda entry: self._read_blob(entry).decode("utf-8", "replace")  # noqa: E731
        return [(path.rpartition("/")[0], text(entry)) for path in self._files
                if (entry := opened(self._tree, path, text)) is not None]


def module_path(text: str) -> str | None:
    """The module path of a `go.mod` text: its one `module` directive (a line, or a block of one line; the path bare,
    quoted or a raw string); None when it holds none, more than one, or one Go refuses (fail closed)."""
    lines = text.splitlines()
    found: list[str] = []
    at = 0
    while at < len(lines):
        directive = _DIRECTIVE.fullmatch(lines[at])
        at += 1
        if directive is None:
            continue
        rest = directive.group(1).split("//", 1)[0].strip()
        if rest != "(":
            found.append(rest)
            continue
        block = []
        while at < len(lines) and lines[at].split("//", 1)[0].strip() != ")":
            block += [line] if (line := lines[at].split("//", 1)[0].strip()) else []
            at += 1
        at += 1
        found += block if len(block) == 1 else ["", ""]
    if len(found) != 1:
        return None
    path = found[0]
    if len(path) >= 2 and path[0] == path[-1] and path[0] in "\"`":
        path = path[1:-1]
    return path if _PATH.fullmatch(path) else None


def packages(text: str, definition: str, folders: list[str], mods: Modules | tuple[Module, ...]) -> list[str]:
    """The globs of the Go files of each package `text`'s commands run: `go run` by its module path, a package `go
    build`/`go install` builds that a later word of `text` runs; relative ones resolved as `definition`'s paths are."""
    if "go" not in text:
        return []
    found: list[str] = []
    last: dict[str, int] | None = None  # each word's last name (`./bin/t`: `t`): where its last use ends
    for match in _GO.finditer(text):
        if quiet(text, match.start()):
            continue
        words = command_words(match.group(2))
        output, chdir, named = "", "", []
        at = 0
        while at < len(words):
            word = words[at]
            if word.startswith("-") and word != "-":
                flag, equals, value = word.partition("=")
                if not equals and flag.lstrip("-") in _VALUED and at + 1 < len(words):
                    at += 1
                    value = words[at]
                output = value if flag.lstrip("-") == "o" else output
                chdir = value if flag.lstrip("-") == "C" else chdir
            else:
                named.append(word)
                if match.group(1) == "run":
                    break  # the rest are the program's arguments
            at += 1
        if match.group(1) != "run" and last is None:
            used = compiledruns.unhandled(text)  # a `cp tupelo …` copies the program, runs it not (label93)
            last = {word.group().rpartition("/")[2]: word.end() for word in _WORD.finditer(used)}
        for package in named:
            name = _program(package, output)
            if last is not None and match.group(1) != "run" and (not name or last.get(name, 0) <= match.end()):
                continue  # nothing after the build runs the program it writes
            found += _folders(package, definition, folders, mods, chdir)
    return list(dict.fromkeys(found))


def quiet(text: str, at: int) -> bool:
    """Whether the command at `at` of `text` runs nothing: a command before it on its line prints it (`echo go run
    …`), or its line is a comment."""
    start = text.rfind("\n", 0, at) + 1
    return _QUIET.search(text[start:at]) is not None


def command_words(rest: str) -> list[str]:
    """The words of one command's arguments, unquoted as a shell reads them (plain splitting past what is split; npmbins
    reads its commands with it too)."""
    rest = rest[:_MAX_WORDS]
    try:
        return shlex.split(rest, comments=True)
    except ValueError:
        return rest.replace('"', " ").replace("'", " ").split()


def _program(package: str, output: str) -> str:
    """The name of the program a build of `package` writes (`-o`'s file, or the package folder's last name)."""
    if output and not output.endswith("/"):
        return output.rpartition("/")[2]
    last = package.rstrip("/").rpartition("/")[2]
    return "" if last in ("", ".", "..") or "..." in last or "$" in last else last


def _folders(package: str, definition: str, folders: list[str], mods: Modules | tuple[Module, ...],
             chdir: str) -> list[str]:
    """The globs of the Go files of `package` (relative, or a path of a module of `mods`); none for the product's own
    `.`/`...` patterns, a fetched `@version`, or a path no module of the tree declares."""
    package = package.rstrip("/")
    if "..." in package or "@" in package or "$" in package or package.endswith(".go") or package in (".", ""):
        return []
    if package.startswith(("./", "../")):
        return ciruns.resolved(f"{posixpath.join(chdir, package)}/{ciruns.ANY}.go", definition, folders)
    out = []
    longest = -1  # the deepest module path it starts with: the one Go builds it from (each module of that path)
    for module in mods.read() if isinstance(mods, Modules) else mods:
        if module.path is None:  # fail closed: each tail of the path below that folder
            parts = package.split("/")
            out += [posixpath.join(module.folder, *parts[at:], f"{ciruns.ANY}.go") for at in range(1, len(parts))]
        elif len(module.path) < longest:
            break
        elif package == module.path or package.startswith(f"{module.path}/"):
            rest = package[len(module.path):].strip("/")
            longest = len(module.path)
            if rest or module.folder:
                out.append(posixpath.join(module.folder, rest, f"{ciruns.ANY}.go"))
    return out
