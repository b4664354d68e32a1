"""cost40: a Dockerfile RUN line's variables are marked in time linear in the line.

`dockerrefs._VARIABLE` (`${…}`, `$NAME`, `$1`) was tried at each `${` of a line with no `}` after it and scanned to
the line's end: 64 KiB of `${` cost `run_scripts` 1.2 CPU-s (tests/test_cost40_reader_shapes.py found it). Past the
line's last `}` the brace form is not tried; the commands found are 4c9e1172's, compared on generated lines.
"""

from __future__ import annotations

import random
import re

import pytest

from gatekeeper.classify import dockerrefs
from tests.cpucost import assert_linear, repeated

# 4c9e1172's reading: `_VARIABLE` over the whole line
_OLD_VARIABLE = re.compile(r"\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])")
_PIECES = ["$", "${", "}", "{", "$$", "$1", "$@", "$-", "A", "a_1", "/", ".sh", " ", ";", "&&", "|", "for f in ",
           "run-parts ", "*", "./", "x", "\n", "\\", "'", '"']


def _old_commands(run: str) -> list[str]:
    """4c9e1172's commands: the line marked by the old pattern, then read by today's code (a `$` the old pattern left
    is followed by what it refused there, which the new one refuses too: marking it again changes nothing)."""
    return dockerrefs._wild_commands(_OLD_VARIABLE.sub("\x00", run))


@pytest.mark.parametrize("seed", range(4))
def test_the_commands_are_the_old_reading_s(seed: int) -> None:
    draw = random.Random(seed)
    for _ in range(4_000):
        run = "".join(draw.choice(_PIECES) for _ in range(draw.randint(1, 20)))
        assert dockerrefs._wild_commands(run) == _old_commands(run), repr(run)


@pytest.mark.parametrize("unit", ["${", "${a", "$", "${}${", "$a{"])
@pytest.mark.parametrize("head", ["", "/s/${V}.sh ", "for f in /s/*.sh; do $f; done; "])
def test_a_line_of_unclosed_variables_is_read_in_linear_time(unit: str, head: str) -> None:
    assert_linear(lambda text: dockerrefs.run_scripts("", f"FROM x\nCOPY . /s\nRUN {text}\n"),
                  repeated(unit, head, " x"), budget=0.5)
