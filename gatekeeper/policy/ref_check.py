"""Refs into the bundle's own packages must name something those packages define.

OPA's compiler rejects an unknown *function* (`lib.bukket_finding(...)`; left to it here) but not an
unknown *value* ref: `lib.bukket` or `data.gatekeeper.policies.size.max_filez` are simply undefined, so a rule
using them never fires — the same silent allow as a misspelt variable. A ref into a package the
bundle defines is therefore checked against the rules (and sub-packages) that package declares.
Refs outside the bundle's packages (`data.gatekeeper.params`, anything the caller provides) are left
alone. Comments and string contents are blanked first, so neither can trigger or hide a finding.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gatekeeper.lazy_pattern import lazy
from gatekeeper.policy.reference import CompileIssue
from gatekeeper.testing.rego_source import blank, package_of, rule_names

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_IMPORT = lazy(rf"^import\s+data((?:\.{_IDENT})+)(?:\s+as\s+({_IDENT}))?[ \t]*$", re.M)
_REF = lazy(rf"(?<![\w.])({_IDENT}(?:\.{_IDENT})+)")
# The contract's documents: a policy package may define none of them (the gate reads each as empty).
_OPTIONAL = frozenset({"deny", "review", "warn"})


# Answers by the modules' exact names and sources: every gate checks its bundle's modules (~1 ms of regexes), a
# process that gates many times (the test suite, `audit replay`) the same ones again. A changed byte is a new key.
_FOUND: dict[tuple[tuple[str, str], ...], tuple[CompileIssue, ...]] = {}
_FOUND_MAX = 16


def unknown_refs(modules: Mapping[str, str]) -> list[CompileIssue]:
    """Every ref to an undefined rule of a package these modules define, at `file:line:col`."""
    key = tuple(modules.items())
    found = _FOUND.get(key)
    if found is None:
        found = tuple(_unknown_refs(modules))
        if len(_FOUND) >= _FOUND_MAX:
            _FOUND.clear()
        _FOUND[key] = found
    return list(found)


def _unknown_refs(modules: Mapping[str, str]) -> list[CompileIssue]:
    rules: dict[str, set[str]] = {}
    for text in modules.values():
        package = package_of(text)
        if package:
            rules.setdefault(package, set()).update(rule_names(text))
    issues: list[CompileIssue] = []
    for name, text in modules.items():
        code = blank(text)
        aliases = {"data": ""}
        for hit in _IMPORT.finditer(code):
            path = hit.group(1).lstrip(".")
            aliases[hit.group(2) or path.rsplit(".", 1)[-1]] = path
        for hit in _REF.finditer(code):
            if _follows_keyword(code, hit.start()):
                continue
            if code[hit.end():hit.end() + 1] == "(":
                continue  # a call: OPA's compiler reports an unknown function itself
            head, _, rest = hit.group(1).partition(".")
            if head not in aliases:
                continue
            segments = (aliases[head].split(".") if aliases[head] else []) + rest.split(".")
            issue = _check(segments, rules)
            if issue is not None:
                line = code.count("\n", 0, hit.start()) + 1
                column = hit.start() - (code.rfind("\n", 0, hit.start()) + 1) + 1
                issues.append(CompileIssue(name, line, column, "rego_ref_error",
                                           f"undefined ref: {hit.group(1)} ({issue})", hit.group(1)))
    return issues


def unused_imports(modules: Mapping[str, str]) -> list[CompileIssue]:
    """Imports a module never uses (what OPA's strict mode reports), at `file:line:col`.

    Only `gatekeeper test` fails on these: an unused import cannot change a decision, so the gate runs on.
    """
    issues: list[CompileIssue] = []
    for name, text in modules.items():
        code = blank(text)
        for hit in _IMPORT.finditer(code):
            alias = hit.group(2) or hit.group(1).rsplit(".", 1)[-1]
            rest = code[:hit.start()] + code[hit.end():]
            if not re.search(rf"(?<![\w.]){re.escape(alias)}\b", rest):
                line = code.count("\n", 0, hit.start()) + 1
                issues.append(CompileIssue(name, line, 1, "rego_compile_error",
                                           f"import data{hit.group(1)} unused (strict mode)", alias))
    return issues


def _follows_keyword(code: str, start: int) -> bool:
    """Whether the last word before `start` (past whitespace) ends in `package` or `import`.

    Walks back over the whitespace only: slicing and stripping everything before each ref was
    quadratic in the module's size.
    """
    end = start
    while end > 0 and code[end - 1].isspace():
        end -= 1
    return code.endswith(("package", "import"), 0, end)


def _check(segments: list[str], rules: Mapping[str, set[str]]) -> str | None:
    """Why `data.<segments>` names nothing (None when it does, or lies outside the bundle's packages)."""
    for cut in range(len(segments) - 1, 0, -1):
        package = ".".join(segments[:cut])
        if package in rules:
            step = segments[cut]
            if step in rules[package] or step in _OPTIONAL or any(p.startswith(f"{package}.{step}") for p in rules):
                return None
            return f"package {package} defines no rule `{step}`"
    return None
