"""classify.ruleset.load_rules: the same rules bytes in another folder reuse the compiled glob index, not the rules."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import POLICY_DIR

from gatekeeper.classify.ruleset import load_rules


def test_a_copy_of_the_bundle_elsewhere_shares_the_index_and_keeps_its_own_sources(tmp_path: Path) -> None:
    # A --tree gate exports BASE's bundle to a new temporary folder each run: the globs are the same, compiled once.
    one, two = shutil.copytree(POLICY_DIR, tmp_path / "one"), shutil.copytree(POLICY_DIR, tmp_path / "two")
    first, second = load_rules(one), load_rules(two)
    assert first is not second and first.digest == second.digest
    assert first._index is second._index
    assert first.source.startswith(str(tmp_path / "one")) and second.source.startswith(str(tmp_path / "two"))
    assert {r.source for r in second.rules} <= set(second.sources)
    for path in ("src/main.go", ".github/workflows/ci.yml", "Jenkinsfile", "go.mod", "docs/a.md", "x/y/z.tf"):
        assert first.match(path) == second.match(path)
        assert [h.rule.id for h in first.explain(path)] == [h.rule.id for h in second.explain(path)]
    # One changed byte is another digest: its own index.
    rules = two / "classification.yaml"
    rules.write_bytes(rules.read_bytes() + b"\n# edited\n")
    assert load_rules(two)._index is not first._index
