"""Validate a policy input document (from a fixture or a replay) against input-v1.schema.json."""

from __future__ import annotations

from typing import Any

from gatekeeper import schema_validation
from gatekeeper.errors import PolicyError, where

SCHEMA_FILE = "input-v1.schema.json"


def schema() -> dict[str, Any]:
    """The published policy input schema."""
    return schema_validation.load(SCHEMA_FILE)


def validate_input(doc: object, where_: str) -> dict[str, Any]:
    """Return `doc` when it is a valid input v1; else PolicyError naming the bad field's JSON path."""
    error = schema_validation.first_error(SCHEMA_FILE, doc)
    if error is None:
        assert isinstance(doc, dict)
        return doc
    field, message = error
    raise PolicyError(message, where=where(where_, field=field), hint=f"see gatekeeper/schemas/{SCHEMA_FILE}")
