"""cost40: a Compose file's variables are read in time linear in the text.

`composerefs._VARIABLE` and `_DEFAULT` (`${X}`, `${X:-default}`) were tried at each `${` with no `}` after it and
scanned to the end: 16 KiB of `${` cost a search 75 ms, 16 times its 4 KiB, and `builds` searched a whole Compose file
(64 KiB: over a second). Past the last `}` only the bare `$NAME` is tried; the answers are 4c9e1172's, compared on
generated texts.
"""

from __future__ import annotations

import random
import re

import pytest

from gatekeeper.classify import composerefs
from tests.cpucost import assert_linear, repeated

# 4c9e1172's readings
_OLD_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-?]([^}]*)\}")
_OLD_VARIABLE = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
_PIECES = ["$", "${", "}", "{", "$$", "A", "a_1", ":-", "-", "?", ":?", "/", ".yml", " ", "x", "${A}", "${A:-b}", "\n"]


@pytest.mark.parametrize("seed", range(4))
def test_the_answers_are_the_old_patterns(seed: int) -> None:
    draw = random.Random(seed)
    for _ in range(5_000):
        text = "".join(draw.choice(_PIECES) for _ in range(draw.randint(0, 20)))
        assert composerefs._has_variable(text) == (_OLD_VARIABLE.search(text) is not None), repr(text)
        old = _OLD_VARIABLE.sub(composerefs.WILD, _OLD_DEFAULT.sub(lambda m: m.group(1), text))
        assert composerefs._wild(text) == old, repr(text)


@pytest.mark.parametrize("unit", ["${", "${A:-", "${A:-${", "$", "${}${"])
def test_a_compose_file_of_unclosed_variables_is_read_in_linear_time(unit: str) -> None:
    assert_linear(lambda text: composerefs.builds("compose.yml", text),
                  repeated(unit, "services:\n  app:\n    image: x\n    env_file: ./", ".env\n"), budget=0.5)
