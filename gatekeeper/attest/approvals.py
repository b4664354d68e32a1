"""Human approvals bound to the exact bytes of a patch, and what they may turn from review into allow.

An approval is an in-toto Statement about the patch's sha256 whose predicate names the decision's
input digest, the digest of the policy bundle that judged it (the input does not hold the bundle: without
it an approval given under one bundle would count under another), and the rule ids of the review findings
the approver accepts, signed by the approver's key. `apply` turns a `review` into `allow` only when, for
every review finding, a valid approval (trusted signer, this patch, this input, this bundle, not expired,
accepting that rule) comes from a signer the bundle's requirements allow; `deny` is never touched. A key
the caller names as refused (the runner's that signed the packet, the gate's own) never approves. Every
approval that does not count says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.attest import roles
from gatekeeper.attest.envelope import AttestationError, open_statement, read_envelope, sign, statement
from gatekeeper.attest.keys import Signer, Trust
from gatekeeper.errors import InputFileError

if TYPE_CHECKING:
    from securesystemslib.signer import Signer as KeySigner

APPROVAL_PREDICATE = "https://gatekeeper.invalid/attestation/approval/v1"
DEFAULT_VALIDITY = timedelta(days=14)
MAX_APPROVALS = 1000


@dataclass(frozen=True, slots=True)
class Approval:
    """A verified approval: who, which rules, when, and where it was read from."""

    signer: Signer
    rules: tuple[str, ...]
    approved_at: str
    expires_at: str
    comment: str
    source: str
    bundle_digest: str | None = None  # the policy bundle whose decision it approves (None: an approval of old)

    def to_dict(self) -> dict[str, Any]:
        return {"signer": self.signer.name, "keyid": self.signer.keyid, "groups": list(self.signer.groups),
                "rules": list(self.rules), "approved_at": self.approved_at, "expires_at": self.expires_at,
                "comment": self.comment, "file": self.source}


@dataclass(frozen=True, slots=True)
class Requirements:
    """Who may approve what: groups (or signer names) per bucket and per rule id; empty: any trusted approver."""

    buckets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    rules: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @staticmethod
    def from_params(params: Mapping[str, Any]) -> Requirements:
        """From the bundle's `params.approvals` (`{buckets: {ci: [platform]}, rules: {rule.id: [security]}}`)."""
        section = params.get("approvals") or {}

        def table(name: str) -> dict[str, tuple[str, ...]]:
            raw = section.get(name) or {}
            return {str(k): tuple(str(v) for v in values) for k, values in raw.items()}

        return Requirements(table("buckets"), table("rules"))

    def allowed(self, finding: Mapping[str, Any]) -> tuple[str, ...] | None:
        """The groups/names that may accept `finding` (None: any trusted approver)."""
        wanted = self.rules.get(str(finding.get("rule")))
        if wanted is None and finding.get("bucket") is not None:
            wanted = self.buckets.get(str(finding["bucket"]))
        return wanted


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the approvals did: the approvals that counted, and why the others did not."""

    accepted: bool
    counted: tuple[Approval, ...]
    problems: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"accepted": self.accepted, "approvals": [a.to_dict() for a in self.counted],
                "problems": list(self.problems)}


def make(signer: KeySigner, *, patch_sha256: str, input_digest: str, rules: Sequence[str], comment: str = "",
         now: datetime | None = None, validity: timedelta = DEFAULT_VALIDITY,
         bundle_digest: str | None = None) -> dict[str, Any]:
    """A signed approval (DSSE envelope) of `rules` for exactly this patch, policy input and bundle."""
    moment = (now or datetime.now(UTC)).replace(microsecond=0)
    predicate = {"inputDigest": input_digest, "rules": sorted(set(rules)), "comment": comment,
                 "approvedAt": moment.isoformat(), "expiresAt": (moment + validity).isoformat()}
    if bundle_digest is not None:
        predicate["bundleDigest"] = bundle_digest
    return sign(signer, statement("patch.diff", patch_sha256, APPROVAL_PREDICATE, predicate))


def read(folder: Path, trust: Trust, *, patch_sha256: str, input_digest: str, now: datetime | None = None,
         bundle_digest: str | None = None, refused: Mapping[str, str] | None = None
         ) -> tuple[list[Approval], list[str]]:
    """The valid approvals in `folder` for this patch and input, and a reason for each file that is not one.

    `bundle_digest`: the approval must name this bundle. `refused`: key ids that may not approve, with why."""
    if not folder.is_dir():
        raise InputFileError("the approvals folder does not exist", where=str(folder))
    files = sorted(p for p in folder.iterdir() if p.suffix == ".json")
    if len(files) > MAX_APPROVALS:
        raise InputFileError(f"more than {MAX_APPROVALS} approval files", where=str(folder))
    moment = now or datetime.now(UTC)
    valid, problems = [], []
    for path in files:
        try:
            approval = _one(path, trust, patch_sha256, input_digest, moment)
            _check_bound(approval, path, bundle_digest, refused or {})
        except AttestationError as exc:
            problems.append(str(exc))
            continue
        valid.append(approval)
    return valid, problems


def apply(decision: Mapping[str, Any], approvals: Iterable[Approval], requirements: Requirements,
          problems: Sequence[str] = ()) -> Outcome:
    """Whether `approvals` accept every review finding of `decision` (never when it has a deny)."""
    approvals = list(approvals)
    reasons = list(decision.get("reasons") or ())
    notes = list(problems)
    if decision.get("outcome") != "review" or any(r.get("level") == "deny" for r in reasons):
        return Outcome(False, (), tuple(notes + ["approvals never change a deny or an allow"]))
    counted: dict[int, Approval] = {}
    for finding in (r for r in reasons if r.get("level") == "review"):
        rule, allowed = str(finding.get("rule")), requirements.allowed(finding)
        fitting = [a for a in approvals if rule in a.rules and (allowed is None or _member(a.signer, allowed))]
        if not fitting:
            who = "any trusted approver" if allowed is None else f"one of {', '.join(allowed)}"
            offered = [a.signer.name for a in approvals if rule in a.rules]
            notes.append(f"{rule}: needs an approval by {who}"
                         + (f" (approved only by {', '.join(offered)})" if offered else ""))
            continue
        counted[id(fitting[0])] = fitting[0]
    accepted = len(notes) == len(problems)
    return Outcome(accepted, tuple(counted.values()), tuple(notes))


def _member(signer: Signer, allowed: Sequence[str]) -> bool:
    return signer.name in allowed or any(group in allowed for group in signer.groups)


def _one(path: Path, trust: Trust, patch_sha256: str, input_digest: str, moment: datetime) -> Approval:
    where = str(path)
    opened = open_statement(read_envelope(path), trust, where=where, predicate_type=APPROVAL_PREDICATE,
                            namespace=roles.APPROVAL, sha256=patch_sha256)
    predicate = opened.predicate
    if predicate.get("inputDigest") != input_digest:
        raise AttestationError("approves another decision (policy input digest differs: other findings, "
                               "policies or packet)", where=where, hint="approve the current decision again")
    rules = predicate.get("rules")
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise AttestationError("the approval names no rule ids", where=where)
    try:
        approved = datetime.fromisoformat(str(predicate["approvedAt"]))
        expires = datetime.fromisoformat(str(predicate["expiresAt"]))
    except (KeyError, ValueError):
        raise AttestationError("the approval has no valid approvedAt/expiresAt", where=where) from None
    if approved.tzinfo is None or expires.tzinfo is None:
        raise AttestationError("approval times must carry a UTC offset", where=where)
    if moment >= expires:
        raise AttestationError(f"expired at {expires.isoformat()}", where=where, hint="approve again")
    if approved > moment + timedelta(minutes=5):
        raise AttestationError(f"approved in the future ({approved.isoformat()})", where=where)
    return Approval(opened.signer, tuple(rules), approved.isoformat(), expires.isoformat(),
                    str(predicate.get("comment", ""))[:2000], path.name, predicate.get("bundleDigest"))


def _check_bound(approval: Approval, path: Path, bundle_digest: str | None, refused: Mapping[str, str]) -> None:
    """AttestationError when `approval` names another bundle than `bundle_digest`, or its key is refused."""
    if bundle_digest is not None and approval.bundle_digest != bundle_digest:
        named = str(approval.bundle_digest)[:12] if approval.bundle_digest is not None else "none"
        raise AttestationError(f"approves a decision of another policy bundle (bundle digest {named}, this gate's "
                               f"{bundle_digest[:12]})", where=str(path),
                               hint="approve again under the bundle the gate uses")
    why = refused.get(approval.signer.keyid)
    if why is not None:
        raise AttestationError(f"{approval.signer.name} may not approve this change: {why}", where=str(path),
                               hint="a human approver's key approves, never the runner's or the gate's")
