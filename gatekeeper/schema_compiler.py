"""A fast "certainly valid" check for the JSON Schema subset our packet schema uses.

jsonschema spends ~75 µs per packet file entry (0.75 s for 10,000 files). This compiles the schema
into plain Python predicates (~50x faster). It is only ever trusted in one direction: when it
says valid, the document is valid under jsonschema too; when it says no, it has recorded where
(`Failure`: the node and the keyword), and jsonschema words the error for that keyword on that
node alone, so a bad last entry of 200,000 costs one pass, not a jsonschema walk of the whole
packet. A schema with a keyword outside the subset is left to jsonschema alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Check = Callable[[Any], bool]

# Exact Python types (bool is not an int here; jsonschema agrees, and 1.0-as-integer falls back to it).
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}
IGNORED = frozenset({"$schema", "$id", "title", "description", "default", "$defs", "$comment"})  # annotations only


class Unsupported(Exception):
    """The schema uses a keyword this checker does not implement (use jsonschema alone)."""


@dataclass(slots=True)
class Failure:
    """Where a recording check failed: the JSON path (innermost part first), and the schema and keyword there."""

    path: list[str | int] = field(default_factory=list)
    schema: dict[str, Any] | None = None
    keyword: str | None = None


def compile_schema(root: dict[str, Any], failure: Failure | None = None) -> Check:
    """Compile `root` into a predicate; raises Unsupported for keywords outside the subset.

    With `failure` (reset it before each call), a failing call records where it failed. Recording
    happens only on the way out of a failure, so it costs a valid document nothing."""
    refs: dict[str, Check] = {}

    def build(schema: Any) -> Check:
        if schema is True:
            return lambda v: True
        if not isinstance(schema, dict):
            raise Unsupported(repr(schema))
        checks = tuple((key, keyword(key, arg, schema)) for key, arg in schema.items() if key not in IGNORED)
        if len(checks) == 1:
            return checks[0][1]  # no wrapper: on failure its parent names the keyword (`blame`)

        def every(v: Any) -> bool:
            for key, check in checks:
                if not check(v):
                    if failure is not None and failure.keyword is None:  # the innermost failing keyword wins
                        failure.schema, failure.keyword = schema, key
                    return False
            return True

        return every

    def blame(sub: Any, part: str | int) -> None:
        """On the way out of a failed child `sub` at `part`: name its keyword if it had one only, note the path."""
        if failure is None:
            return
        if failure.keyword is None:
            keys = [key for key in sub if key not in IGNORED] if isinstance(sub, dict) else []
            if len(keys) == 1:
                failure.schema, failure.keyword = sub, keys[0]
        failure.path.append(part)

    def keyword(key: str, arg: Any, schema: dict[str, Any]) -> Check:
        if key == "type":
            kinds = frozenset(k for t in ([arg] if isinstance(arg, str) else arg) for k in _TYPES[t])
            return lambda v: type(v) in kinds
        if key in ("enum", "const"):
            allowed = [(type(x), x) for x in (arg if key == "enum" else [arg])]
            if any(t not in (str, int, bool, type(None)) for t, _ in allowed):
                raise Unsupported(key)
            return lambda v: (type(v), v) in allowed
        if key == "pattern":
            search = re.compile(arg).search
            return lambda v: type(v) is not str or search(v) is not None
        if key in ("minLength", "maxLength"):
            return (lambda v: type(v) is not str or len(v) >= arg) if key == "minLength" else (
                lambda v: type(v) is not str or len(v) <= arg
            )
        if key in ("minItems", "maxItems"):
            return (lambda v: type(v) is not list or len(v) >= arg) if key == "minItems" else (
                lambda v: type(v) is not list or len(v) <= arg
            )
        if key in ("minimum", "maximum"):
            return (lambda v: type(v) not in (int, float) or v >= arg) if key == "minimum" else (
                lambda v: type(v) not in (int, float) or v <= arg
            )
        if key == "required":
            names = tuple(arg)
            return lambda v: type(v) is not dict or all(name in v for name in names)
        if key == "properties":
            props = {name: build(sub) for name, sub in arg.items()}

            def properties(v: Any) -> bool:
                if type(v) is dict:
                    for name, value in v.items():
                        check = props.get(name)
                        if check is not None and not check(value):
                            blame(arg[name], name)
                            return False
                return True

            return properties
        if key == "additionalProperties":
            known = frozenset(schema.get("properties", {}))
            if arg is False:
                return lambda v: type(v) is not dict or known.issuperset(v)
            extra = build(arg)

            def additional(v: Any) -> bool:
                if type(v) is dict:
                    for name, value in v.items():
                        if name not in known and not extra(value):
                            blame(arg, name)
                            return False
                return True

            return additional
        if key == "items":
            item = build(arg)

            def items(v: Any) -> bool:
                if type(v) is list:
                    for index, x in enumerate(v):
                        if not item(x):
                            blame(arg, index)
                            return False
                return True

            return items
        if key == "not":
            inner = build(arg)

            def not_(v: Any) -> bool:
                matched = inner(v)
                if failure is not None:  # the inner schema failing is this keyword passing
                    failure.path.clear()
                    failure.schema = failure.keyword = None
                return not matched

            return not_
        if key == "uniqueItems":
            if arg is not True:
                raise Unsupported(key)

            def unique(v: Any) -> bool:
                if type(v) is not list:
                    return True
                return len({frozen(x) for x in v}) == len(v)

            return unique
        if key == "anyOf":
            options = [build(sub) for sub in arg]

            def any_of(v: Any) -> bool:
                matched = any(option(v) for option in options)
                if failure is not None:  # an option that failed is no failure: blame the anyOf, if anything
                    failure.path.clear()
                    failure.schema = failure.keyword = None
                return matched

            return any_of
        if key == "$ref":
            if not arg.startswith("#/$defs/"):
                raise Unsupported(arg)
            name = arg[len("#/$defs/") :]
            if name not in refs:
                refs[name] = build(root["$defs"][name])  # our schema has no recursive refs
            return refs[name]
        raise Unsupported(key)

    return build(root)


def frozen(value: object) -> object:
    """A hashable stand-in for a JSON value, equal exactly when JSON Schema calls the values equal.

    Makes `uniqueItems` linear: jsonschema compares unsortable items pairwise (4,000 objects: 91 s)."""
    if isinstance(value, bool):  # before int: JSON true is not 1
        return ("b", value)
    if isinstance(value, dict):
        return ("o", frozenset((key, frozen(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("a", tuple(frozen(item) for item in value))
    return ("v", value)  # str, None, and numbers (1 == 1.0, as in JSON Schema)
