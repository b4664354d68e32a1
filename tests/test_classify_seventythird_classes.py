"""The classes of misses the seventy-third label set found (bench/classify_accuracy/seventythird.tsv: 34 ordinary
repositories fetched for it, measured blind first), with the look-alikes they must leave alone; all path rules
(policies/classification.yaml).

- Stack project files named for a GHC version (`deps.haskell.stack-versions`, after `iac.folders`): conduit's
  `stack-9.10.yaml`, IHaskell's `stack/stack-9.6.yaml`, rpki-prover's `stack-8.10.yaml`, which `stack --stack-yaml`
  builds with (resolver, packages, extra-deps), and their locks. The older rule names only `stack-lts*`, `stack-ghc*`
  and `stack-nightly*`. Placed after every ci and iac rule, so `cloudformation/stack-1.yaml` and `k8s/stack-9.yaml`
  keep `iac`; a name of a purpose (`stack-prod.yaml`, a swarm or CloudFormation stack) is not taken. From a patch
  such a file is settled as `stack.yaml` is (red team 12, depsyaml.py): only when the patch shows all of it or Stack's
  own top-level keys; a template kept under the name and edited out of sight of its keys needs context. So are the
  older resolver names (`stack-lts-22.yaml`), which were settled `deps` by their name alone.
- The funding manifest of the FLOSS/fund specification at the root (`funding.json`, bandit's): community metadata,
  as `.github/FUNDING.yml` is (`other.governance`).
- The folder of Squad, a team of coding agents (`.squad/`, and its former name `.ai-team/`): agent charters, histories,
  routing, decisions and casting (quartznet's `.squad/agents/fenster/charter.md`); agent instructions, `other` with the
  guardrail tag, as `.claude/` is (`other.agent-instructions`, `guardrail.agents`). A CI or infrastructure file kept
  there keeps its bucket (those rules come first).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import two_commits
from incli import run_cli
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


# Real-shaped: the paths as the repositories keep them (conduit, IHaskell, rpki-prover, hackage-security, gloss).
STACK_REAL = [
    "stack-9.10.yaml",
    "stack/stack-9.6.yaml",
    "stack-8.10.yaml",
    "stack-9.6.yaml.lock",
    "stack-9.2.yaml",
]
# Generated: GHC versions 7.10 to 9.12, at the root, in a `stack/` folder and in a package folder, with their locks.
VERSIONS = ["7.10", "8.0", "8.2", "8.4", "8.6", "8.8", "8.10", "9.0", "9.2", "9.4", "9.6", "9.8", "9.10", "9.12",
            "9.6.7", "9"]
STACK_GENERATED = [folder + "stack-" + version + end for version in VERSIONS for folder in ("", "stack/", "conduit/")
                   for end in (".yaml", ".yaml.lock")]


@each_case("path", STACK_REAL + STACK_GENERATED)
def test_stack_project_files_named_for_a_ghc_version_are_deps(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == "deps"


_FILLER = "".join(f"  Queue{n}:\n    Type: AWS::SQS::Queue\n    Properties:\n      DelaySeconds: {n}\n"
                  for n in range(12))
CFN = f"AWSTemplateFormatVersion: '2010-09-09'\nResources:\n{_FILLER}  Fn:\n    Properties:\n      Timeout: 30\n"
_PINS = "".join(f"- pkg{n}-1.{n}.0\n" for n in range(12))
STACK = f"resolver: nightly-2025-03-14\npackages:\n- conduit\n- resourcet\nextra-deps:\n{_PINS}- acme-1.2.0\n"


def _classify_patch(tmp_path: Path, path: str, base: str, head: str) -> dict[str, object]:
    repo, first, second = two_commits(tmp_path / "repo", {"README.md": "x\n", path: base}, {path: head})
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", first, second))
    done = run_cli(["classify", patch, "--policy", POLICY_DIR, "--format", "json"], text=True)
    return {f["path"]: f for f in json.loads(str(done.stdout))["files"]}[path]


@each_case("path", ["stack/stack-9.6.yaml", "stack-lts-22.yaml"])
def test_a_template_under_a_stack_name_edited_out_of_sight_needs_context(tmp_path: Path, path: str) -> None:
    found = _classify_patch(tmp_path, path, CFN, CFN.replace("Timeout: 30", "Timeout: 900"))
    assert found["bucket"] == "deps" and "needs-context" in found["tags"], found


@each_case("path", ["stack-9.10.yaml"])
def test_an_ordinary_stack_bump_stays_settled(tmp_path: Path, path: str) -> None:
    found = _classify_patch(tmp_path, path, STACK, STACK.replace("acme-1.2.0", "acme-1.3.0"))
    assert found["bucket"] == "deps" and "needs-context" not in found["tags"], found


FUNDING = ["funding.json"]


@each_case("path", FUNDING)
def test_the_root_funding_manifest_is_community_metadata(rules: RuleSet, path: str) -> None:
    assert (rules.match(path).bucket, rules.match(path).rule) == ("other", "other.governance")


SQUAD_REAL = [
    ".squad/agents/fenster/charter.md",
    ".squad/agents/fenster/history.md",
    ".squad/team.md",
    ".squad/routing.md",
    ".squad/decisions.md",
    ".squad/ceremonies.md",
    ".squad/casting/registry.json",
    ".squad/casting/policy.json",
    ".squad/identity/now.md",
    ".squad/log/2026-03-01.md",
    ".squad/decisions/inbox/dallas-sprint2-commands.md",
    ".squad/skills/worker-redeploy/SKILL.md",
    ".squad/config.json",
    ".ai-team/team.md",
    ".ai-team/agents/keaton/charter.md",
]


@each_case("path", SQUAD_REAL)
def test_the_squad_folder_is_agent_instructions(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule, "guardrail" in match.tags) == ("other", "other.agent-instructions", True)


# Look-alikes: names of a purpose, infrastructure folders, CI folders, test data and vendored copies keep their
# bucket; a CI or infrastructure file kept in the Squad folder keeps its kind; funding data below the root, Squad's
# folder below the root and a folder merely named squad stay what they were.
KEPT = [
    ("stack-prod.yaml", "src"),
    ("stack-bench.yaml", "src"),
    ("cloudformation/stack-1.yaml", "iac"),
    ("k8s/stack-9.yaml", "iac"),
    ("deploy/stack-9.2.yaml", "iac"),
    ("infra/stack-9.yaml", "iac"),
    ("charts/app/templates/stack-9.yaml", "iac"),
    (".github/workflows/stack-9.2.yaml", "ci"),
    ("ci/stack-9.2.yaml", "ci"),
    ("testdata/stack-9.2.yaml", "src"),
    ("vendor/github.com/x/stack-9.2.yaml", "deps"),
    ("stack-9.2.yml.bak", "src"),
    ("mystack-9.2.yaml", "src"),
    ("src/funding.json", "src"),
    ("web/public/funding.json", "src"),
    ("funding.js", "src"),
    (".squad/Dockerfile", "iac"),
    (".squad/main.tf", "iac"),
    (".squad/.gitlab-ci.yml", "ci"),
    ("docs/.squad/team.md", "src"),
    ("squad/team.md", "src"),
    ("src/Squad/Team.cs", "src"),
    (".github/agents/squad.agent.md", "other"),
]


@each_case("path, bucket", KEPT)
def test_look_alikes_keep_their_bucket(rules: RuleSet, path: str, bucket: str) -> None:
    assert rules.match(path).bucket == bucket
