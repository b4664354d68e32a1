"""The CPU a reader spends on hostile text, for the tests that prove a reader linear in its input.

Such a test reads a small and a large text (4 times the small), the least of three runs each in CPU seconds
(`time.process_time`, the collector off: load cannot flake it), and asserts the large one under a budget and under
half of 16 times the small one (a quadratic reading costs 16 times for 4 times the text, a linear one ~4).

The assertion is on the least of the large text's runs, so once one run is under the bound a later one can only
lower the least: `least_cpu(..., under=bound)` stops there and the test is decided exactly as after every run (a
reading that fails the bound still runs all of them). The small text's runs all run: a lower least makes the bound
tighter. This saves two of the three large runs, ~half of what such a test spends (issue 13).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def least_cpu(read: Callable[[Any], object], text: Any, runs: int = 3, under: float | None = None) -> float:
    """The least CPU seconds of up to `runs` calls of `read(text)`, the collector off; with `under`, the calls stop
    at the first that costs less than it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        least = float("inf")
        for _ in range(runs):
            started = time.process_time()
            read(text)
            least = min(least, time.process_time() - started)
            if under is not None and least < under:
                break
        return least
    finally:
        if was_enabled:
            gc.enable()


def assert_linear(read: Callable[[Any], object], small: Any, large: Any, *, budget: float,
                  floor: float = 0.02) -> tuple[float, float]:
    """`read` of `large` (4 times `small`) costs under `budget` and under half of 16 times `read` of `small` (or of
    `floor`, where the small text costs too little to measure): linear, not quadratic. Returns both costs."""
    small_cost = least_cpu(read, small)
    bound = max(16 * small_cost, floor) / 2
    large_cost = least_cpu(read, large, under=min(budget, bound))
    assert large_cost < budget, (small_cost, large_cost)
    assert large_cost < bound, (small_cost, large_cost)
    return small_cost, large_cost


def within_cpu(budget: float, call: Callable[[], T], what: object = None, runs: int = 3) -> T:
    """`call()`'s first value, asserting that `call()` costs under `budget` CPU seconds: the least of up to `runs`
    calls, the collector off, stopping at the first under it (a passing call runs once, as a single timing did). A
    reader the budget guards against (quadratic, backtracking) costs past it on every call, so it still fails; a
    call that a loaded machine or a collector pass slowed once no longer does."""
    values: list[T] = []
    cost = least_cpu(lambda _: values.append(call()), None, runs=runs, under=budget)
    assert cost < budget, (what, cost) if what is not None else cost
    return values[0]
