"""The expectation file of a fixture case (`expect.yaml`): per policy set, the outcome and findings.

```yaml
description: a CI workflow edit needs a human          # optional
packet: {model_requested: m, model_reported: m}        # optional: how to build the packet
default: {outcome: review, findings: [{policy: core, rule: core.ci, paths: [.github/workflows/ci.yml]}]}
deps: {enable: [deps], outcome: review, findings: [{policy: deps, rule: deps.changed}]}
```
Every top-level key but `description` and `packet` names a policy set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gatekeeper.bounded import YAML, compose_yaml, construct_yaml, read_text
from gatekeeper.errors import FixtureError, where
from gatekeeper.model import Finding

OUTCOMES: tuple[str, ...] = ("allow", "review", "deny", "error")
LEVELS: tuple[str, ...] = ("deny", "review", "warn")
RESERVED = frozenset({"description", "packet"})
PACKET_OPTIONS = frozenset({"model_requested", "model_reported", "reported_by", "run_id", "sandbox", "repository"})
_SET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True, slots=True)
class ExpectedFinding:
    """A finding that must be present: same policy, and rule/level/bucket when given, paths a subset."""

    policy: str
    rule: str | None = None
    level: str | None = None
    bucket: str | None = None
    paths: tuple[str, ...] = ()
    line: int = 0

    def matches(self, reason: Finding) -> bool:
        if reason.policy != self.policy:
            return False
        for key in ("rule", "level", "bucket"):
            wanted = getattr(self, key)
            if wanted is not None and getattr(reason, key) != wanted:
                return False
        return set(self.paths) <= set(reason.paths or ())

    def describe(self) -> str:
        parts = [self.policy] + [f"{k}={getattr(self, k)}" for k in ("rule", "level", "bucket") if getattr(self, k)]
        if self.paths:
            parts.append(f"paths>={list(self.paths)}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class PolicySet:
    """One policy set of a case: which policies to switch on and what must come out."""

    name: str
    line: int
    enable: tuple[str, ...]
    disable: tuple[str, ...]
    outcome: str
    findings: tuple[ExpectedFinding, ...]
    error: str | None = None  # for outcome `error`: a substring the error message must hold


@dataclass(frozen=True, slots=True)
class Expectation:
    """A parsed `expect.yaml`."""

    path: Path
    description: str
    packet_options: dict[str, Any]
    sets: tuple[PolicySet, ...]


def load_expectation(path: Path) -> Expectation:
    """Read and validate `expect.yaml`; raise FixtureError naming the file and line."""
    try:
        text = read_text(path, YAML)
    except (OSError, UnicodeDecodeError) as exc:
        raise FixtureError(f"cannot read: {exc}", where=str(path)) from exc
    try:
        root = compose_yaml(text, str(path))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise FixtureError(f"not valid YAML: {getattr(exc, 'problem', exc)}", where=where(path, line)) from exc
    return _Reader(path).expectation(root)


class _Reader:
    """Walks the composed YAML nodes so every complaint can name its line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, node: yaml.Node | None, what: str, hint: str | None = None) -> FixtureError:
        line = node.start_mark.line + 1 if node is not None else None
        return FixtureError(what, where=where(self.path, line), hint=hint)

    def mapping(self, node: yaml.Node | None, what: str) -> list[tuple[str, yaml.Node]]:
        return [(key, value) for key, value, _ in self.keyed(node, what)]

    def keyed(self, node: yaml.Node | None, what: str) -> list[tuple[str, yaml.Node, int]]:
        """The mapping's (key, value node, 1-based line of the key)."""
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping")
        items: list[tuple[str, yaml.Node, int]] = []
        seen: set[str] = set()
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise self.fail(key, f"{what}: keys must be plain names")
            if key.value in seen:
                raise self.fail(key, f"{what}: duplicate key {key.value!r}")
            seen.add(key.value)
            items.append((key.value, value, key.start_mark.line + 1))
        return items

    def scalar(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.value == "":
            raise self.fail(node, f"{what} must be a non-empty string")
        return str(node.value)

    def names(self, node: yaml.Node, what: str) -> tuple[str, ...]:
        if isinstance(node, yaml.ScalarNode):
            return (self.scalar(node, what),)
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list of names")
        return tuple(self.scalar(item, what) for item in node.value)

    def expectation(self, root: yaml.Node | None) -> Expectation:
        if root is None:
            raise FixtureError("empty expectation file", where=str(self.path), hint="name at least one policy set")
        description, options, sets = "", {}, []
        for key, value, line in self.keyed(root, "expect.yaml"):
            if key == "description":
                description = self.scalar(value, "description")
            elif key == "packet":
                options = self.packet_options(value)
            elif not _SET_NAME.match(key):
                raise self.fail(value, f"bad policy set name {key!r}")
            else:
                sets.append(self.policy_set(key, value, line))
        if not sets:
            raise self.fail(root, "no policy set", hint="add e.g. `default: {outcome: allow}`")
        return Expectation(self.path, description, options, tuple(sets))

    def packet_options(self, node: yaml.Node) -> dict[str, Any]:
        keys = self.mapping(node, "packet")
        for key, value in keys:
            if key not in PACKET_OPTIONS:
                raise self.fail(value, f"packet: unknown option {key!r}", hint=f"one of {sorted(PACKET_OPTIONS)}")
        options = dict(construct_yaml(node) or {})
        for key, value in keys:
            wanted = dict if key in ("sandbox", "repository") else str
            if options[key] is not None and not isinstance(options[key], wanted):
                raise self.fail(value, f"packet: {key} must be {'a mapping' if wanted is dict else 'a string'} or null")
        return options

    def policy_set(self, name: str, node: yaml.Node, line: int) -> PolicySet:
        enable: tuple[str, ...] = ()
        disable: tuple[str, ...] = ()
        outcome: str | None = None
        error: str | None = None
        findings: list[ExpectedFinding] = []
        for key, value in self.mapping(node, f"policy set {name!r}"):
            if key == "enable":
                enable = self.names(value, "enable")
            elif key == "disable":
                disable = self.names(value, "disable")
            elif key == "outcome":
                outcome = self.scalar(value, "outcome")
                if outcome not in OUTCOMES:
                    raise self.fail(value, f"unknown outcome {outcome!r}", hint=f"one of {', '.join(OUTCOMES)}")
            elif key == "error":
                error = self.scalar(value, "error")
            elif key == "findings":
                if not isinstance(value, yaml.SequenceNode):
                    raise self.fail(value, "findings must be a list")
                findings = [self.finding(item) for item in value.value]
            else:
                raise self.fail(value, f"policy set {name!r}: unknown key {key!r}",
                                hint="use enable, disable, outcome, findings, error")
        if outcome is None:
            raise self.fail(node, f"policy set {name!r} has no outcome")
        if outcome == "error" and findings:
            raise self.fail(node, f"policy set {name!r}: an `error` outcome has no findings")
        if error is not None and outcome != "error":
            raise self.fail(node, f"policy set {name!r}: `error` only goes with `outcome: error`")
        if outcome == "allow" and any(f.level in ("deny", "review") for f in findings):
            raise self.fail(node, f"policy set {name!r}: outcome allow cannot expect deny/review findings")
        return PolicySet(name, line, enable, disable, outcome, tuple(findings), error)

    def finding(self, node: yaml.Node) -> ExpectedFinding:
        fields: dict[str, Any] = {}
        for key, value in self.mapping(node, "finding"):
            if key in ("policy", "rule", "bucket"):
                fields[key] = self.scalar(value, key)
            elif key == "level":
                fields[key] = self.scalar(value, key)
                if fields[key] not in LEVELS:
                    raise self.fail(value, f"unknown level {fields[key]!r}", hint=f"one of {', '.join(LEVELS)}")
            elif key == "paths":
                fields[key] = self.names(value, "paths")
            else:
                raise self.fail(value, f"finding: unknown key {key!r}", hint="use policy, rule, level, bucket, paths")
        if "policy" not in fields:
            raise self.fail(node, "finding without `policy`")
        return ExpectedFinding(line=node.start_mark.line + 1, **fields)
