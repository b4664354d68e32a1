"""What a CI text's own variables hold, written in where its commands use them, and where its relative paths start
(issue 12: the cileft63 round; one substitution since the cileft64 round; read by ciruns.named_in and ciruns.named).

- `values(text)`: every literal value the text gives a variable it uses, in the order the CI systems give them
  precedence: a YAML pipeline's `env:`/`variables:`/`environment:` mappings innermost first (a step's over its job's
  over the workflow's; GitLab's `{value: …}`, Azure's `- name:`/`value:`), then the `default:` of its inputs and
  parameters, then the assignments its lines make in their order (a shell's `NAME=value`, `export`/`readonly`, the
  `VAR=x cmd` prefix, a make `NAME := value` (`=`, `?=`, `+=`, `!=`, `::=`), a Groovy `def name = '…'`/`env.NAME =`,
  `withEnv(['NAME=…'])`, a step's output `name=v >> $GITHUB_OUTPUT` or `::set-output`, a YAML key `NAME: value`).
  Order decides which value a use reads first; every value is kept (a value one step does not see only over-reads: the
  safe side). A value holding another variable, a quote or a blank, or over MAX_VALUE characters, is not read; comment
  lines assign nothing. Azure's `a.b` is also `A_B`, as its shell sees it.
- `expanded(text, known)`: each line that uses a known variable (`$X`, `${X}`, `$(X)`, `${{ env.X }}`, `${{ inputs.X
  }}`, `${{ parameters.X }}`, `${{ steps.id.outputs.X }}`, `${env.X}`, `$env:X`, `%X%`) followed by its copies with the
  values in place: every combination while they are at most MAX_VARIANTS, else one copy per value (the i-th value of
  each), so every value is read at least once. Bounded: copies of at most MAX_OUT characters a text in all, counted as
  they are written; past it PastBound (what a later line names cannot be told: the walk closes, a patch names every
  shown file).
- `up(word)`: the `..` steps a word starts with (`../pack` after `cd tools/sub`, `. ../lib/log` after `cd "$(dirname
  "$0")"`). ciruns' path patterns drop them (a requirements file's name is matched as a suffix), so `../pack` named
  `tools/sub/pack` and `pack`, never `tools/pack`: the pattern with its steps is read beside the one without.
- `folders(words)`: the folders a step's `cd`/`working-directory:` names that the patterns drop: `..` and `../x`, and
  the tails of an absolute or home path (`working_directory: ~/repo/web`, `cd /home/runner/work/app/app/web`: the
  checkout is somewhere above, so `web` and `app/web` are folders of the repository it may be).

A shell script's folder idioms (`DIR=$(dirname "$0")`) are read in order by shellvars.py, before this.
"""

from __future__ import annotations

import functools
import itertools
import math
import posixpath
import re
from typing import Any

from gatekeeper.classify import ciloops, makestems
from gatekeeper.classify.cienv import parsed
from gatekeeper.classify.treereads import PastBound
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_OUT", "MAX_VALUE", "expanded", "folders", "make_text", "up", "values"]

MAX_VALUE = 256  # characters of a value read (a longer one, or one over lines, is not substituted)
MAX_VARIANTS = 32  # combinations of a line's values written; past it one copy per value
# copies a text may add (a 200 KiB GitLab file using `$SCRIPTS/x` in every job writes ~150 KiB); past it PastBound
MAX_OUT = 256 * 1024
_TAILS = 4  # tails of an absolute folder tried (`/go/src/github.com/o/r/web`: `web`, `r/web`, ...)
_UPS = lazy(r"(?:\.\./)+")
_KEYS = frozenset({"env", "variables", "environment"})
_SETS = lazy(r"^[ \t]*+(?:-[ \t]*+)?+['\"]?+(?:env|variables|environment|inputs|parameters)['\"]?+[ \t]*+:",
             re.MULTILINE)
# `NAME=value` (shell, after `export`/`readonly`/`env.`, a separator or a quote: `withEnv(['X=v'])`, `"x=v" >>
# $GITHUB_OUTPUT`), `NAME := value` (make; `?=`, `+=`, `!=`, `::=`), `name = 'v'` (Groovy), `NAME: value` (a YAML
# key); the value literal, quoted or not, ended where a word ends
# key (a lookahead, so that `release: TOOL = x`, a make target's own variable, is read after its target's name)
_ASSIGNED = lazy(r"""(?:^|(?<=[\s;&|(`'".]))(?=([A-Za-z_][A-Za-z0-9_]{0,127}+)['"]?+"""
                 r"""(?:[ \t]*+(?::{1,3}|[?+!])?=|:(?=[ \t]))[ \t]*+['"]?+([^\s'"$;&|`()<>#,%{}\[\]=]{1,256}+)"""
                 r"""(?![^\s;&|)'"#,]))""", re.MULTILINE)
_SET_OUTPUT = lazy(r"::set-output[ \t]++name=([\w-]{1,128}+)::([^\s'\"$]{1,256}+)")
_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_.-]{0,127}")
# a use: ${{ env.X }} (an input's, a parameter's, a step output's), Groovy's ${env.X}, ${X}, $env:X, $X, %X%, $(X)
_USE = lazy(r"\$\{\{\s*+(?:env|inputs|github\.event\.inputs|parameters|steps\.[\w-]{1,128}+\.outputs)\."
            r"([A-Za-z_][\w-]*+)\s*+\}\}|\$\{env\.(\w++)\}|\$\{([A-Za-z_]\w*+)\}|\$env:([A-Za-z_]\w*+)"
            r"|\$([A-Za-z_]\w*+)|%([A-Za-z_]\w*+)%|\$\(([A-Za-z_][\w.]*+)\)")
# a Makefile's own folder (`$(CURDIR)`, `$(shell pwd)`, `$(abspath .)`), and the folder of the Makefile make reads
# (`$(dir $(abspath $(lastword $(MAKEFILE_LIST))))`, `$(patsubst %/,%,…)` around it): cileft64
_MAKE_HERE = lazy(r"\$[({](?:CURDIR|shell[ \t]++(?:pwd|git[ \t]++rev-parse[ \t]++--show-toplevel)"
                  r"|(?:abspath|realpath)[ \t]++\.)[)}]")
# make's `$(wildcard a/*.sh b/*.py)` (its globs, no other call inside): the files a recipe looping over it runs
_WILDCARD = lazy(r"\$[({]wildcard[ \t]++([^()${}\n]{1,1024}+)[)}]")
# `$(foreach VAR,LIST,BODY)` (LIST's and BODY's calls only `$(NAME)`-like variables): read as the shell's loop
_FOREACH = lazy(r"\$[({]foreach[ \t]++(\w{1,64}+)[ \t]*+,((?:[^(),${}\n]|\$[({]\w{1,64}+[)}]){0,1024}+),"
                r"((?:[^()${}\n]|\$[({]\w{1,64}+[)}]|\$\$){0,1024}+)[)}]")
_MAKE_LIST = lazy(r"((?:\$\((?:dir|abspath|realpath|patsubst[ \t]++%/,%,)[ \t]*+){1,3}+)\$\((?:lastword|firstword)"
                  r"[ \t]++\$\(MAKEFILE_LIST\)\)(\){0,3}+)")
_COMMENT = lazy(r"^[ \t]*+(?:#|//)[^\n]*+$", re.MULTILINE)


def up(word: str) -> str:
    """The `../` steps `word` (a path a command names) starts with once normalised; "" for none."""
    word = word.strip().strip("'\"").replace("\\", "/")
    # and a folder's path that climbs past it (`ci/../../app/x.sh`, a script's own folder written in: attack 53)
    if not word.startswith(("..", "./..")) and ("/.." not in word or word.startswith(("/", "~", "$"))):
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


def make_text(text: str) -> str:
    """A Makefile's text as its recipes' shell reads it: `$$` is `$` (`$$TOOL`, `for c in …; do $$c`), and its own
    folder is `.` (the walk reads a Makefile's paths from its folder); its automatic variables' stems are variable
    parts (makestems.py: `./tools/$*.sh`); a `$(wildcard …)` is its globs and a `$(foreach f,LIST,BODY)` the shell's
    `for f in LIST; do BODY; done`, so a recipe looping over the files a glob matches runs them (misses 10)."""
    text = makestems.holed(text)
    if "$" not in text:
        return text
    text = _WILDCARD.sub(_globs, text) if "wildcard" in text else text  # misses 10: `$(wildcard ci/*.sh)`
    text = _FOREACH.sub(_looped, text) if "foreach" in text else text  # and `$(foreach s,LIST,bash $(s);)`
    text = _MAKE_LIST.sub(_own_folder, text) if "MAKEFILE_LIST" in text else text
    return _MAKE_HERE.sub(".", text.replace("$$", "$"))


def _globs(hit: re.Match[str]) -> str:
    """The globs of a `$(wildcard …)` call, as the shell reads them where the recipe loops over them."""
    return hit[1].strip()


def _looped(hit: re.Match[str]) -> str:
    """A `$(foreach VAR,LIST,BODY)` as the shell loop that runs BODY for each word of LIST (`$(VAR)` is `$VAR`)."""
    name = hit[1]
    body = hit[3].replace(f"$({name})", f"${name}").replace(f"${{{name}}}", f"${name}")
    return f"for {name} in {hit[2].strip()}; do {body.strip().removesuffix('&&').rstrip('; ')}; done"


def _own_folder(hit: re.Match[str]) -> str:
    """`./` for the MAKEFILE_LIST idiom whose functions its parentheses close, the rest of them after it."""
    wrapped, closed = hit[1].count("$("), len(hit[2])
    return hit[0] if closed < wrapped else "./" + ")" * (closed - wrapped)


def values(text: str) -> dict[str, list[str]]:
    """{variable `text` uses: every literal value it gives it, the most precedent first} (module docstring)."""
    if "$" not in text and "%" not in text:
        return {}
    used = {_name(hit) for hit in _USE.finditer(text)}
    if not used:
        return {}
    document = parsed(text) if _SETS.search(text) is not None else None  # a script is parsed as no YAML
    settings = sorted(_settings(document, 0), key=lambda item: -item[0]) if isinstance(document, (dict, list)) else []
    lines = ciloops.listed(_COMMENT.sub("", text))  # `X=$(ls ci/*.sh)`: the glob (cileft64)
    # Azure: `variables: a.b` is $A_B in a step's shell
    spelt = [(spelling, value) for _, name, value in settings for spelling in (name, name.upper().replace(".", "_"))]
    found: dict[str, list[str]] = {}
    for name, value in itertools.chain(spelt, _ASSIGNED.findall(lines),
                                       _SET_OUTPUT.findall(lines) if "set-output" in lines else ()):
        if name in used and name != "PATH":  # PATH's folders are cienv.path_folders'
            kept = found.setdefault(name, [])
            if value not in kept:
                kept.append(value)
    return found


def _settings(node: Any, depth: int) -> list[tuple[int, str, str]]:
    """(depth, name, value) of every variable a mapping under one of _KEYS sets and every input's or parameter's
    default, at any depth (bounded); an input's default ranks below every variable."""
    if depth > 12:
        return []
    out: list[tuple[int, str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if str(key) in _KEYS:
                out += [(depth, name, literal) for name, literal in _assigned(value)]
            elif str(key) in ("inputs", "parameters"):  # what `${{ inputs.tool }}` is when a caller gives none
                out += [(-1, name, literal) for name, literal in _defaults(value)]
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
    return [(str(name), str(value).strip()) for name, value in pairs
            if isinstance(value, (str, int, float)) and not isinstance(value, bool) and _NAME.fullmatch(str(name))
            and str(value).strip() and len(str(value)) <= MAX_VALUE and not any(c in str(value) for c in "$%\n")]


def _defaults(node: Any) -> list[tuple[str, str]]:
    """The defaults of a workflow's, an action's or an Azure template's inputs: `tool: {default: v}`, `- name: tool`
    `default: v`."""
    items = [(key, value) for key, value in node.items()] if isinstance(node, dict) else \
        [(item.get("name"), item) for item in node if isinstance(item, dict)] if isinstance(node, list) else []
    return _assigned({str(name): entry.get("default") for name, entry in items if isinstance(entry, dict)})


def _name(hit: re.Match[str]) -> str:
    # _USE's alternatives hold one group each, none nested: the last group that matched is the one (no scan of all 7)
    return str(hit.group(hit.lastindex or 0))


def expanded(text: str, known: dict[str, list[str]]) -> str:
    """`text` with each line that uses a variable of `known` followed by its copies (module docstring)."""
    if not known:
        return text
    out: list[str] = []
    size = 0
    for line in text.splitlines():
        out.append(line)
        if "$" not in line and "%" not in line:
            continue
        used = [name for name in dict.fromkeys(_name(hit) for hit in _USE.finditer(line)) if name in known]
        if not used:
            continue
        if math.prod(len(known[name]) for name in used) <= MAX_VARIANTS:
            choices = [dict(zip(used, chosen, strict=True)) for chosen in itertools.product(*(known[n] for n in used))]
        else:  # one copy per value: the i-th of each (its last when it has fewer)
            choices = [{name: known[name][min(index, len(known[name]) - 1)] for name in used}
                       for index in range(max(len(known[name]) for name in used))]
        for chosen in choices:
            written = _USE.sub(functools.partial(_put, chosen=chosen), line)
            size += len(written)
            if size > MAX_OUT:
                raise PastBound  # what a later line names cannot be told: the walk closes
            out.append(written)
    return "\n".join(out)


def _put(hit: re.Match[str], chosen: dict[str, str]) -> str:
    return chosen.get(_name(hit), hit.group(0))
