"""The published JSON Schemas (`gatekeeper/schemas/*.json`): loaded once, validated one way.

The packet and the policy input are both checked here, so a bad field reads the same in both:
its JSON path (`files[3].status`) and jsonschema's best message.

Validation is linear in the document. A compiled predicate (`gatekeeper.schema_compiler`) says
"valid" in one fast pass; when it says no, it has recorded the failing node and keyword, and
jsonschema words the error for that keyword on that node alone. (jsonschema's `best_match`
over a whole document built every error of every bad entry, ~9 per `{}` file entry: a 3 MB packet
took 77 s; and its `uniqueItems` compares unsortable items pairwise, which is quadratic.)
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from importlib import resources
from itertools import islice
from typing import TYPE_CHECKING, Any

from gatekeeper.lazy_pattern import lazy
from gatekeeper.schema_compiler import IGNORED as _IGNORED
from gatekeeper.schema_compiler import Failure, Unsupported, compile_schema, frozen

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

_IDENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_MESSAGE_MAX = 300
# For a schema the fast predicate cannot compile: errors come in document order, the shallowest
# keywords of a node first; weighing a handful keeps best_match's choice without building them all.
_ERRORS_WEIGHED = 32


def load(name: str) -> dict[str, Any]:
    """The schema `gatekeeper/schemas/<name>`, as published in the package."""
    text = resources.files("gatekeeper").joinpath("schemas", name).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def validator(name: str) -> Validator:
    """A Draft 2020-12 validator for the schema `name` (built once per process), with a linear uniqueItems."""
    # Deferred: jsonschema costs ~100 ms to import and a valid document never needs it.
    from jsonschema import Draft202012Validator, validators

    linear = validators.extend(Draft202012Validator, {"uniqueItems": _unique_items})
    return linear(load(name))


@cache
def _compiled(name: str) -> tuple[Callable[[Any], bool], Failure, threading.Lock] | None:
    """(predicate, where it records a failure, the lock that guards that record) for schema `name`, or None
    when the schema uses keywords outside the compiled subset."""
    failure = Failure()
    try:
        return compile_schema(load(name), failure), failure, threading.Lock()
    except Unsupported:
        return None


def first_error(name: str, doc: object) -> tuple[str, str] | None:
    """(JSON path, message) of the most relevant violation of schema `name`, or None when `doc` is valid."""
    compiled = _compiled(name)
    if compiled is not None:
        check, failure, lock = compiled
        with lock:
            failure.path.clear()
            failure.schema = failure.keyword = None
            if check(doc):
                return None
            found = Failure(failure.path[::-1], failure.schema, failure.keyword)
        if found.keyword is None:  # the root schema has a single keyword
            found.schema = load(name)
            found.keyword = next((key for key in found.schema if key not in _IGNORED), None)
        if found.schema is not None and found.keyword is not None:
            error = _keyword_error(name, doc, found)
            if error is not None:
                return error
    # No compiled predicate, or it and jsonschema disagree: let jsonschema decide over the whole document.
    return _best_error(validator(name).iter_errors(doc), [])


def _keyword_error(name: str, doc: object, found: Failure) -> tuple[str, str] | None:
    assert found.schema is not None and found.keyword is not None
    node: Any = doc
    for part in found.path:
        node = node[part]
    keyword = {found.keyword: found.schema[found.keyword]}
    if found.keyword == "additionalProperties":  # which properties are "additional" depends on these
        keyword["properties"] = {key: True for key in found.schema.get("properties", {})}
    return _best_error(validator(name).evolve(schema=keyword).iter_errors(node), found.path)


def _best_error(errors: Iterable[Any], prefix: list[str | int]) -> tuple[str, str] | None:
    from jsonschema.exceptions import best_match  # deferred: see validator()

    error = best_match(islice(errors, _ERRORS_WEIGHED))
    if error is None:
        return None
    message = error.message if len(error.message) <= _MESSAGE_MAX else error.message[:_MESSAGE_MAX] + "..."
    return json_path([*prefix, *error.absolute_path]), message


def _unique_items(validator: Validator, unique: object, instance: object, schema: object) -> Iterator[Exception]:
    from jsonschema.exceptions import ValidationError  # deferred: see validator()

    if unique and isinstance(instance, list) and len({frozen(item) for item in instance}) != len(instance):
        yield ValidationError(f"{instance!r} has non-unique elements")


def json_path(parts: Iterable[object]) -> str:
    """`files[3].status` for the path ["files", 3, "status"]; `$` for the document itself."""
    pieces: list[str] = []
    for part in parts:
        if isinstance(part, int):
            pieces.append(f"[{part}]")
        elif _IDENT.fullmatch(str(part)):
            pieces.append(f".{part}" if pieces else str(part))
        else:
            pieces.append(f"[{json.dumps(str(part))}]")
    return "".join(pieces) or "$"
