"""Path classification: bucket ci / iac / deps / src / other, with the id of the deciding rule.

PLACEHOLDER: a minimal stand-in with the final API, until the classifier issue lands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gatekeeper.model import ClassifiedFile, FileChange, Match, SENSITIVITY


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A compiled, ordered rule list (first match wins) plus tag rules."""

    digest: str
    source: str

    def match(self, path: str) -> Match:
        """The first rule that matches `path`."""
        name = path.rsplit("/", 1)[-1]
        if path.startswith(".github/workflows/") or name == "Jenkinsfile" or path.startswith(".circleci/"):
            return Match(bucket="ci", rule="stub.ci")
        if name.endswith(".tf") or name == "Dockerfile":
            return Match(bucket="iac", rule="stub.iac")
        if name in {"go.mod", "go.sum", "package.json", "package-lock.json"}:
            return Match(bucket="deps", rule="stub.deps")
        return Match(bucket="src", rule="stub.src")


def load_rules(bundle_dir: str | Path) -> RuleSet:
    """Load and validate the bundle's classification rules (raises RulesError)."""
    return RuleSet(digest="0" * 64, source=str(Path(bundle_dir) / "classification.yaml"))


def classify_change(change: FileChange, rules: RuleSet) -> ClassifiedFile:
    """Classify both sides of a change; the more sensitive bucket wins."""
    sides = [rules.match(change.path)]
    if change.old_path:
        sides.append(rules.match(change.old_path))
    best = min(sides, key=lambda m: SENSITIVITY.index(m.bucket))
    return ClassifiedFile(change=change, bucket=best.bucket, rule=best.rule)
