"""The published JSON Schemas (`gatekeeper/schemas/*.json`): loaded once, validated one way.

The packet and the policy input are both checked here, so a bad field reads the same in both:
its JSON path (`files[3].status`) and jsonschema's best message.

Both stay linear in the document: only the first few errors are weighed (jsonschema's `best_match`
over every error built ~9 error objects per bad file entry: 1,000,000 `{}` entries took 77 s), and
`uniqueItems` hashes a frozen copy of each item (jsonschema compares unsortable items pairwise: quadratic).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from itertools import islice
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MESSAGE_MAX = 300
# Errors are yielded in document order, the shallowest keywords of a node first; a handful is enough
# for best_match to pick the most relevant one.
_ERRORS_WEIGHED = 32


def load(name: str) -> dict[str, Any]:
    """The schema `gatekeeper/schemas/<name>`, as published in the package."""
    text = resources.files("gatekeeper").joinpath("schemas", name).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def validator(name: str) -> Validator:
    """A Draft 2020-12 validator for the schema `name` (built once per process)."""
    from jsonschema import Draft202012Validator, validators

    linear = validators.extend(Draft202012Validator, {"uniqueItems": _unique_items})
    return linear(load(name))


def _unique_items(validator: Validator, unique: object, instance: object, schema: object) -> Iterator[Exception]:
    from jsonschema.exceptions import ValidationError

    if unique and isinstance(instance, list):
        seen: set[object] = set()
        for item in instance:
            key = _frozen(item)
            if key in seen:
                yield ValidationError(f"{instance!r} has non-unique elements")
                return
            seen.add(key)


def _frozen(value: object) -> object:
    """A hashable stand-in for a JSON value, equal exactly when jsonschema calls the values equal."""
    if isinstance(value, bool):  # before int: JSON true is not 1
        return ("b", value)
    if isinstance(value, dict):
        return ("o", frozenset((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("a", tuple(_frozen(item) for item in value))
    return ("v", value)  # str, None, and numbers (1 == 1.0 as in jsonschema)


def first_error(name: str, doc: object) -> tuple[str, str] | None:
    """(JSON path, message) of the most relevant violation of schema `name`, or None when `doc` is valid."""
    from jsonschema.exceptions import best_match

    error = best_match(islice(validator(name).iter_errors(doc), _ERRORS_WEIGHED))
    if error is None:
        return None
    message = error.message if len(error.message) <= _MESSAGE_MAX else error.message[:_MESSAGE_MAX] + "..."
    return json_path(error.absolute_path), message


def json_path(parts: Iterable[object]) -> str:
    """`files[3].status` for the path ["files", 3, "status"]; `$` for the document itself."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENT.fullmatch(str(part)):
            text += f".{part}" if text else str(part)
        else:
            text += f"[{json.dumps(str(part))}]"
    return text or "$"
