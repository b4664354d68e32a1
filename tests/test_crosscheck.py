"""`gatekeeper test` in both engines: disagreements, compile errors and findings judged like the gate's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bundlecopy import bundle_copy, check_bundle, edit
from conftest import POLICY_DIR

from gatekeeper.policy.bundle import load_bundle

# --- the cross-check: a construct the engines disagree on fails `gatekeeper test` ------------------

# regopy evaluates `with ... as <rule>` as undefined; OPA substitutes the rule's value (REGOPY.md).
DIVERGENT_RULES = """
_divergent_limit := 0

_divergent_over if {
\tinput.summary.files == 0
}

_divergent if {
\t_divergent_over with input.summary.files as _divergent_limit
}
"""


def test_a_unit_test_the_engines_disagree_on_fails_naming_both(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    (root / "size" / "policy.rego").write_text((root / "size" / "policy.rego").read_text() + DIVERGENT_RULES)
    tests = root / "size" / "policy_test.rego"
    tests.write_text(tests.read_text() + "\ntest_divergent if {\n\tsize._divergent with input.summary as {}\n}\n")
    run = run_suite(root, None, select=re.compile("test_divergent"))
    (result,) = run.results
    assert (result.name, result.status) == ("test_divergent", "fail")
    assert "regopy and OPA disagree: regopy fail" in result.message and "OPA pass" in result.message
    assert not run.passed


def test_a_fixture_case_the_engines_disagree_on_fails_naming_both(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    policy = root / "guardrails" / "policy.rego"
    policy.write_text(policy.read_text() + DIVERGENT_RULES + '\nreview contains lib.finding("guardrails.edit", '
                      '"divergent") if {\n\t_divergent\n}\n')
    fixtures = POLICY_DIR.parent / "fixtures"
    run = run_suite(root, fixtures, select=re.compile(r"^guardrail-files\[guardrails\]$"))
    (result,) = run.results
    assert result.name == "guardrail-files[guardrails]" and result.status == "error"
    assert "regopy and OPA disagree" in result.message and "divergent" in result.message
    assert not run.passed


# The shipped bundle passing in both engines: tests/test_test_cmd.py::test_shipped_bundle_passes_with_full_coverage
# (the same whole run, through the command, which also holds coverage at 100%).


# --- unit tests judge findings as the gate does ----------------------------------------------------


def test_a_finding_with_message_instead_of_msg_fails_the_unit_test_that_produced_it(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    edit(root / "guardrails" / "policy.rego", 'lib.paths_finding("guardrails.edit", msg, paths)',
         '{"rule": "guardrails.edit", "message": msg, "paths": paths}')
    run = run_suite(root, None, select=re.compile("guardrail"))
    by_name = {r.name: r for r in run.results}
    failed = by_name["test_guardrail_file_needs_review"]
    assert failed.status == "fail" and "breaks the contract" in failed.message and "`msg`" in failed.message
    assert failed.rule_ids == ()  # coverage does not count it
    assert by_name["test_untagged_files_pass"].status == "pass"  # it produced no finding


def test_findings_bound_reads_the_forms_tests_use() -> None:
    from gatekeeper.testing.crosscheck import findings_bound

    bundle = load_bundle(POLICY_DIR)
    body = ("test_x if {\n\tfound := review with input.files as f\n\tsome g in deps.deny with input.files as f\n"
            "\td := [x | some x in data.gatekeeper.policies.core.warn]\n\t# y := review\n}\n")
    assert findings_bound(body, "gatekeeper.policies.size", bundle) == [
        ("found", True, "review", "size"), ("d", True, "warn", "core"), ("g", False, "deny", "deps")]


def test_without_the_reference_engine_the_test_run_says_so_in_one_line_and_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gatekeeper.testing import crosscheck
    from gatekeeper.testing.report import render_text
    from gatekeeper.testing.suite import run_suite

    monkeypatch.setattr(crosscheck, "missing_reason", lambda: "the reference Rego engine is not installed")
    run = run_suite(POLICY_DIR, None, select=re.compile("guardrail"))
    assert [r.status for r in run.results] == ["pass", "pass"]
    assert len(run.notes) == 1 and "not installed" in run.notes[0]
    assert render_text(run).count("not installed") == 1


def test_a_helper_typo_in_gatekeeper_test_names_the_helper_and_its_line(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    line = edit(root / "guardrails" / "policy.rego", "lib.paths_finding(", "lib.bukket_finding(")
    run = run_suite(root, None, select=re.compile("guardrail"))
    located = [r for r in run.results if r.file == str(root / "guardrails" / "policy.rego") and r.line == line]
    assert any("undefined function data.gatekeeper.lib.bukket_finding" in r.message for r in located), run.results
    assert not run.passed
    assert all("not available in regopy" not in r.message for r in run.results)


def test_a_fixture_error_is_reported_under_the_set_that_caused_it_only(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    edit(root / "guardrails" / "policy.rego", 'lib.paths_finding("guardrails.edit", msg, paths)',
         '{"rule": "guardrails.edit", "message": msg, "paths": paths}')
    run = run_suite(root, POLICY_DIR.parent / "fixtures", select=re.compile(r"^guardrail-files\["))
    by_name = {r.name: r for r in run.results if r.suite == "fixtures"}
    assert by_name["guardrail-files[default]"].status == "pass"
    broken = by_name["guardrail-files[guardrails]"]
    assert broken.status == "error" and str(root / "guardrails" / "policy.rego") in broken.message


def test_an_unused_import_fails_gatekeeper_test_as_strict_mode_would(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    policy = root / "size" / "policy.rego"
    line = edit(policy, "import rego.v1", "import rego.v1\n\nimport data.gatekeeper.lib.testing") + 2
    run = run_suite(root, None, select=re.compile("guardrail"))
    (unused,) = [r for r in run.results if r.status == "error"]
    assert (unused.file, unused.line) == (str(policy), line) and "unused" in unused.message
    check_bundle(root)  # the gate still decides: an unused import changes no decision


# --- OPA's test child: one compile when the exports compile, the modules' own issues otherwise -------------

POLICY = 'package p\n\nimport rego.v1\n\nreview contains "x" if input.a == 1\n'
UNIT = ("package p_test\n\nimport rego.v1\n\nimport data.p\n\n"
        'test_a if {\n\tfound := p.review with input as {"a": 1}\n\tcount(found) == 1\n}\n')
EXPORTED = "__gatekeeper_locals_of_test_a"
EXPORT = UNIT.replace("test_a if {", f'{EXPORTED} contains {{"found": found}} if {{')
WATCH = [("p_test", "test_a", EXPORTED, (("found", True),))]


def opa_tests(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, modules: dict[str, str],
              export: str) -> tuple[int, list, dict]:
    """reference.start_tests over `modules` and one export module: (the compiles its child ran, issues, outcomes)."""
    from gatekeeper.policy import reference

    log = tmp_path / "compiles"
    log.write_text("")
    engine = reference._engine

    def counted(sources, data):  # type: ignore[no-untyped-def]  # runs in the forked child
        with log.open("a") as out:
            out.write("compile\n")
        return engine(sources, data)

    monkeypatch.setattr(reference, "_engine", counted)
    exports = {"unit (exported locals)": export}
    issues, outcomes = reference.start_tests(modules, {}, WATCH, timeout=30, exports=exports)()
    return log.read_text().count("compile"), issues, outcomes


def test_the_opa_test_child_compiles_once_when_the_exports_compile(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    compiles, issues, outcomes = opa_tests(monkeypatch, tmp_path, {"p.rego": POLICY, "p_test.rego": UNIT}, EXPORT)
    assert (compiles, issues) == (1, [])
    assert outcomes == {("p_test", "test_a"): ("pass", "", {"found": ["x"]})}


def test_exports_that_do_not_compile_leave_the_tests_running_without_their_values(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    compiles, issues, outcomes = opa_tests(monkeypatch, tmp_path, {"p.rego": POLICY, "p_test.rego": UNIT},
                                           EXPORT.replace("count(found) == 1", "count(fund) == 1"))
    assert (compiles, issues) == (2, [])
    assert outcomes == {("p_test", "test_a"): ("pass", "", {"found": []})}


def test_a_module_that_does_not_compile_reports_its_own_issues_not_the_exports(monkeypatch: pytest.MonkeyPatch,
                                                                               tmp_path: Path) -> None:
    broken = UNIT.replace("count(found) == 1", "count(fund) == 1")
    compiles, issues, outcomes = opa_tests(monkeypatch, tmp_path, {"p.rego": POLICY, "p_test.rego": broken},
                                           EXPORT.replace("count(found) == 1", "count(fund) == 1"))
    assert compiles == 2 and outcomes == {}
    assert [(i.file, i.line, i.code, i.name) for i in issues] == [("p_test.rego", 9, "rego_unsafe_var_error", "fund")]


def test_a_module_naming_an_export_is_compiled_alone_first(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The one compile is sound because no module names what the exports add; a module that does is checked alone.
    named = POLICY + f"\n# {EXPORTED}\n"
    compiles, issues, outcomes = opa_tests(monkeypatch, tmp_path, {"p.rego": named, "p_test.rego": UNIT}, EXPORT)
    assert (compiles, issues) == (2, [])
    assert outcomes == {("p_test", "test_a"): ("pass", "", {"found": ["x"]})}
