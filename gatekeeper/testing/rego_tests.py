"""Rego unit tests: find every `*_test.rego`, refuse malformed files and forms regopy crashes on, run the rest.

Each test file runs in its own forked child (the engine's `run_tests`) with the bundle's policy modules it can
reach (`reached_modules`) and never the other test files, so a segfault or a hang is an error of that file while
the other files still run. regopy aborts building a module once any rule in it crashes, so when every test of a
file died, each test runs again alone, in a copy of the file holding no other test, and the report names the one
that crashed. A test passes when its rule is `true`; undefined or false (regopy returns a false rule as
undefined) fails; an evaluation error is an error, never a pass. `todo_` rules are skipped.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gatekeeper.errors import GatekeeperError, PolicyError
from gatekeeper.policy.bundle import Bundle
from gatekeeper.policy.engine import RegoTestOutcome, run_tests
from gatekeeper.policy.rego_lint import find_error
from gatekeeper.testing.rego_source import (
    LintIssue,
    TestRule,
    find_test_rules,
    lint,
    named_rule_ids,
    package_of,
    reached_modules,
    rule_names,
    without_tests,
)
from gatekeeper.testing.results import TestResult

TEST_SUFFIX = "_test.rego"


@dataclass(frozen=True, slots=True)
class TestFile:
    """A `*_test.rego` file, read and linted."""

    __test__ = False  # not a pytest test class, despite the name

    path: Path
    shown: str  # the path as reports show it (bundle root joined with the relative path)
    package: str | None
    source: str
    tests: tuple[TestRule, ...]
    issues: tuple[LintIssue, ...]


def is_test_module(name: str) -> bool:
    """True for a module name or path that is a Rego test file."""
    return name.endswith(TEST_SUFFIX)


def discover_test_files(bundle: Bundle) -> list[TestFile]:
    """Every `*_test.rego` under the bundle root, sorted, with its test rules and lint issues."""
    root = Path(bundle.root)
    policy_modules = {name: text for name, text in bundle.modules.items() if not is_test_module(name)}
    rules_by_package: dict[str, set[str]] = {}
    for text in policy_modules.values():
        rules_by_package.setdefault(package_of(text) or "", set()).update(rule_names(text))
    files: list[TestFile] = []
    for path in sorted(root.rglob(f"*{TEST_SUFFIX}")):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        shown = str(path)  # the same naming as Bundle.modules, so engine errors point at it
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PolicyError(f"cannot read test file: {exc}", where=str(path)) from exc
        package = package_of(source)
        known = rules_by_package.get(package or "", set())
        issues = tuple(lint(source, known))
        syntax = find_error(source)  # regopy would drop the rest of a body after a stray bracket
        if syntax is not None:
            message = f"malformed Rego at {syntax.line}:{syntax.column}: {syntax.message} ({syntax.hint})"
            issues = (LintIssue(syntax.line, message, "syntax"), *issues)
        files.append(TestFile(path, shown, package, source, tuple(find_test_rules(source)), issues))
    return files


def select_tests(files: Sequence[TestFile], pattern: re.Pattern[str]) -> list[TestFile]:
    """The files, each with only the tests whose name or `<package>.<name>` `pattern` finds; none left: dropped."""
    chosen = []
    for test_file in files:
        tests = tuple(t for t in test_file.tests
                      if pattern.search(t.name) or pattern.search(f"data.{test_file.package}.{t.name}"))
        if tests:
            chosen.append(replace(test_file, tests=tests))
    return chosen


def run_test_files(bundle: Bundle, files: Sequence[TestFile], *, candidates: frozenset[str],
                   timeout: float) -> list[TestResult]:
    """Run every test of every file; one TestResult per test, lint issue or file-level error."""
    modules = {name: text for name, text in bundle.modules.items() if not is_test_module(name)}
    data = bundle.data()
    results: list[TestResult] = []
    for test_file in files:
        results.extend(_run_file(test_file, modules, data, candidates, timeout))
    return results


def _run_file(test_file: TestFile, modules: Mapping[str, str], data: Mapping[str, Any],
              candidates: frozenset[str], timeout: float) -> list[TestResult]:
    if test_file.issues:
        return [_result(test_file, issue.name, issue.line, "error", issue.message) for issue in test_file.issues]
    skipped = [_result(test_file, t.name, t.line, "skip", "todo") for t in test_file.tests if t.skipped]
    runnable = [t for t in test_file.tests if not t.skipped]
    if not runnable:
        return skipped
    if test_file.package is None:
        return [*skipped, _result(test_file, "package", 1, "error", "test file declares no package")]
    modules = reached_modules(modules, test_file.source, test_file.package)
    started = time.perf_counter()
    try:
        found = run_tests({**modules, test_file.shown: test_file.source}, data, test_file.package,
                          [t.name for t in runnable], timeout=timeout)
        if len(runnable) > 1 and all(_died(o) for o in found):
            found = _each_test_alone(modules, data, test_file, runnable, timeout)
    except GatekeeperError as exc:  # the file or a module does not compile, or the child failed
        return [*skipped, _file_error(test_file, exc)]
    each = (time.perf_counter() - started) / len(runnable)
    outcomes = {o.name: o for o in found}
    results = list(skipped)
    for test in runnable:
        outcome = outcomes.get(test.name)
        if outcome is None:
            results.append(_result(test_file, test.name, test.line, "error", "the engine returned no result"))
            continue
        message = f"{outcome.where}: {outcome.message}" if outcome.where else outcome.message
        produced = tuple(sorted(named_rule_ids(test.body, candidates))) if outcome.status == "pass" else ()
        results.append(_result(test_file, test.name, test.line, outcome.status, message, each, produced))
    results.sort(key=lambda r: r.line)
    return results


def _died(outcome: RegoTestOutcome) -> bool:
    return outcome.died


def _each_test_alone(modules: Mapping[str, str], data: Mapping[str, Any], test_file: TestFile,
                     tests: Sequence[TestRule], timeout: float) -> list[RegoTestOutcome]:
    """Every test in a copy of its file holding no other test.

    regopy aborts building a module once one rule in it uses a crashing form, so retrying a test
    beside its crashing neighbour crashes too; alone, each test gets its own verdict.
    """
    found: list[RegoTestOutcome] = []
    for test in tests:
        alone = without_tests(test_file.source, test_file.tests, keep=test.name)
        try:
            found.extend(run_tests({**modules, test_file.shown: alone}, data, test_file.package or "", [test.name],
                                   timeout=timeout))
        except GatekeeperError as exc:
            found.append(RegoTestOutcome(test.name, "error", exc.what, exc.where))
    return found


def _file_error(test_file: TestFile, exc: GatekeeperError) -> TestResult:
    line = _line_from_where(exc.where, test_file)
    # An error elsewhere (a policy module) keeps its own location in the message.
    message = (exc.what + (f" ({exc.hint})" if exc.hint else "")) if line else str(exc)
    return _result(test_file, "compile", line or 1, "error", message)


def _line_from_where(text: str | None, test_file: TestFile) -> int | None:
    # The engine names `file:line`; only a line in this very file is worth pointing at.
    if not text:
        return None
    head, _, rest = text.partition(":")
    if not head.endswith(test_file.shown) and not head.endswith(test_file.path.name):
        return None
    number = rest.split(":", 1)[0]
    return int(number) if number.isdigit() else None


def _result(test_file: TestFile, name: str, line: int, status: str, message: str, seconds: float = 0.0,
            produced: tuple[str, ...] = ()) -> TestResult:
    return TestResult(suite="rego", name=name, file=test_file.shown, line=line, status=status,  # type: ignore[arg-type]
                      message=message, seconds=seconds, rule_ids=produced)

