"""Red team 36: a file whose lines a workflow appends to `$GITHUB_ENV` or `$GITHUB_PATH`.

GitHub's runner reads the file `$GITHUB_ENV` names after each step and sets every `NAME=value` line in the environment
of the job's later steps; `$GITHUB_PATH`'s lines go before PATH. So `cat build/ci.env >> "$GITHUB_ENV"` lets
`build/ci.env` set `BASH_ENV` (a script bash runs before every later `run:`), `LD_PRELOAD` or `NODE_OPTIONS=--require`,
and `cat build/ci.path >> "$GITHUB_PATH"` puts a folder of the repository before the system's programs: code of the
change runs in the job with its token and secrets. A script a step runs by path was `ci.context.ci-run`, as was a file
it sources; a file it hands to the runner's environment was `src`, and `gate --tree` allowed (exit 0) an edit adding
`BASH_ENV=./build/hook.sh`. A path written as a value (`echo "APP_CONFIG=config/app.yml"`) feeds nothing: that file
stays what it was.

Each variant is one real repository, git's own patch and the CLI's packet, gated by the default policy with --tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

WORKFLOW = ("on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "{step}      - run: make test\n")
ENV = "CI=1\n"
EVIL_ENV = ENV + "BASH_ENV=./build/hook.sh\n"


def _run(command: str, path: str = "build/ci.env", old: str = ENV, new: str = EVIL_ENV):
    return {".github/workflows/ci.yml": WORKFLOW.format(step=f"      - run: {command}\n"), path: old}, path, new


VARIANTS = {
    "cat-env": _run('cat build/ci.env >> "$GITHUB_ENV"'),
    # docs review 52: the file copied over the one $GITHUB_ENV names is the job's environment file
    "cp-env": _run('cp build/ci.env "$GITHUB_ENV"'),
    "install-path": _run("install -m 644 build/ci.path $GITHUB_PATH", "build/ci.path", "/opt/tool/bin\n",
                         "./tools/shims\n/opt/tool/bin\n"),
    "grep-env-braces": _run("grep -v '^#' build/ci.env >> ${GITHUB_ENV}"),
    "no-extension": _run('cat build/ci-vars | tee -a "$GITHUB_ENV"', "build/ci-vars"),
    "while-read-block": ({".github/workflows/ci.yml": WORKFLOW.format(
        step='      - run: |\n          while read -r line; do\n            echo "$line" >> "$GITHUB_ENV"\n'
             "          done < config/ci.env\n"), "config/ci.env": ENV}, "config/ci.env", EVIL_ENV),
    "path-file": _run('cat build/ci.path >> "$GITHUB_PATH"', "build/ci.path", "/opt/tool/bin\n",
                      "./tools/shims\n/opt/tool/bin\n"),
    "action-env-file": ({".github/workflows/ci.yml": WORKFLOW.format(
        step="      - uses: c-py/action-dotenv-to-setenv@v5\n        with:\n          env-file: build/ci.env\n"),
        "build/ci.env": ENV}, "build/ci.env", EVIL_ENV),
    "in-a-script": ({".github/workflows/ci.yml": WORKFLOW.format(step="      - run: ./scripts/setup.sh\n"),
                     "scripts/setup.sh": '#!/bin/sh\ncat build/ci.env >> "$GITHUB_ENV"\n', "build/ci.env": ENV},
                    "build/ci.env", EVIL_ENV),
}
# A path the step writes as a value (the later steps read the file as the application's settings): not fed whole.
CONTROLS = {
    "path-as-value": ({".github/workflows/ci.yml": WORKFLOW.format(
        step='      - run: echo "APP_CONFIG=config/app.yml" >> "$GITHUB_ENV"\n'),
        "config/app.yml": "port: 8080\n"}, "config/app.yml", "port: 8081\n"),
}


@each_case("name", VARIANTS)
def test_a_file_fed_to_the_jobs_environment_is_ci(tmp_path: Path, name: str) -> None:
    base, path, text = VARIANTS[name]
    case = committed(tmp_path, base, {path: text})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [path]), named  # before: src, exit 0


@pytest.mark.parametrize("name", CONTROLS)
def test_a_path_written_as_a_value_leaves_the_file_alone(tmp_path: Path, name: str) -> None:
    base, path, text = CONTROLS[name]
    case = committed(tmp_path, base, {path: text})
    assert gated_rules(case, True) == (0, {})
