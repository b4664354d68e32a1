"""classify.ruleset.load_rules: the same rules bytes in another folder reuse the compiled glob index, not the rules."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from conftest import POLICY_DIR

from gatekeeper.classify.glob import ANY, compile_glob
from gatekeeper.classify.rules import Rule
from gatekeeper.classify.ruleset import COPY_RULES, REVIEWED, TEST_DATA, YIELDS_TO_COPY, RuleSet, load_rules
from gatekeeper.model import BUCKETS


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


def _reference_fields(rules: tuple[Rule, ...], tag_rules: tuple[Rule, ...]) -> dict[str, object]:
    """The RuleSet's derived masks as plain per-glob loops compute them (what RuleSet.build must equal)."""
    globs = [(position, glob) for position, rule in enumerate(rules) for glob in rule.globs]
    owner = [position for position, _ in globs] + [p for p, rule in enumerate(tag_rules) for _ in rule.globs]
    first_tag_bit = len(globs)
    open_bits = typed_bits = reviewed_bits = 0
    for bit, (position, glob) in enumerate(globs):
        reviewed = rules[position].bucket in REVIEWED
        reviewed_bits |= reviewed << bit
        if glob.base not in (ANY, "*"):
            if reviewed:
                typed_bits |= 1 << bit
            elif glob.base.endswith("*"):
                open_bits |= 1 << bit
    total = len(owner)

    def bits_of(ids: tuple[str, ...]) -> int:
        return sum(1 << bit for bit in range(first_tag_bit) if rules[owner[bit]].id.startswith(ids))

    return {"_owner": tuple(owner), "_first_tag_bit": first_tag_bit, "_bucket_bits": (1 << first_tag_bit) - 1,
            "_open_bits": open_bits, "_is_open": tuple(bool(open_bits >> bit & 1) for bit in range(total)),
            "_typed_bits": typed_bits, "_reviewed_bits": reviewed_bits,
            "_test_data": frozenset(i for i, rule in enumerate(rules) if rule.id.startswith(TEST_DATA)),
            "_yields": bits_of(YIELDS_TO_COPY), "_copy_bits": bits_of(COPY_RULES)}


def _generated_rules(seed: int) -> tuple[tuple[Rule, ...], tuple[Rule, ...]]:
    """Rule lists of every shape the masks tell apart: buckets reviewed or not, open (`x*`), catch-all (`**`, `*`)
    and exact bases, ids of the yielding and copy families and look-alikes (`testdatax`, `deps.vendoredx` is one),
    rules of one glob or many, tag rules of any size after them."""
    rng = random.Random(seed)
    ids = [*YIELDS_TO_COPY, *COPY_RULES, "testdatax.a", "src.e2e-dat", "deps.vendor", "ci.x", "iac.y", "other.z"]
    bases = ["**", "*", "a*", "*.tf", "Dockerfile", "x?y", "[ab]*", "go.mod*"]
    folders = ["", "**/", "ci/", "a/**/", "vendor/"]

    def rule(number: int, tags: bool) -> Rule:
        patterns = tuple(rng.choice(folders) + rng.choice(bases) for _ in range(rng.choice((1, 1, 2, 3, 7))))
        rule_id = f"{rng.choice(ids)}.{number}" if rng.random() < 0.7 else rng.choice(ids)
        return Rule(rule_id, None if tags else rng.choice(BUCKETS), "d", patterns,
                    tuple(compile_glob(p) for p in patterns), None, frozenset({"t"}) if tags else frozenset(), "s", 1)

    return (tuple(rule(n, False) for n in range(rng.randrange(1, 40))),
            tuple(rule(n, True) for n in range(rng.randrange(0, 6))))


def test_the_built_masks_equal_a_plain_loop_over_every_glob() -> None:
    # RuleSet.build works its masks out per rule, not per glob bit (a cold gate builds ~4,800 bits): the same masks.
    shipped = load_rules(POLICY_DIR)
    cases = [(shipped.rules, shipped.tag_rules), *(_generated_rules(seed) for seed in range(200))]
    for rules, tag_rules in cases:
        built = RuleSet.build(rules, tag_rules, digest="d", sources=("s",))
        for name, value in _reference_fields(rules, tag_rules).items():
            assert getattr(built, name) == value, name
