"""`policy history`: the commits that changed a bundle, told in policy terms (policies, rules, version bumps)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gatekeeper.bounded import load_json, load_yaml
from gatekeeper.errors import AuditError, LimitError
from gatekeeper.policy.gitrev import Location, git, locate, reading, show
from gatekeeper.policy.history_metadata import declared_rules, version_of
from gatekeeper.policy_dir import MANIFEST, RULES_FILE

OVERLAY_DIR = "classification.d"  # rule overlays: replace, add or remove rules of the main file
_POLICY_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,127}")



@dataclass(frozen=True, slots=True)
class RuleChanges:
    """Classification rule ids added, removed or edited between a commit and its parent."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    reordered: bool = False  # first match wins, so a new order can change decisions

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed or self.reordered)


@dataclass(frozen=True, slots=True)
class Change:
    """One commit that touched the bundle."""

    commit: str
    parent: str | None
    author: str
    date: str
    message: str
    files: tuple[tuple[str, str], ...]  # (status letter, path inside the bundle)
    policies: tuple[str, ...]  # policy folders touched
    rules: RuleChanges
    versions: tuple[tuple[str, str | None, str | None], ...]  # (policy, before, after)
    revision: tuple[str | None, str | None] | None  # manifest revision before, after (when it changed)
    defaults: tuple[tuple[str, bool | None, bool | None], ...] = field(default=())  # (policy, before, after)
    # rule ids a policy declares in METADATA custom.rules: (policy, added, removed)
    policy_rules: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON form for `policy history --format json`."""
        return {
            "commit": self.commit, "parent": self.parent, "author": self.author, "date": self.date,
            "message": self.message, "files": [{"status": s, "path": p} for s, p in self.files],
            "policies": list(self.policies),
            "rules": {"added": list(self.rules.added), "removed": list(self.rules.removed),
                      "changed": list(self.rules.changed), "reordered": self.rules.reordered},
            "versions": [{"policy": n, "before": b, "after": a} for n, b, a in self.versions],
            "revision": None if self.revision is None else {"before": self.revision[0], "after": self.revision[1]},
            "defaults": [{"policy": n, "before": b, "after": a} for n, b, a in self.defaults],
            "policy_rules": [{"policy": n, "added": list(a), "removed": list(r)} for n, a, r in self.policy_rules],
        }


def policy_history(bundle_dir: Path, *, limit: int | None = None, policy: str | None = None) -> list[Change]:
    """The commits that changed `bundle_dir`, newest first, each described in policy terms; with `policy`, only
    those that changed that policy's folder or its default switch (AuditError for a name never seen)."""
    loc = locate(bundle_dir)
    args = ["log", "--first-parent", "-z", "--format=%H%x1f%P%x1f%an <%ae>%x1f%aI%x1f%B"]
    if limit is not None and policy is None:
        args.append(f"-n{limit}")
    if policy is None:
        paths = [loc.prefix or "."]
    else:
        if not _POLICY_NAME.fullmatch(policy):
            raise AuditError(f"not a policy name: {policy!r}", where="--policy-name",
                             hint="a policy is named by its folder in the bundle, e.g. core (see `policy list`)")
        # Literal pathspecs: a name is a folder, never a glob or a magic pathspec.
        paths = [f":(literal){loc.join(policy)}", f":(literal){loc.join(MANIFEST)}"]
    out = git(loc.repo, *args, "--", *paths)
    changes: list[Change] = []
    entries = [entry for entry in out.decode("utf-8", "replace").split("\0") if entry.strip()]
    if not entries:
        return _checked(changes, bundle_dir, policy)
    with reading(loc) as read:  # the files of every commit through one git process
        for entry in entries:
            commit, parents, author, date, message = entry.lstrip("\n").split("\x1f", 4)
            parent = parents.split()[0] if parents.split() else None
            change = _describe(read, commit, parent, author, date, message.strip())
            if policy is None or policy in change.policies or any(name == policy for name, _, _ in change.defaults):
                changes.append(change)
            if limit is not None and len(changes) >= limit:
                break
    return _checked(changes, bundle_dir, policy)


def _checked(changes: list[Change], bundle_dir: Path, policy: str | None) -> list[Change]:
    if policy is not None and not changes and not (bundle_dir / policy).is_dir():
        raise AuditError(f"no policy {policy!r} in the bundle or its history", where=str(bundle_dir),
                         hint="name a policy folder (see `gatekeeper policy list`)")
    return changes


def _describe(loc: Location, commit: str, parent: str | None, author: str, date: str, message: str) -> Change:
    files = _changed_files(loc, commit, parent)
    policies = sorted({path.split("/", 1)[0] for _, path in files if "/" in path} - {OVERLAY_DIR})
    rules = _rule_changes(_rules_at(loc, parent), _rules_at(loc, commit))
    versions = []
    policy_rules = []
    for name in policies:
        old_source = _text(_at(loc, parent, f"{name}/policy.rego"))
        new_source = _text(_at(loc, commit, f"{name}/policy.rego"))
        before, after = version_of(old_source), version_of(new_source)
        if before != after:
            versions.append((name, before, after))
        old_ids, new_ids = declared_rules(old_source), declared_rules(new_source)
        if old_ids != new_ids:
            policy_rules.append((name, tuple(r for r in new_ids if r not in old_ids),
                                 tuple(r for r in old_ids if r not in new_ids)))
    old_manifest, new_manifest = _manifest(_at(loc, parent, MANIFEST)), _manifest(_at(loc, commit, MANIFEST))
    revision = (old_manifest.get("revision"), new_manifest.get("revision"))
    return Change(
        commit=commit, parent=parent, author=author, date=date, message=message, files=tuple(files),
        policies=tuple(policies), rules=rules, versions=tuple(versions),
        revision=revision if revision[0] != revision[1] else None,
        defaults=tuple(_default_changes(old_manifest, new_manifest)),
        policy_rules=tuple(policy_rules),
    )


def _changed_files(loc: Location, commit: str, parent: str | None) -> list[tuple[str, str]]:
    base = ["diff-tree", "-r", "-z", "--no-renames", "--name-status"]
    revs = [parent, commit] if parent else ["--root", commit]
    out = git(loc.repo, *base, *revs, "--", loc.prefix or ".").decode("utf-8", "surrogateescape")
    fields = [f for f in out.split("\0") if f]
    if not parent and fields and fields[0] == commit:  # --root prints the commit id first
        fields = fields[1:]
    cut = len(loc.prefix) + 1 if loc.prefix else 0
    return [(fields[i], fields[i + 1][cut:]) for i in range(0, len(fields) - 1, 2)]


def _at(loc: Location, commit: str | None, name: str) -> bytes | None:
    return None if commit is None else show(loc, commit, loc.join(name))


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "replace")


def _manifest(data: bytes | None) -> dict[str, Any]:
    try:
        value = load_json(data, MANIFEST) if data else {}
    except (ValueError, LimitError):  # history describes old commits leniently: a bad manifest reads as empty
        return {}
    return value if isinstance(value, dict) else {}


def _default_changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, bool | None, bool | None]]:
    def defaults(manifest: dict[str, Any]) -> dict[str, bool | None]:
        policies = (manifest.get("metadata") or {}).get("policies") or {}
        return {n: (v or {}).get("default") if isinstance(v, dict) else None for n, v in policies.items()}

    before, after = defaults(old), defaults(new)
    return [
        (n, before.get(n), after.get(n)) for n in sorted(before.keys() | after.keys()) if before.get(n) != after.get(n)
    ]


def rule_index(data: bytes | None) -> dict[str, list[tuple[str, Any]]]:
    """The rules of a classification file by section: every list of mappings with an `id`, in file order."""
    try:
        doc = load_yaml(data.decode("utf-8", "replace"), RULES_FILE) if data else None
    except (yaml.YAMLError, LimitError):
        return {}
    sections: dict[str, list[tuple[str, Any]]] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{path}.{key}" if path else str(key))
        elif isinstance(node, list) and node and all(isinstance(i, dict) and "id" in i for i in node):
            sections[path] = [(str(i["id"]), i) for i in node]

    walk(doc, "")
    return sections


def _rules_at(loc: Location, commit: str | None) -> dict[str, list[tuple[str, Any]]]:
    """The rules in effect at `commit`: the main file, then each overlay replacing, adding or removing ids."""
    if commit is None:
        return {}
    sections = rule_index(_at(loc, commit, RULES_FILE))
    listing = git(loc.repo, "ls-tree", "-z", "--name-only", commit, "--", loc.join(OVERLAY_DIR) + "/")
    for path in sorted(
        p for p in listing.decode("utf-8", "surrogateescape").split("\0") if p.endswith((".yaml", ".yml"))
    ):
        data = show(loc, commit, path)
        for section, items in rule_index(data).items():
            current = sections.setdefault(section, [])
            for rid, body in items:
                at = next((i for i, (old, _) in enumerate(current) if old == rid), None)
                if at is None:
                    current.append((rid, body))
                else:
                    current[at] = (rid, body)
        removed = set(_removed_ids(data))
        for section in sections:
            sections[section] = [(rid, body) for rid, body in sections[section] if rid not in removed]
    return sections


def _removed_ids(data: bytes | None) -> list[str]:
    try:
        doc = load_yaml(data.decode("utf-8", "replace"), OVERLAY_DIR) if data else None
    except (yaml.YAMLError, LimitError):
        return []
    remove = doc.get("remove") if isinstance(doc, dict) else None
    return [str(r) for r in remove] if isinstance(remove, list) else []


def _rule_changes(before: dict[str, list[tuple[str, Any]]], after: dict[str, list[tuple[str, Any]]]) -> RuleChanges:
    old_rules = {rid: body for rules in before.values() for rid, body in rules}
    new_rules = {rid: body for rules in after.values() for rid, body in rules}
    reordered = False
    for section in before.keys() & after.keys():
        kept_new = [rid for rid, _ in after[section] if rid in old_rules]
        kept_old = [rid for rid, _ in before[section] if rid in new_rules]
        reordered = reordered or kept_new != kept_old
    return RuleChanges(
        added=tuple(r for r in new_rules if r not in old_rules),
        removed=tuple(r for r in old_rules if r not in new_rules),
        changed=tuple(r for r in new_rules if r in old_rules and old_rules[r] != new_rules[r]),
        reordered=reordered,
    )


def render_text(changes: list[Change]) -> str:
    """The history as an auditor reads it: one block per commit."""
    if not changes:
        return "(no commits changed the bundle)"
    out: list[str] = []
    for change in changes:
        out.append(f"commit {change.commit}")
        out.append(f"  author   {change.author}")
        out.append(f"  date     {change.date}")
        subject, _, body = change.message.partition("\n")
        out.append(f"  message  {subject}")
        out += [f"           {line}" for line in body.strip().splitlines()]
        if change.revision:
            out.append(f"  revision {change.revision[0] or '(none)'} -> {change.revision[1] or '(none)'}")
        if change.policies:
            out.append(f"  policies {', '.join(change.policies)}")
        for name, before, after in change.versions:
            out.append(f"  version  {name}: {before or '(new)'} -> {after or '(removed)'}")
        for name, added, removed in change.policy_rules:
            parts = [f"+{r}" for r in added] + [f"-{r}" for r in removed]
            out.append(f"  findings {name}: {' '.join(parts)}")
        for name, was_on, is_on in change.defaults:
            out.append(f"  default  {name}: {_on(was_on)} -> {_on(is_on)}")
        rules = change.rules
        for label, ids in (("added", rules.added), ("removed", rules.removed), ("changed", rules.changed)):
            if ids:
                out.append(f"  rules    {label}: {', '.join(ids)}")
        if rules.reordered:
            out.append("  rules    reordered (first match wins: decisions may change)")
        out.append("  files    " + ", ".join(f"{s} {p}" for s, p in change.files))
        out.append("")
    return "\n".join(out).rstrip()


def _on(value: bool | None) -> str:
    return "(absent)" if value is None else ("on" if value else "off")
