"""The commands Nx runs where CI runs its targets (issue 12, misses 9; the eighty-seventh set's cafe24.js).

`nx run-many -t build`, `nx affected -t test`, `nx run app:build`, `nx build app` (directly, behind `npx`/`pnpm exec`/
`yarn`, or in a package.json script) run the targets of the workspace's projects. A target whose executor is
`nx:run-commands` runs its `command`/`commands` in a shell, `nx:run-script` runs a script of the project's
package.json, and an executor given by path (`./tools/executors/x:run`) runs that folder's code; `nx.json`'s
`targetDefaults` hand every project those targets, and its local `plugins` (`./tools/my-plugin`) are code Nx loads on
every command. None of that was named: a `project.json` whose build target runs `node tools/gen.js` was `src`, and an
edit of `tools/gen.js` was exit 0. Named: those project.json files and nx.json (`ci`), and what their commands run (the
walk reads them with `commands`). A project.json whose targets all use plugin executors (`@nx/js:tsc`) stays what the
path rules make it (the twelfth set labels it `src`). Fail closed: a project.json or nx.json that cannot be read (not
JSON, too large, too deep), and every one past MAX_PROJECTS, is named; a plugin path that is no file is its folder.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from gatekeeper.bounded import load_json
from gatekeeper.classify.ciforms import ANY
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_PROJECTS", "Workspace", "commands", "runs_targets"]

MAX_PROJECTS = 512  # project.json files read per tree; past it each is named unread (fail closed)
MAX_DEPTH = 6  # folders deep a project.json is looked for (apps/web/project.json, libs/a/b/c/project.json)
_FILES = ("100644", "100755", "120000")
_SHELL_EXECUTORS = ("nx:run-commands", "@nrwl/workspace:run-commands", "@nx/workspace:run-commands")
_SCRIPT_EXECUTORS = ("nx:run-script", "@nrwl/workspace:run-script", "@nx/workspace:run-script")
# `nx` where a command starts (a line, `;`/`&&`/`|`/`(`, a YAML `run:`/`- `, a JSON string's opening quote), behind
# `npx`/`pnpm exec`/`pnpm`/`yarn`/`bunx`/`npm exec --`/`node_modules/.bin/`; then its subcommand
_NX = lazy(r"(?:^|[;&|(`\"']|\brun:|-[ \t])[ \t]*+(?:\w++=[^\s;&|]*+[ \t]++)*+"  # `NX_BRANCH=main npx nx ...`
           r"(?:(?:npx|bunx|pnpx|yarn|pnpm(?:[ \t]++exec)?+|npm[ \t]++exec|bun[ \t]++x)[ \t]++(?:-[^\s;&|]*+[ \t]++)*+"
           r"(?:--[ \t]++)?+)?+(?:\./)?+(?:node_modules/\.bin/)?+nx(?:@[\w.^~-]++)?+[ \t]++([\w:@./-]++)", re.MULTILINE)
# The subcommands that run no target (all others may: `run-many`, `affected`, `run`, `release`, a target's name)
_NO_TARGETS = frozenset({"graph", "dep-graph", "show", "reset", "report", "list", "daemon", "help", "--help", "-h",
                         "--version", "-v", "version", "format", "format:check", "format:write", "connect",
                         "connect-to-nx-cloud", "init", "migrate", "repair", "sync", "sync:check", "watch"})


def runs_targets(text: str) -> bool:
    """Whether a text runs an Nx command that runs targets (`nx run-many`, `nx affected`, `nx run p:t`, `nx t p`)."""
    return "nx" in text and any(sub.lower() not in _NO_TARGETS for sub in _NX.findall(text))


def commands(text: str) -> str:
    """The command lines a project.json's or nx.json's targets run (one a line): run-commands' `command`/`commands`,
    and `npm run S` for a run-script target; empty when unreadable (Workspace names such a file whole)."""
    targets = _targets(_load(text))
    return "\n".join(line for target in (targets or {}).values() for line in _target_commands(target))


class Workspace:
    """The Nx projects of a tree (MAX_DEPTH folders deep, not `node_modules/`), read only when a text runs targets;
    its repr is their blob ids (a cache key of what the walk reads)."""

    def __init__(self, tree: Tree, read_blob: Read) -> None:
        self._tree = tree
        self._read_blob = read_blob
        self._files = [path for path in tree if path.rpartition("/")[2] in ("project.json", "nx.json")
                       and path.count("/") <= MAX_DEPTH and "node_modules/" not in path and tree[path].mode in _FILES]
        self._named: list[str] | None = None

    def __repr__(self) -> str:
        return repr([(path, self._tree[path].oid) for path in self._files])

    def run(self, text: str) -> list[str]:
        """The files a text's Nx commands run: the project.json files and nx.json whose targets run commands, the
        package.json a run-script target runs, local executors' and plugins' folders (globs); [] when it runs none."""
        if not self._files or not runs_targets(text):
            return []
        if self._named is None:
            self._named = []
            for at, path in enumerate(self._files):
                self._named += [path] if at >= MAX_PROJECTS else self._runs(path)
        return self._named

    def _runs(self, path: str) -> list[str]:
        """What one project.json or nx.json brings: itself and its code when its targets run commands."""
        data = self._read_blob(self._tree[path])
        manifest = None if len(data) > FULL_READ else _load(data.decode("utf-8", "replace"))
        if manifest is None:
            return [path]  # unreadable: named whole (fail closed)
        folder = path.rpartition("/")[0]
        named: list[str] = []
        for target in (_targets(manifest) or {}).values():
            executor = target.get("executor") or target.get("builder")
            if executor in _SHELL_EXECUTORS or "command" in target:  # `"command": "..."`: run-commands' shorthand
                named.append(path)
            elif executor in _SCRIPT_EXECUTORS:
                named += [path, posixpath.join(folder, "package.json")]
            elif isinstance(executor, str) and executor.startswith(("./", "../", "/")):
                named += [path, *self._code(executor.partition(":")[0])]
        plugins = manifest.get("plugins") if path.rpartition("/")[2] == "nx.json" else None
        for plugin in plugins if isinstance(plugins, list) else ():
            spec = plugin.get("plugin") if isinstance(plugin, dict) else plugin
            if isinstance(spec, str) and spec.startswith(("./", "../")):
                named += [path, *self._code(spec)]
        return list(dict.fromkeys(named))

    def _code(self, spec: str) -> list[str]:
        """A local executor's or plugin's code, from the workspace root: the file, else the folder whole."""
        at = posixpath.normpath(spec.lstrip("/"))
        if at.startswith("..") or at == ".":
            return []
        return [at] if at in self._tree else [f"{at}/{ANY}"]


def _load(text: str) -> dict[str, Any] | None:
    try:
        manifest = load_json(text, "project.json")
    except (ValueError, LimitError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _targets(manifest: dict[str, Any] | None) -> dict[str, dict[str, Any]] | None:
    """A project.json's `targets` (`architect` in old workspaces), nx.json's `targetDefaults`: the dict ones."""
    if manifest is None:
        return None
    found: dict[str, dict[str, Any]] = {}
    for key in ("targets", "architect", "targetDefaults"):
        if isinstance(table := manifest.get(key), dict):
            found.update({f"{key}.{name}": target for name, target in table.items() if isinstance(target, dict)})
    return found


def _target_commands(target: dict[str, Any]) -> list[str]:
    """The command lines of one target: its own, its options' and each configuration's (`production`)."""
    options, configurations = target.get("options"), target.get("configurations")
    tables = [target, *([options] if isinstance(options, dict) else []),
              *(configurations.values() if isinstance(configurations, dict) else ())]
    lines: list[str] = []
    for table in tables:
        if not isinstance(table, dict):
            continue
        listed = table.get("commands")
        for value in [table.get("command"), *(listed if isinstance(listed, list) else [listed])]:
            command = value.get("command") if isinstance(value, dict) else value
            lines += [command] if isinstance(command, str) and command else []
        if isinstance(script := table.get("script"), str):
            lines.append(f"npm run {script}")
    return lines
