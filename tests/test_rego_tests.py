"""The Rego unit-test runner: discovery, the lint that refuses crashing forms, pass/fail/error/skip, isolation."""

from __future__ import annotations

import faulthandler
import itertools
import shutil
import sys
from pathlib import Path

from tables import each_case

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


def _blank_per_character(source: str) -> str:
    """The first `blank`, one character at a time: the oracle the run-at-a-time version must equal."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "#":
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif ch == '"':
            j = i + 1
            while j < n and source[j] != '"' and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            j = min(j, n - 1)
            out.append('"' + " " * (j - i - 1) + (source[j] if j > i else ""))
            i = j + 1
        elif ch == "`":
            end = source.find("`", i + 1)
            end = n - 1 if end < 0 else end
            out.append("`" + "".join(c if c == "\n" else " " for c in source[i + 1 : end]) + "`")
            i = end + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)[:n]


def test_blank_equals_the_per_character_oracle_on_every_short_source() -> None:
    # Every string of up to five characters blank() reacts to: quotes, escapes, comments and unclosed ends collide.
    alphabet = '#"`\\\nx'
    for size in range(6):
        for chosen in itertools.product(alphabet, repeat=size):
            source = "".join(chosen)
            assert blank(source) == _blank_per_character(source), repr(source)


def test_blank_equals_the_oracle_on_the_shipped_bundle() -> None:
    for path in sorted(REPO_ROOT.joinpath("policies").rglob("*.rego")):
        source = path.read_text(encoding="utf-8")
        assert blank(source) == _blank_per_character(source), path


def test_lint_accepts_partial_input_mocks() -> None:
    assert lint(TEST_FILE) == []


@each_case(
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
    source = TEST_FILE + '\ntest_ok if {\n\tfiles := [{"bucket": "ci"}]\n\tcore.review with input.files as files\n}\n'
    assert lint(source) == []


def test_named_rule_ids_ignore_comments_and_negations() -> None:
    body = find_test_rules(TEST_FILE)[0].body
    assert named_rule_ids(body, {"core.ci", "core.iac"}) == {"core.ci"}
    assert named_rule_ids('test_x if {\n # "core.ci"\n}\n', {"core.ci"}) == set()


# --- running tests through the engine, in a small bundle of our own ------------------------------

DEMO_POLICY = """# METADATA
# title: Demo
# description: Reviews CI files and big changes.
# custom:
#   version: 1.0.0
#   owner: security
#   rules: [demo.ci, demo.big]
package gatekeeper.policies.demo

import rego.v1

review contains {"rule": "demo.ci", "msg": "ci files changed", "paths": paths} if {
\tpaths := [f.path | some f in input.files; f.bucket == "ci"]
\tcount(paths) > 0
}

review contains {"rule": "demo.big", "msg": "big change"} if {
\tinput.summary.files > data.gatekeeper.params.max_files
}
"""

DEMO_TESTS = """package gatekeeper.policies.demo_test

import rego.v1
import data.gatekeeper.policies.demo

test_ci_reviewed if {
\tsome f in demo.review with input.files as [{"path": ".github/workflows/x.yml", "bucket": "ci"}]
\tf.rule == "demo.ci"
}

test_src_quiet if {
\tcount(demo.review) == 0 with input.files as [{"path": "src/a.go", "bucket": "src"}] with input.summary as {"files": 1}
}

test_wrong_expectation if {
\tsome f in demo.review with input.files as [{"path": "src/a.go", "bucket": "src"}]
\tf.rule == "demo.ci"
}

test_type_error if {
\tx := 1 + "a"
\tx == 2
}

todo_big_changes if {
\ttrue
}
"""


def make_bundle(root: Path, tests: dict[str, str], policy: str = DEMO_POLICY) -> Path:
    """A one-policy bundle with the shipped classification rules and the given test files."""
    import json

    root.mkdir(parents=True)
    (root / ".manifest").write_text(json.dumps({
        "revision": "test-1", "roots": ["gatekeeper"],
        "metadata": {"name": "demo", "policies": {"demo": {"default": True}}, "params": {"max_files": 3}},
    }))
    shutil.copy(POLICY_DIR / "classification.yaml", root / "classification.yaml")
    (root / "demo").mkdir()
    (root / "demo" / "policy.rego").write_text(policy)
    for name, text in tests.items():
        (root / "demo" / name).write_text(text)
    return root


def run(root: Path):  # type: ignore[no-untyped-def]
    from gatekeeper.policy.bundle import load_bundle
    from gatekeeper.testing.rego_tests import discover_test_files, run_test_files

    bundle = load_bundle(root, lint_tests=False)  # as `gatekeeper test` does: test files are checked per file
    return run_test_files(
        bundle, discover_test_files(bundle), candidates=frozenset({"demo.ci", "demo.big"}), timeout=20
    )


def test_pass_fail_error_and_skip_each_with_file_rule_and_line(tmp_path: Path) -> None:
    results = run(make_bundle(tmp_path / "b", {"policy_test.rego": DEMO_TESTS}))
    got = {r.name: (r.status, r.line) for r in results}
    assert got == {
        "test_ci_reviewed": ("pass", 6),
        "test_src_quiet": ("pass", 11),
        "test_wrong_expectation": ("fail", 15),
        "test_type_error": ("error", 20),
        "todo_big_changes": ("skip", 25),
    }
    assert all(r.file.endswith("demo/policy_test.rego") for r in results)
    by_name = {r.name: r for r in results}
    assert by_name["test_ci_reviewed"].rule_ids == ("demo.ci",)
    assert by_name["test_wrong_expectation"].rule_ids == ()  # a failing test covers nothing


def test_refused_file_is_reported_with_its_line_and_others_still_run(tmp_path: Path) -> None:
    bad = DEMO_TESTS.replace(
        "test_src_quiet if {",
        "test_whole_input if {\n\tcount(demo.review) == 0 with input as {\"files\": []}\n}\n\ntest_src_quiet if {",
    )
    root = make_bundle(
        tmp_path / "b", {"policy_test.rego": bad, "more_test.rego": DEMO_TESTS.replace("demo_test", "demo_more_test")}
    )
    results = run(root)
    refused = [r for r in results if r.file.endswith("policy_test.rego")]
    assert [(r.name, r.status, r.line) for r in refused] == [("refused", "error", 12)]
    assert "with input as" in refused[0].message
    others = {r.name: r.status for r in results if r.file.endswith("more_test.rego")}
    assert others["test_ci_reviewed"] == "pass"


def test_a_malformed_test_file_regopy_would_accept_is_one_syntax_error(tmp_path: Path) -> None:
    # regopy compiles this and drops `false`, so the test would pass; the runner refuses the file.
    broken = "package gatekeeper.policies.demo_test\n\nimport rego.v1\n\ntest_x if {\n\t1 == 1 )\n\tfalse\n}\n"
    more = DEMO_TESTS.replace("demo_test", "demo_more_test")
    results = run(make_bundle(tmp_path / "b", {"policy_test.rego": broken, "more_test.rego": more}))
    mine = [r for r in results if r.file.endswith("policy_test.rego")]
    assert [(r.name, r.status, r.line) for r in mine] == [("syntax", "error", 6)]
    assert "malformed Rego at 6:9" in mine[0].message and "`)` does not close `{` opened at 5:11" in mine[0].message
    others = {r.name: r.status for r in results if r.file.endswith("more_test.rego")}
    assert others["test_ci_reviewed"] == "pass"


def test_a_test_file_that_does_not_compile_is_one_error_at_its_line(tmp_path: Path) -> None:
    broken = "package gatekeeper.policies.demo_test\n\nimport rego.v1\n\ntest_x if {\n\tx := := 1\n}\n"
    results = run(make_bundle(tmp_path / "b", {"policy_test.rego": broken}))
    assert len(results) == 1
    assert results[0].status == "error"
    assert results[0].name == "compile"
    assert results[0].line == 6


def test_a_crashing_test_is_an_error_and_its_neighbours_still_report(tmp_path: Path) -> None:
    """A segfault inside the engine is pinned on the test that caused it (the lint is bypassed on purpose)."""
    import gatekeeper.testing.rego_tests as rego_tests

    crashing = DEMO_TESTS.replace(
        'test_type_error if {\n\tx := 1 + "a"\n\tx == 2\n}',
        'test_crash if {\n\tcount(demo.review) == 1 with input as '
        '{"files": [{"path": "a", "bucket": "ci"}], "summary": {"files": 1}}\n}',
    )
    root = make_bundle(tmp_path / "b", {"policy_test.rego": crashing})
    original = rego_tests.lint
    rego_tests.lint = lambda source, known=frozenset(): []  # type: ignore[assignment]
    # pytest's faulthandler would print each forked child's abort on our stderr; the crash is expected.
    was_enabled = faulthandler.is_enabled()
    faulthandler.disable()
    try:
        results = run(root)
    finally:
        rego_tests.lint = original
        if was_enabled and sys.__stderr__ is not None:
            faulthandler.enable(file=sys.__stderr__)
    got = {r.name: r.status for r in results}
    assert got["test_crash"] == "error"
    assert got["test_ci_reviewed"] == "pass" and got["test_src_quiet"] == "pass"


def test_without_tests_keeps_one_test_and_every_line_number() -> None:
    from gatekeeper.testing.rego_source import without_tests

    tests = find_test_rules(TEST_FILE)
    alone = without_tests(TEST_FILE, tests, keep="test_text")
    assert alone.count("\n") == TEST_FILE.count("\n")
    assert [t.name for t in find_test_rules(alone)] == ["test_text"]
    assert find_test_rules(alone)[0].line == 16
    assert "mock_files :=" in alone  # helper rules stay
