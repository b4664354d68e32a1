"""Paths a CI definition writes through the folder the checkout lands in (issue 12: the seventy-eighth set).

- `tails(word)`: an absolute or home path's last two to four parts. A job that runs a repository script from where
  its checkout is (Cirrus' `"${SKOPEO_PATH}/${SCRIPT_BASE}/runner.sh"` with `SKOPEO_PATH` the task's
  `CIRRUS_WORKING_DIR`, `/var/tmp/go/src/go.podman.io/skopeo`; a container holding the repository,
  `docker run img bash /github/grpc-web/scripts/t.sh`; a runner's `/home/runner/work/app/app/tools/x.py`) names it by
  an absolute path, which the walk read root-relative (`var/tmp/.../runner.sh`) and found nothing. The checkout is
  somewhere above, so the last parts are tried below the root, as runvars.folders tries an absolute `cd`'s. One part
  alone is not (`/usr/local/bin/run-tests.sh` does not name a root `run-tests.sh`), and a tail names a file only when
  the tree holds it, as every pattern does. `commanded(text)` picks the words a command runs: a command's first
  word or an interpreter's script, not a path a program's call holds (a Job DSL seed's `external
  '/var/lib/jobs/x.groovy'` reads the server's file: tests/test_classify_cileft62_classes.py) or a `cat` reads.
- `reentered(path)`: a path that climbs k folders above the root and comes back down through k names
  (`../app/tools/x.sh`) names the root's `tools/x.sh` when those names are the checkout folder's, which the gate cannot
  know: read so (attack 53).
- `checked_out(path, text, patterns)`: a GitHub workflow or action that checks its own repository out into a folder
  (`actions/checkout` with `path: pr`; no `repository:` but its own) runs the repository's files through it
  (highlight.js' `./pr/tools/buildSizeReport.js`: the eighty-first set); each pattern below such a folder is read
  without it too. Another repository's checkout, another action's `path:`, a folder held in a variable name nothing.
  Kokoro's configurations, below, likewise.
- `is_kokoro_config(path)`, `unprefixed(patterns)`: Kokoro's job configurations (`.cfg` below `.kokoro/` or a root
  `kokoro/`) name the script a job runs by `build_file: "<checkout folder>/<path>"` (`grpc-web/scripts/x.sh`,
  `github/<repo>/.kokoro/build.sh`); the path is read without its first one or two folders.
"""

from __future__ import annotations

import itertools
import posixpath
import re

from gatekeeper.classify import tasks
from gatekeeper.lazy_pattern import lazy

__all__ = ["TAILS", "checked_out", "commanded", "concourse_runs", "is_kokoro_config", "reentered", "tails",
           "unfoldered", "unprefixed"]

_WILD = "*\x02"  # pipinstalls.ANY and ONE: a variable part
TAILS = 4  # parts of an absolute path tried (as runvars' absolute folders)
_KOKORO_FOLDERS = (".kokoro/", "kokoro/")
# A Concourse task's input or a pipeline's `get:` (and an input's `path:`): the folder a repository is checked out into
# in the task's working folder (`run: path: repo/ci/test.sh`, `file: repo/ci/tasks/test.yml`: misses 9)
_CONCOURSE_INPUT = lazy(r"""^[ \t]*+(?:-[ \t]++)?+["']?+(?:name|get|path)["']?+[ \t]*+:[ \t]*+["']?+([\w.-]++)["']?+"""
                        r"""[ \t]*+(?:#.*)?$""", re.MULTILINE)
# and the same keys in a flow mapping (`inputs: [{name: repo}]`, `- {get: repo, trigger: true}`: attack 52), quoted
# or on a line of their own (`{"name": "repo"}`, `{optional: true,⏎ name: repo}`: review 69a)
_CONCOURSE_FLOW_INPUT = lazy(r"""[{,][ \t\r\n]*+["']?+(?:name|get|path)["']?+[ \t]*+:[ \t]*+["']?+([\w.-]++)["']?+"""
                             r"""[ \t\r\n]*+(?=[,}])""")
MAX_INPUTS = 64  # input folders, and run paths and task files, read per Concourse definition
_TASK_FILE = lazy(r"""(?:^[ \t]*+(?:-[ \t]++)?+|[{,][ \t\r\n]*+)["']?+file["']?+[ \t]*+:[ \t]*+["']?+([^\s"'#,}]++)""",
                  re.MULTILINE)  # a step's task file, in block or flow form (`- {task: t, file: repo/t.yml}`)
_VAR = lazy(r"\(\([^()\n]{0,256}+\)\)")  # a `((var))` Concourse fills in: any name there (a variable part)
_PREFIXES = 2  # `grpc-web/` or `github/grpc-web/`: the folders Kokoro checks a repository out into
# An absolute or home path a command runs: at a command's start (a line's, after `;`, `&&`, `|`, `(`, `exec`, `sudo`,
# `env`, a YAML list's `- `) or after an interpreter and its options (`bash -e /src/app/x.sh`, `python3 -u ...`)
_RUN = lazy(r"""(?:^|[;&|(]|\b(?:exec|sudo|env|then|do|run|script|command|entry)\b:?+)[ \t]*+(?:-[ \t]++)?+['"]?+"""
            r"""((?:/|~/)[^\s'"`;&|()]{1,1024}+)"""
            r"""|\b(?:(?:ba|da|k|z)?sh|python[0-9.]*+|node|ruby|perl|pwsh|powershell|groovy|deno)"""
            r"""(?:[ \t]++-[\w-]++)*+[ \t]++['"]?+((?:/|~/)[^\s'"`;&|()]{1,1024}+)""", re.MULTILINE)
# A container's entrypoint (the eighty-second set): `docker run -v $PWD:/workspace --entrypoint=/workspace/t.sh img`
# runs that script as `docker run img bash /workspace/t.sh` does; read on a line (backslash continuations joined) where
# a container engine's word comes before a `run` word (`docker run`, `docker container run`, `docker compose run`)
_ENTRYPOINT = lazy(r"""(?<![\w-])--entrypoint(?:=|[ \t]++)['"]?+((?:/|~/)[^\s'"`;&|()]{1,1024}+)""")
_ENGINE = lazy(r"\b(?:docker|podman|nerdctl)\b")
_RUN_WORD = lazy(r"\brun\b")


# a step's lines: a list item's first line, the keys of the step (actions/checkout's `uses:`, `path:`, `repository:`)
_ITEM = lazy(r"([ \t]*+)-[ \t]")
_CHECKOUT = lazy(r"[ \t]*+(?:-[ \t]++)?+uses[ \t]*+:[ \t]*+['\"]?+actions/checkout@")
_KEY = lazy(r"[ \t]*+(path|repository)[ \t]*+:[ \t]*+['\"]?+([^'\"#\s]*+)")


def unfoldered(path: str, text: str, scripts: list[str], folders: list[str]) -> tuple[list[str], list[str]]:
    """`scripts` and `folders` (a `cd`, `working-directory:`), each with its copies read without the folder the
    workflow checks its own repository out into (or a Kokoro job's prefix): `cd repo/tools && make` (misses 7)."""
    scripts = [*scripts, *concourse_runs(path, text)]
    return [*scripts, *checked_out(path, text, scripts)], [*folders, *checked_out(path, text, folders)]


def concourse_runs(path: str, text: str) -> list[str]:
    """What a Concourse task or pipeline runs by path, any file type (`run: path: repo/bin/check`, a task step's `file:
    repo/ci/tasks/x.yml`): read below its input folders by checked_out (misses 9)."""
    if not path.endswith((".yml", ".yaml")) or not tasks.is_concourse(text):
        return []
    text = text.replace("\r\n", "\n")  # Concourse reads CRLF files as LF ones (attack 52)
    named = [_VAR.sub("*", value) for value in [*tasks.run_paths(text.encode()), *_TASK_FILE.findall(text)]]
    # a variable as the first folder (`((repo))/ci/x.sh`) is some input's: the rest is read below the root too
    named += [value[2:] for value in named if value.startswith("*/")]
    return [value.removeprefix("./") for value in named[:MAX_INPUTS]
            if "/" in value and not value.startswith(("/", "$", "~"))]


def checked_out(path: str, text: str, patterns: list[str]) -> list[str]:
    """The patterns read without the folder a workflow checks its own repository out into (module docstring), and a
    Kokoro configuration's without its first folders (unprefixed)."""
    if is_kokoro_config(path):
        return unprefixed(patterns)
    if not path.endswith((".yml", ".yaml")) or "actions/checkout@" not in text and not tasks.is_concourse(text):
        return []
    text = text.replace("\r\n", "\n")
    folders = _checkout_folders(text) if "actions/checkout@" in text else list(dict.fromkeys(
        [*_CONCOURSE_INPUT.findall(text), *_CONCOURSE_FLOW_INPUT.findall(text)]))[:MAX_INPUTS]
    return [pattern[len(folder) + 1:] for pattern in patterns for folder in folders
            if pattern.startswith(f"{folder}/") and len(pattern) > len(folder) + 1]


def _checkout_folders(text: str) -> list[str]:
    """The folders the checkout steps of `text` put the repository itself in (`path:`, no other `repository:`)."""
    folders: list[str] = []
    indent, checkout = -1, False  # the step being read: its item's indentation, whether it is a checkout
    keys: dict[str, str] = {}  # and its `path:` value, its `repository:` line
    for line in [*text.split("\n"), "-  "]:  # a last item ends the last step
        stripped, item = line.lstrip(), _ITEM.match(line)
        if item is not None or stripped and len(line) - len(stripped) <= indent:
            folder = keys.get("path", "").removeprefix("./").strip("/")
            if checkout and folder and "github.repository" in keys.get("repository", "github.repository") \
                    and not any(char in folder for char in "$*?[") and ".." not in folder.split("/"):
                folders.append(folder)
            indent, checkout, keys = -1, False, {}
            if item is None:
                continue
            indent = len(item.group(1))
        if indent < 0:
            continue
        checkout = checkout or _CHECKOUT.match(line) is not None
        if (key := _KEY.match(line[indent + 1:] if line[indent:indent + 1] == "-" else line)) is not None:
            keys[key.group(1)] = key.group(2) if key.group(1) == "path" else line
    return list(dict.fromkeys(folders))


def commanded(text: str) -> list[str]:
    """The absolute or home paths `text`'s commands run: a command's first word, an interpreter's script
    (`docker run img /bin/bash /github/app/scripts/t.sh`) or a container's `--entrypoint`; not a path a program's
    call or another option holds."""
    if "/" not in text:
        return []
    return [first or second for first, second in _RUN.findall(text)] + _entrypoints(text)


def _entrypoints(text: str) -> list[str]:
    """The absolute or home paths a container engine's `run` is given as `--entrypoint` in `text`."""
    if "--entrypoint" not in text:
        return []
    found = []
    for line in text.replace("\\\n", " ").splitlines():
        if "--entrypoint" not in line or (engine := _ENGINE.search(line)) is None:
            continue
        if (run := _RUN_WORD.search(line, engine.end())) is not None:
            found += [m.group(1) for m in _ENTRYPOINT.finditer(line, run.end())]
    return found


def tails(word: str) -> list[str]:
    """The last two to TAILS parts of an absolute or home path (`/var/tmp/go/src/x/app/ci/run.sh`: `ci/run.sh`,
    `app/ci/run.sh`, ...); none for a relative path, one holding a variable or a glob, or a path of fewer parts."""
    word = word.strip("'\"")
    if not word.startswith(("/", "~/")) or any(char in word for char in "$*?[\x01"):
        return []
    parts = [part for part in posixpath.normpath(word.lstrip("~")).split("/") if part not in ("", ".", "..")]
    return ["/".join(parts[-count:]) for count in range(2, min(len(parts) - 1, TAILS) + 1)]


def reentered(path: str) -> str | None:
    """The root's path a normalised path names when it climbs k folders above the root and comes back down through k
    (`../app/tools/x.sh`, `../../app/app/tools/x.sh`: `tools/x.sh`): the checkout lands in a folder named after the
    repository (GitHub's `/home/runner/work/app/app`), so those k names can be its own; None for any other path."""
    if not path.startswith("../"):
        return None
    parts = path.split("/")
    ups = len(parts) - len(list(itertools.dropwhile("..".__eq__, parts)))
    rest = parts[2 * ups:]
    # a rest with no name of its own (`*`: a folder's every file, named from a folder the path was wrongly joined
    # to) would make every file of the repository run: fast_float's `-D…:PATH=../../../build/destination` read from a
    # `build` folder another step enters; the root itself names nothing (ciruns.resolved drops `.`)
    return "/".join(rest) if any(part.strip(_WILD) for part in rest) else None


def is_kokoro_config(path: str) -> bool:
    """A Kokoro job configuration: a `.cfg` file below `.kokoro/` or a root `kokoro/`."""
    return path[-4:].lower() == ".cfg" and path.lower().startswith(_KOKORO_FOLDERS)


def unprefixed(patterns: list[str]) -> list[str]:
    """Each path pattern without its first one or two folders (the checkout's folder Kokoro names it from)."""
    out = []
    for pattern in patterns:
        for _ in range(_PREFIXES):
            _, slash, pattern = pattern.partition("/")
            if not slash or not pattern:
                break
            out.append(pattern)
    return out
