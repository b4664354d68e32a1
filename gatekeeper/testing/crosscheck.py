"""`gatekeeper test` in the reference engine too: OPA compiles the whole bundle and runs every Rego test.

regopy decides, so its results stand; OPA's verdict on the same test is compared with it, and any
difference fails the test, naming both results. A compile error OPA reports (in a policy or a test
file) is an error result at its `file:line:col`, named after what is at fault. Without the engine
installed, the run says so in one line (`TestRun.notes`) and everything else still runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from gatekeeper.errors import PolicyError
from gatekeeper.policy.bundle import Bundle
from gatekeeper.policy.field_check import field_issues
from gatekeeper.policy.findings import check_finding
from gatekeeper.policy.ref_check import unknown_refs, unused_imports
from gatekeeper.policy.reference import CompileIssue, TestOutcome, Watch, missing_reason, start_tests
from gatekeeper.testing.rego_source import TestRule, blank
from gatekeeper.testing.rego_tests import TestFile
from gatekeeper.testing.results import TestResult

Outcomes = dict[tuple[str, str], TestOutcome]
REFERENCE = "OPA"


class ReferenceRun:
    """The reference engine compiling and testing the bundle in a child while regopy works."""

    def __init__(self, bundle: Bundle, files: Sequence[TestFile], *, timeout: float) -> None:
        self.note = missing_reason()
        self._files = {f.shown: f for f in files}
        self._collect: Callable[[], tuple[list[CompileIssue], Outcomes]] | None = None
        self._refs: list[CompileIssue] = []
        self._bundle = bundle
        self._watch: dict[tuple[str, str], list[Bound]] = {}
        if self.note is None:
            modules: dict[str, str] = dict(bundle.modules)
            for test_file in files:
                if not test_file.issues:  # a file our own lint refused reports that instead
                    modules[test_file.shown] = test_file.source
            self._refs = unknown_refs(modules) + field_issues(modules, bundle.data()) + unused_imports(modules)
            tests, exports = self._plan(files)
            self._collect = start_tests(modules, bundle.data(), tests, timeout=timeout * 3, exports=exports)

    def _plan(self, files: Sequence[TestFile]) -> tuple[list[Watch], dict[str, str]]:
        """The tests OPA runs and, per test file, a module exporting the locals its tests bind to findings."""
        tests: list[Watch] = []
        exports: dict[str, str] = {}
        for f in files:
            if not f.package or f.issues:
                continue
            rules = []
            for t in f.tests:
                if t.skipped:
                    continue
                watch = findings_bound(t.body, f.package, self._bundle)
                export = export_rule(t, watch) if watch else None
                self._watch[(f.package, t.name)] = watch if export else []
                tests.append((f.package, t.name, f"{EXPORT}{t.name}" if export else "",
                              tuple((n, c) for n, c, _, _ in watch) if export else ()))
                if export:
                    rules.append(export)
            if rules:
                text = "\n\n".join([f"package {f.package}", *imports(f.source), *rules]) + "\n"
                exports[f"{f.shown} (exported locals)"] = text
        return tests, exports

    def finish(self, results: Sequence[TestResult]) -> list[TestResult]:
        """`results` (regopy's) with every disagreement turned into a failure, plus OPA's compile errors."""
        if self._collect is None:
            return list(results)
        issues, outcomes = self._collect()
        if issues:
            return [*results, *(compile_result(issue) for issue in [*issues, *self._refs])]
        return [*(self._compare(r, outcomes) for r in results), *(compile_result(issue) for issue in self._refs)]

    def _compare(self, result: TestResult, outcomes: Outcomes) -> TestResult:
        test_file = self._files.get(result.file)
        if result.suite != "rego" or test_file is None or test_file.package is None or result.status == "skip":
            return result
        theirs = outcomes.get((test_file.package, result.name))
        if theirs is None:
            return result  # a lint or file-level result, not a test OPA ran
        status, detail, seen = theirs
        if status == result.status:
            broken = self._broken_finding(self._watch.get((test_file.package, result.name), []), seen)
            if result.status == "pass" and broken:
                return replace(result, status="fail", rule_ids=(),
                               message=f"the test passed, but a finding it produced breaks the contract: {broken}")
            return result
        ours = result.status + (f" ({result.message})" if result.message else "")
        message = f"regopy and {REFERENCE} disagree: regopy {ours}; {REFERENCE} {status}" + (
            f" ({detail})" if detail else "")
        return replace(result, status="fail", message=message, rule_ids=())

    def _broken_finding(self, watch: list[Bound], seen: dict[str, list[object]]) -> str | None:
        """The contract error of the first finding a watched local held (as the gate would judge it), if any."""
        for name, _, level, policy in watch:
            info = self._bundle.policy(policy)
            for item in seen.get(name, []):
                try:
                    check_finding(info, level, item, self._bundle.modules)
                except PolicyError as exc:
                    return str(exc)
        return None


EXPORT = "__gatekeeper_locals_of_"
_IMPORTS = re.compile(r"^import[ \t]+[^\n]+$", re.M)


def imports(source: str) -> list[str]:
    """The import lines of a module (comments and strings blanked first, so none is invented)."""
    code = blank(source)
    return [source[m.start():m.end()].strip() for m in _IMPORTS.finditer(code)]


def export_rule(test: TestRule, watch: Sequence[Bound]) -> str | None:
    """A copy of `test` whose head collects the watched locals' values: `<EXPORT><name> contains {...} if {`.

    A partial set gathers every solution of the body (each `some f in review`), so OPA hands back every
    value each local took while the test's body held. None when the test is not one plain `test_x if {`.
    """
    head = re.compile(rf"^{re.escape(test.name)}[ \t]+if[ \t]*\{{")
    if len(test.spans) != 1 or not head.match(test.body):
        return None
    values = ", ".join(f'"{name}": {name}' for name, *_ in watch)
    return head.sub(f"{EXPORT}{test.name} contains {{{values}}} if {{", test.body, count=1).rstrip()


# `found := review with ...`, `found := demo.review`, `d := [x | some x in data....deny]`, `some f in review`
_REF = r"(?P<path>(?:[A-Za-z_][\w]*\.)*)(?P<level>deny|review|warn)"
_BOUND = re.compile(rf"\b(?P<name>[a-z_][A-Za-z0-9_]*)\s*:=\s*{_REF}\b")
_SOME = re.compile(rf"\bsome\s+(?P<name>[a-z_][A-Za-z0-9_]*)\s+in\s+{_REF}\b")
_COMPREHENSION = re.compile(r"\[\s*([a-z_]\w*)\s*\|\s*some\s+\1\s+in\b")
_COLLECTED = re.compile(rf"\b(?P<name>[a-z_][A-Za-z0-9_]*)\s*:=\s*\[\s*(?P<x>[a-z_]\w*)\s*\|\s*some\s+(?P=x)\s+in\s+"
                        rf"{_REF}\s*\]")
Bound = tuple[str, bool, str, str]  # (local, holds a collection, level, policy name)


def findings_bound(body: str, package: str, bundle: Bundle) -> list[Bound]:
    """The locals a test binds to a policy's findings, so the findings they hold can be judged like the gate's."""
    known = {p.name for p in bundle.policies}
    own = package.rsplit(".", 1)[-1].removesuffix("_test")
    found: list[Bound] = []
    code = blank(body)
    inner = {m.group(1) for m in _COMPREHENSION.finditer(code)}  # not in scope outside its brackets
    for pattern, collection in ((_BOUND, True), (_COLLECTED, True), (_SOME, False)):
        for hit in pattern.finditer(code):
            name, path = hit.group("name"), hit.group("path")
            if pattern is _SOME and name in inner:
                continue
            prefix = path.rstrip(".").rsplit(".", 1)[-1] if path else own
            if prefix in known and all(b[0] != name for b in found):
                found.append((name, collection, hit.group("level"), prefix))
    return found


def compile_result(issue: CompileIssue) -> TestResult:
    """An OPA compile error as a test result at its place, named after the thing at fault."""
    name = f"compile: {issue.name}" if issue.name else f"compile: {issue.code}"
    return TestResult(suite="rego", name=name, file=issue.file, line=issue.line, status="error",
                      message=f"column {issue.column}: {issue.code}: {issue.message}")


def missing_note() -> str | None:
    """The one line a run prints when the reference engine is not installed."""
    reason = missing_reason()
    return None if reason is None else f"{reason}: compile checks and the cross-check against {REFERENCE} skipped"
