"""What a dependency entry asks for besides its name, version and source (red team 26): PEP 508 extras and markers,
the keys of a Poetry, Pipfile or Cargo table (`optional`, `markers`, `extras`, `features`, `default-features`) and
the table it sits in. They decide whether the entry installs at all and what it pulls in, so a move in them is a
change of the entry (delta.py), with or without a version move, never a rider on an in-level bump."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # packaging's requirement parser is imported late by its callers (start-up cost)
    from packaging.requirements import Requirement

# Spellings one key has (Cargo took `default_features` before edition 2024).
_SAME_KEYS = {"default_features": "default-features"}


def requirement_options(req: Requirement) -> str:
    """`[async,dotenv]; python_version < "3"`: the extras, sorted, and the marker as packaging writes it."""
    extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
    return f"{extras}; {req.marker}" if req.marker is not None else extras


def table_options(spec: Mapping[str, object], read: Collection[str], where: str = "") -> str:
    """The keys of a dependency table but those already `read` (its version, its source), as one canonical text
    (lists of names sorted: `features = ["rc", "derive"]` is `["derive", "rc"]`), after `where`, the table
    holding the entry when that decides where it builds (`target cfg(windows)`)."""
    rest: dict[str, object] = {}
    for key, value in spec.items():
        if key not in read:
            listed = isinstance(value, list) and all(isinstance(v, str) for v in value)
            rest[_SAME_KEYS.get(key, key)] = sorted(set(value)) if isinstance(value, list) and listed else value
    text = json.dumps(rest, sort_keys=True, default=str) if rest else ""
    return f"{where} {text}".strip() if where else text
