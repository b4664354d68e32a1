"""Fixture cases: real patches with the decisions the policies must reach, found and checked automatically.

A case is a folder under the fixtures root holding `patch.diff` (made by git, see
`fixtures/make_fixtures.py`), `expect.yaml` (see `gatekeeper.testing.expect`) and optionally
`packet.json`. Without `packet.json` the packet is built from the patch, so it is consistent and
only the policies decide; a case that ships `packet.json` tests what the gate does with its claims.

A policy set passes when the outcome is the expected one, every expected finding is present, and
every deny or review finding the policies produced is expected (warn findings may go unlisted):
a new blocking finding is a change of behaviour a reviewer must see in the expectation.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gatekeeper.errors import FixtureError, GatekeeperError, where
from gatekeeper.gate import GATE_POLICY, require_deciding, start_deciding_many
from gatekeeper.model import Decision, Derived, outcome_of
from gatekeeper.packet import build_packet, derive
from gatekeeper.policy.bundle import Bundle
from gatekeeper.testing.expect import Expectation, PolicySet, load_expectation
from gatekeeper.testing.results import TestResult
from gatekeeper.verify import load_packet

PATCH = "patch.diff"
PACKET = "packet.json"
EXPECT = "expect.yaml"
_SKIP_DIRS = frozenset({"__pycache__"})


@dataclass(frozen=True, slots=True)
class Case:
    """One fixture case folder."""

    name: str  # the folder relative to the fixtures root, with `/`
    folder: Path
    patch: Path
    packet: Path | None
    expectation: Expectation


def discover_cases(root: Path) -> list[Case]:
    """Every case folder under `root`, sorted; raise FixtureError for a folder that is half a case."""
    if not root.is_dir():
        raise FixtureError("fixtures folder not found", where=str(root), hint="pass --fixtures DIR")
    cases: list[Case] = []
    for folder in sorted(p for p in root.rglob("*") if p.is_dir()):
        relative = folder.relative_to(root)
        if any(part.startswith(".") or part in _SKIP_DIRS for part in relative.parts):
            continue
        has_patch, has_expect = (folder / PATCH).is_file(), (folder / EXPECT).is_file()
        if not (has_patch or has_expect):
            continue  # a grouping folder, or one that holds only sub-cases
        if not has_patch:
            raise FixtureError(f"case has {EXPECT} but no {PATCH}", where=str(folder),
                               hint="regenerate it with `python fixtures/make_fixtures.py CASE`")
        if not has_expect:
            raise FixtureError(f"case has {PATCH} but no {EXPECT}", where=str(folder),
                               hint="write the expected outcome of each policy set (docs/testing.md)")
        packet = folder / PACKET
        expectation = load_expectation(folder / EXPECT)
        if packet.is_file() and expectation.packet_options:
            raise FixtureError(f"case ships {PACKET} and also sets `packet:` options in {EXPECT}",
                               where=str(folder / EXPECT), hint="keep one: a shipped packet is used as it is")
        cases.append(
            Case(relative.as_posix(), folder, folder / PATCH, packet if packet.is_file() else None, expectation)
        )
    if not cases:
        raise FixtureError("no fixture cases found", where=str(root),
                           hint=f"a case is a folder with {PATCH} and {EXPECT}")
    return cases


def enabled_policies(bundle: Bundle, policy_set: PolicySet, expect_file: Path) -> tuple[str, ...]:
    """The bundle's default policies plus `enable`, minus `disable` (as `gate --enable/--disable`)."""
    known = [p.name for p in bundle.policies]
    for name in (*policy_set.enable, *policy_set.disable):
        if name not in known:
            raise FixtureError(f"policy set {policy_set.name!r} names unknown policy {name!r}",
                               where=where(expect_file, policy_set.line), hint=f"bundle policies: {', '.join(known)}")
    chosen = [p.name for p in bundle.policies if p.default or p.name in policy_set.enable]
    return tuple(name for name in chosen if name not in policy_set.disable)


def select_cases(cases: Sequence[Case], pattern: re.Pattern[str]) -> list[Case]:
    """The cases, each with only the policy sets whose `<case>[<set>]` name `pattern` finds; none left: dropped."""
    chosen = []
    for case in cases:
        sets = tuple(s for s in case.expectation.sets if pattern.search(f"{case.name}[{s.name}]"))
        if sets:
            chosen.append(replace(case, expectation=replace(case.expectation, sets=sets)))
    return chosen


# A case with each of its policy sets and the policies that set enables.
CasePlan = tuple[Case, list[tuple[PolicySet, tuple[str, ...]]]]


def plan_cases(cases: Sequence[Case], bundle: Bundle) -> list[CasePlan]:
    """Each case with the policies each of its sets enables; raise FixtureError for a set naming an unknown policy.

    Called before anything runs: a bad name is exit 2 up front, not after the Rego tests.
    """
    return [(case, [(s, enabled_policies(bundle, s, case.expectation.path)) for s in case.expectation.sets])
            for case in cases]


def run_cases(plans: Sequence[CasePlan], bundle: Bundle, *, shown_root: Path) -> list[TestResult]:
    """Decide every planned case under every policy set it names; one TestResult per (case, set).

    Every case is decided once, by the gate itself, with every policy any set of any case enables (one
    engine child and one reference child for the whole run, instead of one pair per distinct set of
    policies); a set's decision is then the gate's own findings plus those of the set's policies, and its
    outcome is recomputed from them (a set enabling no policy, or one that can find nothing, is the gate's
    refusal, as `gate` alone refuses it). Policies are independent packages, so this equals deciding per
    set. When the union cannot decide a case (a policy's error), each of the case's sets is decided alone,
    so an error is reported under the sets whose policies caused it and no other.
    """
    union = tuple(p.name for p in bundle.policies if any(p.name in on for _, sets in plans for _, on in sets))
    decided = _decide_cases([case for case, _ in plans], [union] * len(plans), bundle)
    refused = {enabled: _refusal(bundle, enabled) for _, sets in plans for _, enabled in sets}
    results: list[TestResult] = []
    for (case, sets), (decision, seconds) in zip(plans, decided, strict=True):
        share = seconds / len(sets)
        retry = isinstance(decision, GatekeeperError) and any(enabled != union for _, enabled in sets)
        alone = _decide_each_set(case, sets, bundle) if retry else {}
        for policy_set, enabled in sets:
            own = alone.get(policy_set.name, decision)
            status, message, asserted = judge(policy_set, _for_set(own, enabled, refused[enabled]))
            results.append(
                TestResult(
                    suite="fixtures",
                    name=f"{case.name}[{policy_set.name}]",
                    file=_shown(case.expectation.path, shown_root),
                    line=policy_set.line,
                    status=status,  # type: ignore[arg-type]
                    message=message,
                    seconds=share,
                    rule_ids=asserted,
                )
            )
    return results


def _decide_each_set(case: Case, sets: Sequence[tuple[PolicySet, tuple[str, ...]]],
                     bundle: Bundle) -> dict[str, Decision | GatekeeperError]:
    decided = _decide_cases([case] * len(sets), [enabled for _, enabled in sets], bundle)
    return {policy_set.name: decision for (policy_set, _), (decision, _) in zip(sets, decided, strict=True)}


def _decide_cases(
    cases: Sequence[Case], unions: Sequence[tuple[str, ...]], bundle: Bundle
) -> list[tuple[Decision | GatekeeperError, float]]:
    """Each case's decision (or error) under its union of policies, and the seconds it took.

    Cases that share a union are decided together (`gate.start_deciding_many`: one engine child, one
    build); the children of different unions run side by side.
    """
    started = time.perf_counter()
    groups = []
    for union in dict.fromkeys(unions):
        packets = {i: _packet(cases[i], bundle) for i, u in enumerate(unions) if u == union}
        ready = {i: packet for i, packet in packets.items() if not isinstance(packet, GatekeeperError)}
        job = start_deciding_many([(packet, cases[i].patch, derived) for i, (packet, derived) in ready.items()],
                                  bundle, union, cross_check=True)
        groups.append((packets, ready, job))
    out: dict[int, Decision | GatekeeperError] = {}
    for packets, ready, job in groups:
        decided = dict(zip(ready, job(), strict=True))
        for i, packet in packets.items():
            if i in decided:
                out[i] = decided[i]
            elif isinstance(packet, GatekeeperError):
                out[i] = packet
    each = (time.perf_counter() - started) / max(1, len(cases))  # the cases are decided side by side
    return [(out[i], each) for i in range(len(cases))]


def _packet(case: Case, bundle: Bundle) -> tuple[dict[str, Any], Derived | None] | GatekeeperError:
    """The case's packet, and the patch derived when the packet was built from it (the gate then uses that)."""
    try:
        if case.packet is not None:
            return load_packet(case.packet), None
        derived = derive(case.patch, bundle.rules)
        return build_packet(derived, bundle.rules, **case.expectation.packet_options), derived
    except GatekeeperError as exc:
        return exc


def _refusal(bundle: Bundle, enabled: Sequence[str]) -> GatekeeperError | None:
    """The error `gate` raises for these policies before evaluating any (none enabled, one that finds nothing)."""
    try:
        require_deciding(bundle, enabled)
    except GatekeeperError as exc:
        return exc
    return None


def _for_set(decided: Decision | GatekeeperError, enabled: Sequence[str],
             refused: GatekeeperError | None) -> Decision | GatekeeperError:
    if isinstance(decided, GatekeeperError):
        return decided
    if refused is not None:
        return refused
    reasons = tuple(r for r in decided.reasons if r.policy == GATE_POLICY or r.policy in enabled)
    return replace(decided, outcome=outcome_of(reasons), reasons=reasons, enabled=tuple(enabled))


def judge(policy_set: PolicySet, decision: Decision | GatekeeperError) -> tuple[str, str, tuple[str, ...]]:
    """Compare a decision (or the error the gate raised) with a policy set's expectation.

    Returns (status, message, the rule ids of findings the expectation asserted and the decision holds).
    """
    if isinstance(decision, GatekeeperError):
        if policy_set.outcome != "error":
            return "error", f"expected {policy_set.outcome}, but the gate could not decide: {decision}", ()
        if policy_set.error and policy_set.error not in str(decision):
            return "fail", f"error {str(decision)!r} does not mention {policy_set.error!r}", ()
        return "pass", "", ()
    reasons = decision.reasons
    problems: list[str] = []
    outcome = decision.outcome
    if outcome != policy_set.outcome:
        problems.append(f"outcome {outcome}, expected {policy_set.outcome}")
    asserted: set[str] = set()
    for expected in policy_set.findings:
        hits = [r for r in reasons if expected.matches(r)]
        if not hits:
            problems.append(f"missing finding {expected.describe()} (expect.yaml line {expected.line})")
        asserted.update(r.rule for r in hits if r.rule)
    for reason in reasons:
        if reason.blocking and not any(f.matches(reason) for f in policy_set.findings):
            problems.append(f"unexpected {reason.level} finding {reason.policy}/{reason.rule}: {reason.msg}")
    if problems:
        wanted = ", ".join(f.describe() for f in policy_set.findings) or "none"
        actual = ", ".join(f"{r.level} {r.policy}/{r.rule}" for r in reasons) or "none"
        detail = f"expected {policy_set.outcome} with findings [{wanted}]; actual {outcome} with [{actual}]"
        return "fail", "; ".join(problems) + f" ({detail})", tuple(sorted(asserted))
    return "pass", "", tuple(sorted(asserted))


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
