"""The part of a task file the tasks a caller runs read (taskunits.py; over-reads 2): a package.json's scripts of
those names with their `pre`/`post` scripts, a Makefile's recipes of the targets and their prerequisites (no rule
header's prerequisites: files make checks, not commands), a justfile's recipes and their dependencies. Whole where it
cannot be read that way (taskunits.py's module text)."""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from gatekeeper.bounded import load_json
from gatekeeper.classify import ciforms, nixstrings, runall, scriptgraphs
from gatekeeper.classify.taskunits import Tasks
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["command_text", "is_makefile", "package_lines", "restricted", "runs_own_tasks"]


def restricted(path: str, text: str, tasks: Tasks | None) -> str:
    """The part of the text at `path` the tasks (None: all) run; the whole text where it cannot be read that way."""
    name = path.rpartition("/")[2]
    if is_makefile(name):  # read whole, still without its rules' headers
        return _make_text(text, tasks)
    if tasks is None:
        return text
    if name.lower() in ("justfile", ".justfile"):
        return _just_text(text, tasks)
    if name == "package.json":
        return _package_text(text, tasks)
    if name == "tox.ini":
        return _tox_text(text, tasks)
    return text


def _package_text(text: str, tasks: Tasks) -> str:
    try:
        manifest = load_json(text, "package.json")
    except (ValueError, LimitError):
        return text  # read whole: ciruns._package decides what a file it cannot read names
    scripts = manifest.get("scripts") if isinstance(manifest, dict) else None
    if not isinstance(scripts, dict):
        return text
    # in the file's order, not the asked names' (a frozenset's order varies with PYTHONHASHSEED: the text a reader
    # reads across scripts must be one text; determinism round 44)
    asked = {each for name in tasks.names for each in (f"pre{name}", name, f"post{name}")}
    kept = {name: value for name, value in scripts.items() if name in asked}
    if any(runall.LISTS.search(str(value)) for value in kept.values()):
        listed = runall.expanded(scripts, kept)  # npm-run-all's names and patterns: those scripts (label88)
        if listed is None:
            return text  # another runner of script lists, or one not read: every script
        kept = listed
    return json.dumps({**manifest, "scripts": kept})


def command_text(path: str, text: str) -> str:
    """What the CI walk's command readers read of the (restricted) text at `path`: a package.json's commands, each
    script's decoded string on its own line (package_lines), never its JSON text, where a reader's words ran past one
    script's closing quote into the next (`"cd e2e && npm i", "t": "node ./test/x.js"`: determinism 45); the text
    itself for any other file and for a package.json that does not read as an object (fail closed: read whole)."""
    if nixstrings.is_nix(path):
        return nixstrings.commands(text)  # its strings, never its package lists (nixstrings.py)
    if path.rpartition("/")[2] != "package.json":
        return text
    try:
        manifest = load_json(text, "package.json")
    except (ValueError, LimitError):
        return text
    if not isinstance(manifest, dict) or not isinstance(manifest.get("scripts", {}), dict):
        return text
    return "\n".join(package_lines(manifest))


def package_lines(manifest: dict[str, object]) -> list[str]:
    """A package.json's command lines, each read alone: its scripts' values, what semantic-release's plugins run
    (`release`'s `prepareCmd`: ciforms.release_commands) and wireit's commands (misses 6), in that order."""
    scripts = manifest.get("scripts")
    return [str(value) for value in (*(scripts.values() if isinstance(scripts, dict) else ()),
                                     *ciforms.release_commands(manifest.get("release")),
                                     *scriptgraphs.wireit_commands(manifest.get("wireit")))]


def runs_own_tasks(path: str) -> bool:
    """Whether the task file at `path` names itself only through its runner (a sub-make, `just x`, `npm run x` in its
    own recipes or scripts): one not literal reads it whole again (over-reads 5, 6); pytest's `tox.ini` is settings."""
    name = path.rpartition("/")[2]
    return is_makefile(name) or name.lower() in ("justfile", ".justfile") or name == "package.json"


def is_makefile(name: str) -> bool:
    lower = name.lower()
    return lower.startswith(("makefile", "gnumakefile")) or lower.endswith((".mk", ".mak", ".make"))


# A rule's header: targets, one or two colons (not `:=`, `::=`), the rest (prerequisites, `; recipe`)
_HEADER = re.compile(r"([^\t#=:][^#=:]*)::?(?![=:])(.*)")
_ASSIGNED = re.compile(r"[ \t]*(?:override[ \t]+|export[ \t]+)?[^\s:#=]*[ \t]*(?:[:+?!]|::)?=")
_DEFAULT_GOAL = re.compile(r"^[ \t]*\.DEFAULT_GOAL[ \t]*:?=[ \t]*(\S*)[ \t]*$", re.MULTILINE)
_INCLUDE = re.compile(r"[ \t]*-?s?include[ \t]")
_EVAL = re.compile(r"\$[({]eval[ \t]")  # a rule made at run time: its targets are known only then
_CONDITIONAL = re.compile(r"[ \t]*(?:ifeq|ifneq|ifdef|ifndef|else|endif)\b")
# make drops a leading `./` (with the slashes after it, repeated) from every goal, target and prerequisite it reads:
# `make ./deploy` runs `deploy:`'s recipe, `make deploy` runs `./deploy:`'s (review 67a)
_DOT_SLASH = re.compile(r"\A(?:\./+)+(?=.)")


# A recipe's automatic variable for its prerequisites (`$<`, `$^`, `$+`, `$?`, `$(<F)`, `${^}`): `run: gen.sh` then
# `./$<` runs the prerequisite
_AUTOMATIC = lazy(r"\$(?:[<^+?]|[({][<^+?])")


_MAX_PATTERNS = 64  # pattern rules of a Makefile read by its targets (each asked of every name reached): then whole


class _Rule(NamedTuple):
    targets: list[str]
    prerequisites: list[str]
    lines: list[int]  # the recipe's line numbers (and a target's variable)
    header: tuple[int, str]  # its header's line and what of it is read: the targets (`$@`), an inline recipe


def _make_text(text: str, tasks: Tasks | None) -> str:
    """A Makefile's text without the recipes of the rules the tasks do not reach (None: all are), nor any rule header
    but one that calls `$(shell …)` (prerequisites are files make checks, not commands: custom-error-pages' `build:
    main.go`); its variables, conditionals, includes and `define`s stay whole."""
    if ".RECIPEPREFIX" in text:
        return text
    lines = text.split("\n")
    rules: list[_Rule] = []
    keep = [True] * len(lines)
    current: _Rule | None = None
    defining = False
    first_include = first_rule = -1
    at = 0
    while at < len(lines):
        start, pieces = at, [lines[at]]
        while pieces[-1].endswith("\\") and at + 1 < len(lines):  # a continued line is one line
            at += 1
            pieces[-1] = pieces[-1][:-1]
            pieces.append(lines[at])
        line = " ".join(pieces)
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
            first_rule = len(rules) - 1
    whole = _kept(lines, keep, rules)
    if tasks is None or first_include >= 0 or sum("%" in "".join(rule.targets) for rule in rules) > _MAX_PATTERNS:
        return whole  # an included file may add a prerequisite to a target, set the default goal, define the target
    names = set(tasks.names)
    if "" in names:  # make's default goal: `.DEFAULT_GOAL`, else the first rule's targets (not an include's)
        names.discard("")
        goal = _DEFAULT_GOAL.findall(text)
        if goal:
            if not goal[-1] or "$" in goal[-1]:
                return whole
            names.add(goal[-1])
        elif first_rule < 0:
            return whole
        else:
            names.update(t for t in rules[first_rule].targets if not t.startswith(".") or "/" in t)
    chosen, unmatched = _reached(rules, names)
    # a goal no rule here builds stops make (its variable-valued targets, patterns and .DEFAULT were reached: over-reads
    # 4); one a rule made at run time may build: the whole file
    return whole if unmatched and _EVAL.search(text) is not None else _kept(lines, keep, chosen)


def _kept(lines: list[str], keep: list[bool], chosen: list[_Rule]) -> str:
    """The lines `keep` says, the recipes of `chosen` and the read part of their headers (the other lines blank)."""
    out = [line if kept else "" for line, kept in zip(lines, keep, strict=True)]
    for rule in chosen:
        for index in rule.lines:
            out[index] = lines[index]
        at, read = rule.header
        targets, _, inline = read.partition(":")
        if _AUTOMATIC.search(inline) or any(_AUTOMATIC.search(lines[index]) for index in rule.lines):
            read = f"{targets}: {' '.join(rule.prerequisites)} {inline}"  # `./$<`: its prerequisites are run
        out[at] = out[at] or read
    return "\n".join(out)


def _reached(rules: list[_Rule], names: set[str]) -> tuple[list[_Rule], bool]:
    """(the rules that build `names` and their prerequisites, recursively, whether a name of `names` is built by no
    rule of a literal target or pattern); a prerequisite that is a variable's value reaches every rule whose target is
    one too (it may be any), and so does a goal no other rule builds, with `.DEFAULT`'s recipe."""
    by_target: dict[str, list[int]] = {}
    patterns: list[tuple[re.Pattern[str], int]] = []
    variable: list[int] = []
    default: list[int] = []
    for index, rule in enumerate(rules):
        for target in map(_made, rule.targets):
            by_target.setdefault(target, []).append(index)
            if "%" in target:
                patterns.append((re.compile(".*".join(map(re.escape, target.split("%")))), index))
            variable += [index] if "$" in target else []
            default += [index] if target == ".DEFAULT" else []
    chosen: dict[int, None] = {}
    names = {_made(name) for name in names}
    todo = list(names)
    done: set[str] = set()
    unmatched = False
    while todo:
        name = _made(todo.pop())
        if name in done:
            continue
        done.add(name)
        hits = variable if "$" in name else by_target.get(name, []) + [
            index for pattern, index in patterns if pattern.fullmatch(name)]
        if not hits and name in names:
            unmatched, hits = True, variable + default
        for index in hits:
            if index not in chosen:
                chosen[index] = None
                todo.extend(rules[index].prerequisites)
    return [rules[index] for index in chosen], unmatched


def _made(name: str) -> str:
    """The name make reads for `name`: without a leading `./` (`.//./deploy` is `deploy`)."""
    return _DOT_SLASH.sub("", name) if name.startswith("./") else name


# A justfile recipe's header: `@`? name, parameters (`mode='debug'`, `*args`), `:` (not `:=`), its dependencies
_RECIPE = re.compile(r"@?([A-Za-z_][\w-]*)((?:[ \t][^:\n]*)?):(?!=)(.*)")
_ALIAS = re.compile(r"alias[ \t]+([\w-]+)[ \t]*:=[ \t]*([\w-]+)")
_DEPENDENCY = re.compile(r"\(?([A-Za-z_][\w-]*)")


def _just_text(text: str, tasks: Tasks) -> str:
    """A justfile's text without the bodies and headers of the recipes the tasks do not reach (a recipe's
    dependencies, before and after `&&`, are reached; "" is the first recipe); its settings, variables (a backtick
    runs when just loads the file) and imports stay. Whole when no name asked is a recipe here (an imported file's or
    a module's may be), or a `[default]` attribute chooses the default."""
    if "[default" in text:
        return text
    lines = text.split("\n")
    keep = [True] * len(lines)
    recipes: dict[str, list[int]] = {}
    needs: dict[str, list[str]] = {}
    aliases = {alias: target for alias, target in _ALIAS.findall(text)}
    first = ""
    current: str | None = None
    for at, line in enumerate(lines):
        if current is not None and (line[:1] in (" ", "\t") or not line.strip()):
            recipes[current].append(at)
            keep[at] = False
            continue
        current = None
        header = _RECIPE.fullmatch(line)
        if header is None or line.startswith(("alias ", "set ", "export ", "import", "mod ")):
            continue
        current = header.group(1)
        first = first or current
        recipes.setdefault(current, []).append(at)
        needs.setdefault(current, []).extend(_DEPENDENCY.findall(header.group(3).replace("&&", " ")))
        keep[at] = False
    asked = {aliases.get(name, name) or first for name in tasks.names} if tasks.names != frozenset({""}) else {first}
    todo = [name for name in asked if name in recipes]
    if tasks.names and not todo:
        return text
    chosen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in chosen and name in recipes:
            chosen.add(name)
            todo += [aliases.get(need, need) for need in needs.get(name, [])]
    for name in chosen:
        for at in recipes[name]:
            keep[at] = True
    return "\n".join(line if kept else "" for line, kept in zip(lines, keep, strict=True))


_BASE = re.compile(r"^[ \t]*base[ \t]*=", re.MULTILINE)  # tox 4: a section that inherits another's settings
_SECTION = re.compile(r"^\[([^\]\n]*)\][ \t]*$", re.MULTILINE)


def _tox_text(text: str, tasks: Tasks) -> str:
    """A tox.ini without the `[testenv:NAME]` sections of the environments the tasks do not name: every other section
    stays (`[tox]`, the `[testenv]` every environment inherits, with its factor-conditional lines); a generative
    section (`[testenv:py{311,312}-lint]`) stays. Whole when a kept section refers to another's settings
    (`{[testenv:lint]commands}`, tox 4's `base =`)."""
    starts = [(match.start(), match.group(1).strip()) for match in _SECTION.finditer(text)]
    parts = [text[:starts[0][0]] if starts else text]
    for index, (start, section) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        env = section.partition(":")[2].strip() if section.startswith("testenv:") else None
        if env is None or env in tasks.names or "{" in env or "," in env:
            parts.append(text[start:end])
        else:
            parts.append("\n" * text.count("\n", start, end))  # its lines blank: the others keep their numbers
    kept = "".join(parts)
    return text if "{[testenv:" in kept or _BASE.search(kept) else kept
