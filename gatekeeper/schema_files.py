"""The published JSON Schemas (`gatekeeper/schemas/*.json`): loaded once, validated one way.

The packet and the policy input are both checked here, so a bad field reads the same in both:
its JSON path (`files[3].status`) and jsonschema's best message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MESSAGE_MAX = 300


def load(name: str) -> dict[str, Any]:
    """The schema `gatekeeper/schemas/<name>`, as published in the package."""
    text = resources.files("gatekeeper").joinpath("schemas", name).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def validator(name: str) -> Validator:
    """A Draft 2020-12 validator for the schema `name` (built once per process)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load(name))


def first_error(name: str, doc: object) -> tuple[str, str] | None:
    """(JSON path, message) of the most relevant violation of schema `name`, or None when `doc` is valid."""
    from jsonschema.exceptions import best_match

    error = best_match(validator(name).iter_errors(doc))
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
