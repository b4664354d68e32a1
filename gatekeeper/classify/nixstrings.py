"""What a Nix file runs: its strings, not its expressions (issue 12, the label92 round; the ninety-first set's class 7).

The walk reads a Nix file CI evaluates (`nix flake check`, `nix develop`: toolreads.py) for what it runs, and read its
whole text as command lines: paholg/envswitch's dev shell `packages = [ ... just ]` put `just` alone on a line, a run
of the justfile. A package list is Nix, not shell. What a Nix file hands a shell is a string: a `shellHook`, a
builder's phases (`buildPhase = ''just build'';`), `writeShellScriptBin "ci" "make test"`. So its command readers read
the contents of its strings (`''…''` with their `''$`, `'''`, `''\\x` escapes, and `"…"`), each on its own lines,
never its comments; its path literals (`import ./ci.nix`) are read from the whole text (toolreads.nix_imports).
Fail closed: a string left open runs to the end of the text, which is read as a string's.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

__all__ = ["commands", "is_nix"]

# a comment (to its end, or the text's), an indented string (group 1) or a double-quoted one (group 2), each to its
# close or the text's end
_NIX_TOKEN = lazy(r"""#[^\n]*+|/\*(?:[^*]|\*(?!/))*+(?:\*/)?+|''((?:[^']++|'''|''\$|''\\.|'(?!'))*+)(?:''|\Z)"""
                  r"""|"((?:[^"\\]++|\\.)*+)(?:"|\Z)""", re.S)


def is_nix(path: str) -> bool:
    """A Nix expression file."""
    return path[-4:].lower() == ".nix"


def commands(text: str) -> str:
    """The contents of the strings of the Nix text `text`, each on its own lines: what a shell may run of it."""
    return "\n".join(found.group(1) if found.group(1) is not None else found.group(2)
                     for found in _NIX_TOKEN.finditer(text) if found.group(1) is not None or found.group(2) is not None)
