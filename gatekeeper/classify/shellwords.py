"""A line's words as `shlex` splits them in POSIX mode with `whitespace_split`, in time linear in the line (cost 40).

`shlex` builds each word one character at a time on an attribute (`self.token += c`: a new string each time), so a
word costs the square of its length: one 1 MiB word in a CI script cost `shlex.split` 17 CPU-s, and 64 KiB of `'a'`
is one 21,000-character word. This is `shlex.shlex.read_token`'s reading with the word held in a local list: the same
words, the same `ValueError`s ("No closing quotation", "No escaped character"), for the two ways the readers call it:
`shlex.split(text, comments=...)` and a lexer with `punctuation_chars` (runs of those characters are words of their
own). tests/test_cost40_shell_words.py compares the two on generated lines.
"""

from __future__ import annotations

__all__ = ["split"]

_WHITESPACE = frozenset(" \t\r\n")
_QUOTES = frozenset("'\"")


def split(text: str, comments: bool = False, punctuation: str = "") -> list[str]:
    """`shlex.split(text, comments=comments)`; with `punctuation`, the words of `shlex.shlex(text, posix=True,
    punctuation_chars=punctuation)` with `whitespace_split = True` and no commenters unless `comments`."""
    commenters = frozenset("#" if comments else "")
    punct = frozenset(punctuation)
    words: list[str] = []
    word: list[str] = []
    quoted = False
    state = " "  # " " between words, "a" in one, "c" in a run of punctuation, a quote, or "\\" after an escape
    escaped = " "  # the state an escape returns to
    at, end = 0, len(text)
    while True:
        char = text[at] if at < end else ""
        at += 1
        if state == " ":
            if not char:
                break
            if char in _WHITESPACE:
                if word or quoted:
                    words.append("".join(word))
                    word, quoted = [], False
            elif char in commenters:
                newline = text.find("\n", at)
                at = end if newline < 0 else newline + 1
            elif char == "\\":
                escaped, state = "a", char
            elif char in punct:
                word, state = [char], "c"
            elif char in _QUOTES:
                state = char
            else:
                word, state = [char], "a"
        elif state in _QUOTES:
            quoted = True
            if not char:
                raise ValueError("No closing quotation")
            if char == state:
                state = "a"
            elif char == "\\" and state == '"':
                escaped, state = state, char
            else:
                word.append(char)
        elif state == "\\":
            if not char:
                raise ValueError("No escaped character")
            if escaped in _QUOTES and char != state and char != escaped:
                word.append(state)
            word.append(char)
            state = escaped
        else:  # "a" or "c"
            if not char:
                break
            if char in _WHITESPACE:
                state = " "
                if word or quoted:
                    words.append("".join(word))
                    word, quoted = [], False
            elif char in commenters:
                newline = text.find("\n", at)
                at = end if newline < 0 else newline + 1
                state = " "
                if word or quoted:
                    words.append("".join(word))
                    word, quoted = [], False
            elif state == "c":
                if char in punct:
                    word.append(char)
                else:
                    at -= 0 if char in _WHITESPACE else 1  # read again in the next word
                    state = " "
                    words.append("".join(word))
                    word, quoted = [], False
            elif char in _QUOTES:
                state = char
            elif char == "\\":
                escaped, state = "a", char
            elif char not in punct:
                word.append(char)
            else:
                at -= 1
                state = " "
                if word or quoted:
                    words.append("".join(word))
                    word, quoted = [], False
    if word or quoted:
        words.append("".join(word))
    return words
