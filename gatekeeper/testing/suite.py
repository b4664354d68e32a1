"""One `gatekeeper test` run: load the bundle and the fixtures, run Rego tests and cases, measure coverage."""

from __future__ import annotations

import re
import time
from pathlib import Path

from gatekeeper.errors import PolicyError
from gatekeeper.policy.bundle import Bundle, load_bundle
from gatekeeper.policy.engine import check_modules
from gatekeeper.testing.coverage import compute_coverage, declared_rule_ids
from gatekeeper.testing.crosscheck import ReferenceRun, missing_note
from gatekeeper.testing.fixtures import discover_cases, plan_cases, run_cases, select_cases
from gatekeeper.testing.rego_tests import discover_test_files, run_test_files, select_tests
from gatekeeper.testing.results import TestResult, TestRun
from gatekeeper.testing.versions import check_versions

DEFAULT_MIN_COVERAGE = 100.0


def run_suite(policy_dir: Path, fixtures_dir: Path | None, *, min_coverage: float = DEFAULT_MIN_COVERAGE,
              timeout: float = 10.0, select: re.Pattern[str] | None = None, since: str | None = None) -> TestRun:
    """Run every Rego unit test of the bundle and every fixture case; raise GatekeeperError if either cannot load.

    `select` keeps the tests and cases whose name it finds (`--run`); a selection does not enforce coverage.
    `since` (a git revision) adds one result per policy: its version was bumped as its changes require.
    """
    started = time.perf_counter()
    bundle = load_bundle(policy_dir, lint_tests=False)  # a malformed test file is an error of that file
    # Load everything before running anything: a broken case is exit 2 up front, not a half run.
    test_files = discover_test_files(bundle)
    cases = discover_cases(fixtures_dir) if fixtures_dir is not None else []
    if select is not None:
        test_files, cases = select_tests(test_files, select), select_cases(cases, select)
        min_coverage = 0.0  # a subset cannot cover every rule; the full run enforces the floor
    plans = plan_cases(cases, bundle)
    versions = check_versions(bundle, since) if since is not None else []
    # OPA compiles the bundle with its tests and runs them in a child while regopy runs them here.
    reference = ReferenceRun(bundle, test_files, timeout=timeout)
    try:
        check_modules(bundle.modules, timeout=timeout)
    except PolicyError as exc:  # a policy regopy cannot compile: nothing else can run; every error is a result
        return _finish(bundle, policy_dir, fixtures_dir,
                       [regopy_compile_result(exc), *reference.finish([]), *versions], min_coverage, started)
    results = run_test_files(bundle, test_files, candidates=frozenset(declared_rule_ids(bundle)), timeout=timeout)
    results = reference.finish(results)
    if plans:
        results += run_cases(plans, bundle, shown_root=fixtures_dir.parent if fixtures_dir else Path.cwd())
    results += versions
    return _finish(bundle, policy_dir, fixtures_dir, results, min_coverage, started)


def regopy_compile_result(exc: PolicyError) -> TestResult:
    """regopy's compile error as a result at the `file:line` it names."""
    place = (exc.where or "").rsplit(":", 2)
    file, line = (place[0], int(place[1])) if len(place) == 3 and place[1].isdigit() else (exc.where or "", 0)
    return TestResult(suite="rego", name="compile (regopy)", file=file, line=line, status="error",
                      message=exc.what + (f" ({exc.hint})" if exc.hint else ""))


def _finish(bundle: Bundle, policy_dir: Path, fixtures_dir: Path | None, results: list[TestResult],
            min_coverage: float, started: float) -> TestRun:
    coverage = compute_coverage(bundle, results, min_coverage)
    info: dict[str, object] = {
        "name": bundle.name,
        "revision": bundle.revision,
        "commit": bundle.commit,
        "digest": bundle.digest,
        "root": str(policy_dir),
    }
    note = missing_note()
    return TestRun(bundle=info, fixtures_dir=str(fixtures_dir) if fixtures_dir else None, results=tuple(results),
                   coverage=coverage, seconds=time.perf_counter() - started, notes=(note,) if note else ())
