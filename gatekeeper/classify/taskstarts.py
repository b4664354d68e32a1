"""Concourse task scripts as starts of the CI walk (issue 12, ci recall; cileft62).

A Concourse task definition's `run: path:` names the script the task runs (tasks.py; the script is `ci` by
`ci.context.task-script`), but the walk of what CI runs (ciwalk.py) started only from the definitions it knows by
name or path rule, so what such a script sources in turn (`source ${tasks_dir}/helpers/targeting.sh`, a helper of the
repository's `helpers/` folder) stayed `src`. The definitions read here are the task files by their usual name
(`task.yml`, `task.yaml`, anywhere in the tree; a pipeline in a CI folder is a definition already), at most MAX_TASKS
a tree (past it: PastBound, every script counts). A run path names the script at the root (`ci/build.sh`), at the
root without its first segment (the input folder the repository is checked out into: `repo/ci/build.sh`), or in the
definition's own folder (`task` beside `task.yml`), or below its `run: dir:` (with or without the input folder:
attack 35); a script the tree does not hold names nothing.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify import tasks
from gatekeeper.classify.treepaths import where
from gatekeeper.classify.treereads import PastBound, Read, Tree
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_TASKS", "starts"]

MAX_TASKS = 256  # task definitions read per tree
_NAMES = ("task.yml", "task.yaml")
_FILE_MODES = ("100644", "100755")
# `run: dir:`, the folder the path is relative to (`dir: repo/tools/tasks`, `path: ./build.sh`; attack 35)
_DIR = lazy(r"""^[ \t]++dir[ \t]*+:[ \t]*+["']?([^\s"'#]++)""", re.MULTILINE)
MAX_DIRS = 16  # `dir:` values read per definition


def _is_task_file(path: str) -> bool:
    return path.endswith(_NAMES) and path.rpartition("/")[2] in _NAMES


def starts(trees: tuple[Tree, ...], tree: Tree, read_blob: Read) -> list[tuple[str, str]]:
    """(a script of `tree` a task definition runs, the definition) for every task file of `tree` (module docstring);
    raises PastBound past MAX_TASKS definitions."""
    found: list[tuple[str, str]] = []
    definitions = [path for path in where(trees, tree, _is_task_file) if tree[path].mode in _FILE_MODES]
    if len(definitions) > MAX_TASKS:
        raise PastBound
    for definition in definitions:
        own = definition.rpartition("/")[0]
        data = read_blob(tree[definition])
        dirs = [d.strip("/") for d in _DIR.findall(data.decode("utf-8", "replace"))[:MAX_DIRS]
                if not d.startswith(("/", "$", "~")) and ".." not in d.split("/")]
        for value in tasks.run_paths(data):
            value = value.removeprefix("./")
            if not value or value.startswith(("/", "$", "~")) or ".." in value.split("/"):
                continue  # an absolute command (`/bin/sh`), a variable, a path out of the checkout
            below = [posixpath.normpath(f"{base}/{value}") for d in dirs for base in (d, d.partition("/")[2]) if base]
            for script in (value, value.partition("/")[2], f"{own}/{value.rpartition('/')[2]}".lstrip("/"), *below):
                if script and script in tree and script != definition:
                    found.append((script, definition))
    return found
