"""A Makefile's commit pins: a repository the build clones and checks out at a commit its variables set.

mudler/LocalAI's backends pin llama.cpp so (`LLAMA_VERSION?=<40-hex commit>` beside `LLAMA_REPO?=https://github.com/
ggerganov/llama.cpp`, bumped nightly by its own workflow, "bump LLAMA_VERSION to 0d0764dfd"); a fork's backend hands
another pin to the same recipe (`LLAMA_REPO=$(LLAMA_REPO) LLAMA_VERSION=$(TURBOQUANT_VERSION)`). Such a move changes
the code the build compiles in, and no reader named it. Here a variable `<STEM>_VERSION` (or `_COMMIT`, `_SHA`,
`_REF`) holding a full 40-hex commit is the ecosystem `git` dependency named by the repository URL (host and path,
`github.com/ggerganov/llama.cpp`) of the variable `<STEM>_REPO` (or `_REPOSITORY`, `_REPO_URL`, `_GIT_URL`) of the
same file, or of the one repository variable a logical line (continuations joined) uses beside the pin. Not read:
a pin tied to two repositories, one set more than once (or by override/define/a target/eval: the build's own logic
decides), an abbreviated commit, a repository variable that is no plain https URL, a pin handed to another
Makefile (`LLAMA_VERSION=$(CPPLLAMA_VERSION) $(MAKE) -C backend/cpp/llama`: that file's repository is not read).
"""

from __future__ import annotations

from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

_ASSIGN = lazy(r"^(?:export\s+)?(?P<var>[A-Z][A-Z0-9_-]{0,99})\s*(?::{0,3}|[?+!])=\s*(?P<value>[^\s#$]{1,300})\s*"
               r"(?:#.*)?$")
_PIN_VAR = lazy(r"^(?P<stem>[A-Z][A-Z0-9_-]*?)_(?:VERSION|COMMIT|SHA|REF)$")
_REPO_VAR = lazy(r"^(?P<stem>[A-Z][A-Z0-9_-]*?)_(?:REPO|REPOSITORY|REPO_URL|GIT_URL)$")
_COMMIT = lazy(r"^[0-9a-f]{40}$")
_URL = lazy(r"^https://(?P<where>[A-Za-z0-9.-]{1,253}(?::\d{1,5})?/[\w.-]{1,100}(?:/[\w.-]{1,100}){1,4}?)"
            r"(?:\.git)?/?$")
# a setting by override, define, a target or `$(eval ...)` (docs review 54: eval went uncounted)
_OTHER_SET = lazy(r"^\s*(?:override|define)\s+([A-Z][A-Z0-9_-]{0,99})"
                  r"|^[^\s:#=]+:\s+(?:export\s+)?([A-Z][A-Z0-9_-]{0,99})\s*(?::{0,3}|[?+!])=|\$\(eval\s+(?:override\s+)?([A-Z][A-Z0-9_-]{0,99})\s*(?::{0,3}|[?+!])=")
_USE = lazy(r"\$[({](?P<var>[A-Z][A-Z0-9_-]{0,99})[)}]")
MAX_LINE = 8192  # a logical line longer than this (continuations joined) ties nothing


def logical(lines: list[str]) -> list[str]:
    """The Makefile's logical lines: continuation lines joined (each at most MAX_LINE characters)."""
    out: list[str] = []
    pending = ""
    for line in lines:
        joined = pending + line
        if joined.endswith("\\") and len(joined) < MAX_LINE:
            pending = joined[:-1] + " "
            continue
        pending = ""
        out.append(joined[:MAX_LINE])
    return out


def commit_pins(path: str, lines: list[str]) -> list[Dependency]:
    """The `git` dependencies the Makefile's commit pins name (see the module's docstring)."""
    return [dep for _, dep in pin_variables(path, lines)]


def literal_values(lines: list[str]) -> dict[str, str]:
    """The variables `lines` set once, by a plain assignment, to a literal (no variable in it): their values."""
    values: dict[str, list[str]] = {}
    settings: dict[str, int] = {}
    for line in lines:
        if (m := _ASSIGN.match(line)) is not None:
            values.setdefault(m.group("var"), []).append(m.group("value"))
        elif (word := _OTHER_SET.search(line)) is not None:
            name = word.group(1) or word.group(2) or word.group(3)
            settings[name] = settings.get(name, 0) + 1  # set another way: the build's own logic decides
    return {var: found[0] for var, found in values.items() if len(found) == 1 and var not in settings}


def pin_variables(path: str, lines: list[str]) -> list[tuple[str, Dependency]]:
    """(pin variable, its `git` dependency) of each commit pin commit_pins reads."""
    once = literal_values(lines)
    pins = {var: value for var, value in once.items() if _PIN_VAR.match(var) and _COMMIT.match(value)}
    if not pins:
        return []
    repos = {var: m.group("where") for var, value in once.items() if _REPO_VAR.match(var)
             and (m := _URL.match(value)) is not None}
    stems = {m.group("stem"): var for var in repos if (m := _REPO_VAR.match(var)) is not None}
    ties: dict[str, set[str]] = {}
    for pin in pins:
        stem = _PIN_VAR.match(pin)
        if stem is not None and stem.group("stem") in stems:
            ties.setdefault(pin, set()).add(stems[stem.group("stem")])
    if repos and any("$" in line for line in lines):
        for line in logical(lines):
            used = {m.group("var") for m in _USE.finditer(line)}
            named = used & repos.keys()
            for pin in used & pins.keys():
                if len(named) == 1:
                    ties.setdefault(pin, set()).update(named)
    out: list[tuple[str, Dependency]] = []
    for pin, tied in ties.items():
        if len({repos[var] for var in tied}) == 1:
            out.append((pin, Dependency("git", repos[next(iter(tied))], pins[pin], path, True, "build")))
    return out


def unshown_pins(raw: list[str], base: list[Dependency], head: list[Dependency]) -> list[str]:
    """The commit pins a patch's changed lines (`-`/`+` hunk lines) move whose repository the hunks do not show (no
    `git` dependency read at that commit): from a patch their move is unnamed, so the caller makes it `partial`."""
    named = {d.version for d in base + head if d.ecosystem == "git"}
    out: list[str] = []
    for line in raw:
        if line[:1] in ("+", "-") and not line.startswith(("+++", "---")) \
                and (m := _ASSIGN.match(line[1:])) is not None and _PIN_VAR.match(m.group("var")) \
                and _COMMIT.match(m.group("value")) and m.group("value") not in named and m.group("var") not in out:
            out.append(m.group("var"))
    return out
