"""The files a command line runs by a path without an extension (red team 19; read by ciruns.named).

A command's first word with a `/` (`bin/release`, after the shell's own words and assignments), or the script an
interpreter runs (`sh tools/publish`, `python3 -u tools/gen`, `python -m tools.release`). ciruns reads each line again
from the command behind a wrapper (`sudo`, `env`, `timeout 60`, ...), a redirection or `$(`: wrappers.py's one table.
"""

from __future__ import annotations

import re

from gatekeeper.classify.wrappers import PLAIN

__all__ = ["HOLE", "scripts"]

HOLE = "\x01"  # a `${{ … }}` expression while the words are split (`${x}` to path_pattern: a variable part)
_GLOB = re.compile(r"[*?]")
# A command's place in a line (red team 19's extension-less scripts): after an operator, a keyword, a YAML key that
# holds commands (attack 36: `shell: tools/myshell {0}`, Azure's `filePath:`/`scriptPath:`, `entrypoint:`; a Jenkins
# step's quoted command, `sh 'python3 tools/gen'`); the words before it; the interpreters whose first word they run.
_SEGMENTS = re.compile(r"&&|\|\||[;&|(`{]|\$\(|\b(?:then|do|else)\b")
_KEY = re.compile(r"^[ \t]*+(?:-[ \t]++)?+(?:(?:run|script|entry|command|commands|before_script|after_script|sh|bat"
                  r"|pwsh|exec|install|before_install|shell|filepath|scriptpath|scriptfile|script[-_]path"
                  r"|entry[-_]?point)[ \t]*+[:=][ \t]*+(?:[|>][-+]?[ \t]*+)?(?:-[ \t]++)?+"
                  r"|(?:sh|bat|pwsh|powershell)[ \t]++(?=['\"]))?+",
                  re.IGNORECASE)
_SHELL_OPTION = re.compile(r"[-+][a-zA-Z]*[oO]")  # a shell's option whose value is the next word
_SHELL = re.compile(r"(?:ba|z|k|da|a)?sh")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
# What a line must hold for _commands to find anything: a `/` (a path) or a word an interpreter or `.` may be.
_MAY_RUN = re.compile(r"(?:^|[\s;&|(`'\"])(?:\.|source|[a-z]*sh|py[a-z]*[0-9.]*w?|node\w*|ruby|perl|pwsh|powershell"
                      r"|php|lua|tclsh|rscript|deno|bun|tsx|ts-node|groovy|uv)(?:\.exe)?[ \t]", re.IGNORECASE)
_INTERPRETER = re.compile(r"(?:ba|z|k|da|a|fi)?sh|python[0-9.]*w?|pypy[0-9.]*|node(?:js)?|ruby|perl|pwsh|powershell"
                          r"(?:\.exe)?|php|lua|tclsh|rscript|deno|bun|tsx|ts-node|source|\.|groovy|uv|-file")

def scripts(line: str) -> list[str]:
    """The files a line's commands run by a path without an extension: a command's first word with a `/`
    (`bin/release`, after `if`/`!`/assignments), or the script an interpreter runs (`sh tools/publish`,
    `python3 -u tools/gen`): red team 19."""
    found = []
    for segment in _SEGMENTS.split(line) if "/" in line or _MAY_RUN.search(line) is not None else ():
        words = _KEY.sub("", segment, count=1).replace("'", " ").replace('"', " ").split(None, 12)
        at = 0
        while at < len(words) and (words[at] in PLAIN or _ASSIGNMENT.match(words[at]) is not None):
            at += 1
        if at == len(words):
            continue
        first = words[at].rstrip(":")
        program = first.rpartition("/")[2].lower()
        if _INTERPRETER.fullmatch(program) is not None:
            found += _module(words[at + 1:]) if program.startswith("py") else []
            # `bash < steps.txt`: the shell reads its script on standard input (red team 12, second round)
            # a shell's `-o pipefail`/`-euo pipefail`/`+O extglob` takes the word after it (attack 36)
            rest = [word.lstrip("<") for before, word in zip(words[at:], words[at + 1:], strict=False)
                    if not word.startswith("-") and word not in ("run", "exec", "<")
                    and (_SHELL_OPTION.fullmatch(before) is None or _SHELL.fullmatch(program) is None)]
            found += rest[:1]
        elif "/" in first and "." not in first.rpartition("/")[2] and not first.startswith(("/", "-", "~")):
            found.append(first)
    # a variable part would name every file of a folder (`'packages/${{ matrix.package }}'`, a quoted input read as a
    # line), `@` is an action's or a package's version (`owner/action@v2`)
    return [word for word in found if _GLOB.search(word) is None and "://" not in word and word.strip("./")
            and not any(mark in word for mark in ("$", HOLE, "@", "%"))]


def _module(words: list[str]) -> list[str]:
    """The files `python -m tools.release` runs: the module's file or its package's `__main__.py` (red team 12, second
    round: the release job's code, named by its module)."""
    if "-m" not in words[:-1]:
        return []
    module = words[words.index("-m") + 1]
    if re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", module) is None:
        return []
    path = module.replace(".", "/")
    return [f"{path}.py", f"{path}/__main__.py"]
