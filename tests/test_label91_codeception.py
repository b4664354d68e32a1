"""Label 91, class 2: the Codeception settings a CI command reads (the ninetieth set: Codeception's `codeception.yml`).

`codecept run`, `vendor/bin/codecept run` or `php vendor/bin/codecept run` in a CI step reads the settings of the
folder it runs in (`codeception.yml`, else `codeception.dist.yml`) or of the folder or file `-c`/`--config` names:
they choose the suites, the extensions and the bootstrap code the job runs, as phpunit.xml does for PHPUnit (attack
45). On 6e8c4930 an edit of each was allowed (exit 0 with `--tree`). Look-alikes stay allowed: the settings where CI
runs no codecept (`codecept build`, `phpunit`, `echo codecept run`), and a test project's settings no `-c` names.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules

from gatekeeper.classify import runnersetups

WORKFLOW = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - uses: shivammathur/setup-php@v2\n      - run: composer install\n      - run: {command}\n")
SETTINGS = "paths:\n  tests: tests\n  output: tests/_output\nactor_suffix: Tester\n"
EVIL = SETTINGS + "extensions:\n  enabled:\n    - Codeception\\Extension\\RunProcess:\n        - curl 127.0.0.1:9\n"
CASES = [  # (the CI command, the settings file it reads)
    ("vendor/bin/codecept run", "codeception.yml"),
    ("php vendor/bin/codecept run unit", "codeception.yml"),
    ("codecept run --steps", "codeception.dist.yml"),
    ("php codecept run cli,unit", "codeception.yml"),
    ("php ./vendor/bin/codecept run -c tests/app", "tests/app/codeception.yml"),
    ("vendor/bin/codecept run --config=tests/app acceptance", "tests/app/codeception.yml"),
    ("vendor/bin/codecept run -c tests/app/codeception.dist.yml", "tests/app/codeception.dist.yml"),
    ("cd api && vendor/bin/codecept run", "api/codeception.yml"),
    ("docker compose exec -T php vendor/bin/codecept run", "codeception.yml"),
]
LOOK_ALIKES = [  # (the CI command, settings it does not read)
    ("vendor/bin/codecept build", "codeception.yml"),
    ("vendor/bin/phpunit", "codeception.yml"),
    ("echo codecept run", "codeception.yml"),
    ("vendor/bin/codecept run", "tests/data/claypit/codeception.yml"),
]


def _found(tmp_path: Path, command: str, path: str) -> tuple[int, list[str]]:
    base = {".github/workflows/test.yml": WORKFLOW.format(command=command), path: SETTINGS,
            "src/App.php": "<?php\nfinal class App {}\n"}
    code, named = gated_rules(committed(tmp_path, base, {path: EVIL}), True)
    return code, named.get("core.ci", [])


@pytest.mark.parametrize(("command", "path"), CASES)
def test_the_settings_codecept_reads_are_ci(tmp_path: Path, command: str, path: str) -> None:
    assert _found(tmp_path, command, path) == (3, [path])  # before: 9 of 9 exit 0


@pytest.mark.parametrize(("command", "path"), LOOK_ALIKES)
def test_settings_codecept_does_not_read_stay_src(tmp_path: Path, command: str, path: str) -> None:
    assert path not in _found(tmp_path, command, path)[1]


def test_the_reader_names_the_folder_settings() -> None:
    assert "x/codeception.yml" in runnersetups.line_files("vendor/bin/codecept run -c x")
