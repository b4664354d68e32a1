"""Container start commands in exec form, where a `-c` string literal is the started program's own option.

The requirements reader (pipinstalls.py) takes a `"-c", "FILE"` pair of string literals in an installer's text as an
install's constraints file (a noxfile's `session.install("-c", "pins.txt")`, a list handed to pip). In the exec form
of a Dockerfile's `CMD`, `ENTRYPOINT` and `HEALTHCHECK CMD` and of a Compose service's `command:`, `entrypoint:` and
healthcheck `test:` the pair is the started program's option, nearly always its configuration file (`snmptrapd -c
/etc/snmp/snmptrapd.conf`, `gunicorn -c gunicorn_conf.py`, `supervisord -c ...`, `python -c CODE`): the sixty-ninth
set. A list that names an installer anywhere (`pip`, `uv`, `conda`, `mamba`, `install`, `sync`, `requirement`,
`constraint`, `override`) keeps its pairs, and so does a list that does not close within WINDOW characters (fail
closed). One pass over the text and one bounded look at each list: linear in the text's size.
"""

from __future__ import annotations

import bisect
import re

from gatekeeper.lazy_pattern import lazy

WINDOW = 1024  # a start command's list longer than this is not known to be one
# The `[` that opens a start command's exec form: a Dockerfile instruction (any case, a HEALTHCHECK's options before
# its CMD) or a Compose key (`- command: [` in a list too), at a line's start or after a blank (a YAML plain scalar
# folds a Dockerfile's lines into one string joined by spaces, and the reader reads that string too).
_HEAD = lazy(r"(?:^|(?<=[ \t]))(?:-[ \t]++)?+"
                   r"(?:(?:cmd|entrypoint|healthcheck(?:[ \t]++--[^\s]++)*+[ \t]++cmd)[ \t]*+"
                   r"|[\"']?(?:command|entrypoint|test)[\"']?[ \t]*+:[ \t]*+)\[", re.IGNORECASE | re.MULTILINE)
_INSTALLER = lazy(r"pip|(?<![a-z])uv(?![a-z])|conda|mamba|install|sync|requirement|constraint|override",
                        re.IGNORECASE)


class StartCommands:
    """The exec-form start command lists of one text, each with whether it names an installer."""

    def __init__(self, text: str) -> None:
        self._opens: list[int] = []
        self._lists: list[tuple[int, bool]] = []  # (where the list closes, whether it names an installer)
        for head in _HEAD.finditer(text):
            opened = head.end()
            closed = text.find("]", opened, opened + WINDOW)
            if closed < 0:
                continue  # no close within the bound: not known to be a start command
            self._opens.append(opened)
            self._lists.append((closed, _INSTALLER.search(text, opened, closed) is not None))

    def programs_own(self, position: int) -> bool:
        """Whether `position` lies inside a start command's list that names no installer."""
        index = bisect.bisect_right(self._opens, position) - 1
        if index < 0:
            return False
        closed, installs = self._lists[index]
        return position < closed and not installs
