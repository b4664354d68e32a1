"""Rule coverage: which rule ids the bundle's policies declare, and which ones a test ever produced.

A rule id counts as produced when a passing fixture asserted a finding with that id, or a passing
Rego unit test names it in a string literal (`f.rule == "core.ci"`) outside a `not` line. Ids of
the gate's own findings (`gatekeeper.*`: integrity, unsafe paths, tree mismatch) are Python, not
policy, and are left out. Every policy in the bundle counts, switched on by default or not: a policy that no test
exercises is exactly what the floor is for.
"""

from __future__ import annotations

from collections.abc import Iterable

from gatekeeper.policy.bundle import Bundle
from gatekeeper.testing.results import Coverage, TestResult

GATE_RULE_PREFIX = "gatekeeper."


def declared_rule_ids(bundle: Bundle) -> tuple[str, ...]:
    """Every rule id the bundle's policies say they can produce (from their METADATA)."""
    ids: set[str] = set()
    for policy in bundle.policies:
        ids.update(getattr(policy, "rules", ()) or ())
    return tuple(sorted(ids))


def compute_coverage(bundle: Bundle, results: Iterable[TestResult], minimum: float) -> Coverage:
    """Coverage of the bundle's declared rule ids by the passing results."""
    declared = declared_rule_ids(bundle)
    produced_any = {
        rule for result in results if result.status == "pass" for rule in result.rule_ids
        if not rule.startswith(GATE_RULE_PREFIX)
    }
    produced = tuple(sorted(produced_any & set(declared)))
    missing = tuple(rule for rule in declared if rule not in produced_any)
    undeclared = tuple(sorted(produced_any - set(declared)))
    return Coverage(declared=declared, produced=produced, missing=missing, undeclared=undeclared, minimum=minimum)
