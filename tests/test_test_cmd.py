"""`gatekeeper test` end to end on the shipped bundle, and the deliberate breakages it must catch."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gatekeeper.cli import main

REPO_ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = REPO_ROOT / "policies"
FIXTURES = REPO_ROOT / "fixtures"


def run_json(policy: Path, fixtures: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict]:
    code = main(["test", "--policy", str(policy), "--fixtures", str(fixtures), "--format", "json", *extra])
    out = capsys.readouterr().out
    return code, json.loads(out)


def only(*cases: str) -> tuple[str, str]:
    """`--run` keeping exactly these fixture cases (`<case>[<set>]`) and no Rego unit test (plain names): the
    breakage tests below assert that these cases catch the breakage, and exit 1 then comes from them alone.
    (Running the other cases too would check nothing more: their results are not asserted.)"""
    return "--run", "^(?:" + "|".join(re.escape(case) for case in cases) + ")$"


def failing(report: dict, suite: str) -> set[str]:
    return {r["name"] for r in report["results"] if r["suite"] == suite and r["status"] in ("fail", "error")}


def copy_bundle(tmp_path: Path) -> Path:
    return Path(shutil.copytree(POLICY_DIR, tmp_path / "policies"))


def drop_review_rule(source: str, rule_id: str) -> str:
    """Remove the top-level `review contains ... { ... }` block that produces `rule_id`."""
    blocks = re.split(r"(?m)^(?=review contains )", source)
    kept = [b for b in blocks if not (b.startswith("review contains ") and f'"{rule_id}"' in b.split("\n}\n")[0])]
    assert len(kept) == len(blocks) - 1, f"no single review block produces {rule_id}"
    return "".join(kept)


def test_shipped_bundle_passes_with_full_coverage(capsys: pytest.CaptureFixture[str]) -> None:
    # Also the cross-check of the shipped bundle: no note means OPA ran every test and case beside regopy.
    code, report = run_json(POLICY_DIR, FIXTURES, capsys)
    assert report["notes"] == []
    assert [r for r in report["results"] if r["status"] != "pass"] == []
    assert sum(r["suite"] == "rego" for r in report["results"]) >= 30
    # Every shipped policy's own unit tests ran, all passing (tests/test_policy_bundle.py asked this of each policy
    # again, one engine child per policy: the same children this run starts).
    ran = {Path(r["file"]).parent.name for r in report["results"] if r["suite"] == "rego"}
    assert ran >= {"core", "deps", "guardrails", "provenance", "sandbox", "size"}, ran
    assert failing(report, "rego") == set() and failing(report, "fixtures") == set()
    assert report["coverage"]["missing"] == [] and report["coverage"]["percent"] == 100.0
    assert code == 0 and report["ok"] is True
    fixture_names = {r["name"].split("[")[0] for r in report["results"] if r["suite"] == "fixtures"}
    assert {p.name for p in FIXTURES.iterdir() if (p / "expect.yaml").is_file()} == fixture_names


def test_core_that_stops_gating_ci_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = copy_bundle(tmp_path)
    module = bundle / "core" / "policy.rego"
    module.write_text(drop_review_rule(module.read_text(), "core.ci"))
    caught = {"ci-workflow[default]", "jenkinsfile[default]", "circleci[default]", "ci-rename-to-docs[default]",
              "ci-delete[default]", "symlink-into-ci[default]"}
    code, report = run_json(bundle, FIXTURES, capsys, *only(*caught))
    assert code == 1
    assert caught <= failing(report, "fixtures")


def test_core_that_stops_gating_iac_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = copy_bundle(tmp_path)
    module = bundle / "core" / "policy.rego"
    module.write_text(drop_review_rule(module.read_text(), "core.iac"))
    caught = {"iac-terraform[default]", "large-mixed[default]"}
    code, report = run_json(bundle, FIXTURES, capsys, *only(*caught))
    assert code == 1
    assert caught <= failing(report, "fixtures")


def test_deps_that_stops_gating_deps_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = copy_bundle(tmp_path)
    module = bundle / "deps" / "policy.rego"
    source = module.read_text()
    assert "review contains" in source
    module.write_text(source.replace("review contains", "warn contains"))  # still reports, no longer gates
    caught = {"deps-go-mod[deps]", "deps-package-json[deps]", "lockfile-without-manifest[deps]"}
    code, report = run_json(bundle, FIXTURES, capsys, *only(*caught))
    assert code == 1
    assert caught <= failing(report, "fixtures")


def test_deleting_the_jenkinsfile_rules_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = copy_bundle(tmp_path)
    rules = bundle / "classification.yaml"
    lines = rules.read_text().splitlines(keepends=True)
    kept: list[str] = []
    dropping = False
    for line in lines:
        if line.startswith("  - id: "):
            dropping = "jenkins" in line.lower()
        if not dropping:
            kept.append(line)
    assert len(kept) < len(lines)
    rules.write_text("".join(kept))
    code, report = run_json(bundle, FIXTURES, capsys, *only("jenkinsfile[default]"))
    assert code == 1
    assert "jenkinsfile[default]" in failing(report, "fixtures")


def test_coverage_below_the_floor_fails_and_the_floor_can_be_lowered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = copy_bundle(tmp_path)
    for test_file in bundle.rglob("*_test.rego"):
        test_file.unlink()
    fixtures = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "ci-workflow", fixtures / "ci-workflow")
    code, report = run_json(bundle, fixtures, capsys)
    assert code == 1
    assert report["coverage"]["produced"] == ["core.ci"]
    assert "core.iac" in report["coverage"]["missing"]
    code, report = run_json(bundle, fixtures, capsys, "--min-coverage", "1")
    assert code == 0 and report["ok"] is True


def test_broken_bundle_is_exit_2_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = copy_bundle(tmp_path)
    (bundle / ".manifest").write_text('{"revision": "x",\n  "roots": [}\n')
    assert main(["test", "--policy", str(bundle), "--fixtures", str(FIXTURES)]) == 2
    assert f"{bundle / '.manifest'}:2" in capsys.readouterr().err


def test_policy_that_does_not_compile_fails_the_run_at_its_line(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 19: a compile error is a failure of `gatekeeper test` (exit 1), each error a result at its place.
    bundle = copy_bundle(tmp_path)
    module = bundle / "core" / "policy.rego"
    lines = module.read_text().splitlines(keepends=True)
    lines.append("\nbroken := := 1\n")
    module.write_text("".join(lines))
    assert main(["test", "--policy", str(bundle), "--fixtures", str(FIXTURES)]) == 1
    out = capsys.readouterr().out
    assert f"ERROR {module}:{len(lines) + 1} compile (regopy)" in out
    assert f"ERROR {module}:{len(lines) + 1} compile: rego_parse_error" in out


def test_missing_fixtures_folder_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "--policy", str(POLICY_DIR), "--fixtures", str(tmp_path / "none")]) == 2
    assert "fixtures folder not found" in capsys.readouterr().err


def test_junit_report_written_to_output_parses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "ci-workflow", fixtures / "ci-workflow")
    out = tmp_path / "report.xml"
    # The subject is the report's shape: one Rego test and the case's two sets fill its three suites (the whole
    # bundle's run is asserted once, above; docs/testing.md's junit command runs it whole again).
    code = main(["test", "--policy", str(POLICY_DIR), "--fixtures", str(fixtures), "--format", "junit", "--output",
                 str(out), "--run", r"^(?:test_ci_file_needs_review|ci-workflow\[\w+\])$"])
    captured = capsys.readouterr()
    assert code == 0 and captured.out == ""
    assert captured.err.startswith("PASS:")
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"rego", "fixtures", "coverage"}
    assert int(suites["fixtures"].get("tests", "")) == 2
    assert int(suites["rego"].get("tests", "")) == 1 and suites["rego"].get("failures") == "0"
    assert [case.get("name") for case in suites["rego"].findall("testcase")] == ["test_ci_file_needs_review"]


def test_unknown_format_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "--format", "sarif"]) == 2


def test_verbose_lists_every_test_and_case_with_its_time_and_run_selects(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "--policy", str(POLICY_DIR), "--fixtures", str(FIXTURES), "-v", "--run", "guardrail"]) == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if line.startswith("  PASS ")]
    assert len(listed) == 5 and all(re.search(r"\(\d+\.\d ms\)", line) for line in listed)
    assert "test_guardrail_file_needs_review" in out and "guardrail-files[guardrails]" in out
    assert "test_core" not in out


def test_an_invalid_run_regex_is_exit_2_naming_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "--policy", str(POLICY_DIR), "--run", "(unclosed"]) == 2
    assert "--run" in capsys.readouterr().err
