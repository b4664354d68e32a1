"""Renderers of a `gatekeeper test` run, one function per format, registered in one dict."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable

from gatekeeper.testing.results import STATUSES, TestResult, TestRun

SUITES: tuple[str, ...] = ("rego", "fixtures", "versions")
_LABEL = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "skip": "SKIP"}


def summary_line(run: TestRun) -> str:
    """One line for people: counts, coverage and the verdict."""
    counts = ", ".join(f"{run.count(s)} {word}" for s, word in
                       (("pass", "passed"), ("fail", "failed"), ("error", "errors"), ("skip", "skipped")))
    cov = run.coverage
    verdict = "PASS" if run.passed else "FAIL"
    return (f"{verdict}: {counts}; rule coverage {len(cov.produced)}/{len(cov.declared)} "
            f"({cov.percent:.1f}%, floor {cov.minimum:g}%) in {run.seconds:.2f}s")


def render_text(run: TestRun, verbose: bool = False) -> str:
    """Failures and errors in full (with `verbose`, every test and case with its time), coverage gaps, the summary."""
    lines = [f"bundle {run.bundle.get('name')} revision {run.bundle.get('revision')} "
             f"digest {str(run.bundle.get('digest'))[:12]}", *(f"note: {note}" for note in run.notes)]
    for suite in SUITES:
        results = [r for r in run.results if r.suite == suite]
        if not results:
            continue
        counts = " ".join(f"{sum(1 for r in results if r.status == s)} {s}" for s in STATUSES)
        lines.append(f"{suite}: {counts}")
        for r in results:
            if r.status != "pass" or verbose:
                detail = f": {r.message}" if r.message else ""
                took = f" ({r.seconds * 1000:.1f} ms)" if verbose else ""
                lines.append(f"  {_LABEL[r.status]:5} {r.location} {r.name}{took}{detail}")
    cov = run.coverage
    if cov.missing:
        lines.append(f"rule ids no test or fixture produced: {', '.join(cov.missing)}")
    if cov.undeclared:
        lines.append(f"rule ids produced but declared by no policy's METADATA: {', '.join(cov.undeclared)}")
    if cov.percent + 1e-9 < cov.minimum:
        lines.append(f"coverage {cov.percent:.1f}% is below the floor of {cov.minimum:g}% (--min-coverage)")
    lines.append(summary_line(run))
    return "\n".join(lines) + "\n"


def _result_dict(r: TestResult) -> dict[str, object]:
    return {"suite": r.suite, "name": r.name, "file": r.file, "line": r.line, "status": r.status,
            "message": r.message, "seconds": round(r.seconds, 6), "rule_ids": list(r.rule_ids)}


def render_json(run: TestRun) -> str:
    """The whole run as one JSON object (stable keys, for CI and tooling)."""
    cov = run.coverage
    doc = {
        "ok": run.passed,
        "exit_code": int(run.exit_code),
        "bundle": run.bundle,
        "fixtures": run.fixtures_dir,
        "counts": {s: run.count(s) for s in STATUSES},
        "coverage": {"declared": list(cov.declared), "produced": list(cov.produced), "missing": list(cov.missing),
                     "undeclared": list(cov.undeclared), "percent": round(cov.percent, 3), "minimum": cov.minimum,
                     "ok": cov.ok},
        "notes": list(run.notes),
        "results": [_result_dict(r) for r in run.results],
        "seconds": round(run.seconds, 6),
    }
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def render_junit(run: TestRun) -> str:
    """JUnit XML: a suite for Rego tests, one for fixtures, one for coverage."""
    root = ET.Element("testsuites", name="gatekeeper test", tests=str(len(run.results) + 1),
                      failures=str(run.count("fail") + (0 if run.coverage.ok else 1)),
                      errors=str(run.count("error")), time=f"{run.seconds:.3f}")
    for suite in SUITES:
        results = [r for r in run.results if r.suite == suite]
        if suite == "versions" and not results:
            continue  # only with --since
        node = ET.SubElement(root, "testsuite", name=suite, tests=str(len(results)),
                             failures=str(sum(r.status == "fail" for r in results)),
                             errors=str(sum(r.status == "error" for r in results)),
                             skipped=str(sum(r.status == "skip" for r in results)),
                             time=f"{sum(r.seconds for r in results):.3f}")
        for r in results:
            case = ET.SubElement(node, "testcase", classname=f"{suite}.{r.file}", name=r.name,
                                 file=r.file, line=str(r.line), time=f"{r.seconds:.3f}")
            if r.status in ("fail", "error"):
                child = ET.SubElement(case, "failure" if r.status == "fail" else "error",
                                      message=r.message[:500], type=r.status)
                child.text = f"{r.location}: {r.message}"
            elif r.status == "skip":
                ET.SubElement(case, "skipped", message=r.message or "todo")
    cov = run.coverage
    node = ET.SubElement(root, "testsuite", name="coverage", tests="1", failures=str(0 if cov.ok else 1),
                         errors="0", skipped="0", time="0")
    case = ET.SubElement(node, "testcase", classname="coverage", name="rule coverage")
    if not cov.ok:
        failure = ET.SubElement(
            case,
            "failure",
            type="coverage",
            message=f"{cov.percent:.1f}% < {cov.minimum:g}%" if cov.missing else "undeclared rule ids",
        )
        failure.text = "\n".join([*(f"never produced: {r}" for r in cov.missing),
                                  *(f"undeclared: {r}" for r in cov.undeclared)])
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def render_verbose(run: TestRun) -> str:
    """`render_text` listing every test and case (`gatekeeper test -v`)."""
    return render_text(run, verbose=True)


RENDERERS: dict[str, Callable[[TestRun], str]] = {"text": render_text, "json": render_json, "junit": render_junit}
FORMATS: tuple[str, ...] = tuple(RENDERERS)


def render(fmt: str, run: TestRun) -> str:
    """Render `run` in one of FORMATS."""
    return RENDERERS[fmt](run)
