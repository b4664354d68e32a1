"""The folder of a tool CI builds and then runs where the build put it (misses 7).

compiledruns.py reads a compiler whose source files are operands of the line. A build system names a folder instead:
libarchive's lint job runs `cmake -S build/la-lint -B b` and then `b/la-lint`; Castle Core's `build.cmd` runs `dotnet
build ./tools/Explicit.NuGet.Versions/Explicit.NuGet.Versions.slnx` and then
`.\\tools\\Explicit.NuGet.Versions\\build\\nev.exe`. The job runs what that folder's files say, so every file below it
is named (`folder/*`), as a CI-run package's scripts are. It fires when a program is run (at a command's start, or after
`dotnet`, `mono`, `exec` or PowerShell's `&`) from the build's output: cmake's `-B DIR` (or old `-BDIR`), or a .NET
build's project folder or its `-o`/`--output` folder; or when cmake installs what it built there (`cmake --install DIR`:
libarchive's lint tool, then run by name from PATH). An output folder may be absolute (`/tmp/b`). Builds: `cmake
-S`/`-H`, `dotnet build`/`publish`, `msbuild`. Not named: a build of the root (`-S .`: every file of the repository, as
`go run .` names nothing), a folder that is a variable, above the root, or absolute, and an output only uploaded, copied
or tested (`ctest`).
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_BUILDS", "folders"]

MAX_BUILDS = 64  # build commands read of one text; past it the rest name nothing (a real job has a few)
_START = r"(?:^|[;&|(`]|\$\()[ \t]*+(?:-[ \t]++)?+(?:run:[ \t]*+(?:[|>][-+]?+[ \t]*+)?+)?+(?:call[ \t]++)?+"
_CMAKE = lazy(_START + r"['\"]?+cmake(?:\.exe)?+['\"]?+(?=[ \t])([^;&|\n`)]{0,2048}+)", re.MULTILINE | re.IGNORECASE)
_DOTNET = lazy(_START + r"(?:['\"]?+dotnet(?:\.exe)?+['\"]?+[ \t]++(?:build|publish|msbuild)|msbuild(?:\.exe)?+)"
               r"(?=[ \t])([^;&|\n`)]{0,2048}+)", re.MULTILINE | re.IGNORECASE)
_SOURCE = lazy(r"(?<![\w-])(?:-S|-H|--source-dir)(?:=|[ \t]*+)['\"]?+([\w.@+/\\-]{1,512}+)")
_BINARY = lazy(r"(?<![\w-])(?:-B|--build-dir)(?:=|[ \t]*+)['\"]?+([\w.@+/\\${}-]{1,512}+)")
_OUTPUT = lazy(r"(?<![\w-])(?:-o|--output|-p:OutputPath=|/p:OutputPath=)(?:=|:|[ \t]++)?+['\"]?+([\w.@+/\\-]{1,512}+)",
               re.IGNORECASE)
_OPERAND = lazy(r"(?:^|[ \t])['\"]?+([\w.@+/\\][\w.@+/\\-]{0,511}+)['\"]?+(?=[ \t]|$)")
_PROJECT_FILES = (".csproj", ".fsproj", ".vbproj", ".sln", ".slnx", ".proj")
# a program run: at a command's start, or by a host (`dotnet x.dll`, `mono x.exe`, PowerShell's `& .\x.exe`)
_RUN = _START + r"(?:(?:dotnet|mono|exec|&|\.)[ \t]++)?+['\"]?+(?:\.[/\\])?+"


def folders(text: str) -> list[str]:
    """The globs (`folder/*`) of the folders `text` builds a tool from and then runs it out of the build's output."""
    lowered = text.lower()
    if "cmake" not in lowered and "dotnet" not in lowered and "msbuild" not in lowered:
        return []
    found: list[str] = []
    ran: dict[str, bool] = {}  # by output folder: whether a program below it is run (each text searched once)
    builds = [(True, hit[1]) for hit in _CMAKE.finditer(text)] + [(False, hit[1]) for hit in _DOTNET.finditer(text)]
    for cmake, rest in builds[:MAX_BUILDS]:
        if cmake:
            source, binary = _SOURCE.search(rest), _BINARY.search(rest)
            if source is None or binary is None:
                continue
            folder, outputs = _clean(source[1]), [_clean(binary[1])]
        else:
            operands = [word for word in _OPERAND.findall(_OUTPUT.sub(" ", rest)) if not word.startswith(("-", "/p"))]
            if not operands:
                continue
            project = _clean(operands[0])
            folder = project.rpartition("/")[0] if project.lower().endswith(_PROJECT_FILES) else project
            outputs = [folder, *(_clean(value) for value in _OUTPUT.findall(rest))]
        if _named(folder) and any(
                out and ran.setdefault(out, _run_from(text, out)) for out in outputs):
            found.append(f"{folder}/*")
    return list(dict.fromkeys(found))


def _clean(word: str) -> str:
    return word.replace("\\", "/").removeprefix("./").rstrip("/")


def _named(folder: str) -> bool:
    """A fixed folder below the root (not the root, a variable, absolute or above the root)."""
    return bool(folder) and folder != "." and not folder.startswith("/") and ".." not in folder.split("/") \
        and "$" not in folder and "%" not in folder


def _run_from(text: str, out: str) -> bool:
    """Whether `text` runs a program below `out` (either slash), at a command's start or by a host, or installs
    what cmake built there (`cmake --install OUT`, `cmake --build OUT --target install`: its programs on PATH)."""
    spelt = r"[/\\]".join(map(re.escape, out.split("/")))
    if re.search(_RUN + spelt + r"[/\\][\w.@+/\\-]", text, re.MULTILINE | re.IGNORECASE) is not None:
        return True
    installs = rf"cmake[ \t]++(?:--install[ \t]++['\"]?+(?:\./)?+{spelt}['\"]?+(?![\w./\\-])" \
        rf"|--build[ \t]++['\"]?+(?:\./)?+{spelt}['\"]?+[ \t]++(?:[^\n;&|]*?[ \t])?--target[ \t=]++install\b)"
    return re.search(installs, text, re.IGNORECASE) is not None
