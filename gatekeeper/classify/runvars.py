"""Where a CI command's relative paths start, and the paths a definition keeps in its own variables (issue 12, the
cileft63 round; read by ciruns.named and ciruns.named_in).

- `up(word)`: the `..` steps a word starts with (`../pack` after `cd tools/sub`, `. ../lib/log` after `cd "$(dirname
  "$0")"`). ciruns' path patterns drop them (a requirements file's name is matched as a suffix), so `../pack` named
  `tools/sub/pack` and `pack`, never `tools/pack`: the pattern with its steps is read beside the one without.
- `folders(words)`: the folders a step's `cd`/`working-directory:` names that the patterns drop: `..` and `../x`, and
  the tails of an absolute or home path (`working_directory: ~/repo/web`, `cd /home/runner/work/app/app/web`: the
  checkout is somewhere above, so `web` and `app/web` are folders of the repository it may be).
- `literal_lines(text)`: for a text that is no shell script (a YAML pipeline, a Makefile, a Jenkinsfile), the lines
  that use a variable it assigns a literal path somewhere (`SCRIPT=ci/build; bash "$SCRIPT"`, an `env:` or GitLab
  `variables:` key, `echo "GEN=tools/gen" >> $GITHUB_ENV`, a make `GEN := tools/gen`, an Azure `tool: build/sign` used
  as `$(tool)`), written again with the value in place. A value with a `/` replaces any use; a single word only a use
  followed by `/` (`DIR=tools; bash $DIR/pack`): a plain word is no path. Order aside (a use before the assignment
  reads it too) and every value a name is given: the safe side. A shell script's own variables are read in order by
  shellvars.py. Bounded: values of at most MAX_VALUE characters, four a name, rewritten lines MAX_OUT (256 KiB) in all
  (past it PastBound: the walk closes).
"""

from __future__ import annotations

import functools
import posixpath
import re

from gatekeeper.classify.treereads import PastBound
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_OUT", "folders", "literal_lines", "up"]

MAX_VALUE = 256
# rewritten lines a text may add (a 200 KiB GitLab file using `$SCRIPTS/x` in every job writes ~150 KiB; 64 KiB,
# shellvars' bound for a script, would close the walk on it); past it PastBound: the walk closes
MAX_OUT = 256 * 1024
_TAILS = 4  # tails of an absolute folder tried (`/go/src/github.com/o/r/web`: `web`, `r/web`, ...)
_UPS = lazy(r"(?:\.\./)+")
# `NAME=value` (shell, after `export` or a separator), `NAME := value` (make), `NAME: value` (a YAML key); the value a
# literal path, quoted or not
_ASSIGNED = lazy(r"""(?:^|(?<=[\s;&|(`'"]))(?:export[ \t]++)?([A-Za-z_][A-Za-z0-9_]{0,63}+)['"]?+"""
                 r"""(?:[ \t]*+[:?+!]?=|:(?=[ \t]))[ \t]*+['"]?+([A-Za-z0-9_.+@/-]{1,256}+)(?![^\s;&|)'"#,])""",
                 re.MULTILINE)
# `$NAME`, `${NAME}`, `$(NAME)` (make, Azure), `${{ env.NAME }}`, `%NAME%`; the next character tells a folder use
_USE = lazy(r"\$\{\{[ \t]*+env\.([A-Za-z_][A-Za-z0-9_]*+)[ \t]*+\}\}|\$\{([A-Za-z_][A-Za-z0-9_]*+)\}"
            r"|\$\(([A-Za-z_][A-Za-z0-9_]*+)\)|\$([A-Za-z_][A-Za-z0-9_]*+)|%([A-Za-z_][A-Za-z0-9_]*+)%")
_COMMENT = lazy(r"^[ \t]*+#[^\n]*+$", re.MULTILINE)


def up(word: str) -> str:
    """The `../` steps `word` (a path a command names) starts with once normalised; "" for none."""
    word = word.strip().strip("'\"").replace("\\", "/")
    if not word.startswith(("..", "./..")):
        return ""
    hit = _UPS.match(posixpath.normpath(word) + "/")
    return hit.group(0) if hit is not None else ""


def folders(words: list[str]) -> list[str]:
    """The folders of `words` (a step's `cd`, `pushd`, `working-directory:` values) the path patterns drop: `..` steps
    kept (`..`, `../x`), and the last folders of an absolute or home path."""
    out: list[str] = []
    for word in words:
        word = word.strip().strip("'\"").replace("\\", "/")
        if "$" in word or "*" in word:
            continue
        if word.startswith(("/", "~/")):
            parts = [part for part in word.strip("/~").split("/") if part and part != "."]
            out += ["/".join(parts[at:]) for at in range(max(1, len(parts) - _TAILS), len(parts))]
        elif (steps := up(word)) and (path := posixpath.normpath(word)) not in (".", ""):
            out.append(path if path.startswith("..") else steps.rstrip("/"))
    return list(dict.fromkeys(out))


def literal_lines(text: str) -> str:
    """The lines of `text` that use a variable it assigns a literal path, written again with each value in place
    (module docstring); "" when there are none."""
    used = {next(group for group in hit if group) for hit in _USE.findall(text)} if "$" in text or "%" in text \
        else set()
    if not used:
        return ""
    values: dict[str, list[str]] = {}
    for name, value in _ASSIGNED.findall(_COMMENT.sub("", text)):
        if name in used and ("/" in value or value.strip(".")):
            kept = values.setdefault(name, [])
            if value not in kept and len(kept) < 4:
                kept.append(value.rstrip("/") or value)
    if not values:
        return ""
    out: list[str] = []
    size = 0
    for line in text.splitlines():
        if "$" not in line and "%" not in line:
            continue
        for index in range(max(len(kept) for kept in values.values())):
            written = _USE.sub(functools.partial(_value, values=values, index=index), line)
            if written != line:
                size += len(written)
                if size > MAX_OUT:
                    raise PastBound  # what a later line names cannot be told: the walk closes
                out.append(written)
    return "\n".join(dict.fromkeys(out))


def _value(hit: re.Match[str], values: dict[str, list[str]], index: int) -> str:
    """The `index`-th value of the variable `hit` uses (its last when it has fewer), or the use as written: a single
    word only before a `/`."""
    kept = values.get(next(group for group in hit.groups() if group))
    if not kept:
        return hit.group(0)
    value = kept[min(index, len(kept) - 1)]
    folder_use = hit.string[hit.end():hit.end() + 1] == "/"
    return value if "/" in value or folder_use else hit.group(0)
