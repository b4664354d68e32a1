"""tests/cpucost.py: `within_cpu`, which the single-call CPU budgets of the reader tests use (a call that always costs
past the budget fails it, one slowed once by the machine does not, and a call under it runs once), and
`assert_linear`'s shape: it still fails a real quadratic reader at its size, passes a linear one whose large runs the
kernel slowed (user time on the large side), keeps its budget on user and system time, and builds or refuses the
texts."""

from __future__ import annotations

import json
import mmap
import re
import time
from collections.abc import Callable

import cpucost
import pytest
from cpucost import FAR, LARGE, SMALL, assert_linear, repeated, within_cpu


def _spin(seconds: float) -> None:
    """Spend `seconds` of this process's CPU (no sleeping: what a slow reader does)."""
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


def test_a_call_past_the_budget_on_every_run_fails_after_three() -> None:
    calls: list[int] = []

    def slow() -> None:
        calls.append(1)
        _spin(0.04)

    with pytest.raises(AssertionError) as failed:
        within_cpu(0.02, slow, "the reader")
    assert len(calls) == 3 and "the reader" in str(failed.value)


def test_a_call_slowed_once_passes_and_gives_its_first_value() -> None:
    calls: list[int] = []

    def once_slow() -> int:
        calls.append(1)
        if len(calls) == 1:
            _spin(0.04)  # what a collector pass or a preempted core adds to one call
        return len(calls)

    assert within_cpu(0.02, once_slow) == 1
    assert len(calls) == 2


def test_a_call_under_the_budget_runs_once() -> None:
    calls: list[int] = []
    assert within_cpu(1.0, lambda: calls.append(1) or "value") == "value"
    assert calls == [1]


def _run_blocks(text: str, copy_the_rest: bool) -> int:
    """The lines of each `run:` key's block, the way tasks.run_paths read them before 10546c2e (`copy_the_rest`: a copy
    of every line after each key, `lines[number + 1:]`, quadratic in the keys: 4.0 CPU-s at 256 KiB then) and after
    (the same lines by index)."""
    lines = text.splitlines()
    found = 0
    for number, line in enumerate(lines):
        if not line.startswith("run:"):
            continue
        for child in (lines[number + 1:] if copy_the_rest else (lines[i] for i in range(number + 1, len(lines)))):
            if child.strip() and not child.startswith((" ", "\t")):
                break  # the block ended
            found += 1
    return found


RUN_KEYS = repeated("run:\n", "platform: linux\n")


def test_the_mildest_quadratic_reader_fixed_fails_at_the_helpers_size() -> None:
    """The quadratic reader with the least quadratic share that a round fixed (Concourse's run keys) costs 12.5-16
    times its small text at 64 KiB (suite round 29): the ratio bound fails it, even under a budget it keeps."""
    with pytest.raises(AssertionError):
        assert_linear(lambda text: _run_blocks(text, copy_the_rest=True), RUN_KEYS, budget=60.0)
    assert_linear(lambda text: _run_blocks(text, copy_the_rest=False), RUN_KEYS, budget=0.5)


def test_the_sizes_and_the_texts_built() -> None:
    assert LARGE == 4 * SMALL == 64 * 1024 and FAR == 16 * SMALL
    assert RUN_KEYS(20) == "platform: linux\n" + "run:\n" * 4
    assert repeated(b"ab", tail=b"x")(5) == b"ababx" and repeated("abc")(2) == ""
    seen: list[int] = []
    assert_linear(lambda text: seen.append(len(text)), lambda size: "a" * size, budget=1.0)
    assert seen[0] == SMALL and seen[-1] == LARGE


def test_a_text_not_built_by_its_size_is_refused() -> None:
    """A read past the bound is measured again on a third, far text, so a test gives the function that builds its
    texts: a text is refused, saying what to do."""
    with pytest.raises(AssertionError, match="function of its size"):
        assert_linear(len, "a" * SMALL, budget=1.0)  # type: ignore[arg-type]


def _fault_in(seconds: float) -> None:
    """Spend about `seconds` of this process's CPU in the kernel: fresh pages faulted in, what a loaded machine's
    memory pressure adds to a large text's run (suite round 34: a 15 ms reader measured 32 ms at load 15)."""
    until = time.process_time() + seconds
    while time.process_time() < until:
        pages = mmap.mmap(-1, 1 << 20)
        for offset in range(0, 1 << 20, mmap.PAGESIZE):
            pages[offset] = 1
        pages.close()


def _work(steps: int) -> None:
    """Spend `steps` steps of Python work in user time (`_spin` reads the process clock, a system call each time)."""
    for _ in range(steps):
        pass


def _linear(text: str, faulted: float = 0.0) -> int:
    """A linear reader: Python work a character, no system call (~16 ms at `LARGE`); the large text's runs also fault
    in `faulted` seconds."""
    count = 0
    for _ in range(8 * len(text)):
        count += 1
    if len(text) == LARGE:
        _fault_in(faulted)
    return count


def test_a_linear_reader_whose_large_runs_the_kernel_slowed_passes() -> None:
    """Kernel time that a busy machine adds to every large run (faulting in memory) is not the reader's: the ratio is
    on user time, so a linear reader (~4 against ~16 ms) with 25 ms of system time on each large run still passes."""
    small, large = assert_linear(lambda text: _linear(text, faulted=0.025), lambda size: "a" * size, budget=0.5)
    assert large < 8 * small


def test_the_budget_is_on_user_and_system_time() -> None:
    """A reading whose kernel time alone is past the budget fails it: the budget holds a hang that the user clock
    does not see."""
    with pytest.raises(AssertionError):
        assert_linear(lambda text: _linear(text, faulted=0.08), lambda size: "a" * size, budget=0.05)


def _copy_the_rest(every: int) -> Callable[[str], int]:
    """A quadratic reader under a millisecond at `LARGE`: a copy of the text's rest every `every` characters (review
    67b planted it: `text[at:]` every 64 characters, 16-18 times its small text, 0.8 ms at 64 KiB)."""
    def read(text: str) -> int:
        return sum(len(text[at:]) for at in range(0, len(text), every))
    return read


def _prepend_per_line(text: str) -> int:
    """A quadratic reader: the lines read so far copied again for each line (each put before the others)."""
    read = ""
    for line in text.splitlines():
        read = line + read
    return len(read)


def _rescan_per_line(text: str) -> int:
    """A quadratic reader: the text before each line searched again for each line."""
    found, at = 0, text.find("\n")
    while at >= 0:
        found += text.count("x", 0, at)
        at = text.find("\n", at + 1)
    return found


LINES = repeated("run: x\n" + "a" * 56 + "\n")


@pytest.mark.parametrize("read", [_copy_the_rest(16), _copy_the_rest(64), _copy_the_rest(256),
                                  _prepend_per_line, _rescan_per_line],
                         ids=["copy-16", "copy-64", "copy-256", "prepend-per-line", "rescan-per-line"])
def test_a_quadratic_reader_that_costs_little_at_the_size_fails(read: Callable[[str], int]) -> None:
    """However little a quadratic reading costs at `LARGE` (well under a millisecond), its ratio fails: a cheap read is
    measured in batches of calls, never against a floor of its own. In one of two measurements: a busy machine can
    pass a marginal one a size up once (suite round 39: its page faults at 256 KiB are system time), not twice; far,
    at 16 times the text (suite round 40), the copies cost 3-5 times the far bound in user time, the lines put before
    the others 2-4 times (most of their cost is fresh memory faulted in: system time, which the far side does not
    count, as a loaded machine adds it to a linear reader's large texts)."""
    failed = 0
    for _ in range(2):
        try:
            assert_linear(read, LINES, budget=1.0)
        except AssertionError:
            failed += 1
            break
    assert failed, "a quadratic reader passed the harness twice"


def _json_array(size: int) -> str:
    return "[" + ",".join(['{"a": "bcd"}'] * (size // 13)) + "]"


@pytest.mark.parametrize("read, text", [
    (str.splitlines, LINES), (lambda text: re.findall(r"[a-z]+:", text), LINES),
    (lambda text: [m.end() for m in re.finditer(r"(?m)^run:", text)], LINES), (json.loads, _json_array),
    (lambda text: text.count("x"), LINES), (lambda text: text.encode().decode(), LINES),
    (lambda text: text.upper().split(), LINES), (len, LINES)],
    ids=["splitlines", "findall", "finditer", "json", "count", "encode-decode", "upper-split", "len"])
def test_a_cheap_linear_reader_passes(read: Callable[[str], object], text: Callable[[int], str]) -> None:
    """Linear readings far cheaper than a millisecond at `LARGE` (regular expression scans, lines, JSON) pass; the
    costs returned are per call."""
    small, large = assert_linear(read, text, budget=0.5)
    assert large < 0.01  # under the 10 ms that a floor once granted every read this cheap


def test_a_cheap_read_is_measured_in_batches_and_a_dear_one_alone() -> None:
    calls: list[int] = []
    assert_linear(lambda text: calls.append(len(text)), LINES, budget=1.0)
    assert calls.count(SMALL) > 3 * 1000  # a batch of calls per run
    calls.clear()

    def dear(text: str) -> None:  # 4 ms a small text: measurable alone
        calls.append(len(text))
        _spin(0.004 * len(text) / SMALL)

    assert_linear(dear, LINES, budget=1.0)
    assert calls.count(SMALL) == 3 and calls.count(LARGE) == 1  # three small runs, the first large one under the bound


def _changes_its_way(text: str) -> int:
    """A cheap linear reader that reads a text of `LARGE` or more twice (what `lazy_pattern` does from 64 KiB on:
    the first character of every line worked out once, a pass over the text that a 16 KiB text never pays)."""
    return sum(len(text.split("\n")) for _ in range(2 if len(text) >= LARGE else 1))


def test_a_cheap_linear_reader_that_changes_its_way_between_the_sizes_passes() -> None:
    """Its ratio between 16 and 64 KiB is ~8 (4 times the text, twice the passes), at the bound; far, 16 against 256
    KiB, ~32, half the far bound (suite round 39: `ciruns._is_gitlab` measured 6-9 through `lazy_pattern`'s switch at
    64 KiB and failed three fresh-clone CI runs). A quadratic reader costs ~256 times far (the tests above)."""
    assert_linear(_changes_its_way, LINES, budget=0.5)


def _scripted(monkeypatch: pytest.MonkeyPatch, costs: dict[int, float]) -> list[int]:
    """The harness's clock replaced by `costs` (CPU-s of one read by the text's length: its decisions, not the machine,
    are under test: suite round 40's own tests of the far measure flaked on real CPU under load); the sizes read."""
    sizes: list[int] = []

    def least_costs(read: Callable[[str], object], text: str, runs: int = 3, under: float | None = None,
                    total_under: float = float("inf"), over: float = float("inf")) -> tuple[float, float]:
        sizes.append(len(text))
        return costs[len(text)], costs[len(text)]

    monkeypatch.setattr(cpucost, "least_costs", least_costs)
    return sizes


@pytest.mark.parametrize(("costs", "fails"), [
    # a dear linear read whose large runs cost 2.5 times what they should (the official CI measured 8.3): passes far
    ({SMALL: 0.003, LARGE: 0.030, FAR: 0.048}, None),
    # a quadratic one: 10 times at 4 times the text, 100 times at 16
    ({SMALL: 0.003, LARGE: 0.030, FAR: 0.3}, "at 16 times the text"),
    # 20 times at 4 times the text: quadratic at the first measure, the far text never read
    ({SMALL: 0.003, LARGE: 0.060, FAR: 0.048}, "quadratic at 4 times"),
    ({SMALL: 0.003, LARGE: 0.020, FAR: 0.048}, None),  # under the first bound: the far text never read
], ids=["slowed-linear", "far-quadratic", "first-quadratic", "linear"])
def test_the_far_measure_decides_past_the_first_bound(monkeypatch: pytest.MonkeyPatch, costs: dict[int, float],
                                                      fails: str | None) -> None:
    """Past the first bound (8 times at 4 times the text) and under 16 times, the far text decides: under 64 times
    the small text's cost passes."""
    sizes = _scripted(monkeypatch, costs)
    if fails is None:
        assert_linear(len, lambda size: "a" * size, budget=1.0)
    else:
        with pytest.raises(AssertionError, match=fails):
            assert_linear(len, lambda size: "a" * size, budget=1.0)
    assert (FAR in sizes) == (costs[LARGE] >= 8 * costs[SMALL] and costs[LARGE] < 16 * costs[SMALL])


def test_a_linear_read_slowed_at_the_large_text_passes_on_real_cpu() -> None:
    """On the clock: a read alone whose large text costs ~8 times its small one (twice the work per character, at the
    first bound) passes, read far or not (far it costs ~16 times: a margin of 4; 16 times at the first measure, a
    margin of 2, would fail it)."""
    assert_linear(lambda text: _work(4 * len(text) * (4 if len(text) == LARGE else 2)), lambda size: "a" * size,
                  budget=1.0)
