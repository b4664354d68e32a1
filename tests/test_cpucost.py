"""tests/cpucost.py's `within_cpu`, which the single-call CPU budgets of the reader tests use: a call that always costs
past the budget fails it, one slowed once by the machine does not, and a call under it runs once."""

from __future__ import annotations

import time

import pytest
from cpucost import within_cpu


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
