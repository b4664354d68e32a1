"""Red team 21: a typo in a policy must never fail open.

regopy evaluates a misspelt input field (`input.summary.bucket.ci.files`), a misspelt field of a bound
variable (`f.tasg`), a misspelt `object.get` key or params key, a misspelt `data.gatekeeper...` path and a
misspelt entry point (`dey contains ...`) as undefined: the rule never fires and the gate allows. OPA's
compiler accepted every one of them (no input schema, value refs outside the bundle's packages are not
checked, an unread rule is legal). The base gate accepted each named attack below, and all but one
(`f.bukcet`: core still reviews, with no paths) silenced a review or deny on the inputs of this file
(with the manifest's max_new and allowed_models set); now the bundle is refused at load (exit 2, file:line:col).
Then a bounded, stratified sample of the generated typo mutants (tests/redteam21_mutants.py; the full census is in the
report): each is refused at load or decides at least as strictly as the shipped bundle on every fixture
input and on written review/deny inputs.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from bundlecopy import bundle_copy, edit, failure
from conftest import POLICY_DIR, REPO_ROOT
from gitrepo import GitRepo
from redteam21_inputs import fixture_inputs, variants
from redteam21_mutants import Mutant, mutants

from gatekeeper.cli import main
from gatekeeper.errors import PolicyError
from gatekeeper.policy import engine
from gatekeeper.policy.bundle import Bundle, load_bundle
from gatekeeper.policy.field_check import field_issues
from gatekeeper.policy.findings import findings_query
from gatekeeper.policy.ref_check import unknown_refs
from gatekeeper.policy.reference import compile_issues

ERROR, ALLOW = 2, 0


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


# (policy file, text, typo, why the shipped bundle's decision changes) — each allowed on the base bundle.
ATTACKS = [
    ("core/policy.rego", "input.summary.buckets.ci.files", "input.summary.bucket.ci.files", "core.ci never fires"),
    ("core/policy.rego", 'f.bucket in {"ci", "iac"}]', 'f.bukcet in {"ci", "iac"}]', "ci_or_iac is empty"),
    ("size/policy.rego", "deny contains finding if {\n\tinput.summary.tags.binary",
     "dney contains finding if {\n\tinput.summary.tags.binary", "the deny is never queried"),
    ("size/policy.rego", 'if "executable" in f.tags', 'if "executable" in f.tasg', "no binary executable found"),
    ("size/policy.rego", 'object.get(f, "new_mode", null)', 'object.get(f, "new_mdoe", null)',
     "a binary executable replaced in place unseen"),
    ("provenance/policy.rego", 'object.get(input.packet, "relay"', 'object.get(input.packet, "reay"',
     "metadata egress through the relay unseen"),
    ("provenance/policy.rego", "served := object.get(model, \"served\"", "served := object.get(model, \"sevred\"",
     "the relay's record is ignored"),
    ("sandbox/policy.rego", 'object.get(sandbox, "network", null)', 'object.get(sandbox, "netwrok", null)',
     "network reads as unknown"),
    ("deps/policy.rego", 'lib.param(data.gatekeeper.params, ["deps", "max_new"]',
     'lib.param(data.gatekeeper.params, ["deps", "max_nwe"]', "the manifest's max_new is ignored"),
    ("provenance/policy.rego", 'lib.param(data.gatekeeper.params, ["provenance", "allowed_models"]',
     'lib.param(data.gatekeeper.parmas, ["provenance", "allowed_models"]', "allowed_models never read"),
    ("lib/findings.rego", 'files_text(n) := "1 file" if n == 1', 'files_tetx(n) := "1 file" if n == 1',
     "a one-file finding has no message: it is dropped"),
]


@pytest.mark.parametrize(("module", "old", "new", "why"), ATTACKS, ids=[a[2][:40] for a in ATTACKS])
def test_named_typo_is_refused_at_its_line(tmp_path: Path, module: str, old: str, new: str, why: str) -> None:
    root = bundle_copy(tmp_path)
    line = edit(root / module, old, new)
    error = failure(root)
    at = [i for i in error.issues if i.file == str(root / module) and i.line == line]
    assert at, f"{why}: {[str(i) for i in error.issues]}"
    assert "regopy" not in at[0].message and error.hint


def test_a_misspelt_input_field_stops_the_gate_that_allowed_a_ci_change(
        tmp_path: Path, git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    root = bundle_copy(tmp_path)
    line = edit(root / "core" / "policy.rego", "input.summary.buckets.ci.files", "input.summary.buckets.ci.file")
    git_repo.write("README.md", "base\n")
    git_repo.commit()
    git_repo.write(".github/workflows/ci.yml", "on: push\njobs: {}\n")
    patch, packet = tmp_path / "c.diff", tmp_path / "p.json"
    git_repo.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == ALLOW
    capsys.readouterr()
    assert main(["gate", str(packet), "--patch", str(patch), "--policy", str(root)]) == ERROR  # base: 0 (allow)
    err = capsys.readouterr().err
    assert f"{root / 'core' / 'policy.rego'}:{line}:" in err and "input.summary.buckets.ci.file" in err


def test_a_misspelt_with_target_fails_gatekeeper_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`with input.filez as files` mocks nothing: a test asserting "no finding" then passes vacuously."""
    root = bundle_copy(tmp_path)
    test_file = root / "size" / "policy_test.rego"
    text = test_file.read_text()
    hit = re.search(r"with input\.files as", text)
    assert hit is not None
    test_file.write_text(text[:hit.start()] + "with input.filez as" + text[hit.end():])
    line = text[:hit.start()].count("\n") + 1
    shutil.copytree(REPO_ROOT / "fixtures" / "clean-src-change", tmp_path / "cases" / "clean-src-change")
    code = main(["test", "--policy", str(root), "--fixtures", str(tmp_path / "cases")])
    out = capsys.readouterr().out
    assert code != 0 and f"ERROR {test_file}:{line} compile:" in out and "undefined ref: input.filez" in out


def test_the_shipped_bundle_and_its_tests_have_no_unknown_field() -> None:
    bundle = load_bundle(POLICY_DIR, git_state=False)
    modules = dict(bundle.modules)
    for path in sorted(POLICY_DIR.rglob("*_test.rego")):
        modules[str(path)] = path.read_text()
    assert field_issues(modules, bundle.data()) == []


def test_an_optional_param_documented_in_a_comment_is_known(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    edit(root / "size" / "policy.rego", "max_files := lib.param(data.gatekeeper.params, [\"size\", \"max_files\"]",
         "max_files := lib.param(data.gatekeeper.params, [\"size\", \"max_filez\"]")
    bundle = load_bundle(root, git_state=False)
    modules = bundle.modules_for(["size"])
    (issue,) = field_issues(modules, bundle.data())
    assert issue.message.startswith("undefined param: params.size.max_filez")
    key = str(root / "size" / "policy.rego")
    modules[key] = "# params.size.max_filez: optional, falls back to 100\n" + modules[key]
    assert field_issues(modules, bundle.data()) == []


# --- the generated mutants: a bounded, stratified sample -------------------------------------------

PER_KIND = 6  # per kind of typo; the report gives the full census (every mutant, same rules)
_LEVELS = ("deny", "review")


def _sample() -> list[Mutant]:
    by_kind: dict[str, list[Mutant]] = defaultdict(list)
    for m in mutants(POLICY_DIR):
        if not m.file.endswith("_test.rego") and m.file != "lib/testing.rego":
            by_kind[m.kind].append(m)
    rng = random.Random(21)
    return [m for kind in sorted(by_kind) for m in rng.sample(by_kind[kind], min(PER_KIND, len(by_kind[kind])))]


SAMPLE = _sample()


@pytest.fixture(scope="module")
def shipped() -> tuple[Bundle, list[dict[str, Any]], list[tuple[int, frozenset[tuple[str, str]]]]]:
    bundle = load_bundle(POLICY_DIR, git_state=False)
    inputs = fixture_inputs(bundle, REPO_ROOT / "fixtures")
    inputs += [doc for base in inputs[:3] for doc in variants(base)]
    modules = bundle.modules_for(p.name for p in bundle.policies)
    return bundle, inputs, _decide(bundle, modules, inputs)


def _decide(bundle: Bundle, modules: Mapping[str, str], inputs: list[dict[str, Any]]
            ) -> list[tuple[int, frozenset[tuple[str, str]]]]:
    """Per input: outcome rank (0 allow, 1 review, 2 deny, 3 error: exit 2) and the blocking findings' rule ids."""
    query = findings_query(bundle.policies)
    try:
        values = engine.start_evaluating(modules, bundle.data(), inputs, query, timeout=60).result()
    except PolicyError:
        return [(3, frozenset())] * len(inputs)
    out = []
    for value in values:
        if not isinstance(value, dict):
            out.append((3, frozenset()))
            continue
        found = frozenset((level, f["rule"]) for levels in value.values() for level in _LEVELS
                          for f in (levels.get(level) or [[]])[0])
        out.append((2 if any(level == "deny" for level, _ in found) else 1 if found else 0, found))
    return out


def test_the_inputs_make_every_blocking_rule_fire(shipped: Any) -> None:
    bundle, _, decided = shipped
    fired = {rule for _, found in decided for _, rule in found}
    declared = {rule for info in bundle.policies for rule in info.rules}
    assert len(fired) >= 20 and fired <= declared, sorted(declared - fired)


@pytest.mark.parametrize("mutant", SAMPLE, ids=[m.id for m in SAMPLE])
def test_typo_mutant_is_refused_or_no_looser(mutant: Mutant, shipped: Any) -> None:
    bundle, inputs, before = shipped
    modules = bundle.modules_for(p.name for p in bundle.policies)
    key = str(POLICY_DIR / mutant.file)
    assert key in modules
    modules[key] = mutant.source
    if unknown_refs(modules) or field_issues(modules, bundle.data()):
        return  # refused at load, in milliseconds
    if compile_issues(modules, bundle.data(), timeout=60):
        return  # refused at load by OPA's compiler
    after = _decide(bundle, modules, inputs)
    for i, ((rank, found), (rank0, found0)) in enumerate(zip(after, before, strict=True)):
        if rank == 3:
            continue  # an evaluation error: the gate exits 2
        assert rank >= rank0 and found >= found0, (json.dumps(inputs[i]["summary"])[:200], found0 - found)
