"""The CPU a reader spends on hostile text, for the tests that prove a reader linear in its input.

Such a test gives `assert_linear` the hostile text as a function of its size (`repeated(unit)` for the usual
head + unit × n + tail); the helper reads it at `SMALL` and at `LARGE` (4 times), the least of three runs each in CPU
seconds (the collector off), and asserts the large one under a budget (user and system time) and its user time under
`BOUND` (8) times the small one's user and system time (a quadratic reading costs 16 times for 4 times the text, a
linear one ~4). The large side is user time (suite round 37): a busy machine adds system time to the large text's
runs (fresh memory faulted in: 32 ms against 15 ms idle for one reader at load 15, a ratio of 9.3 for a linear
reader), while every quadratic reading fixed so far spends its extra in user time (copies, backtracking: the mildest
costs 15-16.4 times in user time as in the sum). The small side keeps the sum: this kernel splits user and system time
by 4 ms ticks (a run's user time is sampled, several ms off on a 50 ms run), and a small text's user time read low
would tighten the bound past a linear reader; the sum is exact.

`LARGE` is 64 KiB (suite round 29; docs/testing.md says why): every quadratic reader earlier rounds fixed costs
12.5 times its 16 KiB text or more at 64 KiB (the mildest, Concourse's run keys copying the rest of the lines per
key; regular expressions that backtrack 15-18 times and seconds), the current readers 2.8-4.5 times, and the bound is
8. At 16 KiB (4 KiB small) the mildest passed (6.4). Where a text's size is not characters (values, lines), the
function scales its own count from the size (`lambda size: lines(size // 64)`); two texts of a test's own were taken
until suite round 40, which needs a third, far one.

A read too cheap to measure alone (under half `BATCH`, 2.5 ms, on the small text) is measured in batches of calls, the
same number on both texts, and compared per call (suite round 38). It was held to a floor before: a bound of 10 ms
whatever the small text cost, so a quadratic reader under 10 ms at 64 KiB passed (review 67b planted them: a copy of
the text's rest every 64 characters, 0.8 ms at 64 KiB and 13-18 times its small text). A batch is at least 2.5 ms on
the small text, so the bound is at least 20 ms of batch; a read that costs that alone runs as before (three small
runs, the large ones until one is under the bound).

A read past the bound at 4 times its text is measured a second time, far: at `FAR` (256 KiB, 16 times the small
text) against the small text measured again, and passes if it costs under `FAR_BOUND` (64) times it (suite round 40):
a linear read costs ~16 times there and a quadratic one ~256, a margin of 4 on both sides where the first measure has
2. The first measure's margin is what flaked: the official CI measured linear readers at 8.3 (a dear read alone, 8.4
against 69 ms) and 13 times, and under load the large text's objects leave the caches that the small one's stay in,
so the large side slows more than the small; at 16 times the text the same slowing is a quarter of the margin. A read
that costs `QUADRATIC` (16) times its small text or more at 4 times the text is quadratic at the first measure and fails
without the far one (what a quadratic reader costs there; a linear one would need 4 times its cost on the large side
alone). What it still does not catch: a quadratic share that overtakes the linear work only past 64 KiB (a read that
costs 5 times at 4 times the text and 40 times at 16; docs/testing.md).

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
FAR = 16 * SMALL  # the far text: a read past the bound at LARGE is measured again here
BOUND = 8  # the least cost at LARGE over the small text's: linear ~4, quadratic ~16
QUADRATIC = 16  # at LARGE this many times the small text's cost or more fails without a far measure
FAR_BOUND = 64  # the least cost at FAR over the small text's: linear ~16, quadratic ~256
BATCH = 0.005  # CPU-s a batch of small reads aims at; the ratio is taken on no less than half of it
MOST_REPEATS = 1 << 17  # calls in a batch: `len` of a text (~40 ns) reaches BATCH at ~100,000


def user_cpu() -> float:
    """This process's user CPU seconds (`time.process_time` less the system time; the kernel splits the two by 4 ms
    ticks, so a short run's share is sampled, not exact)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def least_costs(read: Callable[[Any], object], text: Any, runs: int = 3, under: float | None = None,
                total_under: float = float("inf"), over: float = float("inf")) -> tuple[float, float]:
    """The least user CPU seconds and the least user + system CPU seconds of up to `runs` calls of `read(text)`, the
    collector off; with `under`, the calls stop once the least user time is under it and the least sum under
    `total_under`; with `over`, once the least user time is past it (every call so far was)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        least_user = least_total = float("inf")
        for _ in range(runs):
            started_user, started = user_cpu(), time.process_time()
            read(text)
            least_total = min(least_total, time.process_time() - started)
            least_user = min(least_user, user_cpu() - started_user)
            if under is not None and least_user < under and least_total < total_under or least_user >= over:
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


def assert_linear(read: Callable[[Any], object], text: Callable[[int], Any], *, budget: float,
                  floor: float = 0.02) -> tuple[float, float]:
    """`read` of `text(LARGE)` costs under `budget` (user + system time) and, in user time, under `BOUND` times `read`
    of `text(SMALL)` in user + system time: linear, not quadratic; past that bound (and under `QUADRATIC` times), `read`
    of `text(FAR)` costs under `FAR_BOUND` times `text(SMALL)` measured again. `text` builds the text of a size in
    characters (`repeated(unit, head, tail)`), or of a count of its own scaled from it (`lambda size: lines(size //
    64)`). A read that costs under half `BATCH` on the small text is measured in batches of calls (the same number on
    the small and the large text, a sixteenth of them on the far one; compared per call); `floor` bounds a batch that
    `MOST_REPEATS` calls do not make measurable (`floor / 2` at `LARGE`, 4 times it at `FAR`, per the batch's calls).
    Returns both costs per call at the first measure (the large one in user time)."""
    assert callable(text), (
        "assert_linear takes the hostile text as a function of its size (cpucost.repeated, or `lambda size: ...`), "
        "so that a read past the bound can be measured far (docs/testing.md)")
    small, large = text(SMALL), text(LARGE)
    times, _, small_cost = batch_size(read, small)
    batch = repeats(read, times)
    bound = max(BOUND * small_cost, floor / 2)
    large_cost, large_total = least_costs(batch, large, under=bound, total_under=budget * times)
    measured = (times, small_cost, large_cost)
    assert large_total < budget * times, (*measured, large_total)
    if large_cost >= bound:
        assert large_cost < QUADRATIC * small_cost, (*measured, "quadratic at 4 times the text")
        _, small_cost_again = least_costs(batch, small)
        far_times = max(1, times // 16)  # per call, as many CPU seconds as the small batch for a linear read
        far_bound = max(FAR_BOUND * small_cost_again, 4 * floor) * far_times / times
        far_cost, _ = least_costs(repeats(read, far_times), text(FAR), under=far_bound, over=2 * far_bound)
        assert far_cost < far_bound, (*measured, "at 16 times the text:", far_times, small_cost_again, far_cost)
    return small_cost / times, large_cost / times


def within_cpu(budget: float, call: Callable[[], T], what: object = None, runs: int = 3) -> T:
    """`call()`'s first value, asserting that `call()` costs under `budget` CPU seconds: the least of up to `runs`
    calls, the collector off, stopping at the first under it (a passing call runs once, as a single timing did). A
    reader the budget guards against (quadratic, backtracking) costs past it on every call, so it still fails; a
    call that a loaded machine or a collector pass slowed once no longer does."""
    values: list[T] = []
    cost = least_cpu(lambda _: values.append(call()), None, runs=runs, under=budget)
    assert cost < budget, (what, cost) if what is not None else cost
    return values[0]
