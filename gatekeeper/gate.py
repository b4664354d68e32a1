"""The gate: verify the packet against its patch, build the policy input, evaluate, decide.

The policies see the truth, not the claims: `files` and `summary` come from re-parsing and
re-classifying the patch; the packet is passed along (without its own `files` list, which is a
claim `integrity` has already checked). Integrity failures, unsafe paths and a patch that is not
the pull request's change (`--tree`) are deny findings the gate adds itself (policy `gatekeeper`):
no bundle can switch them off.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper import __version__
from gatekeeper.attest.facts import UNCHECKED
from gatekeeper.errors import OUTCOME_EXIT, ExitCode, GatekeeperError, PolicyError, UsageError
from gatekeeper.model import BUCKETS, TAGS

if TYPE_CHECKING:
    from gatekeeper.classify.context import Context
    from gatekeeper.deps.gateinput import Index
    from gatekeeper.packet import Derived
    from gatekeeper.policy.bundle import Bundle
    from gatekeeper.policy.selfguard import Guarded

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
    from gatekeeper.policy.rego_lint import rule_heads

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


def build_input(packet: Mapping[str, Any], derived: Derived, differences: Sequence[str]) -> dict[str, Any]:
    """The policy input document (schema gatekeeper/schemas/input-v1.schema.json), with the dependency
    delta and facts the patch shows."""
    from gatekeeper.deps.gateinput import from_patch
    from gatekeeper.policy.feed import file_entry

    deps = from_patch(Path(derived.patch), None)
    packet_part = {key: value for key, value in packet.items() if key != "files"}
    entries = [file_entry(item, deps.facts_of) for item in derived.files]
    return assemble_input(packet_part, entries, derived, differences, dependencies=deps.to_input())


def assemble_input(
    packet_part: Mapping[str, Any], entries: list[dict[str, Any]], derived: Derived, differences: Sequence[str],
    attestation: Mapping[str, Any] | None = None, dependencies: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The input document from its parts; `entries` are the `file_entry` of each of `derived.files`.

    `dependencies`: the dependency delta (`{"changes", "problems"}`, gatekeeper.deps.gateinput); left
    out when none was computed (a policy then falls back to judging deps files by name).

    `attestation`: what the packet's signature proved (attest.packet.PacketAttestation.to_input); without
    a trust file the packet's runner-only claims are unverified."""
    buckets = {bucket: {"files": 0, "additions": 0, "deletions": 0} for bucket in BUCKETS}
    tags = dict.fromkeys(TAGS, 0)
    additions = deletions = 0
    for item in derived.files:
        counts = buckets[item.bucket]
        counts["files"] += 1
        counts["additions"] += item.change.additions
        counts["deletions"] += item.change.deletions
        additions += item.change.additions
        deletions += item.change.deletions
        for tag in item.tags:
            tags[tag] = tags.get(tag, 0) + 1
    summary = {"buckets": buckets, "tags": tags, "files": len(entries), "additions": additions, "deletions": deletions}
    doc = {
        "packet": packet_part,
        "files": entries,
        "summary": summary,
        "integrity": {"ok": not differences, "differences": list(differences)},
        "attestation": dict(attestation) if attestation is not None else UNCHECKED.to_input(),
    }
    if dependencies is not None:
        doc["dependencies"] = dict(dependencies)
    return doc


def gate_findings(input_doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The deny findings the gate adds itself: integrity differences and unsafe paths."""
    found: list[dict[str, Any]] = []
    integrity = input_doc.get("integrity") or {}
    differences = list(integrity.get("differences") or [])
    if not integrity.get("ok", False) or differences:
        shown = "; ".join(differences[:_SHOWN_DIFFERENCES]) or "the packet was not checked against the patch"
        more = f"; and {len(differences) - _SHOWN_DIFFERENCES} more" if len(differences) > _SHOWN_DIFFERENCES else ""
        found.append({
            "policy": GATE_POLICY, "rule": INTEGRITY_RULE, "level": "deny",
            "msg": f"the packet does not match the patch ({len(differences)} difference(s)): {shown}{more}",
        })
    attestation = input_doc.get("attestation") or {}
    if attestation.get("failed"):
        found.append({"policy": GATE_POLICY, "rule": ATTESTATION_RULE, "level": "deny",
                      "msg": f"the packet's signature does not hold: {attestation.get('reason')}"})
    unsafe = [f for f in input_doc.get("files") or [] if f.get("unsafe")]
    if unsafe:
        reasons = "; ".join(f"{f['path']!r}: {f['unsafe']}" for f in unsafe[:_SHOWN_DIFFERENCES])
        found.append({
            "policy": GATE_POLICY, "rule": UNSAFE_RULE, "level": "deny",
            "msg": f"the patch names {len(unsafe)} unsafe path(s): {reasons}",
            "paths": [f["path"] for f in unsafe],
        })
    return found


def tree_findings(differences: Sequence[str]) -> list[dict[str, Any]]:
    """The deny finding for a patch that is not the change under review (`treecheck.tree_differences`)."""
    if not differences:
        return []
    msg = f"the patch is not the change the pull request makes: {'; '.join(differences)}"
    return [{"policy": GATE_POLICY, "rule": TREE_RULE, "level": "deny", "msg": msg}]


def evaluate_input(
    input_doc: Mapping[str, Any],
    bundle: Bundle,
    enabled: Sequence[str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    validate: bool = False,
) -> dict[str, Any]:
    """Evaluate a policy input: `{outcome, reasons, policies, enabled, input_digest}`.

    `validate` checks `input_doc` against the input schema first (for documents from files).
    """
    if validate:
        from gatekeeper.policy.input_schema import validate_input

        validate_input(input_doc, "input")
    from gatekeeper.policy.findings import outcome_of, start_policies

    names = list(dict.fromkeys(enabled))
    # The engine works in a child; the parent hashes instead of waiting idle.
    pending = start_policies(bundle, names, input_doc, timeout=timeout)
    try:
        own = gate_findings(input_doc)
        input_digest = digest(input_doc)
    except BaseException:
        pending.cancel()
        raise
    reasons = own + pending.findings()
    return {
        "outcome": outcome_of(reasons),
        "reasons": reasons,
        "policies": _versions(bundle, names),
        "enabled": names,
        "input_digest": input_digest,
    }


def decide(
    packet: dict[str, Any],
    patch: Path,
    bundle: Bundle,
    enabled: Sequence[str],
    *,
    dry_run: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    guarded: Sequence[Guarded] = (),
    tree_differences: Sequence[str] = (),
    context: Context | None = None,
    attestation: Mapping[str, Any] | None = None,
    advisories: Index | None = None,
) -> dict[str, Any]:
    """Verify `packet` against `patch`, evaluate the enabled policies, and return the Decision.

    `guarded`: the configuration in use where it lies in the checkout; a patch touching it is refused.
    `tree_differences`: how the reviewed change differs from base + patch (`gatekeeper.treecheck`).
    `context`: the TreeContext of BASE..HEAD; the policies see files classified with it (else with the
    patch alone). The packet's claims are re-derived with the context it names.
    `advisories`: OSV records (deps.advisories.load) that mark vulnerable changes of the dependency delta.
    """
    from gatekeeper.classify.patchcontext import PatchContext
    from gatekeeper.classify.treecontext import TreeContext
    from gatekeeper.deps.gateinput import from_patch, from_tree
    from gatekeeper.packet import compare, derive_from
    from gatekeeper.policy.feed import derive_feeding
    from gatekeeper.policy.findings import start_fed_policies
    from gatekeeper.policy.selfguard import refuse_self_change
    from gatekeeper.verify import packet_context

    names = list(dict.fromkeys(enabled))
    packet_part = {key: value for key, value in packet.items() if key != "files"}
    # The engine child starts now and takes the file entries while the patch is still being parsed:
    # pushing the input into the engine is the longest step, and it no longer waits for the parse.
    pending = start_fed_policies(bundle, names, packet_part, timeout=timeout)
    try:
        # The delta and facts, once: from the TreeContext's git objects, else from the patch.
        deps = (from_tree(context, advisories) if isinstance(context, TreeContext)
                else from_patch(Path(patch), advisories))
        derived, entries = derive_feeding(Path(patch), bundle.rules, pending.send_files, pending.end_files, context,
                                          deps.facts_of)
        refuse_self_change(derived.files, guarded)  # first: it names the file that switched policies off
        require_deciding(bundle, names)
        claimed = derived
        if packet_context(packet) == "patch" and derived.context == "tree":
            # An honest patch-only packet still verifies: its claims are re-derived from the same parse
            # with the patch context (which reads the patch again, for candidate files only).
            changes = [item.change for item in derived.files]
            patch_context = PatchContext(Path(patch), changes, bundle.rules.context)
            try:
                claimed = derive_from(derived.patch, derived.sha256, derived.bytes, changes, bundle.rules,
                                      context=patch_context)
            finally:
                patch_context.close()
        input_doc = assemble_input(packet_part, entries, derived, compare(packet, claimed), attestation,
                                   deps.to_input())
        pending.finish(input_doc)
        own = gate_findings(input_doc) + tree_findings(tree_differences)
        input_digest = digest(input_doc)
        packet_digest = digest(packet)
    except BaseException:
        pending.cancel()
        raise
    reasons = own + pending.findings()
    return _decision(packet, derived, input_doc, bundle, names, reasons, (packet_digest, input_digest), dry_run)


def decide_many(
    cases: Sequence[tuple[dict[str, Any], Path]],
    bundle: Bundle,
    enabled: Sequence[str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[dict[str, Any] | GatekeeperError]:
    """`decide` for many (packet, patch) pairs with one engine child; each a Decision or the error it raised.

    When the shared child crashes, hangs or fails as a whole, every case is decided alone instead,
    so an error is reported exactly as `decide` reports it.
    """
    return start_deciding_many(cases, bundle, enabled, timeout=timeout)()


def start_deciding_many(
    cases: Sequence[tuple[dict[str, Any], Path]],
    bundle: Bundle,
    enabled: Sequence[str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    cross_check: bool = False,
) -> Callable[[], list[dict[str, Any] | GatekeeperError]]:
    """`decide_many` with the engine child left working: call the returned function to collect.

    `cross_check`: also evaluate in the reference engine; a disagreement is that case's PolicyError.
    """
    from gatekeeper.packet import compare, derive
    from gatekeeper.policy.findings import start_policies_many

    names = list(dict.fromkeys(enabled))
    require_deciding(bundle, names)
    prepared: list[tuple[dict[str, Any], Derived, dict[str, Any]] | GatekeeperError] = []
    for packet, patch in cases:
        try:
            derived = derive(Path(patch), bundle.rules)
            prepared.append((packet, derived, build_input(packet, derived, compare(packet, derived))))
        except GatekeeperError as exc:
            prepared.append(exc)
    docs = [item[2] for item in prepared if not isinstance(item, GatekeeperError)]
    job = start_policies_many(bundle, names, docs, timeout=timeout, cross_check=cross_check)
    return lambda: _collect_many(job, cases, prepared, bundle, names, timeout)


def _collect_many(
    job: Callable[[], list[list[dict[str, Any]] | PolicyError]],
    cases: Sequence[tuple[dict[str, Any], Path]],
    prepared: list[tuple[dict[str, Any], Derived, dict[str, Any]] | GatekeeperError],
    bundle: Bundle,
    names: list[str],
    timeout: float,
) -> list[dict[str, Any] | GatekeeperError]:
    try:
        found = iter(job())
    except GatekeeperError:
        return [_decide_or_error(packet, patch, bundle, names, timeout) for packet, patch in cases]
    decisions: list[dict[str, Any] | GatekeeperError] = []
    for item in prepared:
        if isinstance(item, GatekeeperError):
            decisions.append(item)
            continue
        packet, derived, input_doc = item
        policies = next(found)
        if isinstance(policies, GatekeeperError):
            decisions.append(policies)
            continue
        digests = (digest(packet), digest(input_doc))
        reasons = gate_findings(input_doc) + policies
        decisions.append(_decision(packet, derived, input_doc, bundle, names, reasons, digests, False))
    return decisions


def _decide_or_error(
    packet: dict[str, Any], patch: Path, bundle: Bundle, names: Sequence[str], timeout: float
) -> dict[str, Any] | GatekeeperError:
    try:
        return decide(packet, patch, bundle, names, timeout=timeout)
    except GatekeeperError as exc:
        return exc


def _versions(bundle: Bundle, names: Sequence[str]) -> list[dict[str, str]]:
    return [{"name": name, "version": bundle.policy(name).version} for name in names]


def _decision(
    packet: Mapping[str, Any],
    derived: Derived,
    input_doc: Mapping[str, Any],
    bundle: Bundle,
    names: list[str],
    reasons: list[dict[str, Any]],
    digests: tuple[str, str],
    dry_run: bool,
) -> dict[str, Any]:
    from gatekeeper.policy.findings import outcome_of

    summary = input_doc["summary"]
    packet_digest, input_digest = digests
    return {
        "outcome": outcome_of(reasons),
        "reasons": reasons,
        "policies": _versions(bundle, names),
        "enabled": names,
        "bundle": bundle.describe(),
        "packet": {"run_id": packet.get("run_id"), "diff_sha256": derived.sha256, "digest": packet_digest},
        "input_digest": input_digest,
        "summary": {key: summary[key] for key in ("files", "additions", "deletions", "buckets")},
        "dependencies": input_doc.get("dependencies", {"changes": [], "problems": []}),
        "classifier": {"context": derived.context},
        "dry_run": dry_run,
        "tool": {"name": "gatekeeper", "version": __version__},
        "decided_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def exit_code(decision: Mapping[str, Any]) -> ExitCode:
    """allow 0, deny 1, review 3; a dry run always 0 (it reports, it does not block)."""
    if decision.get("dry_run"):
        return ExitCode.OK
    return OUTCOME_EXIT.get(decision.get("outcome", ""), ExitCode.ERROR)
