"""Review 55: a test-named file CI runs by its path is a program CI runs, and so are the modules it imports.

ciimports.py follows no test file's imports (CI runs the tests, and the tests import the product), and the fifty-eighth
set's change (`ciimports.unimported`) took a test file's import names out of the word scan too. But ciimports' test
pattern is a name (`test_*`, a `test/`, `tests/`, `spec/` or `testing/` folder), not how CI reaches the file: a
workflow that runs `node scripts/test_release.js` or `python tests/run_e2e.py` runs that file as its program, and an
edit of the module it imports from its own folder was `src`, allowed by `gate --tree` (exit 0 on integ 2a5b937).
Now a test-named file's imports count when a CI definition, a shell script or a Makefile runs it by path; only a test
file a package.json's scripts run (`npm test`, the suite's entry: mdx's `test/index.js`) drops them.

Imports are followed with `--tree` only (docs/classification.md): every variant is gated so, in one repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

ENTRIES = {  # name: (the command that runs the entry, the entry, its text, the module it imports)
    "node control": ("node {d}/scripts/release.js", "{d}/scripts/release.js",  # no test name: passes on integ
                     "const {{up}} = require('./upload')\nup()\n", "{d}/scripts/upload.js"),
    "node test_-name": ("node {d}/scripts/test_release.js", "{d}/scripts/test_release.js",
                        "const {{up}} = require('./upload')\nup()\n", "{d}/scripts/upload.js"),
    "node test-folder mjs": ("node {d}/test/release/publish.mjs", "{d}/test/release/publish.mjs",
                             "import {{ up }} from './upload.mjs'\nup()\n", "{d}/test/release/upload.mjs"),
    "node spec .spec.js": ("node {d}/tools/deploy.spec.js", "{d}/tools/deploy.spec.js",
                           "import {{ up }} from './lib/upload.js'\nup()\n", "{d}/tools/lib/upload.js"),
    "python tests folder": ("python {d}/tests/run_e2e.py", "{d}/tests/run_e2e.py", "import uploader\nuploader.go()\n",
                            "{d}/tests/uploader.py"),
    "python test_-name": ("python3 {d}/scripts/test_deploy.py", "{d}/scripts/test_deploy.py",
                          "from release.upload import go\ngo()\n", "{d}/scripts/release/upload.py"),
    "ruby spec folder": ("ruby {d}/spec/support/deploy.rb", "{d}/spec/support/deploy.rb", "require_relative 'upload'\n",
                         "{d}/spec/support/upload.rb"),
    "ruby _test.rb": ("ruby {d}/script/release_test.rb", "{d}/script/release_test.rb",
                      "require_relative 'lib/upload.rb'\n", "{d}/script/lib/upload.rb"),
}
RUNNERS = {  # name: (the files that run COMMAND, path: text)
    "workflow": {".github/workflows/{n}.yml": "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                                              "      - uses: actions/checkout@v4\n      - run: {command}\n"},
    "shell script": {".github/workflows/{n}.yml": "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                                                  "      - run: sh ci/{n}.sh\n",
                     "ci/{n}.sh": "#!/bin/sh\nset -e\n{command}\n"},
    "Makefile": {".github/workflows/{n}.yml": "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                                              "      - run: make -f mk/{n}.mk release\n",
                 "mk/{n}.mk": "release:\n\t{command}\n"},
}
CASES = [(runner, entry) for runner in RUNNERS for entry in ENTRIES]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bool]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, (runner, entry) in enumerate(CASES):
        command, path, text, module = (part.format(d=f"v{number}") for part in ENTRIES[entry])
        for name, body in RUNNERS[runner].items():
            base[name.format(n=f"v{number}")] = body.format(command=command, n=f"v{number}")
        base[path] = text
        base[module] = "def go(): pass\n" if module.endswith(".py") else "module.exports.up = () => 1\n"
        head[module] = base[module] + ("# token = 'x'\n" if module.endswith((".py", ".rb")) else "// token\n")
    code, named = gated_rules(committed(tmp_path_factory.mktemp("programs"), base, head), True)
    found = {*named.get("core.ci", []), *named.get("core.iac", [])}
    return {case: ENTRIES[case[1]][3].format(d=f"v{number}") in found for number, case in enumerate(CASES)}


@each_case(("runner", "entry"), CASES)
def test_a_module_a_test_named_program_imports_is_reviewed(reviewed: dict[tuple[str, str], bool], runner: str,
                                                            entry: str) -> None:
    assert reviewed[runner, entry]  # on integ 2a5b937: src, but for the control


def test_a_test_suites_modules_stay_src(tmp_path: Path) -> None:
    """The look-alike the fifty-eighth set keeps: `npm test` runs the package's test entry by path in its script; the
    test modules it imports stay src (the gate allows their edit)."""
    base = {".github/workflows/ci.yml": RUNNERS["workflow"][".github/workflows/{n}.yml"].format(command="npm test"),
            "package.json": '{"name": "m", "scripts": {"test": "node --conditions development test/index.js"}}\n',
            "test/index.js": "import './compile.js'\n", "test/compile.js": "export const a = 1\n"}
    case = committed(tmp_path, base, {"test/compile.js": "export const a = 2\n"})
    assert gated_rules(case, True) == (0, {})
