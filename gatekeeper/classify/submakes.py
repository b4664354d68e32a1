"""The Makefiles a recursive make enters through a variable (issue 12, the cileft63 round; read by ciruns.named_in).

A Makefile CI runs often runs its sub-folders' Makefiles by a variable: `$(SUBDIRS): ; $(MAKE) -C $@` (the rule's
targets), `for d in $(SUBDIRS); do $(MAKE) -C $$d; done`, `$(MAKE) -C $(dir) …` in a `$(foreach …)`. ciruns reads a
literal `-C native`; a `-C` whose folder is a variable named only the root's Makefile. `entered(text)`: when a
makefile's make command takes its folder from a variable, every word the makefile lists in an assignment or a `for`
loop that may be a folder of the repository names that folder's Makefile (`lib/Makefile`, `makefile`,
`GNUmakefile`), and a folder glob (`$(wildcard */.)`, which runvars.make_text reads as `*/.`; a loop's `*/`) every
folder it matches (any folder: `*/Makefile`; misses 10: not a file glob, `src/*.c`). Words that are no folder (`-O2`,
`gcc`) name a file that is not there. Past MAX_WORDS such words, any folder's Makefile (fail wide).

Attack 37: make runs the same sub-makes with the folder in other places: `cd $$d && $(MAKE)` (no `-C`), `-f
$$d/Makefile`, `-C` clustered behind other options (`-sC $@`), the folders listed inline (`$(foreach d,lib
app,$(MAKE) -C $(d);)`) or as the rule's own targets and prerequisites (`lib app:` then `-C $@`, `lib/all:` then `-C
$(@D)`, `%.sub:` then `-C $*`): a folder an automatic variable gives is read from the rule lines too.
"""

from __future__ import annotations

import re

from gatekeeper.classify.ciforms import ANY_FOLDER
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_WORDS", "entered"]

MAX_WORDS = 64
_NAMES = ("Makefile", "makefile", "GNUmakefile")
# make's folder option with a variable for its value: `-C $@`, `-C $$d`, `-C $(dir)`, `--directory=${d}`, `-C$@`
# (any command's: `git -C $d` in a makefile CI runs names its listed folders' Makefiles too, the safe side)
_VARIABLE_FOLDER = lazy(r"""(?:^|[ \t])(?:-[A-BD-Za-z]*+C|--directory[= \t])[ \t]*+['"]?+\$"""
                        # make's file option with a variable folder (`-f $$d/Makefile`; not `rm -f $@`)
                        r"""|(?:^|[ \t])(?:-f|--file[= \t]|--makefile[= \t])[ \t]*+['"]?+\$[^\s/'"]*+/"""
                        r"(?:GNU)?[Mm]akefile\b"
                        # `cd $$d && $(MAKE)`, `(cd $(d); make)`
                        r"""|\bcd[ \t]++['"]?+\$[^\s;&|'"]*+['"]?+[ \t]*+(?:;|&&)[ \t(]*+(?:\$[({]MAKE[)}]|g?make\b)""",
                        re.MULTILINE)
# a folder an automatic variable gives (`$@`, `$(@D)`, `$*`, `$<`): the rule lines' targets and prerequisites hold it
_AUTOMATIC = lazy(r"""(?:-[A-BD-Za-z]*+C|--directory[= \t]|\bcd)[ \t]*+['"]?+\$(?:[@*<]|[({][@*<]D[)}])""")
_RULE = lazy(r"^(?!\t)([^\n:=#]++):(?![=:])([^\n;#]*+)", re.MULTILINE)
_FOREACH = lazy(r"\$[({]foreach[ \t]++[A-Za-z_]\w*+[ \t]*+,([^,)}\n]*+),")
MAX_PATTERNS = 8  # pattern rules (`%.sub:`) whose stems are read
_CONTINUED = lazy(r"\\\r?\n")
_ASSIGNMENT = lazy(r"^[ \t]*+(?:override[ \t]++|export[ \t]++)?[A-Za-z_][A-Za-z0-9_.-]*+[ \t]*+[:?+!]*=(.*)$",
                   re.MULTILINE)
_LOOP = lazy(r"\bfor[ \t]++[A-Za-z_]\w*+[ \t]++in[ \t]++([^;\n]*)")
_WORD = lazy(r"[A-Za-z0-9_.][A-Za-z0-9_.+@/-]*+")
_WILDCARD = lazy(r"\$[({]wildcard[ \t]++([^)}]*)[)}]")
# a glob that may match folders: one ending in `/` or `/.`, or whose last part holds a glob and no type (`*/.`, `*/`,
# `cmd/*`; not `src/*.c`, `"**/golangci-lint"`)
_FOLDER_GLOB = lazy(r"[*?\[][^/]*+/\.?+\Z|/[^/.*?\[]*+[*?\[][^/.]*+\Z")


def entered(text: str) -> list[str]:
    """The Makefiles (paths from the makefile's folder, `ANY_FOLDER/…` for a glob) a makefile's `$(MAKE) -C
    $VARIABLE` may run; none when no make command takes its folder from a variable."""
    if _VARIABLE_FOLDER.search(text) is None:
        return []
    text = _CONTINUED.sub(" ", text) if "\\" in text else text
    values = [*_ASSIGNMENT.findall(text), *_LOOP.findall(text), *_FOREACH.findall(text)]
    values += _rule_words(text) if _AUTOMATIC.search(text) is not None else []
    folders: dict[str, None] = {}
    for value in values:
        if "wildcard" in value:
            folders.update(dict.fromkeys([ANY_FOLDER] if _WILDCARD.search(value) else []))
            value = _WILDCARD.sub(" ", value)
        words = value.split()
        # a folder glob (runvars.make_text reads `$(wildcard */.)` as `*/.`; a loop's `*/`, `cmd/*`): any folder
        folders.update(dict.fromkeys([ANY_FOLDER] if any(_FOLDER_GLOB.search(word) for word in words) else []))
        folders.update(dict.fromkeys(word.rstrip("/") for word in words if _WORD.fullmatch(word) is not None
                                     and word.strip("./")))
        if len(folders) > MAX_WORDS:
            return [f"{ANY_FOLDER}/{name}" for name in _NAMES]
    return [f"{folder}/{name}" for folder in folders for name in _NAMES]


def _rule_words(text: str) -> list[str]:
    """The targets and prerequisites of `text`'s rules, each with its folder (`lib/all`: `lib`) and the stems of its
    pattern rules' targets (`%.sub:` and `lib.sub`: `lib`)."""
    words = [word for rule in _RULE.findall(text) for part in rule for word in part.split()]
    patterns = [word.partition("%") for word in dict.fromkeys(words) if "%" in word][:MAX_PATTERNS]
    stems = [word[len(before):len(word) - len(after)] for before, _, after in patterns for word in words
             if "%" not in word and len(word) > len(before) + len(after) and word.startswith(before)
             and word.endswith(after)]
    return [" ".join(words), " ".join(word.rpartition("/")[0] for word in words if "/" in word), " ".join(stems)]
