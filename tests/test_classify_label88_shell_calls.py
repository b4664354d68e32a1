"""The label88 round's second class: a program CI runs that hands a task runner's command to a shell
(`execSync("npm run build")`, `subprocess.check_call("make dist", shell=True)`, `system("yarn build")`) runs that task
of its file, as the same command on a shell line does (issue 12; docs/classification.md, "The eighty-eighth set").

On 58f4e83c the task-runner reader read a command only at a line's start, after a shell separator or after `run:`,
`sh` and the like, so the call's quote hid it: the script the package.json's `build` names stayed `src` though CI runs
it (helmet's test runs `exec("npm run build")`, the eighty-eighth set). A string no call hands a shell (a log line, a
variable) still runs nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_classify

from gatekeeper.classify import taskrunners

PACKAGE = json.dumps({"name": "acme", "scripts": {"build": "node build/build-package.js", "dev": "node dev.js"}})
MAKEFILE = "dist:\n\t./scripts/dist.sh\n\nclean:\n\t./scripts/clean.sh\n"
FILES = {"package.json": PACKAGE, "build/build-package.js": "1\n", "dev.js": "1\n", "Makefile": MAKEFILE,
         "scripts/dist.sh": "echo\n", "scripts/clean.sh": "echo\n"}

# (the program CI runs, its text with {cmd}, the command): a call that hands the command to a shell
CALLS = [
    ("scripts/ci.js", "const {{ execSync }} = require('child_process');\n"
                      "execSync({q}{cmd}{q}, {{ stdio: 'inherit' }});\n"),
    ("scripts/ci.js", "import {{ exec }} from 'node:child_process';\nawait exec({q}{cmd}{q});\n"),
    ("scripts/ci.mjs", "import {{ execa }} from 'execa';\nawait execa({q}{cmd}{q}, {{ shell: true }});\n"),
    ("scripts/ci.js", "require('child_process').spawnSync({q}{cmd}{q}, {{ shell: true }});\n"),
    ("scripts/ci.js", "cp.execSync( {q}{cmd}{q} );\n"),
    ("scripts/ci.py", "import subprocess\nsubprocess.check_call({q}{cmd}{q}, shell=True)\n"),
    ("scripts/ci.py", "import os\nos.system({q}{cmd}{q})\n"),
    ("scripts/ci.py", "import subprocess\nsubprocess.Popen({q}{cmd}{q}, shell=True).wait()\n"),
    ("scripts/ci.rb", "system({q}{cmd}{q})\n"),
]
COMMANDS = [("npm run build", {"build/build-package.js"}), ("yarn build", {"build/build-package.js"}),
            ("pnpm run build --silent", {"build/build-package.js"}), ("make dist", {"scripts/dist.sh"})]
RUNNERS = {"node scripts/ci.js": "scripts/ci.js", "node scripts/ci.mjs": "scripts/ci.mjs",
           "python scripts/ci.py": "scripts/ci.py", "ruby scripts/ci.rb": "scripts/ci.rb"}
_ALL = {"build/build-package.js", "dev.js", "scripts/dist.sh", "scripts/clean.sh"}


def _line(program: str) -> str:
    return next(line for line, path in RUNNERS.items() if path == program)


@pytest.mark.parametrize(("program", "template"), CALLS)
@pytest.mark.parametrize(("command", "expected"), COMMANDS)
@pytest.mark.parametrize("quote", ["'", '"'])
def test_a_task_a_program_hands_a_shell_is_run(program: str, template: str, command: str, expected: set[str],
                                               quote: str) -> None:
    definition, text = BLOCK_DEFINITIONS[0]
    files = {**FILES, program: template.format(q=quote, cmd=command), definition: text.format(line=_line(program))}
    runs = tree_runs(files)
    assert expected <= runs, (program, command)
    if not program.endswith(".py"):  # Python's `, shell=True` after the string reads the whole file (wrappers.py)
        assert runs & _ALL == expected, (program, command)


@pytest.mark.parametrize("text", [
    "console.log('npm run build');\n", "const cmd = 'npm run build';\nexecSync(cmd);\n",
    "throw new Error(\"make dist failed\");\n", "logger.info('yarn build done')\n",
    "exec_command('npm run build')\n"])
def test_a_string_no_call_hands_a_shell_runs_nothing(text: str) -> None:
    definition, block = BLOCK_DEFINITIONS[0]
    files = {**FILES, "scripts/ci.js": text, definition: block.format(line="node scripts/ci.js")}
    assert tree_runs(files) & {"build/build-package.js", "scripts/dist.sh"} == set(), text


def test_helmet_in_a_real_repository(tmp_path: Path) -> None:
    """helmet's shape: CI's `npm test` runs the tests by a glob, and one test builds the package with
    `exec("npm run build")`: the build script is CI's."""
    scripts = {"test:node": "tsx --test test/*.ts", "build": "tsx ./build/build-package.ts",
               "test": "run-p --aggregate-output test:*"}
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: npm ci\n      - run: npm test\n")
    test = ("import * as childProcess from 'node:child_process';\nimport { promisify } from 'node:util';\n"
            "const exec = promisify(childProcess.exec);\nconst { stdout } = await exec(\"npm run build\");\n")
    head = {".github/workflows/nodejs.yml": workflow, "package.json": json.dumps({"scripts": scripts}, indent=2),
            "build/build-package.ts": "import { rollup } from 'rollup'\n", "test/project-setups.test.ts": test,
            "dev/serve.ts": "1\n"}
    repo, first, second = two_commits(tmp_path, {"README.md": "x\n"}, head)
    files = tree_classify(repo.root, first, second)
    assert files["build/build-package.ts"]["bucket"] == "ci"
    assert files["dev/serve.ts"]["bucket"] == "src"


def test_a_long_line_of_calls_is_read_in_linear_time() -> None:
    assert_linear(taskrunners.line_tasks, repeated("execSync( ", tail="'npm run build'"), budget=0.5)
    assert_linear(taskrunners.line_tasks, repeated("x.exec(' ", tail="make"), budget=0.5)
