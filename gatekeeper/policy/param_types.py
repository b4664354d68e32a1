"""A param the manifest sets must have the JSON type of the fallback the policy reads it with (red team 25).

`max_files := lib.param(data.gatekeeper.params, ["size", "max_files"], 100)` reads a number. A manifest that sets
`"max_files": null` (a threshold blanked), `[100]` or `"100"` hands the rule another type, and the engines order types
differently: regopy puts a number below null, a boolean, an array or an object (OPA above them), so `input.summary.files
> max_files` never holds, `size.files` never fires, and the gate allows. A value of another type than the fallback's
(number, string, boolean, array, object; null counts as its own type) is an error at the call. Not checked: a fallback
that is no literal (a rule's value, `default_metadata_hosts`) or null, a path with a part that is no literal, and a
param read as a plain ref (`data.gatekeeper.params.size.max_files`: no fallback says its type).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from gatekeeper.lazy_pattern import lazy
from gatekeeper.policy.reference import CompileIssue

__all__ = ["param_issues"]

_CALL = lazy(r"\bparam\(\s*data\.gatekeeper\.params\s*,\s*\[([^\[\]\n]*)\]\s*,\s*")
_KEY = lazy(r'\s*"([^"\n]*)"\s*')
_LITERAL = lazy(r'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"[^"\n]*"|true\b|false\b|null\b|\[|\{')


def param_issues(modules: Mapping[str, str], codes: Mapping[str, str],
                 params: Mapping[str, Any]) -> Iterator[CompileIssue]:
    """The `lib.param` calls of `modules` (`codes`: comments blanked) whose param the manifest sets with another
    type."""
    for name, code in codes.items():
        text = modules[name]
        for hit in _CALL.finditer(code):
            keys = [_KEY.fullmatch(part) for part in text[hit.start(1):hit.end(1)].split(",")]
            fallback = _LITERAL.match(text, hit.end())
            if fallback is None or not all(keys):
                continue
            path = [key.group(1) for key in keys if key is not None]
            node: Any = params
            for key in path:
                node = node.get(key, _ABSENT) if isinstance(node, dict) else _ABSENT
            wanted = _kind_of_literal(fallback.group())
            if node is _ABSENT or wanted == "null" or _kind(node) == wanted:
                continue
            line = code.count("\n", 0, hit.start()) + 1
            column = hit.start() - (code.rfind("\n", 0, hit.start()) + 1) + 1
            shown = json.dumps(node)
            yield CompileIssue(name, line, column, "rego_ref_error",
                               f"params.{'.'.join(path)} is {shown[:40]} ({_kind(node)}) in the manifest, but this "
                               f"policy reads it as a {wanted} (its fallback {fallback.group()}): the engines order "
                               f"the types differently and a comparison with it silently decides; set a {wanted}",
                               None)


_ABSENT = object()


def _kind_of_literal(literal: str) -> str:
    return {"[": "array", "{": "object", "t": "boolean", "f": "boolean", "n": "null", '"': "string"}.get(
        literal[0], "number")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"
