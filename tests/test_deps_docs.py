"""docs/dependencies.md describes the shipped `deps` policy: every rule it declares, and nothing more."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "dependencies.md"
POLICY = ROOT / "policies" / "deps" / "policy.rego"


def _declared() -> set[str]:
    text = POLICY.read_text(encoding="utf-8")
    return set(re.findall(r"^#\s+-\s+(deps\.[a-z_]+)$", text, re.MULTILINE))


def test_every_rule_of_the_shipped_policy_is_in_the_docs_table() -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## The `deps` policy 2.0.0"): doc.index("## Measured")]
    documented = set(re.findall(r"^\| `(deps\.[a-z_]+)` \|", section, re.MULTILINE))
    assert len(_declared()) == 14
    assert documented == _declared()


def test_the_shipped_policy_defines_exactly_the_rules_it_declares() -> None:
    text = POLICY.read_text(encoding="utf-8")
    body = text.split("package gatekeeper.policies.deps", 1)[1]
    used = set(re.findall(r'"(deps\.[a-z_]+)"', body))
    assert used == _declared()
    assert "# version: 2.2.0" in text.replace("#   version", "# version")
