"""The lexical Rego check: malformed forms regopy accepts and truncates are refused at their line:col.

Unit checks of `find_error`, then the gate and the test runner on a broken copy of the shipped
bundle: the gate must never allow (exit 2 naming the file), `gatekeeper test` reports the file.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import POLICY_DIR, REPO_ROOT
from gitrepo import GitRepo
from incli import run_cli
from tables import each_case

from gatekeeper.errors import PolicyError
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.rego_lint import check_source, find_error

GATEKEEPER = [sys.executable, "-m", "gatekeeper"]
CORE_LINE = "\tinput.summary.buckets.ci.files > 0\n"  # line 20 of policies/core/policy.rego

BODY = """package t

import rego.v1

review contains f if {{
{line}
\tf := 1
}}
"""


def _body(line: str) -> str:
    return BODY.format(line=line)


@each_case(
    ("line", "where", "needle"),
    [
        ("\tinput.a > 0 )", (6, 14), "`)` does not close `{` opened at 5:22"),
        ("\tinput.a > 0 ]", (6, 14), "`]` does not close `{` opened at 5:22"),
        ("\tinput.a >", (6, 10), "ends in `>`"),
        ("\tx := input.a ==", (6, 15), "ends in `==`"),
        ("\tx := input.a !=", (6, 15), "ends in `!=`"),
        ("\tinput.a <", (6, 10), "ends in `<`"),
        ("\tinput.a <=", (6, 10), "ends in `<=`"),
        ("\tinput.a >=", (6, 10), "ends in `>=`"),
        ("\tx := 1 +", (6, 9), "ends in `+`"),
        ("\tx := 1 -", (6, 9), "ends in `-`"),
        ("\tx := 2 *", (6, 9), "ends in `*`"),
        ("\tx := 2 /", (6, 9), "ends in `/`"),
        ("\tx := 2 %", (6, 9), "ends in `%`"),
        ("\tx := {1} &", (6, 11), "ends in `&`"),
        ("\tx := {1} |", (6, 11), "ends in `|`"),
        ("\tx :=", (6, 4), "ends in `:=`"),
        ("\tx =", (6, 4), "ends in `=`"),
        ("\tinput.a > 0,", (6, 13), "ends in `,` outside brackets"),
        ("\tx := \"abc", (6, 7), "unterminated string"),
        ("\tx := \"a\\\"", (6, 7), "unterminated string"),
        ("\tx := count([1, 2 +])", (6, 19), "`+` has no right operand"),
        ("\tx := [1, 2)", (6, 12), "`)` does not close `[` opened at 6:7"),
    ],
)
def test_malformed_forms_are_found_at_their_line_and_column(line: str, where: tuple[int, int], needle: str) -> None:
    error = find_error(_body(line))
    assert error is not None
    assert (error.line, error.column) == where
    assert needle in error.message
    assert error.hint


def test_stray_closer_at_top_level_and_unclosed_opener() -> None:
    stray = find_error("package t\n\nx := 1 )\n")
    assert stray is not None and (stray.line, stray.column) == (3, 8) and "no matching `(`" in stray.message
    unclosed = find_error("package t\n\np if {\n\ttrue\n")
    assert unclosed is not None and (unclosed.line, unclosed.column) == (3, 6) and "never closed" in unclosed.message
    raw = find_error("package t\n\nx := `abc\n")
    assert raw is not None and (raw.line, raw.column) == (3, 6) and "unterminated raw string" in raw.message


def test_newlines_inside_brackets_and_literals_are_free() -> None:
    source = """package t

import rego.v1

# a comment with ) ] } and a trailing operator >
limits := {
\t"ci": 1,
\t"iac": 2,
}

review contains msg if {
\tx := count([f |
\t\tsome f in input.files
\t\tf.bucket == "ci"
\t]) + sum([
\t\t1,
\t\t2,
\t])
\ty := {k: v |
\t\tsome k, v in limits
\t\tv > 0
\t}
\tevery f in input.files {
\t\tf.bucket != "x"
\t}
\t{1, 2} == {2, 1}
\tmsg := sprintf("%s ) ] } # not a comment %d", [`raw ) ]
with a newline`, x + count(y)])
}

deny[msg] {
\tmsg := "v0 style body"
} else = "other" {
\ttrue
}
"""
    assert find_error(source) is None


@each_case("path", sorted(POLICY_DIR.rglob("*.rego")), ids=lambda p: p.relative_to(POLICY_DIR).as_posix())
def test_every_shipped_module_passes(path: Path) -> None:
    assert find_error(path.read_text(encoding="utf-8")) is None


def test_the_docs_example_modules_pass() -> None:
    blocks = []
    for page in [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]:
        blocks += re.findall(r"^```rego\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)
    assert blocks, "the docs show Rego modules"
    for block in blocks:
        assert find_error(block) is None, block


def test_check_source_raises_policy_error_with_file_line_col() -> None:
    with pytest.raises(PolicyError) as raised:
        check_source(_body("\tinput.a > 0 )"), "p.rego")
    assert raised.value.where == "p.rego:6:14"
    assert "malformed Rego" in raised.value.what and raised.value.hint


# --- a broken copy of the shipped bundle ----------------------------------------------------------


@pytest.fixture
def bundle_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "policies"
    shutil.copytree(POLICY_DIR, folder)
    return folder


@pytest.fixture(scope="module")
def ci_change(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real change to a CI workflow: the shipped core policy says review. Made once for the module's four gates
    (they only read the packet and the patch)."""
    tmp_path = tmp_path_factory.mktemp("ci-change")
    git_repo = GitRepo(tmp_path / "repo")
    git_repo.write("README.md", "x\n")
    git_repo.commit()
    git_repo.write(".github/workflows/ci.yml", "on: push\n")
    patch = git_repo.save_patch(tmp_path / "ci.diff")
    packet = tmp_path / "ci.json"
    done = run_cli(["packet", patch, "--out", packet, "--policy", POLICY_DIR])  # setup, in-process
    assert done.returncode == 0, done.stderr
    return packet, patch


def _gate(packet: Path, patch: Path, policy: Path) -> subprocess.CompletedProcess[str]:
    """The gate as a real process (test_gate_refuses_a_bundle_whose_lib_is_broken: the CLI boundary)."""
    return subprocess.run([*GATEKEEPER, "gate", str(packet), "--patch", str(patch), "--policy", str(policy)],
                          capture_output=True, text=True, check=False, timeout=120)


def _gate_in(packet: Path, patch: Path, policy: Path) -> subprocess.CompletedProcess[str]:
    """The gate in-process: the lint's exit code and located line are decided in Python."""
    return run_cli(["gate", packet, "--patch", patch, "--policy", policy], text=True)  # type: ignore[return-value]


BREAKS = {
    "paren": (CORE_LINE, "\tinput.summary.buckets.ci.files > 0 )\n", 23, 37),
    "bracket": (CORE_LINE, "\tinput.summary.buckets.ci.files > 0 ]\n", 23, 37),
    "operator": (CORE_LINE, "\tinput.summary.buckets.ci.files >\n\t0\n", 23, 33),
}


@pytest.mark.parametrize("kind", sorted(BREAKS))
def test_gate_refuses_a_broken_policy_instead_of_allowing(
    kind: str, bundle_copy: Path, ci_change: tuple[Path, Path]
) -> None:
    packet, patch = ci_change
    assert _gate_in(packet, patch, bundle_copy).returncode == 3  # the intact copy asks for review
    old, new, line, column = BREAKS[kind]
    module = bundle_copy / "core" / "policy.rego"
    text = module.read_text(encoding="utf-8")
    assert text.count(old) == 1
    module.write_text(text.replace(old, new), encoding="utf-8")
    done = _gate_in(packet, patch, bundle_copy)
    assert done.returncode == 2, done.stdout
    assert f"{module}:{line}:{column}: malformed Rego" in done.stderr
    assert "Traceback" not in done.stderr


def _break_test_file(bundle: Path) -> Path:
    test_file = bundle / "core" / "policy_test.rego"
    with test_file.open("a", encoding="utf-8") as out:
        out.write("\ntest_broken if {\n\t1 == 1 )\n\tfalse\n}\n")
    return test_file


def test_a_broken_test_file_is_an_error_of_that_file(bundle_copy: Path) -> None:
    test_file = _break_test_file(bundle_copy)
    line = test_file.read_text(encoding="utf-8").splitlines().index("\t1 == 1 )") + 1
    # Two other test files still run beside it (size, guardrails); the three largest (deps, provenance, sandbox:
    # 395 of the 548 lines, ~40% of the child's CPU) restate that and are dropped from this copy.
    for other in ("deps", "provenance", "sandbox"):
        (bundle_copy / other / "policy_test.rego").unlink()
    # From the bundle's folder, where no ./fixtures is: the Rego unit tests only (from the repository's root the
    # default ./fixtures added its 55 cases, ~2.5 CPU-s, none of them about test files).
    done = run_cli(["test", "--policy", bundle_copy, "--format", "json"], cwd=bundle_copy.parent, text=True)
    assert done.returncode == 1, done.stderr
    results = json.loads(done.stdout)["results"]
    errors = [r for r in results if r["status"] == "error"]
    assert [(r["file"], r["name"], r["line"]) for r in errors] == [(str(test_file), "syntax", line)]
    assert f"{line}:9" in errors[0]["message"] and "`)` does not close `{`" in errors[0]["message"]
    assert not any(r["name"] == "test_broken" and r["status"] == "pass" for r in results)
    ran = {r["file"] for r in results if r["status"] == "pass"}
    assert {str(bundle_copy / other / "policy_test.rego") for other in ("size", "guardrails")} <= ran  # still ran


def test_loading_the_bundle_refuses_a_broken_test_file_unless_the_runner_takes_it(bundle_copy: Path) -> None:
    test_file = _break_test_file(bundle_copy)
    with pytest.raises(PolicyError) as raised:
        load_bundle(bundle_copy)
    assert raised.value.where is not None and raised.value.where.startswith(f"{test_file}:")
    assert load_bundle(bundle_copy, lint_tests=False).name  # `gatekeeper test` reports it per file instead


def test_gate_refuses_a_bundle_whose_lib_is_broken(bundle_copy: Path, ci_change: tuple[Path, Path]) -> None:
    lib = bundle_copy / "lib" / "findings.rego"
    lib.write_text(lib.read_text(encoding="utf-8") + "\nbroken := [1, 2\n", encoding="utf-8")
    done = _gate(*ci_change, bundle_copy)
    assert done.returncode == 2 and f"{lib}:" in done.stderr and "never closed" in done.stderr


# -- rule_heads: which rules a module defines (the gate refuses a policy that defines no finding rule) ----


@each_case(
    ("source", "heads"),
    [
        ("package p\nimport rego.v1\n\nreview contains f if {\n\tf := 1\n}\n", {"review"}),
        ("package p\n\ndefault deny := []\nwarn contains 1 if true\n", {"deny", "warn"}),
        # Inside bodies, comments, strings and literals a name is not a rule head.
        ("package p\n\nx if {\n\tdeny := 1\n\treview := deny\n}\n# deny contains x\ny := \"\\ndeny\"\n", {"x", "y"}),
        ("package p\n\nz := {\n\t\"deny\": 1,\n\treview: 2,\n}\nt := `\ndeny\n`\n", {"z", "t"}),
        ("package p\n\nr.deny contains 1 if true\n", {"r"}),
        ("package p\nimport data.x.deny\n", set()),
    ],
)
def test_rule_heads(source: str, heads: set[str]) -> None:
    from gatekeeper.policy.rego_lint import find_error, rule_heads

    assert find_error(source) is None
    assert rule_heads(source) == heads


def test_rule_heads_of_every_shipped_policy_include_a_finding_level() -> None:
    from gatekeeper.policy.rego_lint import rule_heads

    for module in POLICY_DIR.glob("*/policy.rego"):
        assert rule_heads(module.read_text()) & {"deny", "review", "warn"}, module
