"""The Makefiles a recursive make enters through a variable (issue 12, the cileft63 round; read by ciruns.named_in).

A Makefile CI runs often runs its sub-folders' Makefiles by a variable: `$(SUBDIRS): ; $(MAKE) -C $@` (the rule's
targets), `for d in $(SUBDIRS); do $(MAKE) -C $$d; done`, `$(MAKE) -C $(dir) …` in a `$(foreach …)`. ciruns reads a
literal `-C native`; a `-C` whose folder is a variable named only the root's Makefile. `entered(text)`: when a
makefile's make command takes its folder from a variable, every word the makefile lists in an assignment or a `for`
loop that may be a folder of the repository names that folder's Makefile (`lib/Makefile`, `makefile`,
`GNUmakefile`), and a `$(wildcard …)` glob every folder it matches (any folder: `*/Makefile`). Words that are no
folder (`-O2`, `gcc`) name a file that is not there. Past MAX_WORDS such words, any folder's Makefile (fail wide).
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
_VARIABLE_FOLDER = lazy(r"""(?:^|[ \t])(?:-C|--directory[= \t])[ \t]*+['"]?+\$""", re.MULTILINE)
_CONTINUED = lazy(r"\\\r?\n")
_ASSIGNMENT = lazy(r"^[ \t]*+(?:override[ \t]++|export[ \t]++)?[A-Za-z_][A-Za-z0-9_.-]*+[ \t]*+[:?+!]*=(.*)$",
                   re.MULTILINE)
_LOOP = lazy(r"\bfor[ \t]++[A-Za-z_]\w*+[ \t]++in[ \t]++([^;\n]*)")
_WORD = lazy(r"[A-Za-z0-9_.][A-Za-z0-9_.+@/-]*+")
_WILDCARD = lazy(r"\$[({]wildcard[ \t]++([^)}]*)[)}]")


def entered(text: str) -> list[str]:
    """The Makefiles (paths from the makefile's folder, `ANY_FOLDER/…` for a glob) a makefile's `$(MAKE) -C
    $VARIABLE` may run; none when no make command takes its folder from a variable."""
    if "-C" not in text and "--directory" not in text or _VARIABLE_FOLDER.search(text) is None:
        return []
    text = _CONTINUED.sub(" ", text) if "\\" in text else text
    values = [*_ASSIGNMENT.findall(text), *_LOOP.findall(text)]
    folders: dict[str, None] = {}
    for value in values:
        if "wildcard" in value:
            folders.update(dict.fromkeys([ANY_FOLDER] if _WILDCARD.search(value) else []))
            value = _WILDCARD.sub(" ", value)
        folders.update(dict.fromkeys(word.rstrip("/") for word in value.split() if _WORD.fullmatch(word) is not None
                                     and word.strip("./")))
        if len(folders) > MAX_WORDS:
            return [f"{ANY_FOLDER}/{name}" for name in _NAMES]
    return [f"{folder}/{name}" for folder in folders for name in _NAMES]
