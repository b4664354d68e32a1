"""Path classification: bucket ci / iac / deps / src / other, with the id of the deciding rule.

Rules are data (`<bundle>/classification.yaml`, overlays in `<bundle>/classification.d/`);
docs/classification.md explains the principles behind them and how to change them.
"""

from __future__ import annotations

from gatekeeper.classify.change import OUTSIDE_REPO, SUBMODULE, classify_change, classify_changes, resolve_link
from gatekeeper.classify.rules import CHANGE_TAGS, OVERLAY_DIR, RULE_TAGS, RULES_FILE, Rule
from gatekeeper.classify.ruleset import RuleHit, RuleSet, load_rules

__all__ = [
    "CHANGE_TAGS",
    "OUTSIDE_REPO",
    "OVERLAY_DIR",
    "RULES_FILE",
    "RULE_TAGS",
    "SUBMODULE",
    "Rule",
    "RuleHit",
    "RuleSet",
    "classify_change",
    "classify_changes",
    "load_rules",
    "resolve_link",
]
