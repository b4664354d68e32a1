"""A make recipe's automatic variables as variable parts of the paths it runs (misses 8; runvars.make_text).

`%:` with `./devTools/$*.sh` runs `devTools/deploy.sh` under `make deploy`; `bin/%:` with `python tools/$(@F).py`
runs `tools/gen.py` under `make bin/gen`; `%.txt: gen/%.py` with `python $<` runs `gen/out.py`. The walk cannot tell
the stem from the text alone (a goal may come from anywhere), so the stem is read as what it is, a variable part:
`$*`, `$@`, `$<` (also `${*}`, `$(@F)`, `$(<F)`, `$(*F)`), make's name functions of one (`$(notdir $@)`,
`$(basename $(notdir $*))`) and a pattern rule's `%` prerequisites (where its recipe runs `$<`: `python $<`, `./$<`;
not `tsc $<`, `cp $< $@`) become commandlines.HOLE, which ciruns reads as `tools/*.py`: the folder's files of that
type, counted against ciruns.MAX_WILD as the walk's other variable patterns.
A folder part (`$(@D)`) and the shell's `$$*` are left as they were; so is a stem alone (`$<`: no path of its own).
"""

from __future__ import annotations

from gatekeeper.classify.commandlines import HOLE
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_PASSES", "holed"]

MAX_PASSES = 8  # make functions nested around a stem that are unwrapped (`$(basename $(notdir $*))`: 2)
_NAME_OF = r"(?:\x01|\$(?:[*@<]|\([*@<]F?\)|\{[*@<]F?\}))"  # an automatic variable of a file name, or one read
# `$$` (the shell's dollar: kept whole, so that `$$*` stays the shell's), or one glued to a path's characters (alone,
# `$(MAKE) -C $@`, it is a folder submakes.py reads, or a whole name: no path of its own)
_AUTOMATIC = lazy(rf"\$\$|(?<=[\w./\x01-]){_NAME_OF}|{_NAME_OF}(?=[\w./\x01-])")
_FUNCTION = lazy(r"\$[({](?:notdir|basename|strip|firstword|lastword|subst|patsubst)[ \t]"
                 rf"[^()${{}}\n\x01]{{0,256}}+{_NAME_OF}[^()${{}}\n]{{0,256}}+[)}}]")
# a pattern rule's header (a `%` in its targets, before its first `:`): its prerequisites' `%` is the stem
_PATTERN_HEADER = lazy(r"([^\t:=#\n]*%[^:=#\n]*:(?![:=]))([^\n;]*)")
# a recipe line that runs its first prerequisite: at a command's start (`./$<`, `$<`) or by a script's interpreter
# (`python $<`); not a compiler's or a copy's operand (`tsc $<`, `cp $< $@`: src/%.ts is no program CI runs)
# (review 68a: also an interpreter's options before it, `source`/`.`, `uv run`, an interpreter's make variable
# `$(PYTHON)`, all prerequisites `$^`/`$+`, and a name function around one: `python $(notdir $<)`, `$(firstword $^)`)
_PREREQ = r"(?:\$(?:[<^+]|\([<^+]\)|\{[<^+]\})|\$[({](?:notdir|firstword|abspath|realpath)[ \t]++\$[<^+][)}])"
_RUNS_FIRST = lazy(r"(?:^\t[ \t@+-]*+|[;&|][ \t]*+|(?:\b(?:python[\d.]*+|bash|sh|zsh|node|ruby|perl|php|Rscript|lua"
                   r"|tsx|ts-node|deno|bun|source|(?:uv|poetry|pipenv|pdm)[ \t]++run)|(?<![\w.$])\."
                   r"|\$[({](?:PYTHON\d*|PY|NODE|RUBY|PERL|PHP|BASH|SHELL|LUA|RSCRIPT)[)}])"
                   r"[ \t]++(?:-[\w-]++(?:[ \t]++[\w.=-]++)?+[ \t]++){0,8}+)(?:\./)?+" + _PREREQ)


def holed(text: str) -> str:
    """`text`, a Makefile's, with its automatic variables of a file name (and the name functions around them, and a
    pattern rule's `%` prerequisites) as commandlines.HOLE."""
    if "$" not in text and "%" not in text:
        return text
    if "%" in text and any(mark in text for mark in ("$<", "$(<)", "${<}", "$^", "$+", "$(^)", "$(+)")):
        text = _stems(text)  # before `./$<` (and a name function around it) is a hole
    for _ in range(MAX_PASSES):  # the name functions around one, innermost first
        text, count = _FUNCTION.subn(HOLE, text)
        if not count:
            break
    return _AUTOMATIC.sub(lambda hit: hit[0] if hit[0] == "$$" else HOLE, text)


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
