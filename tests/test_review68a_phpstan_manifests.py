"""Review 68a: the composer.json PHPStan's registered classes are mapped through (lintplugins._phpstan_classes).

On 58f4e83c a composer.json that could not be read (past FULL_READ: padded `extra`, or not JSON) mapped no class, so
every rule class PHPStan builds named nothing and its edit stayed `src`. A class is now read as composerscripts reads
a callback no map gives: `*/Short.php` and `Short.php` (fail closed). A readable map still decides (PHPStan's own
rules, mapped by no prefix, name nothing)."""

from __future__ import annotations

import json

from citools import tree_runs
from tables import each_case

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: composer install\n"
            "      - run: vendor/bin/phpstan analyse\n")
NEON = "rules:\n    - App\\PHPStan\\Rules\\NoDump\n    - PHPStan\\Rules\\Functions\\CallToFunction\n"
PADDED = json.dumps({"name": "a/b", "extra": {"pad": "x" * (1 << 20)}, "autoload": {"psr-4": {"App\\": "src/"}}})


@each_case("manifest", [PADDED, '{"name": "a/b", "autoload": {"psr-4": {"App\\\\": "src/"}},}',
                        '{"name": "a/b", "autoload": ' + "[" * 100 + "]" * 100 + "}"])
def test_an_unreadable_composer_json_names_the_classes_files(manifest: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "phpstan.neon": NEON, "composer.json": manifest,
             "src/PHPStan/Rules/NoDump.php": "<?php\nclass NoDump {}\n", "README.md": "x\n"}
    assert "src/PHPStan/Rules/NoDump.php" in tree_runs(files)  # before: 3 of 3 missed


def test_a_readable_map_still_decides() -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "phpstan.neon": NEON,
             "composer.json": json.dumps({"name": "a/b", "autoload": {"psr-4": {"Other\\": "lib/"}}}),
             "src/PHPStan/Rules/NoDump.php": "<?php\n", "src/CallToFunction.php": "<?php\n", "README.md": "x\n"}
    assert not {"src/PHPStan/Rules/NoDump.php", "src/CallToFunction.php"} & tree_runs(files)
