"""The shipped bundle follows Regal's style rules: `_test` packages, lib functions that read only their
arguments, lines within 120 columns, and test helpers that a gate never loads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bundlecopy import ALL, bundle_copy, edit, failure
from conftest import POLICY_DIR
from tables import each_case

from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.metadata import package_of
from gatekeeper.testing.rego_source import blank

REGO_FILES = sorted(POLICY_DIR.rglob("*.rego"))
MAX_COLUMNS = 120  # Regal's line-length default


def test_the_bundle_has_rego_files() -> None:
    assert len(REGO_FILES) >= 14


@each_case("path", REGO_FILES, ids=lambda p: p.relative_to(POLICY_DIR).as_posix())
def test_lines_stay_within_120_columns(path: Path) -> None:
    # Tabs count as one column, as Regal counts them.
    long = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if len(line) > MAX_COLUMNS]
    assert long == []


@each_case("path", sorted(POLICY_DIR.rglob("*_test.rego")), ids=lambda p: p.parent.name)
def test_tests_live_in_a_test_package(path: Path) -> None:
    found = package_of(path.read_text(encoding="utf-8"))
    assert found is not None
    assert found[0] == f"gatekeeper.policies.{path.parent.name}_test"


def _function_bodies(source: str) -> str:
    """Everything but comments and string literals (their text may name input or data)."""
    code = blank(source)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', code)


@pytest.mark.parametrize("path", sorted((POLICY_DIR / "lib").glob("*.rego")), ids=lambda p: p.name)
def test_lib_functions_read_only_their_arguments(path: Path) -> None:
    code = _function_bodies(path.read_text(encoding="utf-8"))
    assert re.findall(r"\binput\b|\bdata\.", code) == []


def test_the_checks_see_what_they_forbid() -> None:
    code = _function_bodies('# input here is a comment\nf(x) := "input" if x\ng := input.files\nh := data.x\n')
    assert re.findall(r"\binput\b|\bdata\.", code) == ["input", "data."]


def test_a_gate_never_loads_the_test_helpers() -> None:
    bundle = load_bundle(POLICY_DIR)
    helpers = str(POLICY_DIR / "lib" / "testing.rego")
    assert helpers in bundle.modules  # what `gatekeeper test` loads
    assert helpers not in bundle.modules_for(ALL)
    assert str(POLICY_DIR / "lib" / "findings.rego") in bundle.modules_for(ALL)


def test_a_policy_that_needs_the_test_helpers_cannot_gate(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    policy = root / "size" / "policy.rego"
    edit(policy, "import data.gatekeeper.lib\n", "import data.gatekeeper.lib\nimport data.gatekeeper.lib.testing\n")
    policy.write_text(policy.read_text() + '\nreview contains lib.finding("size.files", "x") if {\n'
                      '\tcount(testing.buckets) > 0\n}\n')
    found = failure(root)  # the gate's compile check: exit 2, never an evaluation without the helper
    assert "size/policy.rego:" in str(found) and "undefined ref: testing.buckets" in str(found)
