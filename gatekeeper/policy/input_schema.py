"""Validate a policy input document (from a fixture or a replay) against input-v1.schema.json."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from gatekeeper.errors import PolicyError, where

SCHEMA_FILE = "input-v1.schema.json"


def schema() -> dict[str, Any]:
    """The published policy input schema."""
    text = resources.files("gatekeeper").joinpath("schemas", SCHEMA_FILE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def validate_input(doc: object, where_: str) -> dict[str, Any]:
    """Return `doc` when it is a valid input v1; else PolicyError naming the bad field's JSON path."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(doc))
    if error is None:
        assert isinstance(doc, dict)
        return doc
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".") or "$"
    raise PolicyError(
        error.message[:300], where=where(where_, field=path), hint=f"see gatekeeper/schemas/{SCHEMA_FILE}"
    )
