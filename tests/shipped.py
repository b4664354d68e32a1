"""The bundle gatekeeper ships, told apart from a site's own: tests that pin the shipped bundle apply to it only.

Some tests pin the bundle in `policies/` as this project ships it: the documented tables and command outputs,
fixture regeneration by `fixtures/make_fixtures.py`, the wheel's contents, the exact list of policies. A
security team that adds or changes policies in its copy (docs/security-teams.md) gives the bundle its own
name in `.manifest` (`metadata.name`), as the walkthrough's first step does; those tests then report
"skipped" instead of failing on numbers that describe a bundle it no longer runs, and `gatekeeper test`
(make policy-test) is what tests its bundle. The shipped bundle keeps its name, so here every test applies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SHIPPED_NAME = "gatekeeper-default"
POLICY_DIR = Path(__file__).resolve().parent.parent / "policies"


def bundle_name(folder: Path = POLICY_DIR) -> str | None:
    """The `metadata.name` of a bundle's `.manifest` (None when it has none)."""
    try:
        manifest = json.loads((folder / ".manifest").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    metadata = manifest.get("metadata") if isinstance(manifest, dict) else None
    name = metadata.get("name") if isinstance(metadata, dict) else None
    return name if isinstance(name, str) else None


SHIPPED = bundle_name() == SHIPPED_NAME

shipped_only = pytest.mark.skipif(
    not SHIPPED,
    reason=f"policies/ is the site bundle {bundle_name()!r}, not {SHIPPED_NAME!r}: this test pins the shipped bundle",
)
