"""Compile-time safety, always on: OPA's compiler checks the exact modules the gate is about to evaluate.

A bundle that OPA rejects never reaches regopy, which would evaluate a misspelt variable or helper as
false and let the change through. A check that passed is remembered under the XDG cache folder, keyed
by the sha256 of the exact bytes OPA is given (the modules' sources, the data document, the engine's
version), so the next gate over the same bundle costs a file lookup; a failure is never cached, and
different bytes never share a key. A module's file name is no part of the key: OPA never sees it (it
only places an error), and a bundle read from BASE under `--tree` is exported to a new temporary folder
by every gate, so a key with its paths was new every time and OPA compiled the same bytes on each gate.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gatekeeper.atomic import write_atomic
from gatekeeper.bounded import Limits, load_json, read_bytes
from gatekeeper.errors import GatekeeperError, LimitError, PolicyError
from gatekeeper.policy.engine import content_key
from gatekeeper.policy.field_check import FIELD_CHECK, field_issues, schemas_digest
from gatekeeper.policy.ref_check import unknown_refs
from gatekeeper.policy.reference import (
    ENGINE,
    ENGINE_VERSION,
    INSTALL_HINT,
    CompileIssue,
    missing_reason,
    start_compile,
)

_SCHEME = "gatekeeper-compile-check-3"  # 2: the modules' sources without their names; 3: the field check


class CompileFailed(PolicyError):
    """OPA's compiler rejected a module: every issue, each at `file:line:col` with its name."""

    def __init__(self, issues: Sequence[CompileIssue]) -> None:
        first = issues[0]
        listed = "; ".join(str(issue) for issue in issues)
        count = "1 error" if len(issues) == 1 else f"{len(issues)} errors"
        super().__init__(
            f"the policy does not compile in OPA ({count}): {listed}",
            where=first.where,
            hint=_hint(first),
        )
        self.issues = tuple(issues)


_FIELD_WORDS = ("has no field", "no input field", "no package of the bundle", "is an array")


def _hint(issue: CompileIssue) -> str:
    if issue.code == "rego_unsafe_var_error":
        return "a variable that is never assigned: a typo, or a missing `some`/`:=`; regopy would treat it as false"
    if "undefined function" in issue.message:
        return "unknown function: a typo in a helper's name, or a helper the bundle's lib does not define"
    if issue.code == "rego_ref_error" and (issue.message.startswith(("undefined key", "unknown tag", "unknown bucket"))
                                           or any(word in issue.message for word in _FIELD_WORDS)):
        return ("a name the input schema (gatekeeper/schemas), the bundle's objects, packages and params do not have: "
                "a typo, and the rule reading it would never fire")
    if issue.code == "rego_ref_error" and issue.message.startswith("undefined param"):
        return "set the param in the manifest's metadata.params, or document it as `params.<path>` in a comment"
    if issue.code == "rego_ref_error" and issue.message.startswith("rule "):
        return "a misspelt deny, review or warn never fires: rename it, read it from another rule, or delete it"
    if issue.code == "rego_ref_error":
        return "a ref to a rule the package does not define: a typo, and the rule using it would never fire"
    if "undefined ref" in issue.message:
        return "the value never has this key (OPA's type check): a typo, or a test asserting on nothing"
    return "fix the module; `gatekeeper test` lists every error"


def cache_dir() -> Path:
    """`$XDG_CACHE_HOME/gatekeeper/compile` (else `~/.cache/gatekeeper/compile`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gatekeeper" / "compile"


def cache_key(modules: Mapping[str, str], data: Mapping[str, Any]) -> str:
    """sha256 over every byte the check depends on (the scheme, the engine and its version, the field check and the
    schemas it reads, data, the modules' sources in a fixed order: OPA compiles the set of sources, whatever their
    names and order, and the field check reads packages, not file names)."""
    return content_key([_SCHEME, ENGINE, ENGINE_VERSION, FIELD_CHECK, schemas_digest(), *sorted(modules.values())],
                       {}, data)


_CACHE_LIMITS = Limits(max_bytes=4096, max_depth=2, max_values=8)  # {"key": ..., "compiles": true}


def _passed_before(key: str) -> bool:
    try:
        record = load_json(read_bytes(cache_dir() / f"{key}.json", _CACHE_LIMITS), "compile cache", _CACHE_LIMITS)
    except (OSError, ValueError, LimitError):
        return False
    return isinstance(record, dict) and record.get("key") == key and record.get("compiles") is True


def _remember(key: str) -> None:
    try:
        write_atomic(cache_dir() / f"{key}.json", json.dumps({"key": key, "compiles": True}) + "\n")
    except GatekeeperError:
        pass  # a read-only cache costs speed, never safety


def start_check(modules: Mapping[str, str], data: Mapping[str, Any], *, timeout: float) -> Callable[[], None]:
    """Start checking `modules`; the returned function raises CompileFailed (or PolicyError) or returns None.

    Without the reference engine the gate cannot prove the policies safe and refuses (fails closed).
    """
    refs = unknown_refs(modules)  # a few milliseconds of regexes: never in the disk cache (held by bytes in memory)
    key = cache_key(modules, data)
    if not refs and _passed_before(key):
        return lambda: None  # a pass is remembered only when the field check found nothing either
    refs += field_issues(modules, data)  # ~20-30 ms: checked with every compile, remembered with its pass
    reason = missing_reason()
    if reason is not None:
        raise PolicyError(f"{reason}: the gate compiles every policy with it before deciding", hint=INSTALL_HINT)
    collect = start_compile(modules, data, timeout=timeout)

    def finish() -> None:
        issues = [*collect(), *refs]
        if issues:
            raise CompileFailed(issues)
        _remember(key)

    return finish


def check(modules: Mapping[str, str], data: Mapping[str, Any], *, timeout: float) -> None:
    """`start_check` and wait for it."""
    start_check(modules, data, timeout=timeout)()
