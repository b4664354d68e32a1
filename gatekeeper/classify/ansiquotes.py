"""bash's ANSI-C quoting (`$'...'`) decoded as bash decodes it, and quotes that glue a word (attack 44).

bash decodes the backslash escapes inside `$'...'` before it runs a word: `bash $'tools/g\\x65n'` runs tools/gen, as
does `S=$'tools/\\147en'; . "$S"`; and its quote removal makes `S=tools/'g'en` the value tools/gen. The walk's readers
see a line as written (runvars reads no quoted value); `lines_again` gives such lines once more as bash reads them,
for the walk to read beside the text (ciruns.named_tasks, and ciruns.named for a YAML file's strings).
"""

from __future__ import annotations

import re

from gatekeeper.classify import commandlines
from gatekeeper.lazy_pattern import lazy

__all__ = ["decoded", "lines_again"]

# a `$'...'` quote: its body runs to the first `'` no backslash escapes
_QUOTE = lazy(r"\$'((?:[^'\\\n]|\\[^\n])*+)'")
# an assignment whose value holds a quote after its first character, a quoted part glued to more, or a `$'` quote
# (`S=tools/'g'en`, `S='tools/'gen`, `S=$'...'`); found from its `=` (a search from each `=`, not each character)
_GLUED = lazy(r"(?<=\w)=(?:[^\s;&|'\"=(),]++['\"]|['\"][^'\"\n]*+['\"][^\s;&|'\"(),]|\$')")
# every quote of a line, left to right (a `$'`/`$"` one too), and an escaped character: a blank inside one is the word's
# (`'tools/my gen.sh'`, `tools/my\ gen.sh`: bash runs `tools/my gen.sh`)
_QUOTES = lazy(r"""\$?+'[^'\n]*+'|\$?+"(?:[^"\\\n]|\\.)*+"|\\.""")
_BLANK_QUOTED = lazy(r"""['"][^'"\n]*?[ \t]|\\[ \t]""")  # a quote or escape that may hold a blank (a cheap first test)
# a quoted text that may be (part of) one path with blanks (`tools/my gen.sh`, `$PWD/x y/run`, `my gen`): path
# characters and at most three runs of blanks; a sentence, a pattern or an expression is no path (`s/a = "\(.*\)"/`)
_PATH_PHRASE = lazy(r"[ \t]*+[$\w./@+{}~-]++(?:[ \t]++[$\w./@+{}~-]++){0,3}+[ \t]*+")
# one escape: a simple letter, `\cX`, hex, Unicode, octal; a backslash before anything else stays as written
_ESCAPE = lazy(r"\\(?:([abeEfnrtv\\'\"?])|c(.)|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})"
               r"|([0-7]{1,3}))")
_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
           "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _byte(value: int) -> str:
    """One byte as text: ASCII as itself, the rest as the undecodable byte it is (surrogateescape)."""
    value &= 0xFF
    return chr(value) if value < 0x80 else bytes([value]).decode("utf-8", "surrogateescape")


def _one(escape: re.Match[str]) -> str:
    simple, control, hexa, short, long_, octal = escape.groups()
    if simple is not None:
        return _SIMPLE[simple]
    if control is not None:  # `\c?` is DEL; else the character's low five bits
        return "\x7f" if control == "?" else chr(ord(control) & 0x1F) if ord(control) < 0x80 else escape.group()
    if hexa is not None or octal is not None:
        return _byte(int(hexa, 16) if hexa is not None else int(octal, 8))
    point = int(short if short is not None else long_, 16)
    return chr(point) if 0 < point <= 0x10FFFF and not 0xD800 <= point <= 0xDFFF else escape.group()


def decoded(body: str) -> str:
    """The text bash makes of the body of `$'body'` (UTF-8 locale; a byte past ASCII as a surrogate escape)."""
    return _ESCAPE.sub(_one, body) if "\\" in body else body


def _requoted(quote: re.Match[str]) -> str:
    text = decoded(quote.group(1)).split("\x00", 1)[0]  # bash ends a word at a NUL
    return "'" + text.replace("'", "'\\''") + "'"


def lines_again(text: str) -> str | None:
    """The lines of `text` bash reads otherwise than as written, once more as bash reads them, one per line: a
    `$'...'` quote with an escape decoded and single-quoted (`bash $'t\\x6fols/gen'` → `bash 'tools/gen'`), and a
    line whose quotes glue a word together (`S=tools/'g'en`, `S='tools/'gen`, `S=$'tools/'"gen"`) with its quote
    removal done (commandlines.unquoted: an assignment's value is read only without quotes); None when no line is
    such."""
    if "$'" not in text and _GLUED.search(text) is None and _BLANK_QUOTED.search(text) is None:
        return None
    out = []
    for line in text.splitlines():
        decoded_line = _QUOTE.sub(_requoted, line) if "$'" in line and "\\" in line else line
        if _BLANK_QUOTED.search(decoded_line) is not None:  # a blank the word keeps: any text there (a glob's `*`)
            decoded_line = _QUOTES.sub(_blanks_globbed, decoded_line)
        glued = commandlines.unquoted(decoded_line) if _GLUED.search(decoded_line) is not None else None
        out += [again for again in (decoded_line if decoded_line != line else None, glued) if again is not None]
    return "\n".join(out) or None


def _blanks_globbed(quote: re.Match[str]) -> str:
    """A quote holding a blank as its text unquoted with each blank as `*`, an escaped blank as `*` (the walk matches
    `*` against the tree's paths); any other quote or escape as written."""
    text = quote.group()
    if text[0] == "\\":
        return "*" if text[1] in " \t" else text
    body = text[text.index(text[-1]) + 1:-1]
    blank = " " in body or "\t" in body
    return body.replace(" ", "*").replace("\t", "*") if blank and _PATH_PHRASE.fullmatch(body) is not None else text
