"""Scripts a CI definition runs by path: a Concourse task's `run.path` names the script it executes.

A task script (`tasks/build/run.sh`, `ci/scripts/test.sh`) is plain shell or Python: neither its name nor
its content says CI. What does is the Concourse task definition beside it — a `task.yml`, or a pipeline's
inline task `config:` — whose `run: path:` names it. Concourse runs `path` relative to the task's working
folder, where every input is a folder named after the input, so the first segment of `path` is usually an
input (a repository resource: `my-repo/ci/tasks/build/run.sh`) and the rest is the script's path inside
that repository. The definitions are read only where such a script changes, in its own folder and the one
above it (the task folder layout and the `tasks/`+`scripts/` layout), each at most once, whole (up to FULL_READ:
a task's `run:` after 64 KiB of `params:` named nothing, red team 11). The block scan is linear in the file's
bytes: a line is scanned once per `run:` block it is nested in, and each nesting level costs a column.
"""

from __future__ import annotations

import re

from gatekeeper.classify.markers import extension
from gatekeeper.lazy_pattern import lazy

# Script types a task's run.path names (files without an extension too).
SCRIPT_EXTENSIONS = frozenset({"", "sh", "bash", "zsh", "ps1", "psm1", "py", "rb", "pl", "bat", "cmd"})
DEFINITION_EXTENSIONS = frozenset({"yml", "yaml"})
MAX_DEFINITIONS = 64  # YAML files read per folder: a folder of thousands of YAML files is not a task folder

_RUN = lazy(r"^([ \t]*)(?:-[ \t]+)?run[ \t]*:[ \t]*(?:#.*)?$")
_PATH = lazy(r"""^([ \t]*)path[ \t]*:[ \t]*["']?([^\s"'#]+)["']?[ \t]*(?:#.*)?$""")
# Possessive blanks: the runs around the optional flow list were split every way on a failing line (quadratic).
_ARGS = lazy(r"^([ \t]*)args[ \t]*+:[ \t]*+(?:\[([^\]\n]*)\])?[ \t]*+(?:#.*)?$")
_ARG_ITEM = lazy(r"""^[ \t]*-[ \t]+["']?([^\s"'#,]+)["']?[ \t]*(?:#.*)?$""")
_KEY = lazy(r"^([ \t]*)\S")
_RUN_FLOW = lazy(r"^[ \t]*(?:-[ \t]+)?run[ \t]*:[ \t]*\{(.*)\}[ \t]*(?:#.*)?$")  # run: {path: sh, args: [...]}
_FLOW_PATH = lazy(r"""\bpath[ \t]*:[ \t]*["']?([^\s"',}]+)""")
_FLOW_ARGS = lazy(r"\bargs[ \t]*:[ \t]*\[([^\]]*)\]")
_CONCOURSE = lazy(
    r"""^["']?platform["']?[ \t]*:[ \t]*["']?(?:linux|windows|darwin|\(\()"""  # `((os))`, quoted keys: attack 52
    r"""|^[ \t]+(?:-[ \t]+)?["']?(?:platform|plan)["']?[ \t]*:""",
    re.MULTILINE)


def is_script(path: str) -> bool:
    """A file type a task's run.path may name."""
    return extension(path.rpartition("/")[2]) in SCRIPT_EXTENSIONS


def is_definition(path: str) -> bool:
    return extension(path.rpartition("/")[2]) in DEFINITION_EXTENSIONS


def is_concourse(text: str) -> bool:
    """A Concourse task (`platform:`) or pipeline (`plan:`) by its shape."""
    return _CONCOURSE.search(text) is not None


def run_paths(data: bytes) -> tuple[str, ...]:
    """The `run: path:` values of a Concourse task definition or pipeline (inline task configs), and the
    `run: args:` of each (`path: powershell`, `args: [ci/tasks/x/run.ps1]`), or () when `data` is not
    Concourse-shaped (no `platform:` or `plan:`)."""
    text = data.decode("utf-8", "replace")
    if _CONCOURSE.search(text) is None:
        return ()
    found: list[str] = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        run = _RUN.match(line)
        if run is None:
            if (flow := _RUN_FLOW.match(line)) is not None:
                found += [m.group(1) for m in _FLOW_PATH.finditer(flow.group(1))]
                for listed in _FLOW_ARGS.finditer(flow.group(1)):
                    found += [a.strip().strip("\"'") for a in listed.group(1).split(",")]
            continue
        indent = len(run.group(1).expandtabs())
        in_args = None  # the indent of an `args:` key whose block list follows
        for index in range(number + 1, len(lines)):  # no copy of the rest per key: linear (attack 35)
            child = lines[index]
            key = _KEY.match(child)
            if key is None or child.lstrip().startswith("#"):
                continue  # blank or comment lines inside the block
            depth = len(key.group(1).expandtabs())
            if depth <= indent:
                break  # the run: block ended
            if in_args is not None and depth >= in_args and (item := _ARG_ITEM.match(child)) is not None:
                found.append(item.group(1))
                continue
            in_args = None
            if (path := _PATH.match(child)) is not None:
                found.append(path.group(2))
            elif (args := _ARGS.match(child)) is not None:
                if args.group(2) is not None:
                    found += [a.strip().strip("\"'") for a in args.group(2).split(",")]
                else:
                    in_args = depth
    return tuple(found)


def names(run_path: str, path: str) -> bool:
    """Whether `run_path` (relative to the task's working folder) names the repository file `path`: the whole
    value, or the value without its first segment (the input folder), is `path` or a tail of it."""
    value = run_path.removeprefix("./")
    if not value or value.startswith(("/", "$")) or value.rpartition("/")[2] != path.rpartition("/")[2]:
        return False  # an absolute command (/bin/sh), a variable, or another file name
    tails = [value]
    if "/" in value:
        tails.append(value.partition("/")[2])
    return any(path == tail or path.endswith(f"/{tail}") for tail in tails if "/" in tail or tail == path)


def folders_to_search(path: str) -> tuple[str, ...]:
    """The folders whose definitions may name `path`: its own and the one above it."""
    folder = path.rpartition("/")[0]
    if not folder:
        return ("",)
    return (folder, folder.rpartition("/")[0])
