"""Typed models shared by the parts: a parsed file change, its classification, and the gate's decision.

Paths are `str`. Bytes that are not UTF-8 are kept losslessly as surrogate escapes
(`bytes.decode("utf-8", "surrogateescape")`); `os.fsencode`-style round trips give the bytes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["added", "modified", "deleted", "renamed", "copied", "mode_changed", "type_changed"]
STATUSES: tuple[str, ...] = ("added", "modified", "deleted", "renamed", "copied", "mode_changed", "type_changed")

Bucket = Literal["ci", "iac", "deps", "src", "other"]
BUCKETS: tuple[str, ...] = ("ci", "iac", "deps", "src", "other")
# Most sensitive first: a change that touches two buckets counts in the first of them.
SENSITIVITY: tuple[str, ...] = ("ci", "iac", "deps", "other", "src")

TAGS: tuple[str, ...] = (
    "guardrail",
    "manifest",
    "lockfile",
    "toolchain",
    "executable",
    "symlink",
    "submodule",
    "binary",
    "needs-context",
)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file's change as a git patch states it."""

    path: str  # the new path; for a deletion, the deleted path
    old_path: str | None  # the source of a rename or copy; None otherwise
    status: Status
    additions: int = 0  # from hunk headers; equals `git diff --numstat`
    deletions: int = 0
    binary: bool = False
    old_mode: str | None = None  # e.g. "100644", "100755", "120000", "160000"
    new_mode: str | None = None
    similarity: int | None = None  # rename/copy similarity index, percent
    symlink_target: str | None = None  # the link's new target when the new side is a symlink
    old_symlink_target: str | None = None  # the link's old target when the old side was a symlink
    symlink_unknown: bool = False  # the new side is a symlink whose target the patch does not show
    submodule: bool = False  # a gitlink (mode 160000) on either side
    unsafe: str | None = None  # why the path is unsafe (absolute, `..`, inside .git/, control chars)
    line: int = 0  # 1-based line of this file's `diff --git` header in the patch
    # A NUL byte in a line a text hunk shows of the new side (added or context): `git diff --text` writes a compiled
    # program so, and git diffs such a file as binary; tagged `binary` (red team 31). Not a packet field.
    shows_nul: bool = False

    def sides(self) -> list[str]:
        """The path, and the old path when the change moved the file: every place the file is or was."""
        if self.old_path is not None and self.old_path != self.path:
            return [self.path, self.old_path]
        return [self.path]


@dataclass(frozen=True, slots=True)
class Match:
    """The rule that decided a path's bucket."""

    bucket: Bucket
    rule: str  # the deciding rule's id
    ecosystem: str | None = None  # for deps rules: "npm", "pip", "go", ...
    tags: frozenset[str] = field(default_factory=frozenset)  # tags every matching tag rule gave


@dataclass(frozen=True, slots=True)
class ClassifiedFile:
    """A file change with its bucket (the more sensitive side wins) and tags."""

    change: FileChange
    bucket: Bucket
    rule: str
    tags: tuple[str, ...] = ()  # sorted
    ecosystem: str | None = None
    tier: str = "path"  # which tier decided: path, marker, content, context (docs/classification.md)
    evidence: str | None = None  # for marker/content/context: the marker's path or the matched line

    def to_dict(self) -> dict[str, object]:
        """The file entry as the packet, `classify --format json` and the policy input show it."""
        c = self.change
        return {
            "path": c.path,
            "old_path": c.old_path,
            "status": c.status,
            "bucket": self.bucket,
            "rule": self.rule,
            "tags": list(self.tags),
            "ecosystem": self.ecosystem,
            "additions": c.additions,
            "deletions": c.deletions,
            "binary": c.binary,
            "old_mode": c.old_mode,
            "new_mode": c.new_mode,
            "symlink_target": c.symlink_target,
            "unsafe": c.unsafe,
        }



@dataclass(frozen=True, slots=True)
class Derived:
    """What a patch file shows, computed from its bytes alone (plus the classification rules)."""

    patch: str  # the patch's name as given, for messages
    sha256: str
    bytes: int
    files: tuple[ClassifiedFile, ...]
    diff: dict[str, Any]  # {sha256, bytes, file_count, additions, deletions}
    blast_radius: dict[str, dict[str, int]]  # {bucket: {files, additions, deletions}}
    unsafe: tuple[FileChange, ...]
    context: str = "patch"  # what classified the files: "tree" (BASE and HEAD objects) or "patch" (the patch alone)


LEVELS: tuple[str, ...] = ("deny", "review", "warn")  # most severe first
OUTCOMES: tuple[str, ...] = ("allow", "review", "deny")


@dataclass(frozen=True, slots=True)
class Finding:
    """One reason of a decision: who said it (`policy`, `rule`), how loud (`level`), what, and about which paths.

    `paths` is None when the finding names none (a finding with `"paths": []` keeps its empty tuple)."""

    policy: str
    rule: str
    level: str
    msg: str
    bucket: str | None = None
    paths: tuple[str, ...] | None = None

    @property
    def blocking(self) -> bool:
        """True when the finding stops a merge (deny or review)."""
        return self.level in ("deny", "review")

    def to_dict(self) -> dict[str, Any]:
        """The finding as the decision's JSON shows it (`bucket` and `paths` only when set)."""
        out: dict[str, Any] = {"policy": self.policy, "rule": self.rule, "level": self.level, "msg": self.msg}
        if self.bucket is not None:
            out["bucket"] = self.bucket
        if self.paths is not None:
            out["paths"] = list(self.paths)
        return out

    @classmethod
    def from_dict(cls, reason: Mapping[str, Any]) -> Finding:
        """A finding read back from a decision's JSON; every field as text, whatever the file held."""
        paths = reason.get("paths")
        return cls(
            policy=str(reason.get("policy", "")),
            rule=str(reason.get("rule", "")),
            level=str(reason.get("level", "")),
            msg=str(reason.get("msg", "")),
            bucket=None if reason.get("bucket") is None else str(reason["bucket"]),
            paths=None if paths is None else tuple(str(path) for path in paths or ()),
        )


def outcome_of(findings: Sequence[Finding]) -> str:
    """Any deny → deny; else any review → review; else allow (warn never blocks)."""
    levels = {finding.level for finding in findings}
    if "deny" in levels:
        return "deny"
    if "review" in levels:
        return "review"
    return "allow"


@dataclass(frozen=True, slots=True)
class Decision:
    """What the gate decided, on what, with which policies: made once by `gate.decide`, read by the
    reports, the decision log and the CI step. `to_dict` is its JSON (`gate --format json`, the log record).

    The nested parts (`bundle`, `packet`, `summary`, `dependencies`, ...) stay JSON-shaped: they are
    facts passed through to the report and the log, not data any layer computes with. The fields from
    `attestation` on are added by the command after deciding (None: absent from the JSON)."""

    outcome: str
    reasons: tuple[Finding, ...]
    policies: tuple[Mapping[str, str], ...]  # {name, version} of each evaluated policy
    enabled: tuple[str, ...]
    bundle: Mapping[str, Any]
    packet: Mapping[str, Any]  # {run_id, diff_sha256, digest}
    input_digest: str
    summary: Mapping[str, Any]
    dependencies: Mapping[str, Any]
    classifier: Mapping[str, Any]
    dry_run: bool
    tool: Mapping[str, str]
    decided_at: str
    attestation: Mapping[str, Any] | None = None
    approvals: Mapping[str, Any] | None = None
    signed_summary: str | None = None
    decision_log: tuple[Mapping[str, Any], ...] | None = None
    sources: Mapping[str, str | None] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data, keys in the order the gate has always written them."""
        out: dict[str, Any] = {
            "outcome": self.outcome,
            "reasons": [reason.to_dict() for reason in self.reasons],
            "policies": [dict(policy) for policy in self.policies],
            "enabled": list(self.enabled),
            "bundle": dict(self.bundle),
            "packet": dict(self.packet),
            "input_digest": self.input_digest,
            "summary": dict(self.summary),
            "dependencies": dict(self.dependencies),
            "classifier": dict(self.classifier),
            "dry_run": self.dry_run,
            "tool": dict(self.tool),
            "decided_at": self.decided_at,
        }
        for key in ("attestation", "approvals", "signed_summary", "decision_log", "sources"):
            value = getattr(self, key)
            if value is not None:
                out[key] = [dict(item) for item in value] if key == "decision_log" else (
                    value if isinstance(value, str) else dict(value))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """A Decision from its JSON (what `to_dict` wrote, e.g. after `attest.verdict.apply_approvals`)."""
        log = data.get("decision_log")
        return cls(
            outcome=str(data["outcome"]),
            reasons=tuple(Finding.from_dict(reason) for reason in data.get("reasons") or ()),
            policies=tuple(data.get("policies") or ()),
            enabled=tuple(data.get("enabled") or ()),
            bundle=data.get("bundle") or {},
            packet=data.get("packet") or {},
            input_digest=str(data.get("input_digest", "")),
            summary=data.get("summary") or {},
            dependencies=data.get("dependencies") or {},
            classifier=data.get("classifier") or {},
            dry_run=bool(data.get("dry_run")),
            tool=data.get("tool") or {},
            decided_at=str(data.get("decided_at", "")),
            attestation=data.get("attestation"),
            approvals=data.get("approvals"),
            signed_summary=data.get("signed_summary"),
            decision_log=None if log is None else tuple(log),
            sources=data.get("sources"),
        )
