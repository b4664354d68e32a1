"""The .NET build project a CI command runs (issue 12, overreads5; tests/test_classify_dotnet_run.py).

Cake Frosting and NUKE builds are C#/F# console projects (`build/Build.csproj`, `build/_build.csproj`) that CI runs
with `dotnet run --project build/...` (their bootstrap scripts, or a step), and GitVersion's workflows build theirs with
`dotnet build build/` and run the assembly by its path (`dotnet run/build.dll`, written by `build/build/build.csproj`).
Their source files are the job's code, as `go run ./cmd/release`'s are (gorun.py): named here as globs of the
project folder's `.cs`/`.fs`/`.vb` files (the glob matches below the folder too: a build's `Tasks/`). Not named: a
project by a variable no assignment gives (`$BuildProjectFile`), the root's own project (`dotnet run`: every source
file of the repository, as `go run .` names nothing), `dotnet build`/`dotnet test` (the product's compile and tests),
and an assembly no project of the tree builds. An assembly (`dotnet x.dll`) or a program (`x.exe` run by its path,
misses 7) is matched by a project's file name or its `<AssemblyName>` (Castle Core's `nev.exe`). The projects a
run project references are its code too (read from the tree: a built assembly's project, or one `--project` names
literally).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from typing import TypeVar

from gatekeeper.lazy_pattern import lazy

__all__ = ["assemblies", "projects"]

Entry = TypeVar("Entry")  # a tree's entry, which `read` reads

SOURCES = ("cs", "fs", "vb")  # what a .NET SDK project compiles
_PROJECTS = (".csproj", ".fsproj", ".vbproj")
_COMPILES = {".csproj": "cs", ".fsproj": "fs", ".vbproj": "vb"}
_SOURCE_TYPES = tuple(f".{ext}" for ext in SOURCES)
MAX_SOURCES = 4_096  # source files a text's projects hold, named one by one (past it: their folders' globs)
MAX_ASSEMBLIES = 64  # assemblies a text runs that are looked up in the tree (past it: the first ones)
MAX_REFERENCES = 32  # project files read for their references, per text (past it: the ones found)
MAX_NAMES = 128  # project files read for their `<AssemblyName>`, per text that runs an unmatched one (misses 7)
NAME_READ = 16_384  # of each: its first 16 KiB (the property group that names the assembly opens an SDK project)
_ASSEMBLY_NAME = lazy(r"<AssemblyName>([^<$\n]{1,256}+)</AssemblyName>")
# a program run by its path (`.\\tools\\X\\build\\nev.exe`, `& $dir/x.exe`, `mono x.exe`): its stem
_EXE = lazy(r"(?:^|[;&|(`]|\$\()[ \t]*+(?:-[ \t]++)?+(?:run:[ \t]*+(?:[|>][-+]?+[ \t]*+)?+)?+"
            r"(?:(?:call|mono|start)[ \t]++)?+['\"]?+([^\s'\";|&`]*?)\.exe(?![\w.])", re.IGNORECASE | re.MULTILINE)
# A word of a command line (what `_EXE`'s name is made of) and a name that ends there: `_EXE` tries each `(` of a word
# and scans to its `.exe`, or to the word's end when none follows: 64 KiB of `(` cost 1.9 CPU-s at 16 KiB, 16 times its
# 4 KiB (cost round 40). `_dead_tail_cut` first leaves out what no name can end in.
_WORD = lazy(r"[^\s'\";|&`]{33,}+")
_NAME_END = lazy(r"\.exe(?![\w.])", re.IGNORECASE)
_KEPT = 16  # of a word's tail past its last `.exe`: more than `_EXE`'s longest start inside a word (`(run:>+start`)
_REFERENCE = lazy(r"""<ProjectReference[ \t\r\n]++Include[ \t]*+=[ \t]*+['"]([^'"\n]++)['"]""")
# `dotnet run` (or `"$DOTNET_EXE" run`: NUKE's bootstrap) and the rest of its command. Tried from a word's start only,
# the word taken whole (possessive) once a lookahead finds `dotnet` in it: `[^\s;&|]*dotnet` tried from each character
# of a long word scanned to its end each time, quadratic (perf38: 419 CPU-s of redux-toolkit's `classify --tree`).
_RUN = lazy(r"(?<![^\s;&|])(?i:(?=[^\s;&|]*?dotnet))[^\s;&|]++[ \t]++run(?=[ \t])([^\n;&|]*)")
_PROJECT = lazy(r"(?:^|[ \t])(?:--project(?:[ \t]++|=)|-p[ \t]++)['\"]?([^\s'\"]+)")
_ARGUMENTS = lazy(r"[ \t]--(?:[ \t].*)?$")  # after `--`: the program's own arguments
# `dotnet run/build.dll`, `dotnet exec --runtimeconfig x.json out/tool.dll`: the host runs an assembly by its path
_ASSEMBLY = lazy(r"(?<![\w.-])dotnet(?:\.exe)?+['\"]?[ \t]++(?:exec(?:[ \t]++--?[\w-]++(?:[ \t]++[^\s-][^\s]*+)?)*+"
                 r"[ \t]++)?['\"]?([^\s'\";|&`$]*?)\.dll(?![\w.])", re.IGNORECASE)


def _globs(folder: str, sources: tuple[str, ...] = SOURCES) -> list[str]:
    folder = folder.rstrip("/")
    return [] if folder in ("", ".", "./") else [f"{folder}/*.{ext}" for ext in sources]


def _compiled(project: str) -> tuple[str, ...]:
    """What the project file at `project` compiles (`.csproj`: C#), or every language for a folder."""
    kind = posixpath.splitext(project)[1].lower()
    return (_COMPILES[kind],) if kind in _COMPILES else SOURCES


def projects(text: str) -> list[str]:
    """The globs of the source files of each project `text`'s commands `dotnet run --project` by a relative path."""
    if "dotnet" not in text.lower():
        return []
    found = []
    for rest in _RUN.findall(text):
        project = _PROJECT.search(_ARGUMENTS.sub("", rest))
        if project is None or "$" in (named := project.group(1)) or named.startswith("/"):
            continue
        found += _globs(named.rpartition("/")[0], _compiled(named)) if named.lower().endswith(_PROJECTS) \
            else _globs(named)
    return found


def assemblies(text: str, paths: Mapping[str, Entry], read: Callable[[Entry], bytes]) -> list[str]:
    """The globs of the source files of the projects of `paths` named after an assembly `text` runs by its path, and
    of the projects those, or a project `text` runs by `--project`, reference (`<ProjectReference Include=...>`:
    the build's shared code, GitVersion's `build/common/`), read with `read`."""
    lowered = text.lower()
    if ".dll" not in lowered and ".exe" not in lowered and "--project" not in lowered and "-p " not in lowered:
        return []
    runs = [*_ASSEMBLY.findall(text)[:MAX_ASSEMBLIES], *_EXE.findall(_WORD.sub(_dead_tail_cut, text))[:MAX_ASSEMBLIES]]
    stems = {stem.replace("\\", "/").rpartition("/")[2].lower() for stem in runs} - {""}
    started = [path for path in paths if path.lower().endswith(_PROJECTS)
               and posixpath.splitext(path.rpartition("/")[2])[0].lower() in stems] if stems else []
    started += _by_assembly_name(stems - {posixpath.splitext(path.rpartition("/")[2])[0].lower() for path in started},
                                 paths, read)
    literal = [posixpath.normpath(named) for rest in _RUN.findall(text) if "dotnet" in lowered
               and (project := _PROJECT.search(_ARGUMENTS.sub("", rest))) is not None
               and (named := project.group(1)).lower().endswith(_PROJECTS)]
    referenced = _references([path for path in literal if path in paths] + started, paths, read)
    return _sources([*started, *referenced], paths)


def _dead_tail_cut(word: re.Match[str]) -> str:
    """A long word less the middle of what follows its last `.exe` (or of all of it, where it has none): no name `_EXE`
    takes ends there, and a start of one in the next word (a `(`, `run:`, `call`) is in its last `_KEPT` characters;
    `_EXE` finds the same names in the rest, and no longer scans from each `(` to the word's end."""
    text = word.group()
    end = 0
    for end_match in _NAME_END.finditer(text):
        end = end_match.end() + 1  # and the character after it, which `(?![\w.])` reads
    return text if len(text) - end <= 2 * _KEPT else text[:end] + text[-_KEPT:]


def _by_assembly_name(stems: set[str], paths: Mapping[str, Entry], read: Callable[[Entry], bytes]) -> list[str]:
    """The projects of `paths` whose `<AssemblyName>` is one of `stems` (Castle Core's `nev.exe` is built by
    `Explicit.NuGet.Versions.csproj`): the first MAX_NAMES project files read, a project's first NAME_READ bytes."""
    if not stems:
        return []
    found = []
    for project in [path for path in paths if path.lower().endswith(_PROJECTS)][:MAX_NAMES]:
        named = _ASSEMBLY_NAME.search(read(paths[project])[:NAME_READ].decode("utf-8", "replace"))
        if named is not None and named[1].strip().lower() in stems:
            found.append(project)
    return found


def _sources(projects: list[str], paths: Mapping[str, Entry]) -> list[str]:
    """The source files of `paths` below the projects' folders (concrete paths: a tree whose workflows run many
    assemblies would pass the walk's bound of patterns with a variable part); past MAX_SOURCES, the folders' globs."""
    folders = {f"{folder}/": _compiled(project) for project in projects if (folder := project.rpartition("/")[0])}
    if not folders:
        return []
    found = [path for path in paths if path.lower().endswith(_SOURCE_TYPES) and any(
        path.startswith(folder) and path.lower().endswith(tuple(f".{ext}" for ext in sources))
        for folder, sources in folders.items())]
    if len(found) > MAX_SOURCES:
        return [glob for folder, sources in folders.items() for glob in _globs(folder, sources)]
    return found


def _references(projects: list[str], paths: Mapping[str, Entry], read: Callable[[Entry], bytes]) -> list[str]:
    """The projects of `paths` that `projects` reference, in turn (at most MAX_REFERENCES read)."""
    seen = dict.fromkeys(projects)
    queue = list(projects)
    while queue and len(seen) <= MAX_REFERENCES:
        project = queue.pop()
        folder = project.rpartition("/")[0]
        for included in _REFERENCE.findall(read(paths[project]).decode("utf-8", "replace")):
            path = posixpath.normpath(posixpath.join(folder, included.replace("\\", "/")))
            if "$" not in included and path in paths and path not in seen:
                seen[path] = None
                queue.append(path)
    return [path for path in seen if path not in projects]
