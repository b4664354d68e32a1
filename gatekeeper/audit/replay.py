"""`audit replay`: decide a logged change again with the bundle as it was then, and with today's."""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.attest.verdict import APPROVED_RULE
from gatekeeper.audit.log import ERROR_OUTCOME, canonical
from gatekeeper.audit.read import Entry, Snapshot, find_entry, load_entries
from gatekeeper.audit.show import trust_lines
from gatekeeper.audit.verify import Head, verify_snapshot
from gatekeeper.errors import AuditError, GatekeeperError, where
from gatekeeper.gate import decide
from gatekeeper.packet import open_tree_context
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.gitrev import export_bundle, has_commit, locate
from gatekeeper.revrange import RevRange
from gatekeeper.treecheck import tree_differences

if TYPE_CHECKING:
    from gatekeeper.attest.keys import Trust

FINDING_KEYS = ("policy", "rule", "level", "msg", "bucket", "paths")


@dataclass(frozen=True, slots=True)
class View:
    """A decision reduced to what replay compares: outcome and findings, plus the bundle it came from."""

    label: str
    outcome: str
    findings: tuple[str, ...]  # canonical JSON of each finding, sorted
    bundle: dict[str, Any]
    input_digest: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "outcome": self.outcome, "findings": [json.loads(f) for f in self.findings],
                "bundle": self.bundle, "input_digest": self.input_digest}


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The recorded decision, its replay at the recorded bundle, and today's decision (or why there is none)."""

    seq: int
    line: int
    run_id: str | None
    recorded: View
    replayed: View
    today: View | None
    today_error: str | None
    notes: tuple[str, ...]
    vouched: tuple[str, ...] = ()  # who vouched for what, as recorded: packet signer, approvals, record key
    record: dict[str, Any] | None = None

    @property
    def same(self) -> bool:
        """Whether the replay reproduces the recorded outcome and findings."""
        return _same(self.recorded, self.replayed)

    @property
    def today_same(self) -> bool | None:
        return None if self.today is None else _same(self.recorded, self.today)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "line": self.line, "run_id": self.run_id, "same": self.same, "today_same": self.today_same,
            "recorded": self.recorded.to_dict(), "replayed": self.replayed.to_dict(),
            "replayed_differences": differences(self.recorded, self.replayed),
            "today": None if self.today is None else self.today.to_dict(),
            "today_differences": None if self.today is None else differences(self.recorded, self.today),
            "today_error": self.today_error, "notes": list(self.notes),
            "attestation": (self.record or {}).get("attestation"), "approvals": (self.record or {}).get("approvals"),
            "signature": (self.record or {}).get("signature"),
        }


def replay_record(log: Snapshot, ref: str, packet_path: Path, patch_path: Path, bundle_dir: Path, *,
                  head: Head | None = None, trust: Trust | None = None, revs: RevRange | None = None) -> ReplayResult:
    """Replay record `ref` of `log` for the given packet and patch; AuditError when it cannot be replayed
    (also when, with `trust`, a record up to it is not signed by a trusted key).

    `revs`: the commits of a record the gate decided with `--tree` (its `ci.tree`), which replay decides with as the
    gate did (their context, the tree check); a record that names a range is never replayed without them, nor one
    that names none with them (red team 31)."""
    entry = find_entry(load_entries(log), ref, log.name)
    if entry.record.get("outcome") == ERROR_OUTCOME:
        raise AuditError(f"record seq {entry.record['seq']} is a could-not-decide record: no policy ran, so there is "
                         "nothing to replay", where=log.where(entry.line),
                         hint="`gatekeeper audit show` gives the error it logged")
    notes = _check_chain(log, entry, head, trust)
    record = entry.record
    notes += _check_range(record, revs, log.where(entry.line))
    packet = _matching_packet(packet_path, record)
    _check_patch(patch_path, record)
    today_bundle = load_bundle(bundle_dir)
    enabled = list(record.get("enabled") or [p["name"] for p in record["policies"]])
    dry_run = bool(record.get("dry_run"))

    # As the gate compared them: HEAD's tree against the merge base with the patch applied (empty without --tree).
    differences = () if revs is None else tree_differences(revs, patch_path, transport=(packet_path, patch_path))

    with tempfile.TemporaryDirectory(prefix="gatekeeper-replay-") as tmp:
        then_bundle, how = _recorded_bundle(record, bundle_dir, today_bundle, Path(tmp))
        notes.append(how)
        # The packet's signature as verified then (its trust file may be gone): the policy input is the recorded one.
        attestation = record.get("attestation")
        with open_tree_context(revs, then_bundle.rules) as context:
            replayed = _recorded_approvals(decide(packet, patch_path, then_bundle, enabled, dry_run=dry_run,
                                                  attestation=attestation, context=context,
                                                  tree_differences=differences).to_dict(), record, notes)

    today: View | None = None
    today_error = None
    available = {p.name for p in today_bundle.policies}
    gone = [name for name in enabled if name not in available]
    if gone:
        notes.append(f"today's bundle no longer has {', '.join(gone)}: evaluated without")
    try:
        with open_tree_context(revs, today_bundle.rules) as context:
            decided = decide(packet, patch_path, today_bundle, [n for n in enabled if n in available],
                             dry_run=dry_run, attestation=attestation, context=context,
                             tree_differences=differences).to_dict()
        today_notes: list[str] = []
        today = _view("today", _recorded_approvals(decided, record, today_notes))
        notes.extend(f"today: {note}" for note in today_notes)
    except GatekeeperError as exc:
        today_error = str(exc)
    recorded = View("recorded", record["outcome"], _keys(record.get("findings") or []), record["bundle"],
                    record.get("input_digest"))
    replay_view = _view(f"at {record['bundle'].get('commit') or 'recorded digest'}", replayed)
    if replay_view.input_digest != recorded.input_digest:
        notes.append("the policy input differs from the recorded one (the gate or the classification changed)")
    return ReplayResult(record["seq"], entry.line, record.get("run_id"), recorded, replay_view, today, today_error,
                        tuple(notes), tuple(trust_lines(record)), record)


def _recorded_approvals(decision: dict[str, Any], record: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """`decision` with the approvals that counted then applied again, as recorded (their files and the trust
    they were checked against may be gone; the record, signed with --sign, is what vouches for them). As at the
    gate, only when they accept every review finding of `decision`: a review they never saw (today's bundle, a
    changed classification) stays a review."""
    approvals = record.get("approvals")
    if not isinstance(approvals, dict) or not approvals.get("accepted") or decision["outcome"] != "review":
        return decision
    unaccepted = sorted({str(r.get("rule")) for r in decision["reasons"] if r.get("level") == "review"}
                        - _approved_rules(approvals))
    if unaccepted:
        notes.append(f"the recorded approvals do not accept {', '.join(unaccepted)}: the review stands")
        return decision
    accepted = [f for f in record.get("findings") or [] if isinstance(f, dict) and f.get("rule") == APPROVED_RULE]
    if accepted:
        notes.append("the review was accepted by the recorded approvals; replay applies them as recorded")
    return {**decision, "outcome": "allow", "reasons": [*decision["reasons"], *accepted]}


def _approved_rules(approvals: dict[str, Any]) -> set[str]:
    """The rule ids the recorded approvals that counted accept."""
    listed = approvals.get("approvals")
    return {rule for item in listed if isinstance(item, dict) and isinstance(item.get("rules"), list)
            for rule in item["rules"] if isinstance(rule, str)} if isinstance(listed, list) else set()


def differences(recorded: View, other: View) -> dict[str, Any]:
    """What `other` decides differently: the outcome change, findings gone and findings new."""
    return {
        "outcome": None if recorded.outcome == other.outcome else {"before": recorded.outcome, "after": other.outcome},
        "removed": [json.loads(f) for f in recorded.findings if f not in other.findings],
        "added": [json.loads(f) for f in other.findings if f not in recorded.findings],
    }


def _same(a: View, b: View) -> bool:
    return a.outcome == b.outcome and a.findings == b.findings


def _keys(findings: list[dict[str, Any]]) -> tuple[str, ...]:
    return tuple(sorted(canonical({k: f.get(k) for k in FINDING_KEYS}).decode() for f in findings))


def _view(label: str, decision: dict[str, Any]) -> View:
    return View(label, decision["outcome"], _keys(decision.get("reasons") or []), decision.get("bundle") or {},
                decision.get("input_digest"))


def _check_range(record: dict[str, Any], revs: RevRange | None, at: str) -> list[str]:
    """AuditError unless replay has the commits exactly when the gate had them: a gate with `--tree` classified every
    file with the commits' context and denied a patch other than their change, which the packet and patch alone
    cannot show (a forged allow of that run would replay as reproduced, an honest review as not). A side the record
    names by its commit id (full or abbreviated, any case) must be that commit; a name (a branch that has moved since)
    only gets a note."""
    ci = record.get("ci")
    recorded = ci.get("tree") if isinstance(ci, dict) else None
    seq = record.get("seq")
    if revs is None:
        if isinstance(recorded, str):
            raise AuditError(f"record seq {seq} was decided with the commits --tree {recorded}: from the packet and "
                             "patch alone replay would decide without their context and tree check", where=at,
                             hint="pass --tree BASE..HEAD with those commits, and --repo DIR where they are")
        number = ci.get("number") if isinstance(ci, dict) else None
        # Not an error (a gate may judge a packet alone), but an auditor should see that nothing bound it to the PR.
        return [f"the record names change {number} but no --tree range: its patch was not bound to the commits"] \
            if number is not None else []
    if not isinstance(recorded, str):
        raise AuditError(f"record seq {seq} was decided without --tree: replay with commits would decide another way",
                         where=at, hint="replay it without --tree and --repo")
    sides = recorded.split("..", 1) + [""]
    notes = []
    for side, commit in zip(sides[:2], (revs.base_commit, revs.head_commit), strict=True):
        # An id as git takes one (attack 25): any case, or abbreviated to 4 digits or more (a hex-named branch too)
        if re.fullmatch(r"[0-9a-fA-F]{4,64}", side):
            if not commit.startswith(side.lower()):
                raise AuditError(f"--tree {revs.text} resolves to {commit}, not the recorded {side}", where=at,
                                 hint=f"replay with the recorded commits: --tree {recorded}")
        else:
            notes.append(f"the record names {side!r}, which is a name, not a commit: replayed with {commit[:12]}")
    return notes


def _check_chain(log: Snapshot, entry: Entry, head: Head | None, trust: Trust | None) -> list[str]:
    problem = verify_snapshot(log, head, trust=trust).problem
    if problem is not None and problem.line <= entry.line:
        raise AuditError(f"the log's chain is broken before this record: {problem.message}", where=log.name,
                         hint="a record that cannot be trusted cannot be replayed; see `gatekeeper audit verify`")
    return [] if problem is None else [f"the chain breaks after this record: {problem.message}"]


def _matching_packet(path: Path, record: dict[str, Any]) -> dict[str, Any]:
    try:
        data = json.loads(path.read_bytes())
    except OSError as exc:
        raise AuditError(f"cannot read the packet: {exc.strerror}", where=str(path)) from exc
    except ValueError as exc:
        raise AuditError(f"the packet is not JSON: {exc}", where=str(path)) from exc
    digest = hashlib.sha256(canonical(data)).hexdigest()
    if record.get("packet_digest") and digest != record["packet_digest"]:
        raise AuditError(f"not the packet of record seq {record['seq']}: digest {digest[:16]}... "
                         f"!= recorded {str(record['packet_digest'])[:16]}...", where=str(path),
                         hint="pass the packet the gate was given for this run")
    return data


def _check_patch(path: Path, record: dict[str, Any]) -> None:
    sha = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                sha.update(block)
    except OSError as exc:
        raise AuditError(f"cannot read the patch: {exc.strerror}", where=str(path)) from exc
    if record.get("diff_sha256") and sha.hexdigest() != record["diff_sha256"]:
        raise AuditError(f"not the patch of record seq {record['seq']}: sha256 differs from the recorded one",
                         where=str(path), hint="pass the patch the gate was given for this run")


def _recorded_bundle(record: dict[str, Any], bundle_dir: Path, today: Any, tmp: Path) -> tuple[Any, str]:
    """The bundle the decision was made with: from git at the recorded commit, checked against the digest."""
    info = record["bundle"]
    digest, commit = info.get("digest"), info.get("commit")
    if commit and not re.fullmatch(r"[0-9a-f]{7,64}", str(commit)):
        # Never hand git a value from the log that it could read as an option.
        raise AuditError(f"the recorded bundle commit {commit!r} is not a commit id", where=str(bundle_dir))
    if commit:
        loc = locate(bundle_dir)
        if not has_commit(loc, commit):
            raise AuditError(f"the recorded bundle commit {commit} is not in the repository", where=str(loc.repo),
                             hint="fetch the history that holds it, or replay in the repository the gate ran in")
        then = load_bundle(export_bundle(loc, commit, tmp))
        if then.digest == digest:
            return then, f"bundle read from git at commit {commit} (digest matches the record)"
    if today.digest == digest:
        return today, "today's bundle has the recorded digest: it is unchanged since the decision"
    if commit:
        raise AuditError(f"the bundle at commit {commit} does not have the recorded digest", where=where(bundle_dir),
                         hint="the gate ran with uncommitted bundle changes, so the exact bundle cannot be recovered")
    raise AuditError("the decision records no bundle commit and today's bundle differs from it", where=str(bundle_dir),
                     hint="the gate ran outside git; only an unchanged bundle can replay such a record")


def render_text(result: ReplayResult) -> str:
    """What an auditor reads: the recorded decision, whether replay reproduces it, and what today decides."""
    rec = result.recorded
    bundle = rec.bundle
    out = [f"record seq {result.seq} (line {result.line}), run {result.run_id or '-'}: "
           f"{rec.outcome} with {len(rec.findings)} finding(s)",
           f"  bundle {bundle.get('name')} revision {bundle.get('revision')} commit {bundle.get('commit') or '-'} "
           f"digest {str(bundle.get('digest'))[:16]}"]
    out.append(_compare_line("replayed with the recorded bundle", rec, result.replayed))
    if result.today is not None:
        now = result.today.bundle
        label = f"today's bundle (revision {now.get('revision')}, commit {now.get('commit') or '-'})"
        out.append(_compare_line(label, rec, result.today))
    else:
        out.append(f"today's bundle cannot decide: {result.today_error}")
    out += [f"  {line}" for line in result.vouched]
    out += [f"note: {n}" for n in result.notes]
    return "\n".join(out)


def _compare_line(label: str, recorded: View, other: View) -> str:
    if _same(recorded, other):
        return f"{label}: {other.outcome}, same outcome and findings"
    diff = differences(recorded, other)
    lines = [f"{label}: {other.outcome}, DIFFERENT"]
    if diff["outcome"]:
        lines.append(f"  outcome {diff['outcome']['before']} -> {diff['outcome']['after']}")
    lines += [f"  - {f['level']} {f['rule']}: {f['msg']}" for f in diff["removed"]]
    lines += [f"  + {f['level']} {f['rule']}: {f['msg']}" for f in diff["added"]]
    return "\n".join(lines)
