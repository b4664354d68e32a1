"""The .NET build project a CI command runs (issue 12, overreads5; tests/test_classify_dotnet_run.py).

Cake Frosting and NUKE builds are C#/F# console projects (`build/Build.csproj`, `build/_build.csproj`) that CI runs
with `dotnet run --project build/...` (their bootstrap scripts, or a step), and GitVersion's workflows build theirs with
`dotnet build build/` and run the assembly by its path (`dotnet run/build.dll`, written by `build/build/build.csproj`).
Their source files are the job's code, as `go run ./cmd/release`'s are (gorun.py): named here as globs of the
project folder's `.cs`/`.fs`/`.vb` files (the glob matches below the folder too: a build's `Tasks/`). Not named: a
project by a variable no assignment gives (`$BuildProjectFile`), the root's own project (`dotnet run`: every source
file of the repository, as `go run .` names nothing), `dotnet build`/`dotnet test` (the product's compile and tests),
and an assembly no project of the tree is named after (its `AssemblyName` is not read).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from gatekeeper.lazy_pattern import lazy

__all__ = ["assemblies", "projects"]

SOURCES = ("cs", "fs", "vb")  # what a .NET SDK project compiles
_PROJECTS = (".csproj", ".fsproj", ".vbproj")
MAX_ASSEMBLIES = 64  # assemblies a text runs that are looked up in the tree (past it: the first ones)
# `dotnet run` (or `"$DOTNET_EXE" run`: NUKE's bootstrap) and the rest of its command
_RUN = lazy(r"(?i:[^\s;&|]*dotnet[^\s;&|]*)[ \t]++run(?=[ \t])([^\n;&|]*)")
_PROJECT = lazy(r"(?:^|[ \t])(?:--project(?:[ \t]++|=)|-p[ \t]++)['\"]?([^\s'\"]+)")
_ARGUMENTS = lazy(r"[ \t]--(?:[ \t].*)?$")  # after `--`: the program's own arguments
# `dotnet run/build.dll`, `dotnet exec --runtimeconfig x.json out/tool.dll`: the host runs an assembly by its path
_ASSEMBLY = lazy(r"(?<![\w.-])dotnet(?:\.exe)?+['\"]?[ \t]++(?:exec(?:[ \t]++--?[\w-]++(?:[ \t]++[^\s-][^\s]*+)?)*+"
                 r"[ \t]++)?['\"]?([^\s'\";|&`$]*?)\.dll(?![\w.])", re.IGNORECASE)


def _globs(folder: str) -> list[str]:
    folder = folder.rstrip("/")
    return [] if folder in ("", ".", "./") else [f"{folder}/*.{ext}" for ext in SOURCES]


def projects(text: str) -> list[str]:
    """The globs of the source files of each project `text`'s commands `dotnet run --project` by a relative path."""
    if "dotnet" not in text.lower():
        return []
    found = []
    for rest in _RUN.findall(text):
        project = _PROJECT.search(_ARGUMENTS.sub("", rest))
        if project is None or "$" in (named := project.group(1)) or named.startswith("/"):
            continue
        found += _globs(named.rpartition("/")[0] if named.lower().endswith(_PROJECTS) else named)
    return found


def assemblies(text: str, paths: Iterable[str]) -> list[str]:
    """The globs of the source files of the projects of `paths` named after an assembly `text` runs by its path."""
    if ".dll" not in text.lower():
        return []
    stems = {stem.rpartition("/")[2].lower() for stem in _ASSEMBLY.findall(text)[:MAX_ASSEMBLIES]} - {""}
    if not stems:
        return []
    return [glob for path in paths if path.lower().endswith(_PROJECTS)
            and posixpath.splitext(path.rpartition("/")[2])[0].lower() in stems
            for glob in _globs(path.rpartition("/")[0])]
