"""What a Makefile's recipes install at an exact version: the install commands a workflow's run lines are read for
(runlines.installs: `go install …@v1.62.0`, `pip install x==1.2`, `npm i -g x@1.2`, `cargo install x --version 1.2`,
…) and the GitHub releases a recipe downloads by tag (`wget https://github.com/dominikh/go-tools/releases/download/
2025.1.1/staticcheck_….tar.gz`), as jenkinsci/kubernetes-operator's lint targets do, bumped by hand ("Update
golangci-lint to v1.62.0"). Each is code the build downloads and runs.

A recipe line is a logical line (continuations joined) that starts with a tab; its `@`, `-`, `+` prefixes are
dropped. A variable reference (`$(GO)`, `${LINT_VERSION}`) is replaced by the variable's value where the file sets
it once, by a plain assignment, to a literal (makepins.literal_values); any other reference (set twice, by
override/define/a target/eval, from `$(shell …)`, or from another file by `include`, a shell variable) stays
unresolved and names no version: `go install x@$(V)` names nothing then. Three conventions are read as what they
run: `$(GO)`/`$(GO_CMD)`/`$(GOCMD)` is the go command even where its setting is not read (a patch's hunk seldom
shows it), kubebuilder's `$(call go-install-tool,$(BIN),pkg@v1.2.3)` (or `…,pkg,v1.2.3)`) is a `go install`, and a
repository's installer script piped to a shell with a tag (`curl -sSfL https://raw.githubusercontent.com/golangci/
golangci-lint/master/install.sh | sh -s -- -b $(GOBIN) v1.62.0`, runlines.releases) is that release. heldvars.py
reads the pairs (version variable, dependency) and the sides that hold an unresolved install, so a dependency one
side names and the other side installs through a variable not read is `unparsable`, never a removal; a reference
in a command's leading assignments only (`GOBIN=$(PROJECT_DIR)/bin go install …`) leaves an install it reads
resolved. A tool another Makefile reader already names (Kong's `GRPCURL_VERSION` that its recipe downloads) is named
once, by that reader (toolfiles.parse_makefile).
"""

from __future__ import annotations

import re

from gatekeeper.deps.makepins import MAX_LINE, literal_values, logical
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.runlines import installs, releases
from gatekeeper.lazy_pattern import lazy

RECIPE = "an install line of a recipe"  # heldvars' name for a recipe's install line whose version is no variable
_REF = lazy(r"\$[({](?P<var>[A-Za-z_][\w.-]{0,99})[)}]")
_UNREAD = "_UNREAD_"  # what an unresolved reference becomes: no version, no command word
# the words of a line that may install something (an unresolved one of them is held by heldvars)
_INSTALLING = lazy(r"\b(?:install|add|require|npx|uvx|dlx|run)\b|releases/download/")
# the variables that name the go command by convention (`GO_CMD ?= go`, `GO := $(shell which go)`): a reference to one
# the file does not set to a literal, or that a patch's hunk does not show, is still the go command
_GO_COMMAND = frozenset({"GO", "GO_CMD", "GOCMD"})
# kubebuilder's scaffolded macros that `go install` their second argument (`$(call go-install-tool,$(CONTROLLER_GEN),
# sigs.k8s.io/controller-tools/cmd/controller-gen@v0.14.0)`), or its second and third (`…,pkg,$(VERSION))`)
_GO_TOOL = lazy(r"\$\(call[ \t]+go-(?:install|get)-tool[ \t]*,[^,()\s]{0,300},[ \t]*(?P<pkg>[\w.~/-]{1,300}?)"
                r"(?:@(?P<at>[\w.+-]{1,100})|[ \t]*,[ \t]*(?P<version>[\w.+-]{1,100}))[ \t]*\)")
# a command's leading assignments (`GOBIN=$(PROJECT_DIR)/bin GO111MODULE=on go install …`); where commands part
_ASSIGNMENTS = lazy(r"^[ \t]*(?:[A-Za-z_]\w{0,99}=[^\s;&|]{0,1000}[ \t]+){1,16}")
_SEGMENTS = lazy(r"&&|\|\||;")  # a pipeline (`curl … | sh -s -- $(V)`) stays one command
# an innermost reference left after substitution, a function call's included (`$(@D)`, then `$(abspath _UNREAD_)`):
# one unread word, however it nests, so a leading assignment holding one (`GOBIN=$(abspath $(@D)) go install …`,
# grafana/pyroscope) ends where the shell ends it (round 50)
_INNERMOST = lazy(r"\$[({][^(){}$]{0,1000}[)}]")
_NESTING = 8  # references nested deeper stay as written: unresolved


def _substitute(line: str, values: dict[str, str]) -> tuple[str, list[str]]:
    """`line` with each reference to a variable of `values` replaced by its value (one pass: a value holds no
    reference), one to the go command's (_GO_COMMAND) by `go`, the others by _UNREAD, and a go-install-tool call by
    its `go install`; and the variables replaced, in order."""
    used: list[str] = []

    def value(m: re.Match[str]) -> str:
        var = m.group("var")
        if var in values:
            used.append(var)
            return values[var]
        return "go" if var in _GO_COMMAND else _UNREAD

    line = _GO_TOOL.sub(_go_install, _REF.sub(value, line))
    for _ in range(_NESTING):
        line, count = _INNERMOST.subn(_UNREAD, line)
        if not count:
            break
    return line, used


def _go_install(call: re.Match[str]) -> str:
    return f"go install {call.group('pkg')}@{call.group('at') or call.group('version')}"


def recipe_lines(lines: list[str], values: dict[str, str]) -> list[tuple[str, list[str]]]:
    """Each recipe line of the Makefile, the variables of `values` substituted, with the variables it used."""
    out: list[tuple[str, list[str]]] = []
    for line in logical(lines):
        if line.startswith("\t") and len(line) < MAX_LINE:
            out.append(_substitute(line[1:].lstrip("@+- \t"), values))
    return out


def recipe_installs(path: str, lines: list[str]) -> tuple[list[tuple[str, Dependency]], bool]:
    """(version variable or RECIPE, dependency) of each package or release the recipes install at an exact version,
    each once; and whether some recipe line installs through a reference left unresolved."""
    if not any(line.startswith("\t") for line in lines):
        return [], False  # no recipe: the variables need not be read
    found: dict[Dependency, str] = {}
    unread = False
    values = literal_values(lines)
    for command, used in recipe_lines(lines, values):
        deps = installs(path, command) + releases(path, command)
        for dep in deps:
            var = next((v for v in used if values[v] and values[v] in dep.version), RECIPE)
            found.setdefault(dep, var)
        unread = unread or _unresolved(path, command)
    return [(var, dep) for dep, var in found.items()], unread


def _unresolved(path: str, command: str) -> bool:
    """Whether a command of the line may install something through a reference left unresolved. A command whose
    only references are in its leading assignments (`GOBIN=$(PROJECT_DIR)/bin go install x@v1`) and whose install is
    read is resolved: where the tool lands does not change what it is."""
    for part in _SEGMENTS.split(command):
        if (_UNREAD in part or "$(" in part or "${" in part) and _INSTALLING.search(part):
            rest = _ASSIGNMENTS.sub("", part, count=1)
            if _UNREAD in rest or "$(" in rest or "${" in rest or not installs(path, rest) + releases(path, rest):
                return True
    return False


def long_installs(lines: list[str]) -> set[str]:
    """The recipe lines past the reader's bound (MAX_LINE) that may install something: never read, so a side holding
    one the other side does not is reviewed (heldvars.py), not taken for naming nothing (attack 33)."""
    return {line for line in logical(lines) if line.startswith("\t") and len(line) >= MAX_LINE
            and _INSTALLING.search(line)}


def parse_recipes(path: str, lines: list[str]) -> list[Dependency]:
    """The dependencies the Makefile's recipes install (recipe_installs)."""
    return [dep for _, dep in recipe_installs(path, lines)[0]]
