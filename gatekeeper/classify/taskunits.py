"""The task as the CI walk's unit (issue 12, over-reads 2): what a caller's `npm test`, `make lint` or `yarn build`
runs of its task file, not the whole file.

`make test` runs the `test` target's recipe and those of its prerequisites, not every target of the Makefile;
`npm test` runs the `test` script with `pretest`/`posttest`, `npm ci` the lifecycle scripts an install runs (`prepare`,
`postinstall`...), not a `bench` or `dev` script. A caller's command gives the names (`Tasks`); the walk queues the
task file with them and reads only their part of its text (`restricted`): what those tasks run is CI's, the others'
scripts are not reached through this caller. The tasks they call (`npm run a && npm run b`, `$(MAKE) -C docs html`)
are callers in turn, read by the same words.

Fail closed, to the whole file: a name that is not literal (`make $TARGET`, `npm run ${{ matrix.script }}`), a
subcommand not known to run no or these scripts, a task the file does not define (a Makefile's variable targets, a
name no rule matches), a runner of script lists (`npm-run-all`, `run-s`, `concurrently`, `turbo`), a text that does not
parse, `.RECIPEPREFIX`. The other task runners (just, tox, nox, rake, Task...) are read whole, as before.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from gatekeeper.lazy_pattern import lazy

__all__ = ["Tasks", "asked", "joined", "restricted", "tasked"]


class Tasks(NamedTuple):
    """The tasks a caller runs of a task file. `names`: script or target names ("" is a Makefile's default goal);
    `strict`: a name the file does not define reads it whole (a caller's own names), else it is skipped (the names a
    Makefile passes to the files it includes: its rules' prerequisites, which may be defined there or nowhere)."""

    names: frozenset[str]
    strict: bool = True


def joined(first: Tasks | None, second: Tasks | None) -> Tasks | None:
    """Both requests' tasks (None, the whole file, absorbs)."""
    if first is None or second is None:
        return None
    return Tasks(first.names | second.names, first.strict or second.strict)


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
                out[pattern] = Tasks(out[pattern].names | tasks.names, out[pattern].strict or tasks.strict) \
                    if pattern in out else tasks
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


# A runner of several scripts by name or pattern (`run-s build:*`, `concurrently "npm:lint"`, `turbo run build`)
_LISTS = lazy(r"\b(?:npm-run-all2?|run-s|run-p|concurrently|wireit|turbo|nx|lerna|ultra|npm-run|yarn-run-all)\b")


def restricted(path: str, text: str, tasks: Tasks | None) -> tuple[str, Tasks | None]:
    """(the part of the text at `path` the tasks run, the tasks the files it includes are asked for); the whole text
    and None where it cannot be read that way."""
    name = path.rpartition("/")[2]
    if _is_makefile(name):  # read whole, still without its rules' headers
        return _make_text(text, tasks)
    if tasks is None:
        return text, None
    if name == "package.json":
        return _package_text(text, tasks), None
    return text, None


def _package_text(text: str, tasks: Tasks) -> str:
    try:
        manifest = json.loads(text)
    except ValueError:
        return text
    scripts = manifest.get("scripts") if isinstance(manifest, dict) else None
    if not isinstance(scripts, dict):
        return text
    kept = {}
    for name in tasks.names:
        for each in (f"pre{name}", name, f"post{name}"):
            if each in scripts:
                kept[each] = scripts[each]
    if any(_LISTS.search(str(value)) for value in kept.values()):
        return text  # a script that runs others by pattern: every one
    return json.dumps({**manifest, "scripts": kept})


def _is_makefile(name: str) -> bool:
    lower = name.lower()
    return lower.startswith(("makefile", "gnumakefile")) or lower.endswith((".mk", ".mak", ".make"))


# A rule's header: targets, one or two colons (not `:=`, `::=`), the rest (prerequisites, `; recipe`)
_HEADER = re.compile(r"([^\t#=:][^#=:]*?)[ \t]*::?(?![=:])(.*)")
_ASSIGNED = re.compile(r"[ \t]*(?:override[ \t]+|export[ \t]+)?[^\s:#=]*[ \t]*(?:[:+?!]|::)?=")
_DEFAULT_GOAL = re.compile(r"^[ \t]*\.DEFAULT_GOAL[ \t]*:?=[ \t]*(\S*)[ \t]*$", re.MULTILINE)
_INCLUDE = re.compile(r"[ \t]*-?s?include[ \t]")
_CONDITIONAL = re.compile(r"[ \t]*(?:ifeq|ifneq|ifdef|ifndef|else|endif)\b")


class _Rule(NamedTuple):
    targets: list[str]
    prerequisites: list[str]
    lines: list[int]  # the recipe's line numbers (and a target's variable)
    header: tuple[int, str]  # its header's line and what of it is read: the targets (`$@`), an inline recipe


def _make_text(text: str, tasks: Tasks | None) -> tuple[str, Tasks | None]:
    """A Makefile's text without the recipes of the rules the tasks do not reach (None: all are), nor any rule header
    but one that calls `$(shell …)` (prerequisites are files make checks, not commands: custom-error-pages' `build:
    main.go`); its variables, conditionals, includes and `define`s stay whole."""
    if ".RECIPEPREFIX" in text:
        return text, None
    lines = text.split("\n")
    rules: list[_Rule] = []
    keep = [True] * len(lines)
    current: _Rule | None = None
    defining = False
    first_include = first_rule = first_line = -1
    at = 0
    while at < len(lines):
        start, line = at, lines[at]
        while line.endswith("\\") and at + 1 < len(lines):  # a continued line is one line
            at += 1
            line = line[:-1] + " " + lines[at]
        span = range(start, at + 1)
        at += 1
        stripped = line.strip()
        if defining:
            defining = not stripped.startswith("endef")
            continue
        if line.startswith("\t") and current is not None:
            current.lines.extend(span)
            for index in span:
                keep[index] = False
            continue
        if not stripped or stripped.startswith("#") or _CONDITIONAL.match(line):
            continue
        if re.match(r"[ \t]*(?:override[ \t]+|export[ \t]+)?define\b", line):
            defining = True
            current = None
            continue
        if _INCLUDE.match(line):
            first_include = start if first_include < 0 else first_include
            current = None
            continue
        header = _HEADER.fullmatch(line)
        if header is None or _ASSIGNED.match(line):
            current = None
            continue
        rest = header.group(2)
        prerequisites, semicolon, inline = rest.partition(";")
        current = _Rule(header.group(1).split(), [], [], (start, f"{header.group(1)}:{semicolon}{inline}"))
        if _ASSIGNED.match(prerequisites):  # `test: VAR = x`: a target's variable, kept with its rule
            current.lines.extend(span)
        else:
            current.prerequisites.extend(word for word in prerequisites.split() if word != "|")
        for index in span if "$(shell" not in line and "`" not in line else ():
            keep[index] = False
        rules.append(current)
        if first_rule < 0 and any(not t.startswith(".") or "/" in t for t in current.targets) \
                and not any("%" in t for t in current.targets):
            first_rule, first_line = len(rules) - 1, start
    whole = _kept(lines, keep, rules)
    if tasks is None:
        return whole, None
    names = set(tasks.names)
    if "" in names:  # make's default goal: `.DEFAULT_GOAL`, else the first rule's targets (not an include's)
        names.discard("")
        goal = _DEFAULT_GOAL.findall(text)
        if goal:
            if not goal[-1] or "$" in goal[-1]:
                return whole, None
            names.add(goal[-1])
        elif first_rule < 0 or 0 <= first_include < first_line:
            return whole, None  # no rule here, or an included file may define the default goal
        else:
            names.update(t for t in rules[first_rule].targets if not t.startswith(".") or "/" in t)
    chosen, unmatched = _reached(rules, names)
    if unmatched and tasks.strict:  # a target no rule here defines: any of them, and of the files it includes
        return whole, None
    passed = Tasks(frozenset(n for rule in chosen for n in (*rule.targets, *rule.prerequisites)) | names, False)
    return _kept(lines, keep, chosen), passed


def _kept(lines: list[str], keep: list[bool], chosen: list[_Rule]) -> str:
    """The lines `keep` says, the recipes of `chosen` and the read part of their headers (the other lines blank)."""
    out = [line if kept else "" for line, kept in zip(lines, keep, strict=True)]
    for rule in chosen:
        for index in rule.lines:
            out[index] = lines[index]
        at, read = rule.header
        out[at] = out[at] or read
    return "\n".join(out)


def _reached(rules: list[_Rule], names: set[str]) -> tuple[list[_Rule], bool]:
    """(the rules that build `names` and their prerequisites, recursively, whether a name of `names` is built by no
    rule); a prerequisite that is a variable's value reaches every rule whose target is one too (it may be any)."""
    by_target: dict[str, list[int]] = {}
    patterns: list[tuple[re.Pattern[str], int]] = []
    variable: list[int] = []
    for index, rule in enumerate(rules):
        for target in rule.targets:
            by_target.setdefault(target, []).append(index)
            if "%" in target:
                patterns.append((re.compile(".*".join(map(re.escape, target.split("%")))), index))
            variable += [index] if "$" in target else []
    chosen: dict[int, None] = {}
    todo = list(names)
    done: set[str] = set()
    unmatched = False
    while todo:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        hits = variable if "$" in name else by_target.get(name, []) + [
            index for pattern, index in patterns if pattern.fullmatch(name)]
        unmatched = unmatched or (not hits and name in names)
        for index in hits:
            if index not in chosen:
                chosen[index] = None
                todo.extend(rules[index].prerequisites)
    return [rules[index] for index in chosen], unmatched
