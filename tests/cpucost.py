"""The CPU a reader spends on hostile text, for the tests that prove a reader linear in its input.

Such a test gives `assert_linear` the hostile text as a function of its size (`repeated(unit)` for the usual
head + unit × n + tail); the helper reads it at `SMALL` and at `LARGE` (4 times), the least of three runs each in CPU
seconds (the collector off), and asserts the large one under a budget (user and system time) and its user time under
half of 16 times the small one's user and system time (a quadratic reading costs 16 times for 4 times the text, a
linear one ~4). The large side is user time (suite round 37): a busy machine adds system time to the large text's
runs (fresh memory faulted in: 32 ms against 15 ms idle for one reader at load 15, a ratio of 9.3 for a linear
reader), while every quadratic reading fixed so far spends its extra in user time (copies, backtracking: the mildest
costs 15-16.4 times in user time as in the sum). The small side keeps the sum: this kernel splits user and system time
by 4 ms ticks (a run's user time is sampled, several ms off on a 50 ms run), and a small text's user time read low
would tighten the bound past a linear reader; the sum is exact.

`LARGE` is 64 KiB (suite round 29; docs/testing.md says why): every quadratic reader earlier rounds fixed costs
12.5 times its 16 KiB text or more at 64 KiB (the mildest, Concourse's run keys copying the rest of the lines per
key; regular expressions that backtrack 15-18 times and seconds), the current readers 2.8-4.5 times, and the bound is
8. At 16 KiB (4 KiB small) the mildest passed (6.4). A test may pass two texts of its own where its size is not
characters (values, lines); a text over `LARGE` is refused, since its size buys nothing the measured one does not.

A read too cheap to measure alone (under half `BATCH`, 2.5 ms, on the small text) is measured in batches of calls, the
same number on both texts, and compared per call (suite round 38). It was held to a floor before: a bound of 10 ms
whatever the small text cost, so a quadratic reader under 10 ms at 64 KiB passed (review 67b planted them: a copy of
the text's rest every 64 characters, 0.8 ms at 64 KiB and 13-18 times its small text). A batch is at least 2.5 ms on
the small text, so the bound is at least 20 ms of batch; a read that costs that alone runs as before (three small
runs, the large ones until one is under the bound).

A batched read past the bound is measured once more a size up, `LARGE` against `4 * LARGE` (a quarter of the calls),
and passes if it keeps the bound there (suite round 39): a cheap linear read whose way changes at a size between the two
(`lazy_pattern` works out a text's line heads from 64 KiB on: one more pass that a 16 KiB text never pays) or whose text
leaves a cache level steps up once, and `ciruns._is_gitlab` measured 6-9 times its 16 KiB text, failing three
fresh-clone CI runs; a quadratic read costs ~16 times at every size, so it fails both.

The assertion is on the least of the large text's runs, so once one run is under the bound a later one can only
lower the least: `least_costs(..., under=bound)` stops there and the test is decided exactly as after every run (a
reading that fails the bound still runs all of them). The small text's runs all run: a lower least makes the bound
tighter.
"""

from __future__ import annotations

import gc
import math
import resource
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
S = TypeVar("S", str, bytes)

LARGE = 64 * 1024  # characters (or bytes) of the large text
SMALL = LARGE // 4
BATCH = 0.005  # CPU-s a batch of small reads aims at; the ratio is taken on no less than half of it
MOST_REPEATS = 1 << 17  # calls in a batch: `len` of a text (~40 ns) reaches BATCH at ~100,000


def user_cpu() -> float:
    """This process's user CPU seconds (`time.process_time` less the system time; the kernel splits the two by 4 ms
    ticks, so a short run's share is sampled, not exact)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def least_costs(read: Callable[[Any], object], text: Any, runs: int = 3, under: float | None = None,
                total_under: float = float("inf")) -> tuple[float, float]:
    """The least user CPU seconds and the least user + system CPU seconds of up to `runs` calls of `read(text)`, the
    collector off; with `under`, the calls stop once the least user time is under it and the least sum under
    `total_under`."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        least_user = least_total = float("inf")
        for _ in range(runs):
            started_user, started = user_cpu(), time.process_time()
            read(text)
            least_total = min(least_total, time.process_time() - started)
            least_user = min(least_user, user_cpu() - started_user)
            if under is not None and least_user < under and least_total < total_under:
                break
        return least_user, least_total
    finally:
        if was_enabled:
            gc.enable()


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


def repeated(unit: S, head: S | None = None, tail: S | None = None) -> Callable[[int], S]:
    """The text of `size` for `assert_linear`: `head`, then `unit` repeated to `size` characters, then `tail`."""
    def text(size: int) -> S:
        body = unit * (size // len(unit))
        return (head if head is not None else unit[:0]) + body + (tail if tail is not None else unit[:0])
    return text


def repeats(read: Callable[[Any], object], times: int) -> Callable[[Any], None]:
    """`read` called `times` times on one text: a batch whose CPU time the clocks measure where one call's is too
    short to."""
    def batch(text: Any) -> None:
        for _ in range(times):
            read(text)
    return batch


def batch_size(read: Callable[[Any], object], small: Any) -> tuple[int, float, float]:
    """How many calls of `read(small)` make a batch of at least half `BATCH` CPU seconds (1 for a read that costs that
    alone; at most `MOST_REPEATS`), with the batch's least user and least user + system time over three runs."""
    times = 1
    while True:
        small_user, small_total = least_costs(repeats(read, times), small)
        if 2 * small_total >= BATCH or times >= MOST_REPEATS:
            return times, small_user, small_total
        times = min(MOST_REPEATS, max(2 * times, math.ceil(BATCH * times / max(small_total, 1e-7))))


def assert_linear(read: Callable[[Any], object], text: Callable[[int], Any] | Any, large: Any = None, *,
                  budget: float, floor: float = 0.02) -> tuple[float, float]:
    """`read` of the large text costs under `budget` (user + system time) and, in user time, under half of 16 times
    `read` of the small one in user + system time: linear, not quadratic. A read that costs under half `BATCH` on the
    small text is measured in batches of calls (the same number on both texts, compared per call); `floor` bounds a
    batch that `MOST_REPEATS` calls do not make measurable. `text` builds a text of a size (`text(SMALL)`,
    `text(LARGE)`); or `text` and `large` are the two texts, the large 4 times the small and at most `LARGE` long.
    A batched read past the bound is measured once more a size up, `LARGE` against `4 * LARGE` (`text` a function
    only), and passes if it keeps the bound there (suite round 39: a linear
    read that changes its way past a size between the two, or leaves a cache level, steps up once; a quadratic one
    costs ~16 times at every size).
    Returns both costs per call (the large one in user time)."""
    sized = text if large is None else None
    if large is None:
        small, large = text(SMALL), text(LARGE)
    else:
        small = text
        # a text, or a size that `read` builds its text of (`lambda size: ...` with 64 * 1024, 256 * 1024)
        size = len(large) if isinstance(large, (str, bytes)) else large if isinstance(large, int) else 0
        assert size <= LARGE + 1024, (
            f"a reader-cost text of {size} characters: give assert_linear a function of the size "
            f"(cpucost.repeated), read at {LARGE} (docs/testing.md)")
    # Two rounds at most: a round whose large runs a busy worker slowed (seen once in a whole run: 3.9 against 35 ms for
    # a reader measured at 3.2 against 13.4 ms idle; its sys time: fresh memory faulted in for the large text's
    # objects) is measured again; a quadratic reader costs ~16 times in every round.
    times, _, small_cost = batch_size(read, small)
    batch = repeats(read, times)
    for again in range(2):
        if again:
            _, small_cost = least_costs(batch, small)
        bound = max(16 * small_cost, floor) / 2
        large_cost, large_total = least_costs(batch, large, under=bound, total_under=budget * times)
        if large_total < budget * times and large_cost < bound:
            break
    assert large_total < budget * times, (times, small_cost, large_cost, large_total)
    if large_cost >= bound and times > 1 and sized is not None:
        _assert_linear_a_size_up(repeats(read, max(1, times // 4)), large, sized(4 * LARGE),
                                 (times, small_cost, large_cost))
    else:
        assert large_cost < bound, (times, small_cost, large_cost)
    return small_cost / times, large_cost / times


def _assert_linear_a_size_up(batch: Callable[[Any], None], small: Any, large: Any, below: tuple[float, ...]) -> None:
    """A batch of cheap reads (a quarter of the calls: each reads 4 times the text) costs under half of 16 times its
    cost on `small` (`LARGE`) on `large` (4 times it)."""
    _, small_cost = least_costs(batch, small)
    bound = 8 * small_cost
    large_cost, _ = least_costs(batch, large, under=bound)
    assert large_cost < bound, (*below, "a size up:", small_cost, large_cost)


def within_cpu(budget: float, call: Callable[[], T], what: object = None, runs: int = 3) -> T:
    """`call()`'s first value, asserting that `call()` costs under `budget` CPU seconds: the least of up to `runs`
    calls, the collector off, stopping at the first under it (a passing call runs once, as a single timing did). A
    reader the budget guards against (quadratic, backtracking) costs past it on every call, so it still fails; a
    call that a loaded machine or a collector pass slowed once no longer does."""
    values: list[T] = []
    cost = least_cpu(lambda _: values.append(call()), None, runs=runs, under=budget)
    assert cost < budget, (what, cost) if what is not None else cost
    return values[0]
