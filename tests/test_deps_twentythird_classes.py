"""Classes of misses the twenty-third blind set of bot update commits found (bench/deps_bumps_twentythird.tsv):
a project generated from a Copier template, whose answers file Renovate's copier manager bumps
(`.copier-answers.yml`: `_commit: v1.7.10` → `v1.7.11` under `_src_path: https://github.com/<owner>/template`, with the
workflows the template renders moved in the same commit; DeveloperC286/clean_git_history, 10 commits) — the file
named nothing, now the template is a dependency at `_commit`, both modes; Renovate's monorepo group subject
`update terraform monorepo to v1.15.6` read as the terraform manager's package `monorepo` (pascaliske/infrastructure)
— now a plain claim of the group; and two naming classes of the benchmark (bench/bench_deps_accuracy.py): a pnpm
override keyed by a version selector (`"minimatch@3.1.2": "10.2.6"`, Renovate's "update dependency minimatch@3.1.2 to
v10.2.6", Unleash/unleash) is its package, and a tool the delta knows by its bare name (`helm-schema`) is the one
Renovate's github-releases datasource names by its repository (`dadav/helm-schema`, bitwarden/helm-charts).
Real-shaped files, look-alikes and malformed input."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import hunks
from gatekeeper.deps.claims import Claim, claims
from gatekeeper.deps.copier import answers_hunks, parse_answers
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from tests.deltas import accuracy_bench as _bench
from tests.deltas import bench_change as _change
from tests.deltas import each_fast, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

ANSWERS_PATH = ".copier-answers.yml"
# A Rust project generated from its owner's template, in the shape Copier writes: keys sorted, a header comment.
ANSWERS = """\
# Changes here will be overwritten by Copier
_commit: v1.7.10
_src_path: https://github.com/octo-tools/project-template
project_name: line_checker
project_type: rust
uses_git: true
"""
WORKFLOW_PATH = ".github/workflows/ci.yml"
WORKFLOW = """\
name: Continuous Integration (CI)

on: pull_request

permissions:
  contents: read

jobs:
  formatting:
    runs-on: ubuntu-24.04
    steps:
      - name: Checkout code.
        uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0
      - name: Check formatting.
        run: make check-formatting
"""
TEMPLATE = "https://github.com/octo-tools/project-template"


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


def test_a_copier_template_update_names_the_template_in_both_modes(tmp_path: Path) -> None:
    files = {ANSWERS_PATH: ANSWERS, WORKFLOW_PATH: WORKFLOW}
    checkout = {"08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0":
                "93cb6efe18208431cddfb8368fd83d5badbf9bfd # v5.0.1"}
    tree, patch = _bumped(tmp_path, files, {ANSWERS_PATH: {"v1.7.10": "v1.7.11"}, WORKFLOW_PATH: checkout})
    for delta in (tree, patch):
        assert ("copier", TEMPLATE, "v1.7.10", "v1.7.11") in moves(delta), delta
        assert "actions/checkout" in {c.name for c in delta.changes}  # what the template rendered moved too
        assert not delta.problems, delta.problems
    change = next(c for c in tree.changes if c.ecosystem == "copier")
    assert (change.scope, change.direct) == ("build", True)


def test_a_changed_answer_beside_the_template_is_no_move(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {ANSWERS_PATH: ANSWERS}, {ANSWERS_PATH: {"uses_git: true": "uses_git: false"}})
    for delta in (tree, patch):
        assert not [c for c in delta.changes if c.ecosystem == "copier"], delta
        assert not delta.problems, delta.problems


def test_answers_files_are_recognised_by_copiers_names_only() -> None:
    for name in (".copier-answers.yml", ".copier-answers.yaml", "sub/.copier-answers.ci.yml",
                 "templates/.copier-answers.rust-template.yaml"):
        found = format_for(name)
        assert found is not None and found.name == ".copier-answers.yml", name
    for name in ("copier-answers.yml", ".copier-answers.yml.bak", "copier.yml", ".copier-answers.txt",
                 "docs/copier-answers.md"):
        found = format_for(name)
        assert found is None or found.name != ".copier-answers.yml", name


@each_case(("body", "expected"), [
    # quoted values, gh: shorthand, a git-describe ref
    ("_commit: 'v2.0.0'\n_src_path: \"gh:octo/template\"\n", [("gh:octo/template", "v2.0.0")]),
    ("_commit: v1.2.3-4-gabc1234\n_src_path: git@github.com:octo/template.git\n",
     [("git@github.com:octo/template.git", "v1.2.3-4-gabc1234")]),
    ("_src_path: ./local-template\n_commit: v1\n", []),  # a local folder: no ref anyone can pin
    ("_src_path: ~/templates/rust\n_commit: v1\n", []),
    ("_src_path: /srv/templates/rust\n_commit: v1\n", []),
    ("_src_path: https://github.com/octo/template\n", []),  # no ref recorded: nothing to move
    ("project_name: x\n", []),
    ("", []),
])
def test_the_whole_file_reader(body: str, expected: list[tuple[str, str]]) -> None:
    assert [(d.name, d.version) for d in parse_answers(ANSWERS_PATH, body.encode())] == expected


@each_case("body", ["- a list\n", "_commit: [v1, v2]\n_src_path: x\n: : :\n", "a: b\n---\nc: d\n"])
def test_a_malformed_answers_file_is_a_finding(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_answers(ANSWERS_PATH, body.encode())


def _side(*lines: str) -> bytes:
    return "\n".join(lines).encode()


def test_the_hunk_reader_needs_both_keys_beside_a_changed_one() -> None:
    c = hunks.CHANGED
    shown = _side(hunks.HUNK, "# Changes here will be overwritten by Copier", c + "_commit: v1.7.11",
                  f"_src_path: {TEMPLATE}", "project_name: line_checker")
    assert [(d.name, d.version) for d in answers_hunks(ANSWERS_PATH, shown)] == [(TEMPLATE, "v1.7.11")]
    # the source moved to another template (a fork): a move between names, read
    moved = _side(hunks.HUNK, "_commit: v1.7.11", c + "_src_path: https://github.com/evil/template")
    assert [d.name for d in answers_hunks(ANSWERS_PATH, moved)] == ["https://github.com/evil/template"]
    # a changed key whose partner the hunk does not show fails closed
    for alone in (_side(hunks.HUNK, c + "_commit: v1.7.11", "project_name: x"),
                  _side(hunks.HUNK, "_commit: v1.7.11", hunks.HUNK, c + "_src_path: gh:o/t")):
        with pytest.raises(ManifestError):
            answers_hunks(ANSWERS_PATH, alone)
    # a form this reader does not know, or a key twice, fails closed too
    for bad in (_side(hunks.HUNK, c + "_commit: !!python/object v1", "_src_path: gh:o/t"),
                _side(hunks.HUNK, c + "_commit: v1", "_commit: v2", "_src_path: gh:o/t"),
                _side(hunks.HUNK, c + "_commit: {a: 1}", "_src_path: gh:o/t")):
        with pytest.raises(ManifestError):
            answers_hunks(ANSWERS_PATH, bad)
    # an answer's change alone names nothing, and a nested `_commit` look-alike is no key of Copier's
    assert answers_hunks(ANSWERS_PATH, _side(hunks.HUNK, c + "uses_git: false", "  _commit: v9")) == []
    long = _side(hunks.HUNK, c + "_commit: " + "v" * 300_000, "_src_path: gh:o/t")
    each_fast([(lambda: answers_hunks(ANSWERS_PATH, long), "a long ref")], 1.0)


def test_a_changed_ref_whose_source_is_out_of_the_hunk_is_partial_from_the_patch(tmp_path: Path) -> None:
    # a hand-written answers file with the source far from the ref: the patch cannot say which template moved
    body = "_commit: v1.0.0\n" + "".join(f"answer_{i}: {i}\n" for i in range(12)) + f"_src_path: {TEMPLATE}\n"
    tree, patch = _bumped(tmp_path, {ANSWERS_PATH: body}, {ANSWERS_PATH: {"v1.0.0": "v1.1.0"}})
    assert moves(tree) == {("copier", TEMPLATE, "v1.0.0", "v1.1.0")}
    assert partial(patch, ANSWERS_PATH)


def test_renovates_monorepo_group_subject_is_a_plain_claim_of_the_group() -> None:
    assert claims("chore(deps): update terraform monorepo to v1.15.6") == (Claim("terraform", "1.15.6", True),)
    assert claims("Update typescript-eslint monorepo to v8.31.1 (#5657)") == \
        (Claim("typescript-eslint", "8.31.1", True),)
    # the terraform manager's own packages stay its claims, a name that merely starts with the word too
    assert claims("update terraform aws to v5.1.0") == (Claim("aws", "5.1.0"),)
    assert claims("update terraform monorepo-tools to v1.2.0") == (Claim("monorepo-tools", "1.2.0"),)


def test_the_benchmark_names_a_selector_override_by_its_package() -> None:
    bench = _bench()
    assert bench._same_name("minimatch@3.1.2", _change("npm", "minimatch"))
    assert bench._same_name("@babel/traverse@<7.23.2", _change("npm", "@babel/traverse"))
    assert not bench._same_name("minimatch@3.1.2", _change("npm", "glob"))
    assert not bench._same_name("@babel/traverse@7.23.2", _change("npm", "@babel"))  # the scope is no package
    assert not bench._same_name("minimatch@3.1.2", _change("pip", "minimatch"))


def test_the_benchmark_names_a_bare_tool_by_its_repository() -> None:
    bench = _bench()
    assert bench._same_name("dadav/helm-schema", _change("tool", "helm-schema"))
    assert not bench._same_name("dadav/helm-schema", _change("tool", "schema"))  # only the whole last part
    assert not bench._same_name("dadav/helm-schema", _change("docker", "helm-schema"))
    assert not bench._same_name("a/b/helm-schema", _change("tool", "helm-schema"))
    assert not bench._same_name("other/helm-docs", _change("tool", "helm-schema"))
