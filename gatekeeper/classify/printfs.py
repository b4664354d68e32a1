"""What a `printf` of literal arguments prints, as bash's builtin does (attack 47, tests/test_attack47_printf_paths.py).

Attack 46 read each conversion of a format as a variable part (`lib/%s.sh` is the folder's scripts of the type); a
format whose folder or type is a conversion (`printf "%s/ci.sh" lib`, `printf 'lib/%s.%s' ci sh`) then named no
folder or type, and the script it computed stayed `src`. When the format and its arguments are all literal, the
printed text is known: the call is replaced by it, its words single-quoted (`$(printf "%s/ci.sh" lib)` reads
`'lib/ci.sh'`; `printf -v S ...` keeps its `-v S`). A call with a variable, an unknown conversion or a number bash
would refuse is left as written, for commandlines.printed's variable parts.
"""

from __future__ import annotations

import re
import shlex

from gatekeeper.lazy_pattern import lazy

__all__ = ["evaluated"]

MAX_PRINTED = 4096  # characters one call's words and output may hold here; past it: left to the variable parts
_CALL = lazy(r"(?<![\w.-])printf[ \t]++")
_SPEC = lazy(r"%([-#0+ ']{0,4}+)(\d{0,3}+)(?:\.(\d{0,3}+))?([a-zA-Z%])")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "r": "\r", "v": "\v", '"': '"',
            "'": "'", "e": "\x1b", "E": "\x1b"}
_PIECES = lazy(r"(%[-#0+ ']{0,4}+\d{0,3}+(?:\.\d{0,3}+)?+[a-zA-Z%])")
_END = frozenset(");|&`<>\n")
# bash's numeric escapes: octal (a format's `\NNN`; `%b`'s `\0NNN` or `\NNN`), `\xHH`, `\uHHHH`, `\UHHHHHHHH`,
# and `%b`'s `\c`, which ends all output (review 66a: `printf 'scripts/\x63heck.sh'` named no file)
_FORMAT_ESCAPE = lazy(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|(.))", re.DOTALL)
_B_ESCAPE = lazy(r"\\(?:0?([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|(.))", re.DOTALL)
_STOP = "\x00\x01stop"  # what `%b`'s `\c` leaves in its converted text: the output ends there


def evaluated(line: str) -> str:
    """`line` with each `printf` of literal arguments replaced by what it prints (bash's builtin)."""
    if "printf" not in line:
        return line
    out: list[str] = []
    at = scanned = ticks = 0  # ticks: the backquotes before `scanned`
    for match in _CALL.finditer(line):
        if match.start() < scanned:
            continue  # a `printf` word among a call's arguments: read with that call
        ticks += line.count("`", scanned, match.start())
        scanned = _call_end(line, match.end())
        printed = _printed(line[match.end():scanned])
        opens = line[scanned:scanned + 1] == "`" and ticks % 2 == 0
        if printed is not None and not opens:  # a backquote after the call opens its argument, a command's output
            out += [line[at:match.end()], printed]
            at = scanned
    return "".join(out) + line[at:]


def _call_end(line: str, start: int) -> int:
    """Where the call's words end: an unquoted `)`, `;`, `|`, `&`, a backquote, a redirection or the line's end."""
    quote = ""
    for index in range(start, len(line)):
        char = line[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in _END:
            return index
    return len(line)


def _printed(words_text: str) -> str | None:
    if "$" in words_text or "`" in words_text or "\x01" in words_text or len(words_text) > MAX_PRINTED:
        return None  # a variable, a command's output: not known here (shlex's long words cost squares: bounded)
    try:
        words = shlex.split(words_text)
    except ValueError:
        return None
    lead = ""
    if words[:1] == ["-v"] and len(words) > 2:
        lead, words = f"-v {words[1]} ", words[2:]
    words = words[1:] if words[:1] == ["--"] else words
    if not words or words[0].startswith("-"):
        return None
    text = _format(words[0], words[1:])
    if text is None:
        return None
    return lead + " ".join(shlex.quote(word) for word in text.split()) if text.strip() else None


def _format(form: str, arguments: list[str]) -> str | None:
    """bash's `printf FORM ARGUMENTS...`: the format is used again while arguments remain; a missing one is empty."""
    out: list[str] = []
    left = arguments[::-1]  # popped from the end
    pieces = _PIECES.split(form)
    size = 0
    while True:
        used, done = 0, len(out)
        for piece in pieces:
            spec = _SPEC.fullmatch(piece)
            if spec is None:
                out.append(_unescaped(piece))
                continue
            flags, width, precision, kind = spec.groups()
            if kind == "%":
                out.append("%")
                continue
            value = left.pop() if left else ""
            used += 1
            converted = _convert(kind, flags, width, precision, value)
            if converted is None:
                return None
            if _STOP in converted:  # `%b`'s `\c`: nothing more is printed
                return "".join([*out, converted.split(_STOP, 1)[0]])
            out.append(converted)
        size += sum(len(piece) for piece in out[done:])
        if size > MAX_PRINTED:
            return None
        if not used or not left:
            return "".join(out)


def _convert(kind: str, flags: str, width: str, precision: str | None, value: str) -> str | None:
    spec = f"%{flags.replace(chr(39), '')}{width}{'.' + precision if precision is not None else ''}"
    if kind in "sb":
        return (spec + "s") % (_unescaped(value, b=True) if kind == "b" else value)
    if kind == "c":
        return (f"%{flags}{width}s") % value[:1]
    if kind in "diuxXo":
        number = _number(value)
        if number is None or (number < 0 and kind in "uxXo"):
            return None  # bash prints an error (or wraps a negative): leave it to the variable parts
        return (spec + ("d" if kind in "iu" else kind)) % number
    return None


def _number(value: str) -> int | None:
    """A number as bash's printf reads it: decimal, `0x` hexadecimal, `0` octal; blank is 0."""
    value = value.strip()
    sign, digits = (-1, value[1:]) if value.startswith("-") else (1, value.removeprefix("+"))
    base = 16 if digits[:2].lower() == "0x" else 8 if digits.startswith("0") and len(digits) > 1 else 10
    try:
        return sign * int(digits, base) if digits else 0
    except ValueError:
        return None


def _unescaped(text: str, b: bool = False) -> str:
    """`text` with the escapes bash's printf reads in a format (or, `b`, in a `%b` argument, where `\\c` is _STOP)."""
    if "\\" not in text:
        return text
    return (_B_ESCAPE if b else _FORMAT_ESCAPE).sub(lambda match: _escape(match, b), text)


def _escape(match: re.Match[str], b: bool) -> str:
    octal, hexa, short, long = match.group(1, 2, 3, 4)
    if octal is not None:
        return chr(int(octal, 8) & 0xFF)
    if hexa is not None or short is not None or long is not None:
        number = int(hexa or short or long, 16)
        return chr(number) if number <= 0x10FFFF else "\ufffd"
    other = match.group(5)
    if b and other == "c":
        return _STOP
    return _ESCAPES.get(other, "\\" + other)
