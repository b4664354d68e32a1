"""The folders a shell script keeps in its own variables, for the CI walk (issue 12, ci recall; cileft62).

A script CI runs often finds its helpers through a variable it set itself a few lines up: `DIR="$(cd "$(dirname
"${BASH_SOURCE[0]}")" && pwd)"` then `. "$DIR/helpers/log"`, `ROOT=$(dirname "$0")/..` then `"$ROOT/scripts/build"`,
`ROOT=$(git rev-parse --show-toplevel)`, or `LIB=tools/lib` then `source $LIB/common.sh`. The words alone hide the
file: ciruns drops a leading variable (`lib.sh` below the root or the script's folder, never `../lib.sh` from the
script's folder) and skips a command word with a `$` in it (an extension-less helper). `resolved_lines` writes the
script's lines again with each such variable's folder in place, read beside the original lines (only raising: what
the original words named is still named):

- the script's own folder, as the usual idioms spell it (`$(dirname "$0")`, `${BASH_SOURCE%/*}`, `$(cd -- "$(dirname
  -- "${BASH_SOURCE[0]}")" &>/dev/null && pwd -P)`, through `realpath`/`readlink -f`, `/..` steps and nested
  `dirname`s going up), as its path from the root (a step up past the root: not resolved);
- the repository's root (`$(git rev-parse --show-toplevel)`): `.`;
- a literal relative path (`tools/lib`, `../common`), or one built from a variable already known (`"$DIR/../lib"`).

A default the caller may override (`${DIR:-$(dirname "$0")}`) is read as its fallback, a variable holding the
script's own path (`SCRIPT=$(readlink -f "$0")`, `SELF="${BASH_SOURCE[0]}"`) as `$0` where a later value uses it, and
a rewritten line without its quotes (`"$DIR/"../lib`: one word; attack 35). Only a variable the script assigned on an
earlier line counts, with its last such value; one reassigned to anything
else (`DIR=$1`, `DIR=$HOME/x`) is forgotten, and one it never assigned (the environment's `$WORKSPACE`, `$HOME`) is
left as it was. Bounded: one pass over the lines, values at most MAX_VALUE characters, the lines written again at
most MAX_OUT characters in all, counted as each use is written; past it PastBound (what a later line names cannot be
told: the walk closes, and patch mode names every shown file; attack 35: a cut left the uses after it unnamed).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.treereads import PastBound
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_BODY_LINES", "MAX_OUT", "MAX_VALUE", "is_shell", "resolved_lines"]

MAX_VALUE = 256  # characters of a literal value kept (a longer one is no folder a script names)
MAX_OUT = 64 * 1024  # characters of rewritten lines per script; past it PastBound: the walk closes (attack 35)
MAX_BODY_LINES = 128  # lines of a rewritten loop's body written again with its header (past it: as before)
_LOOP = lazy(r"(?:^|[\s;&|(])(?:for[ \t]++[A-Za-z_]\w*+[ \t]++in|while|until)(?=[ \t])")
_DONE = lazy(r"(?<![\w-])done(?![\w-])")
_SHELL_TYPES = ("sh", "bash", "zsh", "ksh", "")  # a shell script's extension (or none: `ci/build`, `task`)
# `NAME=value`, after `export`/`local`/... and after a declaration of its own (`local dir; dir=…`)
_ASSIGN = lazy(r"^[ \t]*+(?:(?:local|declare|typeset)[ \t]++[A-Za-z_][A-Za-z0-9_]*+[ \t]*+;[ \t]*+)?+"
               r"(?:(?:export|readonly|local|declare|typeset)(?:[ \t]++-[A-Za-z]++)*+[ \t]++)?+"
               r"([A-Za-z_][A-Za-z0-9_]*+)=(.*)$")
# `"$DIR"` and `"${DIR}"` whole (the quotes go with it: `"$DIR"/lib.sh` is one word), else `$DIR`, `${DIR}`
_USE = lazy(r'"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*+))"|\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}'
            r"|([A-Za-z_][A-Za-z0-9_]*+))")
# The words the own-folder idioms are made of; a value that is anything else is not one of them.
_OWN_WORDS = lazy(r"""[ \t]++|["'`]|\$\(|\)|\$\{0%/\*\}|\$\{BASH_SOURCE(?:\[0\])?%/\*\}|\$0\b|\$\{0\}"""
                  r"""|\$\{BASH_SOURCE(?:\[0\])?:-\$0\}|\$\{?BASH_SOURCE(?:\[0\])?\}?|\bcd\b|\bdirname\b|\bpwd\b|\brealpath\b|\breadlink\b|\bgit\b"""
                  r"""|\brev-parse\b|--show-toplevel\b|--(?=[ \t"'])|-[PLfems]\b|&&|;|&>|2>&1|>|/dev/null"""
                  r"""|/\.\.(?=/|\W|$)|/(?=[)"'`])""")
_SELF = ("$0", "${0}", "${0%/*}", "BASH_SOURCE")
# The own-folder idioms written in a line itself (`. "$(dirname "$0")/../lib/log"`, `"${BASH_SOURCE%/*}"/../x`,
# `$(cd "$(dirname "$0")/.." && pwd)/bin/x`): ciruns reads them as `.`, which the `..` after them then leaves
_SELF_WORD = r"""["']?\$(?:0|\{0\}|\{?BASH_SOURCE(?:\[0\])?\}?)["']?"""
_IN_LINE = r"""\$\(dirname[ \t]++(?:--[ \t]++)?""" + _SELF_WORD + r"""[ \t]*+\)|\$\{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\}"""
_DIRECT = lazy(r'"?(?:\$\(cd[ \t]++(?:--[ \t]++)?"?(' + _IN_LINE + r')((?:/\.\.)*+)"?[ \t]*+(?:&&|;)[ \t]*+pwd'
               r'(?:[ \t]++-[PL])?[ \t]*+\)|(' + _IN_LINE + r'))"?')
# a default the caller may override (`${DIR:-$(dirname "$0")}`): the value it falls back to (attack 35)
_DEFAULT = lazy(r"""["']?\$\{[A-Za-z_][A-Za-z0-9_]*+:?[-=](.*)\}["']?""")
_SELF_PATH = "\0"  # _folder's answer for the script's own path (`SCRIPT=$(readlink -f "$0")`): read as `$0` later
_LITERAL = lazy(r"[A-Za-z0-9_.+@-]++(?:/[A-Za-z0-9_.+@-]++)*+/?")
# a known folder made absolute (`$(cd "$DIR/.." && pwd)`, `$(realpath "$DIR/..")`, `$(readlink -f "$DIR")`): the folder
_WRAPPED = lazy(r"""\$\((?:cd[ \t]++(?:--[ \t]++)?|realpath[ \t]++(?:-s[ \t]++)?|readlink[ \t]++-[fem][ \t]++)"""
                r"""["']?([^"'$()`;&|\s]++)["']?(?:[ \t]*+(?:&&|;)[ \t]*+pwd(?:[ \t]++-[PL])?)?[ \t]*+\)""")


def is_shell(name: str) -> bool:
    """A file name a shell script may have (a makefile's `$(VAR)` and a YAML file's `run:` are not read here)."""
    dot = name.rfind(".")
    return (name[dot + 1:].lower() if dot > 0 else "") in _SHELL_TYPES and not name.lower().startswith(
        ("makefile", "gnumakefile", "dockerfile", "containerfile", "jenkinsfile", "earthfile", "vagrantfile"))


def resolved_lines(path: str, text: str) -> str:
    """The lines of the script at `path` that use a variable it set earlier to a folder (module docstring), written
    again with that folder in place of the variable; "" when there is none."""
    if "$" not in text or ("=" not in text and "dirname" not in text and "%/*}" not in text):
        return ""
    own = path.rpartition("/")[0]
    known: dict[str, str] = {}
    selves: set[str] = set()  # the variables holding the script's own path (`SCRIPT="${BASH_SOURCE[0]}"`)
    out: list[str] = []
    size = [0]

    def put(hit: re.Match[str]) -> str:  # a known folder in place of a use, counted as it is written
        value = known.get(next(g for g in hit.groups() if g), hit.group(0))
        size[0] += len(value)
        if size[0] > MAX_OUT:
            raise PastBound  # what a later line names cannot be told: the walk closes (attack 35), not cut
        return value

    carried = 0  # lines of a rewritten loop's body still to write again (its header alone names no run)
    for whole in text.splitlines():
        # `DIR=$(dirname "$0"); . $DIR/lib` on one line: each statement in order (cileft63)
        statements = _statements(whole) if "=" in whole and (";" in whole or "&&" in whole) else [whole]
        rewritten = []
        for line in statements:
            written = _DIRECT.sub(lambda hit: _up(own, hit), line) if (
                "dirname" in line or "%/*}" in line) else line
            if known and "$" in written:
                written = _USE.sub(put, written)
            rewritten.append(written)
            if "=" in line and (assigned := _ASSIGN.match(line)) is not None:
                _assign(assigned, written != line and _ASSIGN.match(written) or None, own, known, selves)
        if rewritten != statements or carried:
            written = "; ".join(rewritten).replace('"', "").replace("'", "")  # `"$DIR/"../lib`: one word
            size[0] += len(written)
            if size[0] > MAX_OUT:
                raise PastBound
            out.append(written)
            # a loop whose header it rewrote (`for t in $ROOT/verify/*.sh`, `do` and `bash "$t"` below: spf13/pflag,
            # the seventy-fifth set): its body's lines up to `done` go with it, as ciloops reads a loop
            done = _DONE.search(written) is not None
            if rewritten != statements and not carried and _LOOP.search(written) is not None and not done:
                carried = MAX_BODY_LINES
            else:
                carried = 0 if done else max(carried - 1, 0)
    return "\n".join(out)


def _assign(assigned: re.Match[str], written: re.Match[str] | None, own: str, known: dict[str, str],
            selves: set[str]) -> None:
    """Note the folder (or the script's own path) an assignment gives its variable, or forget the variable."""
    source = _USE.sub(lambda hit: "$0" if next(g for g in hit.groups() if g) in selves else hit.group(0),
                      assigned.group(2)) if selves else assigned.group(2)
    value = _folder(source, own, written)
    selves.discard(assigned.group(1))
    if value == _SELF_PATH:
        selves.add(assigned.group(1))
    if value is None or value == _SELF_PATH:
        known.pop(assigned.group(1), None)
    else:
        known[assigned.group(1)] = value


def _statements(line: str) -> list[str]:
    """`line` cut at each `;`, `&&` and `||` outside quotes, `$(…)` and backquotes (nested as the shell nests them):
    its statements, in order (one pass)."""
    out: list[str] = []
    start, at, open_ = 0, 0, list[str]()  # the quotes and parentheses open at `at`, innermost last
    while at < len(line):
        char, top = line[at], open_[-1] if open_ else ""
        if top == "'" or top == "`" and char != "`":
            open_.pop() if char == top else None
        elif top == '"' and char not in '"$':
            pass
        elif char == top and char in "\"`" or char == ")" and top == "(":
            open_.pop()
        elif char in "'\"`" and top != '"' or char == '"' or line.startswith("$(", at) or char == "(" and top != '"':
            open_.append("(" if char in "$(" else char)
            at += 2 if char == "$" else 1
            continue
        elif not open_ and (char == ";" or line.startswith(("&&", "||"), at)):
            out.append(line[start:at])
            at += 1 if char == ";" else 2
            start = at
            continue
        at += 1
    return [*out, line[start:]]


def _up(own: str, hit: re.Match[str]) -> str:
    """The folder an own-folder idiom of a line stands for (its `/..` steps up), from the root (`.`: the root); the
    idiom as written when it steps above the root."""
    folder = posixpath.normpath(posixpath.join(own or ".", *[".."] * (hit.group(2) or "").count("/..")))
    return hit.group(0) if folder.startswith("..") else folder


def _folder(value: str, own: str, written: re.Match[str] | None) -> str | None:
    """The folder an assigned value stands for, from the root (`.`: the root); None for anything else."""
    value = value.split(" #", 1)[0].strip().rstrip(";").strip()
    value = default.group(1) if (default := _DEFAULT.fullmatch(value)) is not None else value
    words = [hit.group(0) for hit in _OWN_WORDS.finditer(value)]
    if value and "".join(words) == value and any(word.startswith("$") for word in words):
        if "--show-toplevel" in words:
            return "."
        if not any(self in word for word in words for self in _SELF):
            return None
        ups = words.count("dirname") + sum(word.startswith("${") and "%/*" in word for word in words) - 1
        ups += words.count("/..")
        if ups == -1 and "/.." not in words:
            return _SELF_PATH
        folder = posixpath.normpath(posixpath.join(own or ".", *[".."] * ups)) if ups >= 0 else None
        return folder if folder is not None and not folder.startswith("..") else None
    if written is not None:  # built from a variable already known (`"$DIR/../lib"`): its value as written
        value = written.group(2).split(" #", 1)[0].strip().rstrip(";").strip()
        value = value[1:-1] if len(value) > 1 and value[0] == value[-1] == '"' else value
        value = wrapped.group(1) if (wrapped := _WRAPPED.fullmatch(value)) is not None else value
    value = value.strip("\"'")
    if len(value) > MAX_VALUE or _LITERAL.fullmatch(value) is None:
        return None
    folder = posixpath.normpath(value)
    return None if folder.startswith("..") and written is not None else folder
