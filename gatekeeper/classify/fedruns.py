"""The files a shell runs through something it hands them to (issue 12, the cileft67 round; ciruns.named reads them).

- **A function that runs its argument.** `run() { bash "$1"; }` then `run tools/gen`: the function's body runs `$1`
  (or `"$@"`, `$*`, `${1}`) as a command or hands it to a shell or interpreter (`bash`, `sh`, `python3`, `source`,
  `.`, `exec`, `eval`, behind `sudo`/`env`/`time`, after `do`/`then`/`&&`); a call's words that are paths (a `/` in
  them) are scripts it runs, extensionless ones too (ciruns names those only with `./`). A function that prints,
  tests or reads its argument (`echo "$1"`, `test -f "$1"`, `local f="$1"`) runs nothing.
- **Words fed to xargs.** `echo tools/gen | xargs bash`, `printf '%s\\n' a b | xargs -n1 sh`: xargs appends what
  echo prints to the shell's command; the printed words that are paths are scripts. xargs into a reader or a linter
  (`| xargs cat`, `| xargs shellcheck`) runs none.

Bounds: MAX_FUNCTIONS runner functions a text defines (past it, the rest are not read: each call is a word the word
scan of ciruns still reads when it has a script's type); a body is read to MAX_BODY lines. Patterns are possessive,
each match linear in its line.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_BODY", "MAX_FUNCTIONS", "function_runs", "xargs_runs"]

MAX_FUNCTIONS = 32  # runner functions read per text
MAX_BODY = 64  # lines of a function's body read for a run of its argument
_INTERPRETERS = r"bash|sh|zsh|dash|ksh|source|python[\d.]*+|node|ruby|perl|pwsh|exec|eval|command|time|sudo|env"
_DEFINED = lazy(r"^[ \t]*+(?:function[ \t]++([A-Za-z_][\w-]{0,63}+)[ \t]*+(?:\(\)[ \t]*+)?+|"
                r"([A-Za-z_][\w-]{0,63}+)[ \t]*+\(\)[ \t]*+)\{", re.MULTILINE)
# `$1`, `"$@"`, `${1}` at a command's start: the line's, after `{ ; & | ( do then else`, or after an interpreter and
# its options (`sudo -E bash "$1"`)
_RUNS_ARGUMENT = lazy(r"(?:^|[;&|{(]|(?<![\w-])(?:do|then|else)|(?<![\w-])(?:" + _INTERPRETERS + r"|\.)"
                      r"(?:[ \t]++-[\w-]++)*+)[ \t]*+\"?+\$(?:\{(?:[1-9]|@|\*)\}|[1-9@*])", re.MULTILINE)
_WORD = lazy(r"""[^\s'";|&()<>]++""")
_XARGS = lazy(r"(?<![\w-])(?:echo|printf)[ \t]++([^|\n]{0,4096}+)\|[ \t]*+xargs(?:[ \t]++-[^\s]++(?:[ \t]++\d++)?+"
              r"|[ \t]++-I[ \t]*+\S++)*+[ \t]++(?:" + _INTERPRETERS + r")(?![\w-])")


def function_runs(text: str) -> list[str]:
    """The paths `text`'s calls of its own functions that run their argument hand them (`run tools/gen`)."""
    if "()" not in text and "function" not in text:
        return []
    lines = text.splitlines()
    starts = {number: hit[1] or hit[2] for number, line in enumerate(lines) if "{" in line
              and (hit := _DEFINED.match(line)) is not None}
    runners: set[str] = set()
    for number, name in starts.items():
        if len(runners) >= MAX_FUNCTIONS:
            break
        if _runs_argument(lines, number):
            runners.add(name)
    if not runners:
        return []
    found = []
    for number, line in enumerate(lines):
        words = _WORD.findall(line)
        if not words or number in starts:
            continue
        at = 1 if words[0] in ("sudo", "time") and len(words) > 1 else 0
        if words[at] in runners:
            found += [word for word in words[at + 1:] if "/" in word and not word.startswith(("-", "$"))]
    return list(dict.fromkeys(found))


def _runs_argument(lines: list[str], first: int) -> bool:
    """Whether the function defined on line `first` runs its argument before its body closes."""
    body = lines[first].partition("{")[2]
    if body.rstrip().endswith("}"):  # a one-line body
        return _RUNS_ARGUMENT.search(body.rstrip()[:-1]) is not None
    for line in lines[first + 1:first + 1 + MAX_BODY]:
        if line.strip() == "}":
            return False
        if _RUNS_ARGUMENT.search(line) is not None:
            return True
    return _RUNS_ARGUMENT.search(body) is not None


def xargs_runs(line: str) -> list[str]:
    """The paths `echo`/`printf` print into `xargs` running a shell or interpreter on `line` (`echo a.sh | xargs
    bash`)."""
    if "xargs" not in line or line.lstrip().startswith("#"):
        return []
    return [word for hit in _XARGS.finditer(line) for word in _WORD.findall(hit[1])
            if "/" in word and not word.startswith(("-", "$", "%"))]
