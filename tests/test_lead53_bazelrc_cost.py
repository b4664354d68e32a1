"""The run-control tokenizer (gatekeeper/classify/bazelrc.py, docs review 54's fix) on hostile text: quotes left open,
escapes, continuations and comment marks repeated over the 64 KiB it reads before a file is `ci` unread. CPU seconds
(load cannot flake them), the least of three, the collector off; measured linear: 2-42 ms at 64 KiB, ~4 times the
16 KiB cost for every shape (a quadratic reading would be 16 times)."""

from __future__ import annotations

import gc
import time

import pytest

from gatekeeper.classify.bazelrc import rc_lines

SHAPES = {"double quotes": '"', "single quotes": "'", "mixed quotes and escapes": "\"'\\",
          "continuations": "\\\n", "CRLF continuations": "\\\r\n", "escapes": "\\a",
          "open quoted options": 'build "--x=a ', "comment marks": "#'\"", "config names": "build:a.b/c+d "}


def _cost(text: str) -> float:
    gc.disable()
    try:
        runs = []
        for _ in range(3):
            started = time.process_time()
            rc_lines(text)
            runs.append(time.process_time() - started)
        return min(runs)
    finally:
        gc.enable()


@pytest.mark.parametrize("unit", list(SHAPES.values()), ids=list(SHAPES))
def test_a_hostile_run_control_file_is_read_in_linear_time(unit: str) -> None:
    small, large = (_cost(unit * (kib * 1024 // len(unit))) for kib in (16, 64))
    assert large < 0.5, large
    assert large < max(16 * small, 0.02) / 2, (small, large)
