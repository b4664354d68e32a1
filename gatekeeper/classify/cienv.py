"""What a CI definition's own environment makes its steps run (attack 36, tests/test_attack36_ci_paths.py).

- **Its variables.** A workflow's `env:` (top, job or step), GitLab's and Azure's `variables:` (a `{value: …}` entry,
  Azure's `- name:`/`value:` list) and CircleCI's or Drone's `environment:` set variables a step's command then uses:
  `env: TOOL: tools/tool` and `run: ./$TOOL` runs `tools/tool`. A line that uses such a variable (`$TOOL`, `${TOOL}`,
  `${{ env.TOOL }}`, PowerShell's `$env:TOOL`, cmd's `%TOOL%`, Azure's `$(TOOL)`) is read again once per value the
  definition gives it anywhere (a superset of what any one step sees), beside the line as written.
- **Its own folder, then up.** `${{ github.action_path }}/../bin/tool` in `tools/act/action.yml` runs `tools/bin/tool`:
  the steps up are taken from the action's folder (before, the expression was read as the folder and the leading
  `../` dropped, so `tools/act/bin/tool` and `bin/tool` were named instead).
- **What it hands a local action or reusable workflow.** `uses: ./.github/actions/run` with `with: tool: tools/tool`
  (a step's or a job's) runs whatever the callee does with `${{ inputs.tool }}` (`run: ./${{ inputs.tool }}`, a
  variable part the callee's own reading cannot place): each one-word value with a folder is named from the caller.
- **Its PATH.** A folder a step puts on PATH holds programs later commands run by their bare names: a line written to
  `$GITHUB_PATH` (`echo "$GITHUB_WORKSPACE/tools/bin" >> "$GITHUB_PATH"`, PowerShell's `Add-Content`/`Out-File`), a
  `PATH=…` assignment (`export`, `PATH+=`, a YAML `PATH:` key, a `PATH=` line written to `$GITHUB_ENV`), Azure's
  `##vso[task.prependpath]DIR`: every file below such a folder of the checkout is named (`DIR/${x}`). The checkout's
  root spelt as `$PWD`, `$(pwd)`, `$(git rev-parse --show-toplevel)`, `$env:GITHUB_WORKSPACE` and a folder written as
  `$(realpath DIR)`, `$(readlink -f DIR)` or `$(cd DIR && pwd)` are read as that folder. *Limits:* a folder outside the
  checkout or after another variable (`$HOME/.local/bin`, `$GOPATH/bin`), and the root itself (its files are not told
  apart from the files below it), name nothing.
"""

from __future__ import annotations

import functools
import math
import posixpath
import re
from collections import Counter
from typing import Any

import yaml

from gatekeeper.bounded import load_yaml
from gatekeeper.classify.treereads import PastBound
from gatekeeper.errors import LimitError

__all__ = ["MAX_VALUE", "MAX_VALUES", "expanded", "path_folders", "handed", "parsed", "up_from_action", "values"]

MAX_VALUES = 256  # variables with values a definition gives (past it: the rest are not read, each use as before)
MAX_VALUE = 256  # characters of a value read (a longer one, or one over lines, is not substituted)
MAX_VARIANTS = 32  # copies a line may become (past it: the line as written only)
MAX_LINE = 4096  # characters of a line read for uses (a longer one: as written only)
MAX_ADDED = 256 * 1024  # characters of copies a text may gain; past it PastBound
_KEYS = frozenset({"env", "variables", "environment"})
_SETS = re.compile(r"^[ \t]*(?:-[ \t]*)?['\"]?(?:env|variables|environment|inputs|parameters)['\"]?[ \t]*:",
                   re.MULTILINE)
# Groovy (a Jenkinsfile's `environment { TOOL = 'tools/tool' }`, `def tool = "…"`, `env.TOOL = …`), `withEnv(['X=v'])`
_GROOVY_SET = re.compile(r"""^[ \t]*(?:(?:def|String|final)[ \t]+|env\.)?([A-Za-z_]\w{0,127})[ \t]*=[ \t]*(['"])"""
                         r"""([^'"$\n]{1,256})\2[ \t]*;?[ \t]*$""", re.MULTILINE)
_WITH_ENV = re.compile(r"""['"]([A-Za-z_]\w{0,127})=([^'"$\n]{1,256})['"]""")
# a Makefile's variable (`TOOL := tools/tool`, `?=`, `+=`, `::=`, `export`/`override`), used as `$(TOOL)`/`${TOOL}`
_MAKE_SET = re.compile(r"""^[ \t]*(?:(?:export|override)[ \t]+)?([A-Za-z_][\w.-]{0,127})[ \t]*(?::{1,3}=|[?+]?=)"""
                       r"""[ \t]*([^\s$#;'"]{1,256})[ \t]*(?:#[^\n]*)?$""", re.MULTILINE)
# a command line's own assignment (`TOOL=tools/tool`, `export TOOL="…"`, `X=v; ./$X`), not a `VAR=x cmd` prefix
_SHELL_SET = re.compile(r"""(?:^|[\s;&|:])(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)*)[ \t]+)?"""
                        r"""([A-Za-z_]\w{0,127})=(['"]?)([^'"$\s;&|`()<>]{1,256})\2(?=[ \t]*(?:$|[;&|#]))""",
                        re.MULTILINE)
# any assignment of a name, whatever its value (`DIR=$(dirname "$0")` then `DIR=$HOME/x`: reassigned, not read)
_ANY_SET = re.compile(r"""(?:^|[\s;&|:(])(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)*|override|def|String"""
                      r"""|final)[ \t]+|env\.)?([A-Za-z_]\w{0,127})[ \t]*(?::{1,3}|[?+])?=(?!=)""", re.MULTILINE)
# a step's output: `echo "tool=v" >> "$GITHUB_OUTPUT"`, the older `::set-output name=tool::v`
_OUTPUT = re.compile(r"""\b([A-Za-z_][\w-]{0,127})=([^'"$\s;&|`()<>]{1,256})['"]?[ \t]*>>[ \t]*['"]?"""
                     r"""\$\{?GITHUB_OUTPUT""")
_SET_OUTPUT = re.compile(r"::set-output[ \t]+name=([\w-]{1,128})::([^\s'\"]{1,256})")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,127}")
# a use: ${{ env.X }} (an input's, a parameter's), Groovy's ${env.X}, ${X}, $env:X, $X, %X%, $(X)
_USE = re.compile(r"\$\{\{\s*(?:env|inputs|github\.event\.inputs|parameters|steps\.[\w-]{1,128}\.outputs)\."
                  r"([A-Za-z_][\w-]*)\s*\}\}|\$\{env\.(\w+)\}"
                  r"|\$\{([A-Za-z_]\w*)\}|\$env:([A-Za-z_]\w*)|\$([A-Za-z_]\w*)|%([A-Za-z_]\w*)%|\$\(([A-Za-z_][\w.]*)\)")
# PATH as set (a YAML key, an assignment, `+=`, Jenkins' `PATH+X=`), not `$PATH`, `${PATH}`, GITHUB_PATH or PYTHONPATH
_PATH_SET = re.compile(r"""(?<![\w${.-])PATH(?:\+\w{1,64})?['"]?[ \t]*(?::{1,3}=|[?+]?=|:[ \t])[ \t]*"""
                       r"""((?:"[^"\n]*"|'[^'\n]*'|[^\s;&|#"'])+)""")
_PREPEND = re.compile(r"##vso\[task\.prependpath\]([^\s'\"]+)", re.IGNORECASE)
# the checkout's root at a folder's start, as the shells spell it (ciloops.rooted has the CI systems' variables)
_ROOT = re.compile(r"^(?:\$\{?PWD\}?|\$\(pwd(?:[ \t]+-[LP])?\)|`pwd`|\$pwd"
                   r"|\$\(git[ \t]+rev-parse[ \t]+--show-toplevel\)|\$env:GITHUB_WORKSPACE|%GITHUB_WORKSPACE%"
                   r"|\$\{\{\s*github\.workspace\s*\}\}|\$\{?(?:env\.)?WORKSPACE\}?)(?=/|$)",
                   re.IGNORECASE)
_ROOT_ANYWHERE = re.compile(r"\$\(pwd(?:[ \t]+-[LP])?\)|\$\(git[ \t]+rev-parse[ \t]+--show-toplevel\)")
_SUBSTITUTION = re.compile(r"\$\([^()\n]*\)|`[^`\n]*`")
_RESOLVED = re.compile(r"\$\((?:realpath(?:[ \t]+-[a-z]+)*|readlink[ \t]+-[a-z]*f|cd)[ \t]+['\"]?([^\s'\"();&]+)['\"]?"
                       r"(?:[ \t]*(?:&&|;)[ \t]*pwd(?:[ \t]+-[LP])?)?\)")
_PRINTERS = frozenset({"echo", "printf", "tee", "realpath", "readlink", "cat", "add-content", "out-file", "set-content",
                       "write-output", "run:", "-", "|", "&"})
# an action's own folder with steps up after it (`${{ github.action_path }}/../bin/tool`)
_ACTION_UP = re.compile(r"(?:\$\{\{\s*(?:github\.action_path|env\.GITHUB_ACTION_PATH)\s*\}\}"
                        r"|\$\{?GITHUB_ACTION_PATH\b\}?|\$env:GITHUB_ACTION_PATH|%GITHUB_ACTION_PATH%)"
                        r"((?:[/\\]\.\.)+)(?=[/\\])", re.IGNORECASE)
_LOCAL_USES = re.compile(r"""\buses['"]?[ \t]*:[ \t]*['"]?\.[/\\]""")
_WORD = re.compile(r"""(?:"[^"\n]*"|'[^'\n]*'|[^\s;&|"'<>])+""")


@functools.lru_cache(maxsize=4)
def parsed(text: str) -> Any:
    """The YAML definition `text` as data (None when it is no YAML or past the bounds): one parse for the readers of
    its variables, the paths it hands local actions and its matrix values (ciforms.expand_matrix)."""
    try:
        return load_yaml(text, "definition")
    except (yaml.YAMLError, LimitError, ValueError, RecursionError):
        return None


def values(text: str) -> dict[str, list[str]]:
    """{variable: every value the YAML definition `text` gives it in an `env:`, `variables:` or `environment:`
    mapping}; none when `text` is not YAML or sets none."""
    if ("$" not in text and "%" not in text) or (_SETS.search(text) is None and "=" not in text):
        return {}
    document = parsed(text) if _SETS.search(text) is not None else None  # a script is parsed as no YAML
    yaml_text = isinstance(document, (dict, list))
    settings = _settings(document, 0) if yaml_text else _WITH_ENV.findall(text)
    if "=" in text:  # what its command lines assign (a name assigned once: shellvars' order rules), a step's outputs
        lines = [(name, value) for name, _, value in _SHELL_SET.findall(text)]
        lines += [] if yaml_text else [(name, value) for name, _, value in _GROOVY_SET.findall(text)] + \
            _MAKE_SET.findall(text)
        counts = Counter(_ANY_SET.findall(text))
        settings += [(name, value) for name, value in lines if counts[name] <= 1]
        settings += _OUTPUT.findall(text) + _SET_OUTPUT.findall(text) if "OUTPUT" in text.upper() else []
    found: dict[str, list[str]] = {}
    for name, value in settings:
        if len(found) >= MAX_VALUES and name not in found:
            break
        for spelt in dict.fromkeys((name, name.upper().replace(".", "_"))):  # Azure: `a.b` is $A_B in the shell
            found.setdefault(spelt, [])
            if value not in found[spelt]:
                found[spelt].append(value)
    return found


def _settings(node: Any, depth: int) -> list[tuple[str, str]]:
    """(name, value) of every variable a mapping under one of _KEYS sets, at any depth (bounded)."""
    if depth > 12:
        return []
    out: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if str(key) in _KEYS:
                out += _assigned(value)
            elif str(key) in ("inputs", "parameters"):  # an input's or a template parameter's default
                out += _defaults(value)
            out += _settings(value, depth + 1)
    elif isinstance(node, list):
        for item in node:
            out += _settings(item, depth + 1)
    return out


def _assigned(node: Any) -> list[tuple[str, str]]:
    """A variables mapping's (name, value) pairs: `X: v`, GitLab's `X: {value: v}`, Azure's `- name: X` `value: v`."""
    pairs: list[tuple[Any, Any]] = []
    if isinstance(node, dict):
        pairs = [(key, value.get("value") if isinstance(value, dict) else value) for key, value in node.items()]
    elif isinstance(node, list):
        pairs = [(item.get("name"), item.get("value")) for item in node if isinstance(item, dict)]
    # a value holding another variable or expression adds nothing its use did not (and would add variable parts)
    return [(str(name), str(value)) for name, value in pairs
            if isinstance(value, (str, int, float)) and not isinstance(value, bool) and _NAME.fullmatch(str(name))
            and str(value).strip() and len(str(value)) <= MAX_VALUE and not any(c in str(value) for c in "$%\n")]


def _defaults(node: Any) -> list[tuple[str, str]]:
    """The defaults of a workflow's, an action's or an Azure template's inputs: `tool: {default: v}`, `- name: tool`
    `default: v` (what `${{ inputs.tool }}` is when a schedule, a dispatch or a caller gives none)."""
    items = [(key, value) for key, value in node.items()] if isinstance(node, dict) else \
        [(item.get("name"), item) for item in node if isinstance(item, dict)] if isinstance(node, list) else []
    return _assigned({str(name): entry.get("default") for name, entry in items if isinstance(entry, dict)})


def expanded(text: str, known: dict[str, list[str]]) -> str:
    """`text` with each line that uses a variable of `known` followed by its copies, one per value (every combination
    of the variables it uses, at most MAX_VARIANTS)."""
    if not known or ("$" not in text and "%" not in text):
        return text
    out: list[str] = []
    added = 0
    for line in text.splitlines():
        out.append(line)
        if ("$" not in line and "%" not in line) or len(line) > MAX_LINE:
            continue  # a longer line (bundled code) is read as written
        used = [name for name in dict.fromkeys(next(part for part in match if part) for match in _USE.findall(line))
                if name in known]
        if not used or math.prod(len(known[name]) for name in used) > MAX_VARIANTS:
            continue
        variants = [line]
        for name in used:
            variants = [_substituted(variant, name, value) for variant in variants for value in known[name]]
        added += sum(map(len, variants))
        if added > MAX_ADDED:
            raise PastBound  # what a later line names cannot be told: the walk closes, a patch names every file
        out += variants
    return "\n".join(out)


def _substituted(line: str, name: str, value: str) -> str:
    return _USE.sub(lambda match: value if next(part for part in match.groups() if part) == name else match.group(0),
                    line)


def path_folders(text: str) -> list[str]:
    """The patterns of the files below each checkout folder `text` puts on PATH (`tools/bin/${x}`)."""
    if "PATH" not in text and "prependpath" not in text.lower():
        return []
    entries: list[str] = []
    for match in _PATH_SET.finditer(text):
        entries += match.group(1).replace('"', "").replace("'", "").split(":")
    entries += _PREPEND.findall(text)
    for line in text.splitlines():
        if "GITHUB_PATH" in line and "GITHUB_PATH=" not in line.replace(" ", ""):
            # `$(go env GOPATH)/bin`: no folder of the checkout
            line = _SUBSTITUTION.sub(" ", _ROOT_ANYWHERE.sub(".", _RESOLVED.sub(r"\1", line)))
            words = [word.strip("'\"") for word in _WORD.findall(line)]
            entries += [word for word in words if "GITHUB_PATH" not in word and not word.startswith("-")
                        and word.lower() not in _PRINTERS]
    out = []
    for entry in entries:
        folder = _ROOT.sub(".", _RESOLVED.sub(r"\1", entry.strip().replace("\\", "/"))).rstrip("/")
        if folder.strip("./") and not folder.startswith(("$", "~", "/", "%")) and "://" not in folder:
            out.append(f"{folder}/${{x}}")
    return list(dict.fromkeys(out))


def up_from_action(path: str, text: str) -> str:
    """`text` with an action's own folder followed by steps up (`$GITHUB_ACTION_PATH/../lib/x.py` in
    `tools/act/action.yml`) written as the folder from the root it is (`tools/lib/x.py`); ciloops.rooted reads the
    expression alone as the definition's folder, and a path's leading `../` is dropped where it is matched."""
    if "ACTION_PATH" not in text.upper():
        return text
    own = path.rpartition("/")[0]

    def folder(match: re.Match[str]) -> str:
        up = posixpath.normpath(posixpath.join(own or ".", match.group(1).replace("\\", "/").lstrip("/")))
        return match.group(0) if up == ".." or up.startswith("../") else up
    return _ACTION_UP.sub(folder, text)


def handed(text: str) -> list[str]:
    """The paths the YAML definition `text` hands a local action or reusable workflow (`uses: ./…` with `with: tool:
    tools/tool`): the callee runs what its `${{ inputs.tool }}` says (a value with a folder, one word)."""
    if _LOCAL_USES.search(text) is None:
        return []
    return [value for value in _inputs(parsed(text), 0)
            if ("/" in value or "\\" in value) and not value.startswith(("$", "/", "~")) and "://" not in value
            and len(value.split()) == 1 and len(value) <= MAX_VALUE]


def _inputs(node: Any, depth: int) -> list[str]:
    if depth > 12:
        return []
    if isinstance(node, list):
        return [value for item in node for value in _inputs(item, depth + 1)]
    if not isinstance(node, dict):
        return []
    out: list[str] = []
    uses, given = node.get("uses"), node.get("with")
    if isinstance(uses, str) and uses.startswith(("./", ".\\")) and isinstance(given, dict):
        out += [str(value).strip() for value in given.values() if isinstance(value, str)]
    return out + [value for child in node.values() for value in _inputs(child, depth + 1)]
