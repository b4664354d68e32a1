"""The label88 round: a script that runs others by npm-run-all pattern runs those, not the whole package.json
(issue 12; docs/classification.md, "The eighty-eighth set").

`npm test` whose script is `run-p --aggregate-output test:*` (npm-run-all's `run-p`, `run-s`, `npm-run-all -p/-s`)
runs the scripts the pattern names, each through `npm run` with its `pre`/`post` scripts: `*` one `:`-segment, `**`
any. On 58f4e83c such a script read the whole package.json, so the `build`, `release` and `dev` scripts' files were
CI's (helmet's `build/build-package.ts`, the eighty-eighth set). What cannot be read that way still reads the whole
file (fail closed): a runner of another kind (`concurrently`, `turbo`), a name that is not literal, a glob beyond
`*`/`**`/`?`, a pattern that names no script, an option not known.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_classify

from gatekeeper.classify import tasktexts
from gatekeeper.classify.taskunits import Tasks

# A package.json of real shape (helmet, eslint-config-prettier, a Vite app): test scripts run by pattern, others not
SCRIPTS = {
    "test": "RUNNER", "pretest": "node scripts/pretest.js",
    "test:node": "node scripts/test-node.js", "test:lint": "node scripts/test-lint.js",
    "pretest:lint": "node scripts/pre-lint.js", "test:types:deep": "node scripts/test-deep.js",
    "build": "node build/build-package.js", "release": "node scripts/release.js", "dev": "node scripts/dev.js",
    "format": "node scripts/format.js",
}
FILES = ("scripts/pretest.js", "scripts/test-node.js", "scripts/test-lint.js", "scripts/pre-lint.js",
         "scripts/test-deep.js", "build/build-package.js", "scripts/release.js", "scripts/dev.js",
         "scripts/format.js")
_ONE = {"scripts/pretest.js", "scripts/test-node.js", "scripts/test-lint.js", "scripts/pre-lint.js"}
_DEEP = _ONE | {"scripts/test-deep.js"}
_NAMED = {"scripts/pretest.js", "scripts/test-node.js"}
_ALL = set(FILES)

# (the test script, the files CI's `npm test` runs): each npm-run-all spelling and pattern
RUNS = [
    ("run-p test:*", _ONE), ("run-s test:*", _ONE), ("run-p --aggregate-output test:*", _ONE),
    ("run-p \"test:*\"", _ONE), ("run-s 'test:*'", _ONE), ("npm-run-all -p test:*", _ONE),
    ("npm-run-all --parallel test:*", _ONE), ("npm-run-all -s test:*", _ONE), ("npm-run-all2 -p test:*", _ONE),
    ("npm-run-all --serial test:*", _ONE), ("run-p -l -c --max-parallel 2 test:*", _ONE),
    ("run-p -lc test:*", _ONE), ("npx run-p test:*", _ONE), ("run-p test:**", _DEEP), ("run-s test:node", _NAMED),
    ("run-s test:n?de", _NAMED), ("cross-env CI=1 run-p test:*", _ONE), ("run-p test:* -- --bail", _ONE),
    ("run-p \"test:node -- --watch\"", _NAMED), ("node scripts/pretest.js && run-s test:node", _NAMED),
    ("npm-run-all -p test:node -s test:lint", _ONE),
]
# (the test script): read whole, as before
WHOLE = [
    "concurrently \"npm:test:*\"", "run-p $SCRIPTS", "run-p test:{node,lint}", "run-p \"test:[nl]*\"",
    "run-p nothing:*", "turbo run test", "run-p --frobnicate test:*", "run-p \"${TASKS}\"", "run-p",
    "run-p test:* && concurrently \"npm:dev\"", "run-p !(build)",
]


def _files(runner: str) -> dict[str, str]:
    scripts = {**SCRIPTS, "test": runner}
    return {"package.json": json.dumps({"name": "acme", "version": "1.0.0", "scripts": scripts}, indent=2),
            **{path: "console.log(1)\n" for path in FILES}}


@pytest.mark.parametrize(("definition", "text"), BLOCK_DEFINITIONS[:3])
@pytest.mark.parametrize(("runner", "expected"), RUNS)
def test_a_script_that_runs_others_by_pattern_runs_those(definition: str, text: str, runner: str,
                                                          expected: set[str]) -> None:
    runs = tree_runs({**_files(runner), definition: text.format(line="npm test")})
    assert runs & _ALL == expected, runner
    assert "package.json" in runs


@pytest.mark.parametrize("runner", WHOLE)
def test_what_cannot_be_read_by_pattern_reads_the_whole_file(runner: str) -> None:
    definition, text = BLOCK_DEFINITIONS[0]
    runs = tree_runs({**_files(runner), definition: text.format(line="npm test")})
    assert runs & _ALL == _ALL, runner


def test_a_pattern_script_that_runs_a_pattern_script_runs_both() -> None:
    scripts = {"test": "run-s check:*", "check:unit": "run-p unit:*", "unit:a": "node a.js", "unit:b": "node b.js",
               "build": "node build.js"}
    files = {"package.json": json.dumps({"scripts": scripts}), "a.js": "1\n", "b.js": "1\n", "build.js": "1\n"}
    definition, text = BLOCK_DEFINITIONS[0]
    runs = tree_runs({**files, definition: text.format(line="npm test")})
    assert {"a.js", "b.js"} <= runs and "build.js" not in runs


def test_the_restricted_text_keeps_the_matched_scripts() -> None:
    text = json.dumps({"scripts": {"test": "run-p test:*", "test:a": "x", "test:a:b": "y", "build": "z"}})
    kept = json.loads(tasktexts.restricted("package.json", text, Tasks(frozenset({"test"}))))["scripts"]
    assert kept == {"test": "run-p test:*", "test:a": "x"}


def test_helmet_in_a_real_repository(tmp_path: Path) -> None:
    """helmet's shape (the eighty-eighth set): `npm test` is `run-p --aggregate-output test:*`; its build script is a
    maintainer's, CI's test scripts are CI's."""
    scripts = {"test:eslint": "eslint --cache .", "test:node": "node --test test/", "test:typescript": "tsc --noEmit",
               "build": "tsx ./build/build-package.ts", "test": "run-p --aggregate-output test:*"}
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: npm ci\n      - run: npm test\n")
    base = {"README.md": "x\n"}
    head = {".github/workflows/nodejs.yml": workflow, "package.json": json.dumps({"scripts": scripts}, indent=2),
            "build/build-package.ts": "import { rollup } from 'rollup'\n", "index.ts": "export default 1\n"}
    repo, first, second = two_commits(tmp_path, base, head)
    files = tree_classify(repo.root, first, second)
    assert files["build/build-package.ts"]["bucket"] == "src"
    assert files["package.json"]["bucket"] != "src"
    unpatterned = {**head, "package.json": json.dumps({"scripts": {**scripts, "test": "run-p build test:*"}})}
    repo2, first2, second2 = two_commits(tmp_path / "b", base, unpatterned)
    assert tree_classify(repo2.root, first2, second2)["build/build-package.ts"]["bucket"] == "ci"


def test_a_long_pattern_list_is_read_in_linear_time() -> None:
    def read(text: str) -> object:
        manifest = json.dumps({"scripts": {"test": f"run-p {text}", "test:a": "x"}})
        return tasktexts.restricted("package.json", manifest, Tasks(frozenset({"test"})))
    assert_linear(read, repeated("test:* ", tail="x"), budget=0.5)


@pytest.mark.parametrize(("pattern", "name", "expected"), [
    ("unit:*", "unit:a", True), ("unit:*", "unit:a:b", False), ("unit:*", "unit", False), ("unit:**", "unit", True),
    ("unit:**", "unit:a:b", True), ("unit:**", "unitx", False), ("t?st:*", "test:a", True), ("t?st", "t:st", False),
    ("*:fix", "lint:fix", True), ("*:fix", "lint:js:fix", False), ("**:fix", "lint:js:fix", True),
    ("*a*a*b", "xaxaxb", True), ("*a*a*b", "aaaaaaaa", False), ("build", "build", True)])
def test_a_pattern_matches_as_npm_run_all_reads_it(pattern: str, name: str, expected: bool) -> None:
    scripts = {"test": f"run-p {pattern}", name: "x", "zzz:never": "y"}
    kept = json.loads(tasktexts.restricted("package.json", json.dumps({"scripts": scripts}),
                                           Tasks(frozenset({"test"}))))["scripts"]
    assert (name in kept) is expected or (not expected and kept == scripts), (pattern, name)


def test_a_glob_of_many_stars_is_read_in_linear_time() -> None:
    def read(name: str) -> object:
        manifest = json.dumps({"scripts": {"test": "run-p *a*a*a*a*a*a*a*a*b", name: "x"}})
        return tasktexts.restricted("package.json", manifest, Tasks(frozenset({"test"})))
    assert_linear(read, repeated("a"), budget=0.5)
