"""The task as the CI walk's unit (issue 12, over-reads 2): what a caller's `npm test`, `make lint` or `yarn build`
runs of its task file, not the whole file.

`make test` runs the `test` target's recipe and those of its prerequisites, not every target of the Makefile;
`npm test` runs the `test` script with `pretest`/`posttest`, `npm ci` the lifecycle scripts an install runs (`prepare`,
`postinstall`...), not a `bench` or `dev` script. A caller's command gives the names (`Tasks`); the walk queues the
task file with them and reads only their part of its text (tasktexts.py): what those tasks run is CI's, the others'
scripts are not reached through this caller. The tasks they call (`npm run a && npm run b`, `$(MAKE) -C docs html`)
are callers in turn, read by the same words.

Fail closed, to the whole file: a name that is not literal (`make $TARGET`, `npm run ${{ matrix.script }}`), a
subcommand not known to run no or these scripts, a task the file does not define (a Makefile's variable targets, a
name no rule matches), a runner of script lists (`concurrently`, `turbo`; npm-run-all's names and patterns are
read: runall.py), a text that does not parse, `.RECIPEPREFIX`. The other task runners (just, tox, nox, rake, Task...)
are read whole, as before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from gatekeeper.lazy_pattern import lazy

__all__ = ["Tasks", "asked", "joined", "tasked"]


class Tasks(NamedTuple):
    """The tasks a caller runs of a task file: script, target or recipe names ("" is the file's default: make's
    default goal, just's first recipe); a name the file does not define reads it whole."""

    names: frozenset[str]


def joined(first: Tasks | None, second: Tasks | None) -> Tasks | None:
    """Both requests' tasks (None, the whole file, absorbs)."""
    if first is None or second is None:
        return None
    return Tasks(first.names | second.names)


def tasked(words: list[str], hits: list[tuple[str, Tasks | None]],
           patterns: Callable[[list[str]], list[str]]) -> dict[str, Tasks]:
    """{the pattern of a task file a text's runners read (`hits`: the file, the tasks run of it): the tasks} for the
    files that no other word of the text (`words`: every file name it named, with repeats) names and whose every run
    names its tasks; `patterns` turns names into the text's patterns."""
    asked: dict[str, Tasks | None] = {}
    for name, tasks in hits:
        asked[name] = joined(asked[name], tasks) if name in asked else tasks
    if all(tasks is None for tasks in asked.values()):
        return {}
    counts, runs = Counter(words), Counter(name for name, _ in hits)
    named = {name: tasks for name, tasks in asked.items() if tasks is not None and counts[name] == runs[name]}
    whole = set(patterns([word for word in dict.fromkeys(words) if word not in named]))
    out: dict[str, Tasks] = {}
    for name, tasks in named.items():
        for pattern in patterns([name]):
            if pattern not in whole:
                out[pattern] = Tasks(out[pattern].names | tasks.names) if pattern in out else tasks
    return out


# npm's lifecycle: what each command runs of the root package.json besides a named script (npm docs, "scripts")
_INSTALL = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare",
            "dependencies")
_LIFECYCLE = {
    "install": _INSTALL, "ci": _INSTALL, "i": _INSTALL, "in": _INSTALL, "isntall": _INSTALL, "add": _INSTALL,
    "rebuild": _INSTALL, "rb": _INSTALL, "remove": _INSTALL, "rm": _INSTALL, "uninstall": _INSTALL,
    "update": _INSTALL, "up": _INSTALL, "upgrade": _INSTALL, "link": _INSTALL, "ln": _INSTALL,
    "pack": ("prepack", "prepare", "postpack"),
    "publish": ("prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"),
    "version": ("preversion", "version", "postversion"),
    "test": ("test",), "t": ("test",), "tst": ("test",), "start": ("start",), "stop": ("stop",),
    "restart": ("restart", "stop", "start"),
}
# Subcommands that run none of the package's scripts (a package's binary, a query, a setting)
_NO_SCRIPTS = frozenset({"exec", "x", "dlx", "audit", "ls", "list", "ll", "la", "view", "info", "show", "config",
                         "cache", "whoami", "outdated", "doctor", "get", "set", "prune", "dedupe", "explain", "why",
                         "help", "login", "logout", "token", "access", "owner", "dist-tag", "deprecate", "fund", "pkg",
                         "query", "search", "sbom", "completion", "licenses", "store", "env", "bin", "root", "prefix",
                         "npm", "plugin", "constraints", "node", "create", "init", "-v", "--version", "-h", "--help"})
_RUN = frozenset({"run", "run-script", "rum", "urn"})
# the options of a package manager that take a value (`--prefix web`, `-w pkg`, `--filter app`)
_VALUED = frozenset({"--prefix", "-C", "--cwd", "--dir", "-w", "--workspace", "--filter", "-F", "--loglevel",
                     "--registry", "--cache", "--userconfig", "--reporter"})
# a make option's separate value (`-C dir`, `-f x.mk`, `-j 4`: a number is no target)
_MAKE_VALUED = frozenset({"-C", "-f", "-I", "-o", "-W", "--file", "--makefile", "--directory", "--include-dir",
                          "--old-file", "--what-if", "--new-file", "--assume-old", "--assume-new", "-l",
                          "--load-average", "--eval"})
_LITERAL = re.compile(r"[\w.:/+@-]+")
_PACKAGE_TOOLS = frozenset({"npm", "yarn", "pnpm", "bun"})
_END = lazy(r"\s(?:\d?>|<|#)|\s--(?:\s|$)")  # a redirection, a comment, the options a script gets


def asked(tool: str, rest: str) -> Tasks | None:
    """The tasks of its file a task runner's command runs (`tool` as taskrunners.tool_files names it, `rest` its
    words); None (the whole file) when they are not literal or not known."""
    if rest.rstrip().endswith("\\"):
        return None  # its names go on on the next line
    rest = _END.split(f" {rest}", 1)[0]
    words = [word.strip("'\"") for word in rest.split()]
    words = [word for word in words if word]
    if tool == "make":
        return _make_asked(words)
    if tool == "just":
        return _just_asked(words)
    if tool == "tox":
        return _tox_asked(words)
    if tool in _PACKAGE_TOOLS:
        return _package_asked(tool, words)
    return None


def _make_asked(words: list[str]) -> Tasks | None:
    targets: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word in _MAKE_VALUED:
            skip = True
        elif word.startswith("-") or "=" in word or word.isdigit():
            continue  # an option, a variable's value, `-j 4`'s number
        elif _LITERAL.fullmatch(word) is None:
            return None  # `$(TARGET)`, `${{ matrix.t }}`, a glob: any target
        else:
            targets.append(word)
    return Tasks(frozenset(targets or [""]))


# just's options that run no recipe, and those that take a value
_JUST_LISTS = frozenset({"-l", "--list", "--summary", "--dump", "--evaluate", "--fmt", "--variables", "--groups",
                         "--help", "-h", "--version", "-V", "--init", "--changelog", "--show", "-s", "--completions",
                         "--man", "--check"})
_JUST_VALUED = frozenset({"-f", "--justfile", "-d", "--working-directory", "--dotenv-filename", "--dotenv-path",
                          "-E", "--shell", "--shell-arg", "--color", "--chooser", "--list-heading", "--list-prefix",
                          "--command-color"})


def _just_asked(words: list[str]) -> Tasks | None:
    recipes: list[str] = []
    skip = 0
    for word in words:
        if skip:
            skip -= 1
        elif word in _JUST_LISTS:
            return Tasks(frozenset())  # lists, shows or formats recipes: runs none
        elif word == "--set":
            skip = 2
        elif word in _JUST_VALUED:
            skip = 1
        elif word.startswith("-") or "=" in word:
            continue
        elif _LITERAL.fullmatch(word) is None or "::" in word or "/" in word:
            return None  # a variable, a module's recipe, a path: any
        else:
            recipes.append(word)  # a recipe, or an argument of the one before it
    return Tasks(frozenset(recipes or [""]))


_TOX_NONE = frozenset({"-l", "--listenvs", "-a", "--listenvs-all", "list", "l", "config", "c", "--version",
                       "-h", "--help", "quickstart", "q", "depends", "de", "--showconfig"})


def _tox_asked(words: list[str]) -> Tasks | None:
    """`tox -e a,b` (`run`/`r`/`p` too): those environments; none for a list or a shown setting; None (every one
    env_list names) without `-e`, with a label (`-m`), a factor (`-f`), `ALL`, or a name that is not literal."""
    names: list[str] = []
    for index, word in enumerate(words):
        if word == "--":
            break
        if word in _TOX_NONE:
            return Tasks(frozenset())
        value = words[index + 1] if word in ("-e", "--env") and index + 1 < len(words) else \
            word[2:].lstrip("=") if word.startswith("-e") and len(word) > 2 and word[2] != "-" else \
            word.partition("=")[2] if word.startswith("--env=") else None
        if word in ("-m", "--labels", "-f", "--factors"):
            return None
        if value is not None:
            listed = [name.strip() for name in value.split(",") if name.strip()]
            if not listed or any(_LITERAL.fullmatch(name) is None or name == "ALL" for name in listed):
                return None
            names += listed
    return Tasks(frozenset(names)) if names else None


def _package_asked(tool: str, words: list[str]) -> Tasks | None:
    plain: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _VALUED:
            skip = True
        elif not word.startswith("-") or word in ("-v", "-h"):
            plain.append(word)
    if not plain:
        return Tasks(frozenset(_INSTALL)) if tool in ("yarn", "pnpm") and not words else None
    command, after = plain[0], plain[1:]
    if command in _RUN:
        named = after[:1]
    elif command in _LIFECYCLE:
        return Tasks(frozenset(_LIFECYCLE[command]))
    elif command in _NO_SCRIPTS:
        return Tasks(frozenset())
    elif tool == "npm" or command in ("workspace", "workspaces", "recursive", "-r"):
        return None  # an npm command not known, another package's scripts
    else:
        named = [command]  # `yarn build`, `pnpm lint`, `bun dev`: a script of that name
    if not named or _LITERAL.fullmatch(named[0]) is None:
        return None
    return Tasks(frozenset(named))
