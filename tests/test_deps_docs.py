"""The `deps` policy 2.0.0 proposed in docs/dependencies.md compiles and passes its own tests."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from gatekeeper.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "dependencies.md"
METADATA = """# METADATA
# title: Dependency changes by what they move
# description: Proposed in docs/dependencies.md.
# custom:
#   version: 2.0.0
#   owner: security-engineering
#   rules:
{rules}
"""


def _block(marker: str) -> str:
    m = re.search(rf"<!-- rego:{marker} -->\n```rego\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert m is not None, marker
    return m.group(1)


def test_proposed_policy_passes_its_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(ROOT / "policies", bundle)
    policy = _block("policy")
    rules = sorted(set(re.findall(r'"(deps\.[a-z_]+)"', policy)))
    (bundle / "deps" / "policy.rego").write_text(
        METADATA.format(rules="\n".join(f"#     - {r}" for r in rules)) + policy)
    (bundle / "deps" / "policy_test.rego").write_text(_block("test"))
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    # Fixture cases go through the gate, which does not compute the delta yet: one clean case suffices here.
    shutil.copytree(ROOT / "fixtures" / "clean-src-change", fixtures / "clean-src-change")
    code = main(["test", "--policy", str(bundle), "--fixtures", str(fixtures), "--format", "json",
                 "--min-coverage", "0"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    out = captured.out
    report = json.loads(out)
    names = set(re.findall(r"^(test_\w+) if", _block("test"), re.MULTILINE))
    ran = {r["name"].rsplit(".", 1)[-1] for r in report["results"] if r["suite"] == "rego"}
    assert len(names) >= 15 and names <= ran and report["counts"]["fail"] == 0
    assert not [r for r in report["coverage"]["missing"] if r.startswith("deps.")]  # every proposed rule tested
