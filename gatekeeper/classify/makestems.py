"""A make recipe's automatic variables as variable parts of the paths it runs (misses 8; runvars.make_text).

`%:` with `./devTools/$*.sh` runs `devTools/deploy.sh` under `make deploy`; `bin/%:` with `python tools/$(@F).py`
runs `tools/gen.py` under `make bin/gen`; `%.txt: gen/%.py` with `python $<` runs `gen/out.py`. The walk cannot tell
the stem from the text alone (a goal may come from anywhere), so the stem is read as what it is, a variable part:
`$*`, `$@`, `$<` (also `${*}`, `$(@F)`, `$(<F)`, `$(*F)`), make's name functions of one (`$(notdir $@)`,
`$(basename $(notdir $*))`) and a pattern rule's `%` prerequisites (where its recipe runs `$<`: `python $<`, `./$<`;
not `tsc $<`, `cp $< $@`) become commandlines.HOLE, which ciruns reads as `tools/*.py`: the folder's files of that
type, counted against ciruns.MAX_WILD as the walk's other variable patterns.
A folder part (`$(@D)`) and the shell's `$$*` are left as they were; so is a stem alone (`$<`: no path of its own).
Review 68b: substitution references (`$(@:deploy-%=scripts/%.sh)`, `$(@:.out=.sh)`), the functions that glue a
literal to a name (`addprefix`, `addsuffix`, `patsubst`'s replacement keep their literal parts), `$^`, `$+` and their
`F` forms, and a static pattern rule's header (`$(TARGETS): deploy-%: scripts/%.sh`) are read the same way.
"""

from __future__ import annotations

import re

from gatekeeper.classify.commandlines import HOLE
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_PASSES", "holed"]

MAX_PASSES = 8  # make functions nested around a stem that are unwrapped (`$(basename $(notdir $*))`: 2)
_NAME_OF = r"(?:\x01|\$(?:[*@<^+]|\([*@<^+]F?\)|\{[*@<^+]F?\}))"  # an automatic variable of a file name, or one read
# `$$` (the shell's dollar: kept whole, so that `$$*` stays the shell's), or one glued to a path's characters (alone,
# `$(MAKE) -C $@`, it is a folder submakes.py reads, or a whole name: no path of its own)
_AUTOMATIC = lazy(rf"\$\$|(?<=[\w./\x01-]){_NAME_OF}|{_NAME_OF}(?=[\w./\x01-])")
# a name function (innermost: its arguments hold no other call) or a substitution reference (`$(@:a%=b%.sh)`)
_FUNCTION = lazy(r"\$[({](notdir|basename|strip|firstword|lastword|subst|patsubst|addprefix|addsuffix)[ \t]++"
                 rf"((?:[^()${{}}\n\x01]|{_NAME_OF}){{0,256}}+)[)}}]"
                 r"|\$[({]([*@<^+])F?+:([^()${}\n=:]{0,256}+)=([^()${}\n]{0,256}+)[)}]")
_NAME = lazy(_NAME_OF)
# a pattern rule's header (a `%` in its targets, before its first `:`): its prerequisites' `%` is the stem
# (a static pattern rule's `targets: pattern: prerequisites` too)
_PATTERN_HEADER = lazy(r"((?:[^\t:=#\n%]*+:(?![:=]))?+[^\t:=#\n]*%[^:=#\n]*:(?![:=]))([^\n;]*)")
# a recipe line that runs its first prerequisite: at a command's start (`./$<`, `$<`) or by a script's interpreter
# (`python $<`); not a compiler's or a copy's operand (`tsc $<`, `cp $< $@`: src/%.ts is no program CI runs)
# (review 68a: also an interpreter's options before it, `source`/`.`, `uv run`, an interpreter's make variable
# `$(PYTHON)`, all prerequisites `$^`/`$+`, and a name function around one: `python $(notdir $<)`, `$(firstword $^)`)
# (review 68b: a name's file part `$(<F)`, `${^F}`)
_FIRST_NAME = r"\$(?:[<^+]|\([<^+]F?\)|\{[<^+]F?\})"
_PREREQ = rf"(?:{_FIRST_NAME}|\$[({{](?:notdir|firstword|abspath|realpath)[ \t]++{_FIRST_NAME}[)}}])"
_RUNS_FIRST = lazy(r"(?:^\t[ \t@+-]*+|[;&|][ \t]*+|(?:\b(?:python[\d.]*+|bash|sh|zsh|node|ruby|perl|php|Rscript|lua"
                   r"|tsx|ts-node|deno|bun|source|(?:uv|poetry|pipenv|pdm)[ \t]++run)|(?<![\w.$])\."
                   r"|\$[({](?:PYTHON\d*|PY|NODE|RUBY|PERL|PHP|BASH|SHELL|LUA|RSCRIPT)[)}])"
                   r"[ \t]++(?:-[\w-]++(?:[ \t]++[\w.=-]++)?+[ \t]++){0,8}+)(?:\./)?+" + _PREREQ)
_FIRST = lazy(_FIRST_NAME)


def holed(text: str) -> str:
    """`text`, a Makefile's, with its automatic variables of a file name (and the name functions around them, and a
    pattern rule's `%` prerequisites) as commandlines.HOLE."""
    if "$" not in text and "%" not in text:
        return text
    if "%" in text and _FIRST.search(text) is not None:
        text = _stems(text)  # before `./$<` (or `$(firstword $^)`) is a hole
    for _ in range(MAX_PASSES):  # the name functions around one, innermost first
        text, count = _FUNCTION.subn(_named, text)
        if not count:
            break
    return _AUTOMATIC.sub(lambda hit: hit[0] if hit[0] == "$$" else HOLE, text)


def _named(hit: re.Match[str]) -> str:
    """What a name function or substitution reference of a name makes: its literal parts around a hole."""
    function, args, _, pattern, replacement = hit.groups()
    if function is None:  # `$(@:a%=b%.sh)`, `$(@:.out=.sh)` (a suffix: the name's stem keeps the rest)
        return replacement.replace("%", HOLE) if "%" in pattern + replacement else HOLE + replacement
    args = _NAME.sub(HOLE, args)
    if HOLE not in args:
        return hit[0]  # no name of a file in it: left to make_text's other readers
    first, _, rest = args.partition(",")
    if function == "addprefix":
        return first + rest
    if function == "addsuffix":
        return rest + first
    replacement = rest.partition(",")[0]
    return replacement.replace("%", HOLE) if function == "patsubst" and "%" in replacement else HOLE


def _stems(text: str) -> str:
    """`text` with the `%` of each pattern rule's prerequisites a hole, where its recipe runs the first one."""
    lines = text.split("\n")
    for at, line in enumerate(lines):
        header = _PATTERN_HEADER.match(line) if "%" in line and line[:1] != "\t" else None
        if header is None:
            continue
        end = at + 1
        while end < len(lines) and lines[end][:1] == "\t":
            end += 1
        if any(_RUNS_FIRST.search(recipe) is not None for recipe in lines[at + 1:end]):
            lines[at] = header[1] + header[2].replace("%", HOLE) + line[header.end():]
    return "\n".join(lines)
