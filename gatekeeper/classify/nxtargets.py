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

Attack 52: Nx reads its files as JSONC (comments, trailing commas, a BOM), at any depth, and `workspace.json`'s and
`angular.json`'s projects; a target without an executor takes nx.json's (`targetDefaults`), so its commands count; a
command runs in its `cwd` (`{projectRoot}`, `{workspaceRoot}` filled in); the projects Nx infers from the workspaces'
package.json files (their scripts, their `nx` key) are named by the workspaces' globs; and Nx is launched by
`npm run nx --`, `npm x`, `pnpm dlx`, `pnpm --filter x exec`, `node node_modules/nx/bin/nx.js`, `sh ./nx` too.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from gatekeeper.bounded import load_json
from gatekeeper.classify import taskrunners
from gatekeeper.classify.autorun import plain_json
from gatekeeper.classify.ciforms import ANY
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import opened
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.errors import LimitError
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_PROJECTS", "PROJECT_FILES", "Workspace", "commands", "package_commands", "runs_targets"]

MAX_PROJECTS = 512  # project.json files read per tree; past it each is named unread (fail closed)
# The files Nx reads targets from: a project's, the workspace's defaults, and the old workspace files' inline
# projects (at any depth: Nx globs `**/project.json`; attack 52 found a project seven folders deep unread)
PROJECT_FILES = ("project.json", "nx.json", "workspace.json", "angular.json")
_FILES = ("100644", "100755", "120000")
_NO_FILE = TreeEntry("040000", "")
# also read (their blob ids join the cache key): the workspaces' globs, package names, tsconfig's paths
_ALSO_READ = frozenset({"package.json", "pnpm-workspace.yaml", "tsconfig.base.json", "tsconfig.json"})
_LOCAL_CODE_KEYS = frozenset({"renderer", "generator", "versionActions", "runner"})  # nx.json code given by path
_RELEASE_DEPTH = 8  # tables deep nx.json's `release` and `tasksRunnerOptions` are read
_GLOB_PART = lazy(r"\*+|\?|\[[^\]/]*\]")  # a workspaces glob's variable part
_TOKENS = (("{workspaceRoot}/", ""), ("{workspaceRoot}", "."))  # Nx's interpolation in options (projectRoot: per file)
_SHELL_EXECUTORS = ("nx:run-commands", "@nrwl/workspace:run-commands", "@nx/workspace:run-commands")
_SCRIPT_EXECUTORS = ("nx:run-script", "@nrwl/workspace:run-script", "@nx/workspace:run-script")
# `nx` where a command starts (a line, `;`/`&&`/`|`/`(`, a YAML `run:`/`- `, a JSON string's opening quote), behind a
# package manager's launch (`npx`, `pnpm exec`, `pnpm --filter web exec`, `npm run nx --` of a script named nx,
# `npm x`, `pnpm dlx`, `bunx`: a few options and verbs, bounded) or `node node_modules/nx/bin/nx.js`, `sh ./nx` (the
# wrapper `nx init` writes); then its subcommand
_NX = lazy(r"(?:^|[;&|(`\"']|\brun:|-[ \t])[ \t]*+(?:\w++=[^\s;&|]*+[ \t]++)*+"  # `NX_BRANCH=main npx nx ...`
           # a wrapper that runs the command after it (`xvfb-run -a`, `env X=1`, `time`, `dotenv -e f --`): bounded
           r"(?:(?:env|time|exec|sudo|nohup|xvfb-run|cross-env|dotenv)(?:[ \t]++-[^\s;&|]*+"
           r"(?:[ \t]++[^\s;&|-][^\s;&|]*+)?){0,4}[ \t]++(?:\w++=[^\s;&|]*+[ \t]++)*(?:--[ \t]++)?)?"
           r"(?:(?:npx|bunx|pnpx|yarn|pnpm|npm|bun)(?:[ \t]++(?:(?:--filter|-F|--dir|-C|--prefix|--workspace|workspace"
           r"|-w|-p|--package)[ \t]++[^\s;&|-][^\s;&|]*+|-[^\s;&|]*+|exec|x|dlx|run|run-script)){0,8}?[ \t]++"
           r"|(?:node|sh|bash)[ \t]++(?:-[^\s;&|]*+[ \t]++)*+(?=[./\w]*nx\b))?"
           r"(?:\./)?+(?:node_modules/(?:\.bin/|nx/bin/(?=nx\.js))?+)?+nx(?:@[\w.^~-]++|\.js)?+[ \t]++(?:--[ \t]++)?+"
           r"([\w:@./-]++)", re.MULTILINE)
# The subcommands that run no target (all others may: `run-many`, `affected`, `run`, `release`, a target's name)
_NO_TARGETS = frozenset({"graph", "dep-graph", "show", "reset", "report", "list", "daemon", "help", "--help", "-h",
                         "--version", "-v", "version", "format", "format:check", "format:write", "connect",
                         "connect-to-nx-cloud", "init", "migrate", "repair", "sync", "sync:check", "watch"})


def runs_targets(text: str) -> bool:
    """Whether a text runs an Nx command that runs targets (`nx run-many`, `nx affected`, `nx run p:t`, `nx t p`)."""
    return "nx" in text and any(sub.lower() not in _NO_TARGETS for sub in _NX.findall(text))


def commands(text: str, path: str = "") -> str:
    """The command lines a project.json's or nx.json's targets run (one a line): run-commands' `command`/`commands`
    (in their `cwd`), and `npm run S` for a run-script target; empty when unreadable (Workspace names such a file
    whole). `path` is the file's (its folder fills `{projectRoot}`)."""
    manifest = _load(text)
    targets = _targets(manifest)
    folder = path.rpartition("/")[0] or "."
    lines = [line for target in (targets or {}).values() for line in _target_commands(target, folder)]
    return "\n".join([*lines, *(_release(manifest)[0] if manifest is not None and "release" in manifest else ())])


def package_commands(manifest: dict[str, Any], path: str) -> list[str]:
    """The command lines of a package.json's `nx` key's targets (a project Nx knows by its package.json alone)."""
    settings = manifest.get("nx")
    targets = _targets(settings) if isinstance(settings, dict) else None
    folder = path.rpartition("/")[0] or "."
    return [line for target in (targets or {}).values() for line in _target_commands(target, folder)]


class Workspace:
    """The Nx projects of a tree (MAX_DEPTH folders deep, not `node_modules/`), read only when a text runs targets;
    its repr is their blob ids (a cache key of what the walk reads)."""

    def __init__(self, tree: Tree, read_blob: Read) -> None:
        self._tree = tree
        self._read_blob = read_blob
        self._files = [path for path in tree if path.rpartition("/")[2] in PROJECT_FILES and tree[path].mode in _FILES
                       and not path.startswith("node_modules/") and "/node_modules/" not in path]
        self._named: list[str] | None = None
        self._packages: dict[str, str] | None = None  # a workspace package's name: its folder (read once, if needed)
        self._unread: list[str] = []  # the folders of the package.json files past MAX_PROJECTS (not read)

    def __repr__(self) -> str:
        read = [*self._files, *(path for path in self._tree if path.rpartition("/")[2] in _ALSO_READ)]
        return repr([(path, self._tree[path].oid, self._opened(path).oid) for path in read])  # a link's file too

    def run(self, text: str) -> list[str]:
        """The files a text's Nx commands run: the project.json files and nx.json whose targets run commands, the
        package.json a run-script target runs, local executors' and plugins' folders (globs); [] when it runs none."""
        if not self._files or not runs_targets(text):
            return []
        if self._named is None:
            self._named = []
            for at, path in enumerate(self._files):
                self._named += [path] if at >= MAX_PROJECTS else self._runs(path)
            self._named += self._inferred()
        return self._named

    def _inferred(self) -> list[str]:
        """The package.json files of the workspaces' globs (root package.json's `workspaces`, pnpm-workspace.yaml):
        Nx infers a project from each, its scripts targets, its `nx` key's targets (attack 52)."""
        globs: list[str] = []
        root: list[str] = []
        if (manifest := self._json("package.json")) is not None:
            root = ["package.json"] if isinstance(manifest.get("nx"), dict) else []  # the root project's own key
            listed = manifest.get("workspaces")
            listed = listed.get("packages") if isinstance(listed, dict) else listed
            globs += [glob for glob in listed if isinstance(glob, str)] if isinstance(listed, list) else []
        if (entry := self._opened("pnpm-workspace.yaml")).mode in _FILES:  # through a link too
            globs += taskrunners.workspaces(self._read_blob(entry)[:FULL_READ].decode("utf-8", "replace"))
        named = [f"{_GLOB_PART.sub(ANY, glob.removeprefix('./').rstrip('/'))}/package.json" for glob in globs
                 if glob.strip("./") and not glob.startswith("!")]
        return [*root, *list(dict.fromkeys(named))[:MAX_PROJECTS]]

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
            elif executor in _SCRIPT_EXECUTORS or executor is None and _target_commands(target, folder):
                # no executor: nx.json's targetDefaults give it one (run-commands or run-script: both are read)
                named += [path, posixpath.join(folder, "package.json")]
            elif isinstance(executor, str) and executor.startswith(("./", "../", "/")):
                named += [path, *self._code(executor.partition(":")[0])]
            elif isinstance(executor, str) and (code := self._local(executor.partition(":")[0])):
                named += [path, *code]  # a workspace package's executor (`@acme/tools:gen`): attack 52
        if path.rpartition("/")[2] == "nx.json":  # `nx release`'s commands and local code, a local tasks runner
            lines, code = _release(manifest)
            named += [path, *(found for spec in code for found in self._code(spec))] if lines or code else []
        plugins = manifest.get("plugins") if path.rpartition("/")[2] == "nx.json" else None
        for plugin in plugins if isinstance(plugins, list) else ():
            spec = plugin.get("plugin") if isinstance(plugin, dict) else plugin
            if isinstance(spec, str) and spec.startswith(("./", "../")):
                named += [path, *self._code(spec)]
            elif isinstance(spec, str) and (code := self._local(spec)):
                named += [path, *code]
        return list(dict.fromkeys(named))

    def _local(self, name: str) -> list[str]:
        """The folder (whole) of a workspace package Nx loads by its name (an executor's or plugin's): the root
        tsconfig's `paths` for it (below its `baseUrl`), or a package.json of the tree whose `name` it is; [] for a
        dependency's. Past MAX_PROJECTS package.json files, a name not found is any unread one's (review 69a)."""
        if self._packages is None:
            self._packages, self._unread = {}, []
            manifests = [path for path in self._tree if path.rpartition("/")[2] == "package.json" and "/" in path
                         and "/node_modules/" not in f"/{path}"]
            self._unread = [f"{path.rpartition('/')[0]}/{ANY}" for path in manifests[MAX_PROJECTS:]]
            for path in manifests[:MAX_PROJECTS]:
                manifest = self._json(path)
                if manifest is not None and isinstance(package := manifest.get("name"), str):
                    self._packages.setdefault(package, path.rpartition("/")[0])
            for config in ("tsconfig.base.json", "tsconfig.json"):
                options = (self._json(config) or {}).get("compilerOptions")
                paths = options.get("paths") if isinstance(options, dict) else None
                base = options.get("baseUrl") if isinstance(options, dict) else None  # `paths` are below it
                for package, listed in paths.items() if isinstance(paths, dict) else ():
                    first = listed[0] if isinstance(listed, list) and listed else None
                    if isinstance(first, str) and "*" not in first and "*" not in package:
                        first = posixpath.join(base if isinstance(base, str) else ".", first)
                        at = posixpath.dirname(posixpath.normpath(first.removeprefix("./")))
                        self._packages.setdefault(package, at.partition("/src/")[0].removesuffix("/src"))
        found = self._packages.get(name)
        if found is None:  # a dependency's (the root package.json installs it), else maybe an unread package's
            return [] if name in self._installed() else self._unread
        return [] if found in ("", ".") or found.startswith("..") else [f"{found}/{ANY}"]

    def _installed(self) -> set[str]:
        """The packages the root package.json installs from a registry (not `workspace:`, `file:`, `link:`)."""
        manifest = self._json("package.json") or {}
        tables = [manifest.get(key) for key in ("dependencies", "devDependencies", "optionalDependencies")]
        return {name for table in tables if isinstance(table, dict) for name, spec in table.items()
                if isinstance(spec, str) and not spec.startswith(("workspace:", "file:", "link:", "portal:"))}

    def _json(self, path: str) -> dict[str, Any] | None:
        """The JSONC object at `path` of the tree, or None (absent, not a file, unreadable)."""
        entry = self._opened(path)
        if entry.mode not in _FILES:
            return None
        return _load(self._read_blob(entry)[:FULL_READ].decode("utf-8", "replace"))

    def _opened(self, path: str) -> TreeEntry:
        """The file a checkout opens at `path` (through symlinks: a linked tsconfig.base.json, review 69a), or none."""
        found = opened(self._tree, path, lambda entry: self._read_blob(entry).decode("utf-8", "replace"))
        return found or _NO_FILE

    def _code(self, spec: str) -> list[str]:
        """A local executor's or plugin's code, from the workspace root: the path as Node resolves it, the file, the
        file with an extension (`./tools/runner` is `tools/runner.js`) or the folder whole; whatever the tree holds,
        so the names hang on the text alone (the walk's cache key: review 69a)."""
        at = posixpath.normpath(spec.lstrip("/"))
        if at.startswith("..") or at == ".":
            return []
        return [at, f"{at}.{ANY}", f"{at}/{ANY}"]


def _release(manifest: dict[str, Any]) -> tuple[list[str], list[str]]:
    """nx.json's `release` commands (`preVersionCommand`, at any depth of it: groups, version) and the local code it
    and `tasksRunnerOptions` load (`renderer`, `generator`, `versionActions`, `runner` given by path): attack 52."""
    lines: list[str] = []
    code: list[str] = []
    tables: list[tuple[object, int]] = [(manifest.get("release"), 0), (manifest.get("tasksRunnerOptions"), 0)]
    while tables:  # nx.json is read whole (FULL_READ, load_json's bounds): each table once
        table, depth = tables.pop()
        if not isinstance(table, dict) or depth > _RELEASE_DEPTH:
            continue
        for key, value in table.items():
            if key == "preVersionCommand" and isinstance(value, str):
                lines.append(value)
            elif key in _LOCAL_CODE_KEYS and isinstance(value, str) and value.startswith(("./", "../")):
                code.append(value)
            elif isinstance(value, dict):
                tables.append((value, depth + 1))
    return lines, code


def _load(text: str) -> dict[str, Any] | None:
    """A project file read as Nx reads it: JSONC (comments, trailing commas), a BOM ignored."""
    try:
        manifest = load_json(plain_json(text.removeprefix("\ufeff")), "project.json")
    except (ValueError, LimitError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _targets(manifest: dict[str, Any] | None) -> dict[str, dict[str, Any]] | None:
    """A project.json's `targets` (`architect` in old workspaces), nx.json's `targetDefaults`, and those of the
    inline projects of workspace.json and angular.json (`projects`): the dict ones."""
    if manifest is None:
        return None
    found: dict[str, dict[str, Any]] = {}
    projects = manifest.get("projects")
    listed = [project for project in projects.values() if isinstance(project, dict)] if isinstance(projects, dict) \
        else []
    for at, table in ((at, project.get(key)) for at, project in enumerate([manifest, *listed[:MAX_PROJECTS]])
                      for key in ("targets", "architect", "targetDefaults")):
        if isinstance(table, dict):
            found.update({f"{at}.{name}": target for name, target in table.items() if isinstance(target, dict)})
    return found


def _target_commands(target: dict[str, Any], folder: str = ".") -> list[str]:
    """The command lines of one target: its own, its options' and each configuration's (`production`), each in its
    `cwd` (the table's, else the options'), with `{projectRoot}` and `{workspaceRoot}` filled in."""
    options, configurations = target.get("options"), target.get("configurations")
    options = options if isinstance(options, dict) else {}
    tables = [target, options, *(configurations.values() if isinstance(configurations, dict) else ())]
    lines: list[str] = []
    for table in tables:
        if not isinstance(table, dict):
            continue
        listed, cwd = table.get("commands"), table.get("cwd") or options.get("cwd")
        cd = f"cd {_filled(cwd, folder)} && " if isinstance(cwd, str) and cwd.strip() not in ("", ".") else ""
        for value in [table.get("command"), *(listed if isinstance(listed, list) else [listed])]:
            command = value.get("command") if isinstance(value, dict) else value
            lines += [cd + _filled(command, folder)] if isinstance(command, str) and command else []
        if isinstance(script := table.get("script"), str):
            lines.append(f"npm run {script}")
    return lines


def _filled(text: str, folder: str) -> str:
    """`text` with Nx's `{projectRoot}` (the project file's folder) and `{workspaceRoot}` (the root) filled in."""
    for token, value in (*_TOKENS, ("{projectRoot}", folder)):
        text = text.replace(token, value)
    return text
