"""Attack 41: setuphunks.py (deps round 49) read a setup.py hunk's changed line with `\\s*,?\\s*` before the line's end:
a string item followed by a long run of blanks and a stray character (`" " ` + blanks + `\\x01`) split the run every
way, quadratic in it. On main 7022fb12 one 4,000-character line cost 0.53 CPU-s in setup_py_line (the census,
bench/bench_pattern_cost.py --only setuphunks: 621 ms at 4 KiB), so a 256 KiB line in a patch held the gate for some
thirty minutes. The patterns are possessive now; they read what the old ones read (compared on generated lines).
"""

from __future__ import annotations

import random
import re

import pytest
from cpucost import assert_linear

from gatekeeper.deps import setuphunks
from gatekeeper.deps.model import ManifestError, PartlyShown

_STRING = r"""(?P<q>["'])(?P<req>[^"'\\\n]+)(?P=q)"""
OLD = {"_ITEM": rf"^\s*{_STRING}\s*,?\s*(?:#.*)?$",
       "_EXTRA_ENTRY": rf"""^\s*(?P<kq>["'])[\w.\-]+(?P=kq)\s*:\s*{_STRING}\s*,?\s*(?:#.*)?$"""}


def _read(line: str) -> object:
    try:
        return setuphunks.setup_py_line([("install_requires=[", False), (line, True)], 1)
    except (ManifestError, PartlyShown) as error:
        return type(error)


@pytest.mark.parametrize("line", ['" " {b}\x01', '"a": " " {b}\x01', '"x" {b},{b}\x01', "'a' ,{b}# x\x00{b}z"])
def test_a_long_blank_run_is_read_in_linear_time(line: str) -> None:
    assert_linear(_read, lambda size: line.format(b=" " * size), budget=0.5)


def test_the_possessive_patterns_read_what_the_old_ones_read() -> None:
    rng = random.Random(41)
    parts = ['"', "'", " ", "\t", ",", "#", ":", "a", "req==1", "\\", "x.y", "[", "\x01"]
    for name, old in OLD.items():
        before, after = re.compile(old), getattr(setuphunks, name)
        for _ in range(4000):
            line = "".join(rng.choice(parts) for _ in range(rng.randint(1, 14)))
            for text in (line, '"pkg>=1"' + line, '"extra": "pkg"' + line, ' "k": ' + line):
                old_hit, new_hit = before.match(text), after.match(text)
                assert (old_hit and old_hit.groupdict()) == (new_hit and new_hit.groupdict()), (name, text)
