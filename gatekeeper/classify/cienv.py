"""What a CI definition's own environment makes its steps run (attack 36, tests/test_attack36_ci_paths.py).

- **Its variables** (`env:`, `variables:`, `environment:`, inputs' defaults, what its lines assign) are read by
  runvars.py (`values`, `expanded`: one substitution since the cileft64 round); `parsed` is the one YAML parse.
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
import posixpath
import re
from typing import Any

import yaml

from gatekeeper.bounded import load_yaml
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_VALUE", "handed", "parsed", "path_folders", "up_from_action"]

MAX_VALUE = 256  # characters of a value read (a longer one, or one over lines, is not substituted)
# PATH as set (a YAML key, an assignment, `+=`, Jenkins' `PATH+X=`), not `$PATH`, `${PATH}`, GITHUB_PATH or PYTHONPATH
_PATH_SET = lazy(r"""(?<![\w${.-])PATH(?:\+\w{1,64})?['"]?[ \t]*(?::{1,3}=|[?+]?=|:[ \t])[ \t]*"""
                       r"""((?:"[^"\n]*"|'[^'\n]*'|[^\s;&|#"'])+)""")
_PREPEND = lazy(r"##vso\[task\.prependpath\]([^\s'\"]+)", re.IGNORECASE)
# the checkout's root at a folder's start, as the shells spell it (ciloops.rooted has the CI systems' variables)
_ROOT = lazy(r"^(?:\$\{?PWD\}?|\$\(pwd(?:[ \t]+-[LP])?\)|`pwd`|\$pwd"
                   r"|\$\(git[ \t]+rev-parse[ \t]+--show-toplevel\)|\$env:GITHUB_WORKSPACE|%GITHUB_WORKSPACE%"
                   r"|\$\{\{\s*github\.workspace\s*\}\}|\$\{?(?:env\.)?WORKSPACE\}?)(?=/|$)",
                   re.IGNORECASE)
_ROOT_ANYWHERE = lazy(r"\$\(pwd(?:[ \t]+-[LP])?\)|\$\(git[ \t]+rev-parse[ \t]+--show-toplevel\)")
_SUBSTITUTION = lazy(r"\$\([^()\n]*\)|`[^`\n]*`")
_RESOLVED = lazy(r"\$\((?:realpath(?:[ \t]+-[a-z]+)*|readlink[ \t]+-[a-z]*f|cd)[ \t]+['\"]?([^\s'\"();&]+)['\"]?"
                       r"(?:[ \t]*(?:&&|;)[ \t]*pwd(?:[ \t]+-[LP])?)?\)")
_PRINTERS = frozenset({"echo", "printf", "tee", "realpath", "readlink", "cat", "add-content", "out-file", "set-content",
                       "write-output", "run:", "-", "|", "&"})
# an action's own folder with steps up after it (`${{ github.action_path }}/../bin/tool`)
_ACTION_UP = lazy(r"(?:\$\{\{\s*(?:github\.action_path|env\.GITHUB_ACTION_PATH)\s*\}\}"
                        r"|\$\{?GITHUB_ACTION_PATH\b\}?|\$env:GITHUB_ACTION_PATH|%GITHUB_ACTION_PATH%)"
                        r"((?:[/\\]\.\.)+)(?=[/\\])", re.IGNORECASE)
_LOCAL_USES = lazy(r"""\buses['"]?[ \t]*:[ \t]*['"]?\.[/\\]""")
_WORD = lazy(r"""(?:"[^"\n]*"|'[^'\n]*'|[^\s;&|"'<>])+""")
_COMMENT = lazy(r"^[ \t]*#[^\n]*$", re.MULTILINE)
# where a command starts in a line: after an operator or keyword; a first segment's list mark and command key (`- run:`,
# `script:`, a Jenkins step's `sh '…'`)
_SEGMENT = lazy(r"&&|\|\||[;&|(`]|\$\(|\b(?:then|do|else)\b")
_COMMAND_KEY = lazy(r"^[ \t]*+(?:-[ \t]++)?+(?:(?:run|script|command|commands|before_script|after_script|cmd"
                          r"|entrypoint)[ \t]*+:[ \t]*+(?:[|>][-+]?+)?+|(?:sh|bat|pwsh|powershell)[ \t]++(?=['\"]))?+")
_BARE = lazy(r"[A-Za-z0-9_][\w.+-]{0,127}")
_ASSIGNMENT = lazy(r"[A-Za-z_]\w*=")
_BEFORE = frozenset({"sudo", "exec", "env", "time", "nice", "nohup", "command", "!", "if", "elif", "while", "until",
                     "-", "@", "+"})
_BUILTINS = frozenset({"cd", "echo", "export", "set", "unset", "source", ".", "eval", "exit", "return", "then", "else",
                       "fi", "for", "do", "done", "case", "esac", "test", "[", "true", "false", "printf", "read",
                       "local", "readonly", "declare", "shift", "trap", "wait", "pwd", "alias", "type", "builtin",
                       "let", "ulimit", "umask", "function", "in", "{", "}", "run", "script", "name", "uses", "with",
                       "steps", "shell", "env", "if", "jobs", "on"})


@functools.lru_cache(maxsize=4)
def parsed(text: str) -> Any:
    """The YAML definition `text` as data (None when it is no YAML or past the bounds): one parse for the readers of
    its variables, the paths it hands local actions and its matrix values (ciforms.expand_matrix)."""
    try:
        return load_yaml(text, "definition")
    except (yaml.YAMLError, LimitError, ValueError, RecursionError):
        return None


def path_folders(text: str) -> list[str]:
    """The patterns of the files below each checkout folder `text` puts on PATH (`tools/bin/${x}`); for the checkout's
    root, each bare command name of `text` (a root file of that name: `mytool`)."""
    if "PATH" not in text and "prependpath" not in text.lower():
        return []
    text = _COMMENT.sub("", text)  # a comment puts nothing on PATH
    entries: list[str] = []
    root = False
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
        root = root or folder in (".", "./")
    # the root (cileft64): its files are run by their bare names
    return list(dict.fromkeys(out + (bare_commands(text) if root else [])))


def bare_commands(text: str) -> list[str]:
    """The names of `text`'s commands written without a folder (`mytool --go`, `sh 'mytool'`), builtins aside."""
    out: list[str] = []
    for written in text.splitlines():
        # a command substitution is one word of its line (`PATH="$PATH:$(pwd)" mytool`) and a line of its own
        inner = [found[2:-1] if found[0] == "$" else found[1:-1] for found in _SUBSTITUTION.findall(written)]
        for line in (_SUBSTITUTION.sub("_", written), *inner):
            for at, segment in enumerate(_SEGMENT.split(line)):
                words = [word.strip("'\"") for word in
                         (_COMMAND_KEY.sub("", segment, count=1) if at == 0 else segment).split(None, 8)]
                first = next((word for word in words if word not in _BEFORE and _ASSIGNMENT.match(word) is None), "")
                if _BARE.fullmatch(first) is not None and first not in _BUILTINS:
                    out.append(first)
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
