"""The gate: where a decision is made. `decide` reads top-down: verify → input → evaluate → outcome.

The policies see the truth, not the claims: `files` and `summary` come from re-parsing and
re-classifying the patch; the packet is passed along (without its own `files` list, which is a
claim `integrity` has already checked). Integrity failures, unsafe paths and a patch that is not
the pull request's change (`--tree`) are deny findings the gate adds itself (policy `gatekeeper`,
`gate_findings`): no bundle can switch them off. `start_deciding_many` is the same path for many
(packet, patch) pairs with one engine child (the fixtures of `gatekeeper test`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from gatekeeper import __version__
from gatekeeper.classify.contexttypes import Context
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.config_tags import tag_configuration
from gatekeeper.deps.gateinput import DepsInput, Index, from_patch, from_tree
from gatekeeper.errors import OUTCOME_EXIT, ExitCode, GatekeeperError, PolicyError, UsageError
from gatekeeper.gate_input import input_first, input_rest, whole_input
from gatekeeper.model import Decision, Derived, Finding, outcome_of
from gatekeeper.packet import Parsed, derive_parsed, parse
from gatekeeper.policy.bundle import Bundle
from gatekeeper.policy.findings import Evaluation
from gatekeeper.policy.rego_lint import rule_heads
from gatekeeper.policy.selfguard import Guarded, refuse_self_change
from gatekeeper.verify import compare, packet_context

# A packet, or what reads it at its first use (the gate's packet file, read while the engine child works).
PacketSource = Mapping[str, Any] | Callable[[], Mapping[str, Any]]

DEFAULT_TIMEOUT = 10.0
MAX_TIMEOUT = 3600.0
GATE_POLICY = "gatekeeper"
INTEGRITY_RULE = "gatekeeper.integrity"
UNSAFE_RULE = "gatekeeper.unsafe_path"
ATTESTATION_RULE = "gatekeeper.attestation"
TREE_RULE = "gatekeeper.tree_mismatch"
_SHOWN_DIFFERENCES = 20
_FINDING_LEVELS = frozenset({"deny", "review", "warn"})


def canonical_json(obj: Any) -> bytes:
    """The contract's canonical JSON bytes (sorted keys, no spaces, ASCII)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def digest(obj: Any) -> str:
    """sha256 hex of the canonical JSON of `obj`."""
    return hashlib.sha256(canonical_json(obj)).hexdigest()


def resolve_enabled(bundle: Bundle, enable: Iterable[str] = (), disable: Iterable[str] = ()) -> tuple[str, ...]:
    """The bundle's default policies, plus `enable`, minus `disable`, in bundle order."""
    enable, disable = list(enable), list(disable)
    known = [p.name for p in bundle.policies]
    for name in (*enable, *disable):
        if name not in known:
            raise UsageError(
                f"unknown policy {name!r}", where="--enable/--disable", hint=f"the bundle has: {', '.join(known)}"
            )
    both = sorted(set(enable) & set(disable))
    if both:
        raise UsageError(
            f"policy {both[0]!r} is both enabled and disabled", hint="pass it to only one of --enable / --disable"
        )
    return tuple(p.name for p in bundle.policies if (p.default or p.name in enable) and p.name not in disable)


def require_deciding(bundle: Bundle, enabled: Sequence[str]) -> None:
    """PolicyError unless a policy is enabled and each enabled one defines a `deny`, `review` or `warn` rule.

    A gate with nothing to ask has not decided: zero policies (all switched off, a bundle with none on
    by default) or policies that can never find anything must not come out as `allow`.
    """
    if not enabled:
        raise PolicyError(
            "no policy is enabled: a gate with no policy to ask cannot decide, and never allows",
            where=str(bundle.root),
            hint="enable at least one policy (--enable NAME, or leave the bundle's defaults on)",
        )
    for name in enabled:
        info = bundle.policy(name)
        defined = frozenset().union(*(rule_heads(bundle.modules[key]) for key in info.modules))
        if not defined & _FINDING_LEVELS:
            raise PolicyError(
                f"policy {name!r} defines no deny, review or warn rule: it can never find anything",
                where=str(info.module_path),
                hint=f"add its rules, or switch it off (--disable {name})",
            )


@dataclass(frozen=True, slots=True)
class Verified:
    """A packet checked against its patch: what the patch shows, and the policy input built from it
    (how the packet's claims differ from the patch is its `integrity`)."""

    packet: Mapping[str, Any]
    derived: Derived
    input: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Shown:
    """What the patch shows and the first part of the policy input (`input_first`: the files, the bulk of it);
    `rest()` computes the other part (`input_rest`: the packet, the claims compared, the dependency delta), which
    `decide` does while the engine child takes the files in."""

    packet: Callable[[], Mapping[str, Any]]  # read at its first use: in `rest()` when the gate reads it from its file
    derived: Derived
    first: dict[str, Any]
    deps: DepsInput
    # What the claims are compared with, given the packet: the patch derived with the packet's own context.
    claimed: Callable[[Mapping[str, Any]], Derived] | None = None

    def rest(self) -> dict[str, Any]:
        packet = self.packet()
        claimed = self.derived if self.claimed is None else self.claimed(packet)
        return input_rest(packet, compare(packet, claimed), self.deps)

    def verified(self, rest: Mapping[str, Any]) -> Verified:
        return Verified(self.packet(), self.derived, whole_input(self.first, rest))


def decide(
    packet: PacketSource,
    patch: Path,
    bundle: Bundle,
    enabled: Sequence[str],
    *,
    dry_run: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    guarded: Sequence[Guarded] = (),
    in_use: Sequence[Guarded] = (),
    tree_differences: Sequence[str] | Callable[[], Sequence[str]] = (),
    context: Context | None = None,
    attestation: Mapping[str, Any] | None = None,
    advisories: Index | None = None,
    derived: Derived | None = None,
    beside: Callable[[], object] | None = None,
) -> Decision:
    """Verify `packet` against `patch`, evaluate the enabled policies, and return the Decision.

    `packet`: the packet, or a function that reads it (called once the engine child is forked: the gate reads its
    packet file while the child takes the files in; the caller raises its error first when anything fails before).

    `guarded`: the configuration in use where it lies in the checkout; a patch touching it is refused.
    `in_use`: under --tree, the configuration read from BASE; the policies see a change to it tagged guardrail.
    `tree_differences`: how the reviewed change differs from base + patch (`gatekeeper.treecheck`), or a function
    that returns it (the tree check running in a thread): called once the patch is derived (`show`), before the
    engine child is forked (no thread may be running then).
    `context`: the TreeContext of BASE..HEAD; the policies see files classified with it (else with the
    patch alone). The packet's claims are re-derived with the context it names.
    `advisories`: OSV records (deps.advisories.load) that mark vulnerable changes of the dependency delta.
    `derived`: `patch` already derived with `context` (the packet of the commits was built from it).
    `beside`: a check to run while the engine child works (the packet's schema check, gate_command): its error
    is raised before the policies' results are read.
    """
    names = list(dict.fromkeys(enabled))
    shown = show(packet, patch, bundle, names, guarded=guarded, context=context, attestation=attestation,
                 advisories=advisories, derived=derived, in_use=in_use)
    differences = tree_differences() if callable(tree_differences) else tree_differences
    # The engine child starts on the files (~0.4 s of its C input builder for 10,000) while this process compares
    # the claims and computes the dependency delta, and sends them after: one input, as `verify` builds it.
    evaluation = Evaluation(bundle, names, [shown.first], timeout=timeout, late=True)
    try:  # while the engine child works
        rest = shown.rest()
        evaluation.complete([rest])
        verified = shown.verified(rest)
        if beside is not None:
            beside()
        digests = (digest(verified.packet), digest(verified.input))
    except BaseException:
        evaluation.cancel()
        raise
    (found,) = evaluation.results()
    if isinstance(found, PolicyError):
        raise found
    return conclude(verified, bundle, names, found, digests, tree_differences=differences, dry_run=dry_run)


def start_deciding_many(
    cases: Sequence[tuple[dict[str, Any], Path, Derived | None]],
    bundle: Bundle,
    enabled: Sequence[str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    cross_check: bool = False,
) -> Callable[[], list[Decision | GatekeeperError]]:
    """`decide` (without tree, attestation or advisories) for many (packet, patch, derived) cases with one
    engine child: call the returned function to collect each case's Decision or the error deciding it alone
    raises. `derived`: the patch already derived (the packet was built from it), else None.

    `cross_check`: also evaluate in the reference engine; a disagreement is that case's PolicyError.
    """
    names = list(dict.fromkeys(enabled))
    verified: list[Verified | GatekeeperError] = []
    for packet, patch, derived in cases:
        try:
            verified.append(verify(packet, patch, bundle, names, derived=derived))
        except GatekeeperError as exc:
            verified.append(exc)
    ready = [item for item in verified if isinstance(item, Verified)]
    evaluation = Evaluation(bundle, names, [item.input for item in ready], timeout=timeout, cross_check=cross_check)

    def collect() -> list[Decision | GatekeeperError]:
        found = iter(evaluation.results())
        decisions: list[Decision | GatekeeperError] = []
        for item in verified:
            if not isinstance(item, Verified):
                decisions.append(item)
                continue
            policies = next(found)
            if isinstance(policies, PolicyError):
                decisions.append(policies)
                continue
            digests = (digest(item.packet), digest(item.input))
            decisions.append(conclude(item, bundle, names, policies, digests))
        return decisions

    return collect


def verify(
    packet: Mapping[str, Any],
    patch: Path,
    bundle: Bundle,
    names: Sequence[str],
    *,
    guarded: Sequence[Guarded] = (),
    context: Context | None = None,
    attestation: Mapping[str, Any] | None = None,
    advisories: Index | None = None,
    derived: Derived | None = None,
) -> Verified:
    """Re-derive the patch, refuse a change to the gate's own configuration, compare the packet's claims
    with what the patch shows, and build the policy input (see `decide` for the options)."""
    shown = show(packet, patch, bundle, names, guarded=guarded, context=context, attestation=attestation,
                 advisories=advisories, derived=derived)
    return shown.verified(shown.rest())


def show(
    packet: PacketSource,
    patch: Path,
    bundle: Bundle,
    names: Sequence[str],
    *,
    guarded: Sequence[Guarded] = (),
    context: Context | None = None,
    attestation: Mapping[str, Any] | None = None,
    advisories: Index | None = None,
    derived: Derived | None = None,
    in_use: Sequence[Guarded] = (),
) -> Shown:
    """`verify` up to the files' part of the policy input: re-derive the patch, refuse a change to the gate's own
    configuration, read the files' facts; `Shown.rest()` does the rest."""
    patch = Path(patch)
    parsed = None
    if derived is None:
        parsed = parse(patch, bundle.rules)
        derived = derive_parsed(parsed, bundle.rules, context)
    refuse_self_change(derived.files, guarded)  # first: it names the file that switched policies off
    require_deciding(bundle, names)
    claimed = None
    if derived.context == "tree":  # a patch packet's claims are compared with the patch context's derivation
        claimed = partial(_claimed, derived, parsed, patch, bundle)
    # The delta and facts, once: from the TreeContext's git objects (the delta at its first use), else from the patch.
    deps = from_tree(context, advisories) if isinstance(context, TreeContext) else from_patch(patch, advisories)
    first = input_first(tag_configuration(derived, in_use, context), deps=deps, attestation=attestation)
    source = packet if callable(packet) else partial(_given, packet)
    return Shown(source, derived, first, deps, claimed)


def _given(packet: Mapping[str, Any]) -> Mapping[str, Any]:
    return packet


def _claimed(derived: Derived, parsed: Parsed | None, patch: Path, bundle: Bundle, packet: Mapping[str, Any]
             ) -> Derived:
    """What the packet's claims are compared with under `--tree`: `derived`, or for an honest patch-only packet its
    re-derivation from the same parse and path tier with the patch context (which reads the patch again, for
    candidate files only), so that it still verifies."""
    if packet_context(packet) != "patch":
        return derived
    return derive_parsed(parsed or parse(patch, bundle.rules), bundle.rules)


def gate_findings(input_doc: Mapping[str, Any], tree_differences: Sequence[str] = ()) -> list[Finding]:
    """The deny findings the gate adds itself: integrity differences, a bad signature, unsafe paths, and a
    patch that is not the change under review (`treecheck.tree_differences`)."""
    found: list[Finding] = []
    integrity = input_doc.get("integrity") or {}
    differences = list(integrity.get("differences") or [])
    if not integrity.get("ok", False) or differences:
        shown = "; ".join(differences[:_SHOWN_DIFFERENCES]) or "the packet was not checked against the patch"
        more = f"; and {len(differences) - _SHOWN_DIFFERENCES} more" if len(differences) > _SHOWN_DIFFERENCES else ""
        found.append(Finding(GATE_POLICY, INTEGRITY_RULE, "deny",
                             f"the packet does not match the patch ({len(differences)} difference(s)): {shown}{more}"))
    attestation = input_doc.get("attestation") or {}
    if attestation.get("failed"):
        found.append(Finding(GATE_POLICY, ATTESTATION_RULE, "deny",
                             f"the packet's signature does not hold: {attestation.get('reason')}"))
    unsafe = [f for f in input_doc.get("files") or [] if f.get("unsafe")]
    if unsafe:
        reasons = "; ".join(f"{f['path']!r}: {f['unsafe']}" for f in unsafe[:_SHOWN_DIFFERENCES])
        found.append(Finding(GATE_POLICY, UNSAFE_RULE, "deny",
                             f"the patch names {len(unsafe)} unsafe path(s): {reasons}",
                             paths=tuple(f["path"] for f in unsafe)))
    if tree_differences:
        found.append(Finding(GATE_POLICY, TREE_RULE, "deny", "the patch is not the change the pull request makes "
                             f"(or merges): {'; '.join(tree_differences)}"))
    return found


def conclude(
    verified: Verified,
    bundle: Bundle,
    names: Sequence[str],
    policy_findings: Sequence[Finding],
    digests: tuple[str, str],
    *,
    tree_differences: Sequence[str] = (),
    dry_run: bool = False,
) -> Decision:
    """The Decision: the gate's own findings, then the policies'; the outcome they add up to; what was judged."""
    reasons = (*gate_findings(verified.input, tree_differences), *policy_findings)
    summary = verified.input["summary"]
    packet_digest, input_digest = digests
    return Decision(
        outcome=outcome_of(reasons),
        reasons=reasons,
        policies=tuple({"name": name, "version": bundle.policy(name).version} for name in names),
        enabled=tuple(names),
        bundle=bundle.describe(),
        packet={"run_id": verified.packet.get("run_id"), "diff_sha256": verified.derived.sha256,
                "digest": packet_digest},
        input_digest=input_digest,
        summary={key: summary[key] for key in ("files", "additions", "deletions", "buckets")},
        dependencies=verified.input["dependencies"],
        classifier={"context": verified.derived.context},
        dry_run=dry_run,
        tool={"name": "gatekeeper", "version": __version__},
        decided_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )


def exit_code(decision: Decision) -> ExitCode:
    """allow 0, deny 1, review 3; a dry run always 0 (it reports, it does not block)."""
    if decision.dry_run:
        return ExitCode.OK
    return OUTCOME_EXIT.get(decision.outcome, ExitCode.ERROR)
