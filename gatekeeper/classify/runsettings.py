"""The run settings a .NET project names for `dotnet test` (issue 12, the cileft70 round).

`dotnet test --settings X` hands X to the test run (ciconfigs.py, cileft69); a project can name it instead:
`<RunSettingsFilePath>$(MSBuildProjectDirectory)/test.runsettings</RunSettingsFilePath>` in a `.csproj`, a
`Directory.Build.props` or an imported `.props`/`.targets`. The run settings choose the data collectors and test
adapters the run loads and the environment it sets: where CI runs `dotnet test` (a command line, Cake's
`DotNetTest(…)`), the file each project file names is `ci`. The project files themselves stay what their rules say.

`$(MSBuildThisFileDirectory)` is the naming file's folder, `$(MSBuildProjectDirectory)` a project's own (the props
file's folder is only its root: any folder below, ciruns.ANY); any other property (`$(SolutionDir)`) is a variable part.
Past MAX_PROJECTS project files, or a project file past FULL_READ, every `.runsettings` file of the tree counts (fail
closed).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from gatekeeper.classify import wrappers
from gatekeeper.classify.ciforms import ANY
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_PROJECTS", "reached", "runs_tests", "settings_paths"]

MAX_PROJECTS = 2_000  # project files read where CI runs `dotnet test` (past it: every `.runsettings` counts)
_PROJECTS = (".csproj", ".fsproj", ".vbproj", ".props", ".targets")
_FILE_MODES = ("100644", "100755")
_MAY_TEST = lazy(r"(?i)(?<![\w.-])dotnet(?:\.exe)?+(?![\w.-])|(?<![\w.])DotNet(?:Core)?+Test(?!\w)")
_CAKE_TEST = lazy(r"(?<![\w.])DotNet(?:Core)?+Test[ \t]*+\(")  # Cake's alias (DotNetCoreTest: its older name)
_SEGMENTS = lazy(r"&&|\|\||[;&|(`{]|\$\(")
# a YAML item's dash and key before the command (`- run: dotnet test`, `script: dotnet test`)
_LINE_START = lazy(r"^[ \t]*+(?:-[ \t]++)?+(?:[\w.-]++[ \t]*+:[ \t]++(?:[|>][-+]?+[ \t]*+)?+)?+")
_PROPERTY = lazy(r"<RunSettingsFilePath\b[^>]{0,1024}+>([^<]{0,1024}+)</RunSettingsFilePath[ \t]*+>")
_VARIABLE = lazy(r"\$\([\w.:-]{1,128}+\)")
_MAX_VALUES = 16  # values a project file names (past it: every `.runsettings`)
_MAX_WILD = 64  # values with a variable part a tree's project files name (past it: every `.runsettings`)


def runs_tests(text: str) -> bool:
    """Whether `text` runs `dotnet test` where a command stands (behind `sudo`, an assignment; not an `echo`'s
    operand, not a comment), or Cake's `DotNetTest(…)`."""
    if _MAY_TEST.search(text) is None:
        return False
    if _CAKE_TEST.search(text) is not None:
        return True
    for line in text.splitlines():
        if "dotnet" not in line.lower() or line.lstrip().startswith(("#", "//")):
            continue
        for segment in _SEGMENTS.split(_LINE_START.sub("", line, count=1)):
            words = [word.strip("'\"") for word in segment.split()]
            start = wrappers.command_start(words)
            if 0 <= start < len(words) and words[start].rpartition("/")[2].lower() in ("dotnet", "dotnet.exe"):
                operands = [word for word in words[start + 1:start + 8] if not word.startswith("-")]
                if operands[:1] == ["test"]:
                    return True
    return False


def settings_paths(path: str, text: str) -> list[str]:
    """The run settings the project file at `path` names (`<RunSettingsFilePath>`), as path patterns from the root."""
    folder = path.rpartition("/")[0]
    props = not path.endswith("proj")
    out: list[str] = []
    for hit in _PROPERTY.finditer(text):
        value = hit[1].strip().replace("\\", "/")
        value = value.replace("$(MSBuildThisFileDirectory)", "./")  # from the naming file's folder (joined below)
        if not props:
            value = value.replace("$(MSBuildProjectDirectory)", "./")
        value = _VARIABLE.sub(ANY, value)
        if ANY in value:  # a folder not known: the name below the last variable part, below any folder (wider)
            after = value.rpartition(ANY)[2]
            tail = posixpath.normpath(after.lstrip("/") or ".")
            while tail.startswith("../"):
                tail = tail[3:]
            if tail not in (".", "..", ""):  # `$(SolutionDir)x` ends in a slash of its own: any name ending so
                out += [f"{ANY}/{tail}", tail] if after.startswith("/") else [f"{ANY}{tail}"]
        elif value:
            joined = posixpath.normpath(posixpath.join(folder, value))
            if not joined.startswith(("../", "/")) and joined not in (".", ".."):
                out.append(joined)
    return list(dict.fromkeys(out))


def reached(tree: dict[str, TreeEntry], read_blob: Callable[[TreeEntry], bytes]) -> list[tuple[str, str]]:
    """(the project file, the run settings it names) of `tree`, each a file of it; ("", X) for every `.runsettings`
    file X past the bounds (fail closed)."""
    projects = [path for path in tree if path.endswith(_PROJECTS) and tree[path].mode in _FILE_MODES]
    everything = [("", path) for path in tree if path.lower().endswith(".runsettings")]
    if len(projects) > MAX_PROJECTS:
        return everything
    out: list[tuple[str, str]] = []
    wild = 0
    for project in projects:
        data = read_blob(tree[project])
        if len(data) > FULL_READ:
            return everything
        text = data.decode("utf-8", "replace")
        if "RunSettingsFilePath" not in text:
            continue
        if text.count("<RunSettingsFilePath") > _MAX_VALUES:
            return everything
        for pattern in settings_paths(project, text):
            if ANY not in pattern:
                out += [(project, pattern)] if pattern in tree else []
                continue
            wild += 1
            if wild > _MAX_WILD:
                return everything  # each is matched against every path: bounded work
            head, _, tail = pattern.partition(ANY)
            out += [(project, path) for path in tree if path.startswith(head) and path.endswith(tail)
                    and len(path) >= len(head) + len(tail)]
    return list(dict.fromkeys(out))
