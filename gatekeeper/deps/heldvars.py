"""A dependency one side names and the other side still sets in a form the reader does not resolve (docs review 54,
item 9; issue 14).

A Makefile's commit pin (makepins.py), `<TOOL>_VERSION` variable (toolfiles.tool_variables) and recipe install
(makerecipes.py: its version variable, or a side's install line left unresolved) and an Omnibus definition's
`default_version` (omnibus.py) are read only when set once, to a literal the reader knows: a second
assignment, `override`, `define`, a target-specific or `$(eval ...)` setting, a value holding a variable, an
abbreviated commit, a repository variable that is no plain URL, `default_version ENV[...]` name nothing, since which
value the build takes is the program's own logic. Read side by side, such a side made the other side's dependency a
`removed` (or `added`) change, and a deny-free gate allowed it. Here, when the variable (or definition) that named a
dependency on one side is still set on the other side but names nothing there, and that side names the dependency
nowhere else, the file is an `unparsable` problem (reviewed) and that dependency's change is dropped. A variable gone
from the file is a removal, as before; a variable read on both sides (a pin moved to another repository) is a change.
A Makefile's dependency one side names that the other side still mentions by name without naming it (`sh -c 'go
install …'`, `target: ; go install …`, a `define`, a loop: forms the recipe reader does not read) is one too, and so
is a side holding a recipe install line past the reader's bound the other side does not (attack 33); a mention
inside a longer name that side reads (the module's next major, `…/golangci-lint/v2`) is none, and a Go module the
other side reads at another major's path is that move, never held. A MODULE.bazel's
`git_override` (bazelpins.py) read on one side and moved to a form not read on the other (an abbreviated commit, a
`tag`, an argument no literal) is held by its module_name the same way: no removal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from gatekeeper.deps import bazelpins, bazelrepos, omnibus
from gatekeeper.deps.loaders import text
from gatekeeper.deps.makepins import MAX_LINE, pin_variables
from gatekeeper.deps.makerecipes import RECIPE, long_installs, recipe_installs
from gatekeeper.deps.model import Dependency, ManifestError, Problem
from gatekeeper.deps.toolfiles import tool_variable_names
from gatekeeper.lazy_pattern import lazy

Key = tuple[str, str]  # (ecosystem, name)
# any setting of a variable: `X = `, `X ?= `, `X := `, `override X = `, `target: X = `, `$(eval X = )`, `define X`
_SETTING = lazy(r"(?<![\w$(])(?P<var>[A-Z][A-Z0-9_]{0,99})\s*(?::{0,3}|[?+!])=|\bdefine\s+(?P<defined>[A-Z]"
                      r"[A-Z0-9_]{0,99})\b")
_GO_MAJOR = lazy(r"/v\d{1,9}$")  # a Go module path's major version suffix (`…/golangci-lint/v2`)
_DEFAULT = "default_version"  # an Omnibus definition's one handle: it names the file's software


def _makefile(path: str, lines: list[str]) -> tuple[dict[Key, str], set[str]]:
    named = {(dep.ecosystem, dep.name): var for var, dep in pin_variables(path, lines)}
    for var, dep in tool_variable_names(path, lines):
        named.setdefault((dep.ecosystem, dep.name), var)
    held = {m.group("var") or m.group("defined") for line in lines for m in _SETTING.finditer(line)}
    recipes, unread = recipe_installs(path, lines)  # makerecipes.py: a version variable's or an install line's
    for var, dep in recipes:
        named.setdefault((dep.ecosystem, dep.name), var)
    return named, held | ({RECIPE} if unread else set())


def _omnibus(path: str, lines: list[str]) -> tuple[dict[Key, str], set[str]]:
    try:
        deps = omnibus.parse_definition(path, "\n".join(lines).encode())
    except ManifestError:
        deps = []
    return {(d.ecosystem, d.name): _DEFAULT for d in deps}, {_DEFAULT} if any(
        omnibus.setting(line) for line in lines) else set()


def _bazel_repos(path: str, lines: list[str]) -> tuple[dict[Key, str], set[str]]:
    """bazelrepos.py: each download read, by its call's name; the names of the calls not read (or UNNAMED)."""
    read, unread = bazelrepos.read(path, bazelrepos.strip_comments("\n".join(lines)))
    named = {(dep.ecosystem, dep.name): name for name, dep in read}
    return named, unread


def _module_bazel(path: str, lines: list[str]) -> tuple[dict[Key, str], set[str]]:
    """The downloads (_bazel_repos) and the `git_override` pins (bazelpins.held) of a MODULE.bazel."""
    named, held = _bazel_repos(path, lines)
    pins, overrides = bazelpins.held(bazelrepos.strip_comments("\n".join(lines)), bazelrepos.UNNAMED)
    return named | pins, held | overrides


_READERS: dict[str, Callable[[str, list[str]], tuple[dict[Key, str], set[str]]]] = {
    "Makefile": _makefile, "omnibus": _omnibus, "bazel-repos": _bazel_repos, "MODULE.bazel": _module_bazel}


def unresolved(fmt: str, path: str, blobs: Sequence[bytes | None], sides: Sequence[Sequence[Dependency]],
               hunks: bool = False) -> tuple[list[Problem], set[Key]]:
    """The problems of a file whose one side names a dependency its other side still sets unresolved, and those
    dependencies' keys (their changes are no removal or addition: the caller drops them). `hunks`: the sides are a
    patch's hunk lines, where a variable the head lines do not set at all may still be set out of sight: a removal
    so is one too."""
    reader = _READERS.get(fmt)
    if reader is None or blobs[0] is None or blobs[1] is None:
        return [], set()
    read = [reader(path, text(blob).splitlines()) for blob in (blobs[0], blobs[1])]
    problems: list[Problem] = []
    keys: set[Key] = set()
    texts = [text(blob) for blob in (blobs[0], blobs[1])]
    for one, other, label in ((0, 1, "head"), (1, 0, "base")):
        named, held = read[other]
        there = {(d.ecosystem, d.name) for d in sides[other]}
        majors = {_GO_MAJOR.sub("", name) for eco, name in there if eco == "go"}
        if fmt == "Makefile" and long_installs(texts[other].splitlines()) - long_installs(texts[one].splitlines()):
            problems.append(Problem(path, "unparsable", f"{label}: a recipe line longer than {MAX_LINE} characters "
                                    "may install something: not read"))
        # RECIPE is held by a side with an install line left unresolved, whatever else its install lines name; a
        # literal install line a patch's head lines do not show was deleted in sight (a removal)
        # so is a side with a download call whose name is not read (bazelrepos.UNNAMED): it may be any of them
        unread = held - set(named.values()) | (held & {RECIPE, bazelrepos.UNNAMED})
        for key, var in read[one][0].items():
            anywhere = bazelrepos.UNNAMED in unread
            # the other side reads the module at another major's path: a move (delta._major_moves), held only by a
            # mention of its own
            moved = key[0] == "go" and _GO_MAJOR.sub("", key[1]) in majors
            if key not in there and (not moved and (var in unread or anywhere or hunks and one == 0 and var not in held
                                                    and var != RECIPE) or fmt == "Makefile"
                                     and _mentioned(key[1], texts[other], sides[other])):
                keys.add(key)
                problems.append(Problem(path, "unparsable", f"{label}: {var} may still set {key[1][:80]!r} in a form "
                                        "not read (set more than once, overridden, not a literal, or abbreviated): "
                                        "not read as a removal or an addition"))
    return problems, keys


def _mentioned(name: str, data: str, read: Sequence[Dependency]) -> bool:
    """Whether `name` (a package, module or tool name) stands in `data` as a word of its own: a Makefile that still
    names the dependency somewhere installs it, maybe, in a form not read. A dependency `data`'s side reads under a
    longer name (`github.com/golangci/golangci-lint/v2` for the module's new major) does not mention it."""
    for longer in sorted({d.name for d in read if d.name.startswith(name + "/")}, key=len, reverse=True)[:64]:
        data = data.replace(longer, " ")
    return bool(name) and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", data, re.IGNORECASE) is not None
