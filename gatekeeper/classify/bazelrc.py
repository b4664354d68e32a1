"""A Bazel run-control file read as Bazel's own parser reads it (docs review 54; Bazel's rc_file.cc).

Bazel deletes every backslash-newline pair (`\\` + LF, `\\` + CR LF) from the whole file before it splits it into lines,
so an option may continue on the next line, even in the middle of its name. It then splits each line into words as a
shell does: single and double quotes group and are removed, a backslash takes the next character as it is, and `#`
starts a comment. The first word is the command, with the name of a config after its first `:` (any characters:
`build:ci.linux`, `common:bazel-8.x`); `import` and `try-import` name another run-control file. The readers match the
words this gives (platformshapes.py, bazelhooks.py, bazelreads.py), never the raw text, so no spelling of a quote or
an escape hides an option. This reader is looser than Bazel where that fails closed: a `#` starts a comment only at
the start of a word (a `#` inside one keeps the rest of the line read).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gatekeeper.lazy_pattern import lazy

__all__ = ["RcLine", "option_values", "rc_lines"]

_WORD = lazy(r"""(?:\\.|"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|[^\s"'\\])+""", re.DOTALL)
_PIECE = lazy(r"""\\(.)|"((?:\\.|[^"\\])*)"?|'((?:\\.|[^'\\])*)'?|([^\\"']+)""", re.DOTALL)
_ESCAPE = lazy(r"\\(.)", re.DOTALL)


@dataclass(frozen=True)
class RcLine:
    """One line as Bazel reads it: where it starts in the file, its text (continuations joined), its command and
    config name, and its other words."""

    start: int
    text: str
    command: str
    config: str
    words: tuple[str, ...]


def _unquoted(word: str) -> str:
    out = []
    for piece in _PIECE.finditer(word):
        escaped, double, single, bare = piece.groups()
        inner = double if double is not None else single
        out.append(escaped if escaped is not None else _ESCAPE.sub(r"\1", inner) if inner is not None else bare)
    return "".join(out)


def _words(line: str, commands: frozenset[str] | None) -> list[str]:
    out = []
    for hit in _WORD.finditer(line):
        if hit.group().startswith("#"):
            break
        out.append(_unquoted(hit.group()))
        if commands is not None and len(out) == 1 and out[0].partition(":")[0].lower() not in commands:
            return []  # not a line of those commands: its other words are not read
    return out


def rc_lines(text: str, commands: frozenset[str] | None = None) -> list[RcLine]:
    """Each line of `text` that holds a word, as Bazel's run-control parser splits it; with `commands`, only those
    whose command (lower-cased) is one of them."""
    out: list[RcLine] = []
    start, parts = 0, []
    at = 0
    for physical in text.split("\n"):
        end = at + len(physical) + 1
        body = physical[:-1] if physical.endswith("\r") else physical
        if body.endswith("\\") and end <= len(text):  # Bazel deletes backslash-newline (and backslash-CR-newline)
            parts.append(body[:-1] if physical.endswith("\\") else physical[:-2])
            at = end
            continue
        parts.append(physical)
        joined, parts = "".join(parts), []
        # a blank line holds no word (str.isspace is re's `\s`): not split into none
        if joined and not joined.isspace() and (words := _words(joined, commands)):
            command, _, config = words[0].partition(":")
            out.append(RcLine(start, joined.strip()[:120], command, config, tuple(words[1:])))
        start = at = end
    return out


def option_values(line: RcLine, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, value) of each of `names` the line sets: `--NAME=VALUE` or `--NAME VALUE` (the next word)."""
    out = []
    for index, word in enumerate(line.words):
        name, equals, value = word.partition("=")
        if name.startswith("--") and name[2:] in names:
            if not equals:
                value = line.words[index + 1] if index + 1 < len(line.words) else ""
            out.append((name[2:], value))
    return out
