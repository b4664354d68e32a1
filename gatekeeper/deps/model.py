"""Typed records of the dependency delta: a dependency, a problem reading a file, a change."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Scope = Literal["runtime", "dev", "build"]
ChangeKind = Literal["added", "removed", "upgraded", "downgraded", "changed"]


class ManifestError(Exception):
    """A manifest or lockfile cannot be read; becomes a `Problem`, never reaches a user as a traceback."""


class PartlyShown(ManifestError):
    """A changed hunk line read as far as the hunk shows it (edits.read): `pairs`, as a line reader returns them, are
    named, and `msg` says what the hunk cannot show (the section above it, a definition's uses): a `partial` problem
    beside them, so the change is reviewed (deps.unreadable), never allowed as an upgrade on what the patch hides."""

    def __init__(self, msg: str, pairs: list[tuple[str, ...]]) -> None:
        super().__init__(msg)
        self.pairs = pairs


class PartlyRead(ManifestError):
    """One side's dependencies a hunk reader (Format.hunks) read as far as its hunks show them (`found`), with what
    they cannot show (`msg`): named beside a `partial` problem, as PartlyShown names a line reader's pairs."""

    def __init__(self, msg: str, found: list[Dependency]) -> None:
        super().__init__(msg)
        self.found = found


class PartialEdits(ManifestError):
    """Hunks read as far as they show, with what they cannot show (`msg`): the caller reports `found`, the (base,
    head) dependencies read, and a `partial` problem."""

    def __init__(self, msg: str, found: tuple[list[Dependency], list[Dependency]]) -> None:
        super().__init__(msg)
        self.found = found


@dataclass(frozen=True, slots=True)
class Dependency:
    """One dependency a file declares or locks.

    `direct` and `scope` are None when the file alone cannot tell (a lockfile without its manifest's
    view); `resolve` in delta.py fills them from the sibling manifest, else fails closed (direct, runtime).
    """

    ecosystem: str
    name: str
    version: str  # an exact version, a constraint, a ref or tag; "" when the file names none
    manifest: str
    direct: bool | None = True
    scope: Scope | None = "runtime"
    # A sha-pinned action's trailing comment (`@<sha> # v4.1.1`): a claim of the change's author, used
    # only to order and to name the version, never to judge pinning (that is the sha's alone).
    tag: str = ""
    # The name the file itself gives the entry where that is not the package's (a Gradle catalog's key:
    # `spotless = { id = "com.diffplug.spotless", … }`): what a reader of the file and its bots call it.
    alias: str = ""
    # The named version a catalog entry shares with others (`version.ref = "agp"`, a Gradle catalog's `[versions]`
    # key): Renovate names one update of the entries sharing it by that name ("Update agp to v9.3.1").
    version_ref: str = ""
    # What the entry asks for besides its version and source (entryoptions.py: extras, markers, features, the
    # table it sits in): a move in it is a change of the entry, never a rider on a bump (red team 26).
    options: str = ""


def edit_key(old: Dependency, new: Dependency) -> tuple[Dependency, Dependency]:
    """What one edit of a name is, to tell it from the same name's edit in another place (edits.read): both sides,
    but a Terraform module's block label (its alias): one source moved in several `module` blocks is one move, named
    by the first block's label, as the whole file's first block names it (delta._group)."""
    if old.ecosystem == new.ecosystem == "terraform":
        return replace(old, alias=""), replace(new, alias="")
    return old, new


@dataclass(frozen=True, slots=True)
class Problem:
    """A file whose dependencies could not be read (fully): kind `unparsable`, `too-large` or `partial`."""

    manifest: str
    kind: Literal["unparsable", "too-large", "partial"]
    msg: str

    def to_dict(self) -> dict[str, str]:
        return {"manifest": self.manifest, "kind": self.kind, "msg": self.msg}


@dataclass(frozen=True, slots=True)
class Change:
    """One dependency added, removed or moved between BASE and HEAD in one manifest."""

    ecosystem: str
    name: str
    purl: str
    manifest: str
    from_version: str | None
    to_version: str | None
    change: ChangeKind
    direct: bool
    scope: Scope
    pinned: bool | None = None  # actions: ref is a full commit sha; docker: image has a digest
    partial: bool = False  # derived from patch hunks only, not whole files
    vulnerabilities: tuple[str, ...] = field(default_factory=tuple)  # OSV ids affecting `to`
    from_tag: str | None = None  # see Dependency.tag
    to_tag: str | None = None
    level: str | None = None  # upgraded/downgraded: "major" | "minor" | "patch"; None when not known
    # The version the change's own commit message claims (claims.py), set only where the files name none
    # (an action moved between bare commit shas). Unverified: shown to people, never read by a policy rule.
    claimed: str | None = None
    # The name on BASE when the dependency moved to another name that is the same package's next major
    # (a Go module's `/v2` → `/v3` path, delta.py); None otherwise, and then left out of `to_dict`.
    from_name: str | None = None
    alias: str | None = None  # see Dependency.alias; left out of `to_dict` when None
    version_ref: str | None = None  # see Dependency.version_ref; left out of `to_dict` when None
    # An action or pre-commit hook moved onto a full commit sha that no version comment names (`@<sha>` → `@<sha2>`,
    # a stale comment, a tag left for a bare sha): no file says which version runs (round 60). Left out when False.
    unversioned: bool = False

    def to_dict(self) -> dict[str, object]:
        """The change as `deps --format json` and the policy input show it."""
        out: dict[str, object] = {
            "ecosystem": self.ecosystem,
            "name": self.name,
            "purl": self.purl,
            "manifest": self.manifest,
            "from": self.from_version,
            "to": self.to_version,
            "change": self.change,
            "direct": self.direct,
            "scope": self.scope,
            "pinned": self.pinned,
            "partial": self.partial,
            "vulnerabilities": list(self.vulnerabilities),
            "from_tag": self.from_tag,
            "to_tag": self.to_tag,
            "level": self.level,
            "claimed": self.claimed,
        }
        if self.from_name is not None:
            out["from_name"] = self.from_name
        if self.alias is not None:
            out["alias"] = self.alias
        if self.version_ref is not None:
            out["version_ref"] = self.version_ref
        if self.unversioned:
            out["unversioned"] = True
        return out
