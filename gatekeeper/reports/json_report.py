"""The decision itself as indented JSON, keys in one stable order (DESIGN.md's `gate --format json`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gatekeeper.readable import inert_json

# The order people read a decision in; any key not listed follows, sorted.
DECISION_KEYS: tuple[str, ...] = (
    "outcome",
    "reasons",
    "policies",
    "bundle",
    "packet",
    "input_digest",
    "summary",
    "dry_run",
    "tool",
    "decided_at",
)
REASON_KEYS: tuple[str, ...] = ("policy", "rule", "level", "msg", "bucket", "paths")


def render(decision: Mapping[str, Any]) -> str:
    """The decision as JSON: indented, ASCII-escaped (non-UTF-8 path bytes survive), stable key order."""
    return inert_json(json.dumps(ordered(decision), indent=2, ensure_ascii=True)) + "\n"


def ordered(decision: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `decision` whose keys (and each reason's) follow the stable order; values untouched."""
    result = _in_order(decision, DECISION_KEYS)
    if isinstance(result.get("reasons"), list):
        result["reasons"] = [
            _in_order(reason, REASON_KEYS) if isinstance(reason, Mapping) else reason
            for reason in result["reasons"]
        ]
    return result


def _in_order(obj: Mapping[str, Any], first: tuple[str, ...]) -> dict[str, Any]:
    known = [key for key in first if key in obj]
    rest = sorted(key for key in obj if key not in first)
    return {key: _sorted_deep(obj[key]) if key != "reasons" else obj[key] for key in known + rest}


def _sorted_deep(value: Any) -> Any:
    # Nested objects (bundle, packet, summary, tool) have no reading order of their own: sort them.
    if isinstance(value, Mapping):
        return {key: _sorted_deep(value[key]) for key in sorted(value)}
    if isinstance(value, list | tuple):
        return [_sorted_deep(item) for item in value]
    return value
