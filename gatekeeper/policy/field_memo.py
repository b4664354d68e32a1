"""The field check's issues of one module, remembered within a process by everything they are computed from.

field_check.field_issues reads each module against what the whole bundle knows (object keys, params, documented
params, packages, the data document, the helpers that compare a parameter with a field). A process that checks many
bundles differing in one module (the red-team typo mutants, the compile-check tests: ~25 ms a bundle) recomputed the
unchanged modules each time. The key holds the module's name and text and all of that context, so a change to any of
it (a mutant adding an object key, a param) is a new key; a one-shot gate checks once and gains nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from gatekeeper.policy.reference import CompileIssue

_REMEMBERED: dict[tuple[str, str, str], tuple[CompileIssue, ...]] = {}
_MAX = 256  # the modules of a few bundles


def context_key(*parts: Any) -> str | None:
    """One string for the bundle-wide context (sets sorted, JSON with its types: `true` is not `1`); None when a part
    is not JSON-like (then nothing is remembered)."""
    try:
        return json.dumps([sorted(p) if isinstance(p, (set, frozenset)) else p for p in parts], sort_keys=True)
    except (TypeError, ValueError):
        return None


def remembered(context: str | None, compute: Callable[[str, str, str], Iterable[CompileIssue]], name: str, text: str,
               code: str) -> tuple[CompileIssue, ...]:
    """`compute(name, text, code)`: the issues of module `name` (`code` is `text` blanked) under `context`, computed
    once per (name, text, context)."""
    if context is None:
        return tuple(compute(name, text, code))
    key = (name, text, context)
    found = _REMEMBERED.get(key)
    if found is None:
        found = tuple(compute(name, text, code))
        if len(_REMEMBERED) >= _MAX:
            _REMEMBERED.clear()
        _REMEMBERED[key] = found
    return found
