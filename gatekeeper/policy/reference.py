"""The reference engine (OPA, through opa-golib-python-bindings): compile checks and cross-check evaluation.

regopy decides; OPA checks. OPA's compiler rejects what regopy silently evaluates as false (an
undefined variable, a misspelt helper, a wrong arity, a reference to a key a value cannot have), so
every bundle is compiled here before regopy evaluates it, and `gatekeeper test` runs every test and
case in both engines.

The Go runtime inside the bindings must never live in a process that forks afterwards (its threads
do not survive a fork): every call here runs in its own forked child (`run_isolated`), so the
parent never loads it. Modules reach OPA under synthetic names (`m0.rego`, ...) so that the errors'
`file:line:` prefixes parse without ambiguity whatever the real paths hold; they are mapped back.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gatekeeper.errors import PolicyError
from gatekeeper.lazy_pattern import lazy
from gatekeeper.policy.isolate import EngineCrashed, EngineTimedOut, start_isolated

ENGINE = "opa-golib-python-bindings"
ENGINE_VERSION = "0.4.4"  # as pinned in requirements-reference.txt; part of the compile cache key
INSTALL_HINT = (
    f"install it: pip install --no-deps --ignore-requires-python --require-hashes -r requirements-reference.txt "
    f"({ENGINE}=={ENGINE_VERSION}; `make setup` does this)"
)

UNDEFINED: dict[str, bool] = {"undefined": True}  # what `start_evaluating` gives for a query without a value

# `m3.rego:12: rego_unsafe_var_error: var x is unsafe` (the message runs to the next such prefix).
_ERROR = lazy(r"(?m)(?:^|(?<=: ))m(\d+)\.rego:(\d+): (rego_[a-z_]+): ")
_NAMES = (
    lazy(r"var (\S+) is unsafe"),
    lazy(r"undefined function (\S+)"),
    lazy(r"function (\S+) has arity"),
    lazy(r"undefined ref: (\S+)"),
    lazy(r"conflicting rules (\S+) found"),
)


@dataclass(frozen=True, slots=True)
class CompileIssue:
    """One error OPA's compiler reports: where, its code and the name at fault."""

    file: str
    line: int
    column: int
    code: str  # rego_unsafe_var_error, rego_type_error, rego_parse_error, rego_compile_error, ...
    message: str
    name: str | None = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def __str__(self) -> str:
        return f"{self.where}: {self.code}: {self.message}"


def missing_reason() -> str | None:
    """Why the reference engine cannot run here (None when it can); never loads it."""
    try:
        found = importlib.util.find_spec("opa_bindings")
    except (ImportError, ValueError):
        found = None
    if found is None:
        return f"the reference Rego engine ({ENGINE}) is not installed"
    return None


def start_compile(modules: Mapping[str, str], data: Mapping[str, Any], *,
                  timeout: float) -> Callable[[], list[CompileIssue]]:
    """Compile `modules` with OPA in a child; call the result to collect every issue (empty: it compiles)."""
    names = list(modules)
    job = start_isolated(_compile_here, [modules[n] for n in names], dict(data), timeout=timeout)

    def collect() -> list[CompileIssue]:
        try:
            raw = job.result()
        except (EngineCrashed, EngineTimedOut) as exc:
            raise PolicyError(f"the reference compiler (OPA) failed: {exc.what}",
                              hint="rerun; if it persists, reinstall the reference engine: " + INSTALL_HINT) from None
        return [_issue(item, names, modules) for item in raw]

    return collect


def compile_issues(modules: Mapping[str, str], data: Mapping[str, Any], *, timeout: float) -> list[CompileIssue]:
    """Every compile error OPA reports for `modules` (empty when they compile)."""
    return start_compile(modules, data, timeout=timeout)()


def start_evaluating(modules: Mapping[str, str], data: Mapping[str, Any], inputs: Sequence[Mapping[str, Any]],
                     query: str, *, timeout: float) -> Callable[[], list[Any]]:
    """The value of `query` over each input in OPA (`{"error": text}` for an input whose evaluation failed)."""
    names = list(modules)
    job = start_isolated(_evaluate_here, [modules[n] for n in names], dict(data), list(inputs), query,
                         timeout=timeout)

    def collect() -> list[Any]:
        return [_rename(item, names) if isinstance(item, dict) and set(item) == {"error"} else item
                for item in job.result()]

    return collect


# (package, rule, the rule that exports the test's locals or "", ((local, holds a collection), ...))
Watch = tuple[str, str, str, tuple[tuple[str, bool], ...]]
TestOutcome = tuple[str, str, dict[str, list[Any]]]  # (status, detail, findings seen per watched local)


def start_tests(modules: Mapping[str, str], data: Mapping[str, Any], tests: Sequence[Watch], *,
                timeout: float, exports: Mapping[str, str] | None = None,
                ) -> Callable[[], tuple[list[CompileIssue], dict[tuple[str, str], TestOutcome]]]:
    """Compile `modules` and run Rego tests `(package, rule, export, watched locals)` in OPA, in one child.

    Collects (every compile issue, each test's `(status, detail, values)`); no test runs when an issue is
    found. Status is `pass`, `fail` (false or undefined) or `error`. `exports` are extra modules whose
    `export` rules (`contains {local: value, ...}` over a copy of the test's body) give, per watched local,
    every value it took: the elements of a local bound to a whole collection, the local itself otherwise.
    They are compiled on top; if they do not compile, the tests run without them (values stay empty).
    """
    names = list(modules)
    extra = list(exports or {})
    sources = [modules[n] for n in names] + [(exports or {})[n] for n in extra]
    job = start_isolated(_tests_here, sources, len(names), dict(data), list(tests), timeout=timeout)
    shown = names + extra

    def collect() -> tuple[list[CompileIssue], dict[tuple[str, str], TestOutcome]]:
        issues, outcomes = job.result()
        return ([_issue(item, shown, modules) for item in issues],
                {(pkg, rule): (status, _rename_text(detail, shown), seen)
                 for pkg, rule, status, detail, seen in outcomes})

    return collect


def normalise(value: object) -> object:
    """A findings-query result with each level's findings sorted, so set order never counts as a difference."""
    if not isinstance(value, Mapping):
        return value
    out: dict[str, object] = {}
    for policy, levels in value.items():
        if not isinstance(levels, Mapping):
            out[policy] = levels
            continue
        shaped: dict[str, object] = {}
        for level, values in levels.items():
            found = values[0] if isinstance(values, list) and values else []
            items = found if isinstance(found, list) else [found]
            shaped[level] = sorted(json.dumps(item, sort_keys=True) for item in items)
        out[policy] = shaped
    return out


def _issue(item: tuple[int, int, str, str], names: Sequence[str], modules: Mapping[str, str]) -> CompileIssue:
    index, line, code, message = item
    file = names[index] if 0 <= index < len(names) else "?"
    message = _rename_text(message, names)
    name = next((m.group(1) for pattern in _NAMES if (m := pattern.search(message))), None)
    text = modules.get(file, "").splitlines()
    column = _column(text[line - 1] if 0 < line <= len(text) else "", name)
    return CompileIssue(file, line, column, code, message, name)


def _column(text: str, name: str | None) -> int:
    """1-based column of `name` (or of its shortest dotted suffix that occurs) in the line, else its first code."""
    if name:
        parts = name.split(".")
        for start in range(len(parts)):
            needle = ".".join(parts[start:])
            hit = re.search(r"(?<![\w.])" + re.escape(needle) + r"(?![\w])", text)
            if hit:
                return hit.start() + 1
    return len(text) - len(text.lstrip()) + 1


def _rename_text(text: str, names: Sequence[str]) -> str:
    return re.sub(r"\bm(\d+)\.rego\b", lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                  else m.group(0), text)


def _rename(item: dict[str, str], names: Sequence[str]) -> dict[str, str]:
    return {"error": _rename_text(item["error"], names)}


# --- below runs inside a forked child only ------------------------------------------------------


def parse_errors(text: str) -> list[tuple[int, int, str, str]]:
    """`(module index, line, code, message)` for every error in OPA's error text, duplicates dropped."""
    hits = list(_ERROR.finditer(text))
    found: list[tuple[int, int, str, str]] = []
    for i, hit in enumerate(hits):
        end = hits[i + 1].start() if i + 1 < len(hits) else len(text)
        message = " ".join(text[hit.end():end].split())
        item = (int(hit.group(1)), int(hit.group(2)), hit.group(3), message)
        if item not in found:
            found.append(item)
    return found


def _engine(sources: Sequence[str], data: Mapping[str, Any]) -> tuple[Any, list[tuple[int, int, str, str]]]:
    # Deferred: opa_bindings loads OPA's native library; it is optional, and only `gatekeeper test` uses it.
    from opa_bindings import OpaEngine, OpaError

    engine = OpaEngine()
    engine.print_handler = lambda message, location: None
    issues: list[tuple[int, int, str, str]] = []
    for index, source in enumerate(sources):
        try:
            engine.add_policy(f"m{index}.rego", source)
        except OpaError as exc:
            issues.extend(parse_errors(exc.message) or [(index, 1, exc.code, exc.message)])
    if data:
        engine.add_data(data)
    if not issues:
        try:
            engine.eval_query("true")  # prepares the query: compiles every module
        except OpaError as exc:
            issues.extend(parse_errors(exc.message) or [(0, 1, exc.code, exc.message)])
    return engine, issues


_LIMIT = "rego_compile_error: error limit reached"
_LIB = lazy(r"^package\s+gatekeeper\.lib\b", re.M)


def _compile_here(sources: list[str], data: dict[str, Any]) -> list[tuple[int, int, str, str]]:
    issues = _engine(sources, data)[1]
    if not any(_LIMIT in message for *_, message in issues):
        return issues
    # OPA stops at 10 errors; every error must be shown: each module again, beside the shared library.
    lib = [i for i, source in enumerate(sources) if _LIB.search(source)]
    found: list[tuple[int, int, str, str]] = []
    for index in range(len(sources)):
        group = [index] if index in lib else [*lib, index]
        for local, line, code, message in _engine([sources[i] for i in group], data)[1]:
            item = (group[local], line, code, message.replace(_LIMIT, "").strip())
            if group[local] == index and item not in found:
                found.append(item)
    return found


def _evaluate_here(sources: list[str], data: dict[str, Any], inputs: list[Any], query: str) -> list[Any]:
    from opa_bindings import OpaError  # deferred: optional and native (see _engine)

    engine, issues = _engine(sources, data)
    if issues:
        raise PolicyError("the modules do not compile in the reference engine: "
                          + "; ".join(f"m{i}.rego:{line}: {code}: {msg}" for i, line, code, msg in issues))
    out: list[Any] = []
    for doc in inputs:
        try:
            rows = engine.eval_query(f"x := [v | v := ({query})]", doc)
        except OpaError as exc:
            out.append({"error": exc.message})
            continue
        out.append(rows[0]["x"][0] if rows and rows[0].get("x") else UNDEFINED)
    return out


def _tests_here(sources: list[str], required: int, data: dict[str, Any],
                tests: list[Watch]) -> tuple[list[Any], list[Any]]:
    exported = [export for _, _, export, _ in tests if export]
    # Usually one compile, not two (~0.06 CPU-s a run): modules that compile with the exports beside them compile
    # alone too, as the exports only add rules no module names. Else the modules alone first, for their issues.
    once = len(sources) > required and not any(name in text for text in sources[:required] for name in exported)
    with_exports = _compiled(sources, data) if once else None
    if with_exports is not None:
        return [], _run_tests(with_exports, tests)
    engine, issues = _engine(sources[:required], data)
    if issues:
        return issues, []
    if len(sources) > required:
        with_exports = None if once else _compiled(sources, data)  # once: they did not compile above
        if with_exports is not None:
            engine = with_exports
        else:
            tests = [(pkg, rule, "", watch) for pkg, rule, _, watch in tests]
    return issues, _run_tests(engine, tests)


def _compiled(sources: Sequence[str], data: Mapping[str, Any]) -> Any:
    """An engine holding `sources` when they compile, else None."""
    engine, issues = _engine(sources, data)
    return None if issues else engine


def _run_tests(engine: Any, tests: list[Watch]) -> list[Any]:
    from opa_bindings import OpaError  # deferred: optional and native (see _engine)

    try:
        return _all_tests_at_once(engine, tests)
    except OpaError:  # one test's evaluation error fails the whole query: then each alone, for its verdict
        return [_one_test(engine, test) for test in tests]


def _all_tests_at_once(engine: Any, tests: list[Watch]) -> list[Any]:
    # Every distinct query is prepared (compiled) anew, ~0.1 s: one query for all tests, not one each.
    parts = []
    for i, (pkg, rule, export, _) in enumerate(tests):
        parts.append(f'"t{i}": [v | v := data.{pkg}.{rule}]')
        if export:
            parts.append(f'"s{i}": [v | some v in data.{pkg}.{export}]')
    rows = engine.eval_query("x := {" + ", ".join(parts) + "}", None)
    values = rows[0]["x"]
    return [(pkg, rule, *_verdict(values[f"t{i}"]), _seen(values.get(f"s{i}") or [], dict(watch)))
            for i, (pkg, rule, _, watch) in enumerate(tests)]


def _one_test(engine: Any, test: Watch) -> tuple[Any, ...]:
    from opa_bindings import OpaError  # deferred: optional and native (see _engine)

    package, rule, _, watch = test
    try:
        rows = engine.eval_query(f"x := [v | v := data.{package}.{rule}]", None)
    except OpaError as exc:
        return package, rule, "error", exc.message, {}
    return package, rule, *_verdict(rows[0]["x"] if rows else []), {}


def _verdict(values: list[Any]) -> tuple[str, str]:
    if not values:
        return "fail", "undefined"
    if values[0] is True:
        return "pass", ""
    return "fail", json.dumps(values[0])


def _seen(exported: list[Any], watch: dict[str, bool]) -> dict[str, list[Any]]:
    seen: dict[str, list[Any]] = {name: [] for name in watch}
    for bindings in exported:
        for name, value in (bindings.items() if isinstance(bindings, dict) else ()):
            if name not in watch:
                continue
            items = value if watch[name] and isinstance(value, list) else [value]
            for item in items:
                if item not in seen[name]:
                    seen[name].append(item)
    return seen
