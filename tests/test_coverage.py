"""Rule coverage: declared rule ids against the ids passing tests and fixtures produced."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gatekeeper.testing.coverage import compute_coverage, declared_rule_ids
from gatekeeper.testing.results import TestResult


@dataclass(frozen=True)
class FakePolicy:
    name: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class FakeBundle:
    policies: tuple[FakePolicy, ...]


BUNDLE = FakeBundle((FakePolicy("core", ("core.ci", "core.iac")), FakePolicy("deps", ("deps.changed",))))


def result(status: str, *rules: str) -> TestResult:
    return TestResult("fixtures", "case[default]", "fixtures/case/expect.yaml", 1, status, rule_ids=rules)  # type: ignore[arg-type]


def test_declared_ids_come_from_every_policy() -> None:
    assert declared_rule_ids(BUNDLE) == ("core.ci", "core.iac", "deps.changed")  # type: ignore[arg-type]


def test_full_coverage_passes() -> None:
    cov = compute_coverage(BUNDLE, [result("pass", "core.ci", "core.iac"), result("pass", "deps.changed")], 100)  # type: ignore[arg-type]
    assert cov.ok and cov.percent == 100.0 and cov.missing == ()


def test_only_passing_results_count_and_missing_ids_are_listed() -> None:
    cov = compute_coverage(
        BUNDLE,  # type: ignore[arg-type]
        [result("pass", "core.ci"), result("fail", "core.iac"), result("error", "deps.changed")],
        100,
    )
    assert cov.produced == ("core.ci",)
    assert cov.missing == ("core.iac", "deps.changed")
    assert round(cov.percent, 1) == 33.3 and not cov.ok


def test_floor_is_respected() -> None:
    results = [result("pass", "core.ci", "core.iac")]
    assert compute_coverage(BUNDLE, results, 66).ok  # type: ignore[arg-type]
    assert not compute_coverage(BUNDLE, results, 67).ok  # type: ignore[arg-type]


def test_undeclared_ids_fail_but_gate_ids_are_ignored() -> None:
    cov = compute_coverage(BUNDLE, [result("pass", "core.ci", "core.iac", "deps.changed", "gatekeeper.integrity")], 100)  # type: ignore[arg-type]
    assert cov.ok and cov.undeclared == ()
    cov = compute_coverage(BUNDLE, [result("pass", "core.ci", "core.iac", "deps.changed", "core.typo")], 100)  # type: ignore[arg-type]
    assert cov.undeclared == ("core.typo",) and not cov.ok


def test_shipped_bundle_declares_rules_for_every_policy() -> None:
    from gatekeeper.policy.bundle import load_bundle

    bundle = load_bundle(Path(__file__).resolve().parent.parent / "policies")
    ids = declared_rule_ids(bundle)
    for policy in bundle.policies:
        assert any(rule.startswith(policy.name + ".") for rule in ids), policy.name
