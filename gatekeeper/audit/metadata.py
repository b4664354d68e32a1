"""Read a Rego module's `# METADATA` annotation (title, custom.version) from its text."""

from __future__ import annotations

from typing import Any

import yaml


def read_metadata(source: str) -> dict[str, Any]:
    """The first `# METADATA` block of `source` as a dict ({} when there is none or it is not YAML)."""
    lines = source.splitlines()
    for index, line in enumerate(lines):
        if line.strip() != "# METADATA":
            continue
        block = []
        for follow in lines[index + 1:]:
            stripped = follow.lstrip()
            if not stripped.startswith("#"):
                break
            body = stripped[1:]
            block.append(body[1:] if body.startswith(" ") else body)
        try:
            data = yaml.safe_load("\n".join(block))
        except yaml.YAMLError:
            return {}
        return data if isinstance(data, dict) else {}
    return {}


def version_of(source: str | None) -> str | None:
    """The `custom.version` a module's metadata declares (None when absent or no module)."""
    if source is None:
        return None
    custom = read_metadata(source).get("custom")
    version = custom.get("version") if isinstance(custom, dict) else None
    return None if version is None else str(version)


def declared_rules(source: str | None) -> tuple[str, ...]:
    """The finding rule ids a module declares in `custom.rules` (empty when absent or no module)."""
    if source is None:
        return ()
    custom = read_metadata(source).get("custom")
    rules = custom.get("rules") if isinstance(custom, dict) else None
    return tuple(str(r) for r in rules) if isinstance(rules, list) else ()
