"""Review 68b: PHPStan's `conditionalTags:` registers a project class as a rule (lintplugins._phpstan_classes).

`conditionalTags: App\\PHPStan\\MyRule: {phpstan.rules.rule: %featureToggle%}` tags a service PHPStan builds from the
project's autoload map, as `rules:` and `services:` do (misses 8 read those two sections only). On 58f4e83c an edit of
the class was allowed (exit 0) when CI runs `phpstan analyse`. Look-alike: a class no autoload prefix maps (PHPStan's
own) names nothing.
"""

from __future__ import annotations

import json

from citools import tree_runs
from tables import each_case

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
COMPOSER = json.dumps({"autoload": {"psr-4": {"App\\": "src/"}}})
PHP = "<?php\nnamespace App\\PHPStan;\nclass MyRule {}\n"
NEONS = [
    "conditionalTags:\n  App\\PHPStan\\MyRule:\n    phpstan.rules.rule: %featureToggles.x%\n",
    "services:\n  - class: Other\\Vendor\\Thing\nconditionalTags:\n  \\App\\PHPStan\\MyRule:\n"
    "    phpstan.rules.rule: true\nparameters:\n  level: 5\n",
]


@each_case("command, neon", [(c, n) for c in ("vendor/bin/phpstan analyse", "composer exec phpstan analyse")
                             for n in NEONS])
def test_a_conditionally_tagged_rule_is_read(command: str, neon: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "composer.json": COMPOSER,
            "phpstan.neon": neon, "src/PHPStan/MyRule.php": PHP}
    assert "src/PHPStan/MyRule.php" in tree_runs(tree), neon  # before: 4 of 4 missed


def test_a_class_no_prefix_maps_names_nothing() -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command="vendor/bin/phpstan analyse"),
            "composer.json": COMPOSER, "src/PHPStan/MyRule.php": PHP,
            "phpstan.neon": "conditionalTags:\n  PHPStan\\Rules\\Foo:\n    phpstan.rules.rule: true\n"}
    assert "src/PHPStan/MyRule.php" not in tree_runs(tree)
