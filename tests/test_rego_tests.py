"""The Rego unit-test runner: discovery, the lint that refuses crashing forms, pass/fail/error/skip, isolation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gatekeeper.testing.rego_source import blank, find_test_rules, lint, named_rule_ids, package_of

REPO_ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = REPO_ROOT / "policies"

TEST_FILE = '''package gatekeeper.policies.core_test

import rego.v1
import data.gatekeeper.policies.core

mock_files := [{"path": "x", "bucket": "ci"}]  # with input as {} in a comment is fine

# test_commented_out if { true }
test_ci if {
\tsome f in core.review with input.files as [{"bucket": "ci"}]
\tf.rule == "core.ci"
\tnot "core.iac" in {f.rule}
}

todo_later if { true }
test_text if { "with input as" == "with input as" }
test_ci if { true }
'''


def test_finds_test_rules_with_lines_and_todo() -> None:
    found = [(t.name, t.line, t.skipped) for t in find_test_rules(TEST_FILE)]
    assert found == [("test_ci", 9, False), ("todo_later", 15, True), ("test_text", 16, False)]
    assert package_of(TEST_FILE) == "gatekeeper.policies.core_test"


def test_blank_keeps_offsets_and_hides_comments_and_strings() -> None:
    code = blank(TEST_FILE)
    assert len(code) == len(TEST_FILE) and code.count("\n") == TEST_FILE.count("\n")
    assert "with input as" not in code
    assert "test_commented_out" not in code


def test_lint_accepts_partial_input_mocks() -> None:
    assert lint(TEST_FILE) == []


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("\tcore.review with input as {\"files\": []}", "with input as"),
        ("\tcore.review with input.files as mock_files", "the rule `mock_files`"),
        ("\tcore.review with input.files as data.fixtures.files", "`data.` reference"),
        ("\tcore.review with input.summary as core.summary", "the rule `core`"),
    ],
)
def test_lint_refuses_crashing_forms_naming_the_line(line: str, needle: str) -> None:
    source = TEST_FILE + f"\ntest_bad if {{\n{line}\n}}\n"
    issues = lint(source)
    assert len(issues) == 1
    assert issues[0].line == source.splitlines().index(line) + 1
    assert needle in issues[0].message


def test_lint_allows_local_variables_and_literals() -> None:
    source = TEST_FILE + "\ntest_ok if {\n\tfiles := [{\"bucket\": \"ci\"}]\n\tcore.review with input.files as files\n}\n"
    assert lint(source) == []


def test_named_rule_ids_ignore_comments_and_negations() -> None:
    body = find_test_rules(TEST_FILE)[0].body
    assert named_rule_ids(body, {"core.ci", "core.iac"}) == {"core.ci"}
    assert named_rule_ids('test_x if {\n # "core.ci"\n}\n', {"core.ci"}) == set()
