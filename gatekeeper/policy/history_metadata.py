"""Read version and declared rule ids from a Rego module's `# METADATA`, leniently, for history.

The bundle loader validates annotations strictly; history must still describe old commits whose
annotations were incomplete or invalid, so here a bad block just means "unknown".
"""

from __future__ import annotations

from typing import Any

import yaml

from gatekeeper.bounded import load_yaml
from gatekeeper.errors import LimitError
from gatekeeper.policy.metadata import read_block


def read_metadata(source: str) -> dict[str, Any]:
    """The first `# METADATA` block of `source` as a dict ({} when there is none or it is not YAML)."""
    block = read_block(source)
    if block is None:
        return {}
    try:
        data = load_yaml(block[1], "# METADATA")
    except (yaml.YAMLError, LimitError):
        return {}
    return data if isinstance(data, dict) else {}


def _custom(source: str | None) -> dict[str, Any]:
    if source is None:
        return {}
    custom = read_metadata(source).get("custom")
    return custom if isinstance(custom, dict) else {}


def version_of(source: str | None) -> str | None:
    """The `custom.version` a module's metadata declares (None when absent or no module)."""
    version = _custom(source).get("version")
    return None if version is None else str(version)


def declared_rules(source: str | None) -> tuple[str, ...]:
    """The finding rule ids a module declares in `custom.rules` (empty when absent or no module)."""
    rules = _custom(source).get("rules")
    return tuple(str(r) for r in rules) if isinstance(rules, list) else ()
