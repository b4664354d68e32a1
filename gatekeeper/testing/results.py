"""Result models of a `gatekeeper test` run: one result per Rego test or fixture check, plus coverage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gatekeeper.errors import ExitCode

Status = Literal["pass", "fail", "error", "skip"]
STATUSES: tuple[str, ...] = ("pass", "fail", "error", "skip")


@dataclass(frozen=True, slots=True)
class TestResult:
    """The outcome of one Rego `test_` rule or one fixture case under one policy set."""

    __test__ = False  # not a pytest test class, despite the name

    suite: Literal["rego", "fixtures", "versions"]
    name: str  # the test rule's name, or "<case>[<policy set>]"
    file: str  # shown to the user: relative to the bundle or the fixtures folder
    line: int  # 1-based; 0 when there is no line to point at
    status: Status
    message: str = ""
    seconds: float = 0.0
    rule_ids: tuple[str, ...] = ()  # finding rule ids this test exercised (feeds coverage)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which declared rule ids some test or fixture produced, against the floor asked for."""

    declared: tuple[str, ...]  # every rule id the bundle's policies declare (sorted)
    produced: tuple[str, ...]  # declared ids some passing test or fixture produced (sorted)
    missing: tuple[str, ...]  # declared ids nothing produced
    undeclared: tuple[str, ...]  # ids produced that no policy declares: the metadata is out of date
    minimum: float  # percent

    @property
    def percent(self) -> float:
        if not self.declared:
            return 100.0
        return 100.0 * len(self.produced) / len(self.declared)

    @property
    def ok(self) -> bool:
        # Compare with a small tolerance so 100.0 vs 99.99999 rounding never flips a result.
        return self.percent + 1e-9 >= self.minimum and not self.undeclared


@dataclass(frozen=True, slots=True)
class TestRun:
    """A whole `gatekeeper test` run: it computes its own exit code."""

    __test__ = False  # not a pytest test class, despite the name

    bundle: dict[str, object]  # name, revision, commit, digest, root
    fixtures_dir: str | None
    results: tuple[TestResult, ...]
    coverage: Coverage
    seconds: float
    notes: tuple[str, ...] = ()  # one line each, e.g. that the reference engine is not installed

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def passed(self) -> bool:
        return all(r.status in ("pass", "skip") for r in self.results) and self.coverage.ok

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.passed else ExitCode.FAILED
