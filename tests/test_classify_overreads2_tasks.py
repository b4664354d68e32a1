"""The over-reads 2 round: the task as the CI walk's unit (issue 12; docs/classification.md, "Over-reads 2").

CI's `npm test` runs the `test` script (with `pretest`/`posttest`), `npm ci` the lifecycle scripts an install runs,
`make lint` the `lint` target's recipe and its prerequisites' (make's default goal without a name): what the other
scripts and targets of the file run is not CI's through that caller (chalk's `bench`, legislation-explorer's
`dev:app-server`, nginx-proxy's and requests' unrun targets). A name that is not literal, a task the file does not
define, a runner of script lists other than npm-run-all's: the whole file, as before. A make prerequisite is a file
make checks, not a command (custom-error-pages' `build: main.go`).
"""

from __future__ import annotations

import json

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear
from tables import each_case

from gatekeeper.classify import tasktexts, taskunits


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


# A package.json of real shape (chalk, xjoin-search, legislation-explorer, lodash, cypress-example-kitchensink)
SCRIPTS = {
    "pretest": "node scripts/pretest.js", "test": "node scripts/test.js && npm run lint",
    "posttest": "node scripts/posttest.js", "lint": "node scripts/lint.js",
    "bench": "matcha benchmark/index.js", "dev": "node examples/basic.js", "start": "node src/server.js",
    "dev:app-server": "node src/server/render.js", "build": "npm run build:lib && npm run build:types",
    "prebuild": "node scripts/clean.js", "build:lib": "node scripts/build-lib.js",
    "build:types": "node scripts/types.js",
    "build:main-modules": "node lib/main/build-modules.js", "prepare": "node .husky/install.mjs",
    "postinstall": "node scripts/postinstall.js", "release": "node scripts/release.js",
}
PACKAGE = {"package.json": json.dumps({"name": "acme", "version": "1.0.0", "scripts": SCRIPTS}, indent=2),
           **{path: "console.log(1)\n" for path in (
               "scripts/pretest.js", "scripts/test.js", "scripts/posttest.js", "scripts/lint.js", "benchmark/index.js",
               "examples/basic.js", "src/server.js", "src/server/render.js", "scripts/clean.js",
               "scripts/build-lib.js", "scripts/types.js", "lib/main/build-modules.js", ".husky/install.mjs",
               "scripts/postinstall.js", "scripts/release.js")}}
_TEST = {"scripts/pretest.js", "scripts/test.js", "scripts/posttest.js", "scripts/lint.js"}
_BUILD = {"scripts/clean.js", "scripts/build-lib.js", "scripts/types.js"}
_INSTALL = {".husky/install.mjs", "scripts/postinstall.js"}
_ALL_SCRIPTS = {path for path in PACKAGE if path != "package.json"}
# (the command, the scripts it runs): a named script with its pre/post scripts and the scripts it runs by npm run
PACKAGE_STEPS = [
    ("npm test", _TEST), ("npm t", _TEST), ("npm run test", _TEST), ("yarn test", _TEST), ("pnpm test", _TEST),
    ("npm run-script test --silent", _TEST), ("npm test -- --coverage", _TEST), ("bun run test", _TEST),
    ("npm run build", _BUILD), ("yarn build", _BUILD), ("yarn run build", _BUILD), ("pnpm run build", _BUILD),
    ("pnpm build", _BUILD), ("pnpm --filter acme build", _BUILD), ("npm run build --if-present", _BUILD),
    ("npm ci", _INSTALL), ("npm install", _INSTALL), ("npm i", _INSTALL), ("yarn", _INSTALL),
    ("yarn install --frozen-lockfile", _INSTALL), ("pnpm install --frozen-lockfile", _INSTALL),
    ("bun install", _INSTALL),
    ("npm ci && npm test", _INSTALL | _TEST), ("npm run lint", {"scripts/lint.js"}),
    ("npm start", {"src/server.js"}), ("npm audit", set()), ("npm exec -- prettier --check .", set()),
    # not literal, not known, another package's: the whole file (fail closed)
    ("npm run $SCRIPT", _ALL_SCRIPTS), ('npm run "${TASK}"', _ALL_SCRIPTS),
    ("yarn workspace acme build", _ALL_SCRIPTS),
    ("npm frobnicate", _ALL_SCRIPTS),
]


@each_case("definition, text, command, expected", [
    (definition, text, command, expected) for command, expected in PACKAGE_STEPS
    for definition, text in BLOCK_DEFINITIONS[:3]])
def test_a_package_script_ci_runs_is_ci_and_the_others_are_not(definition: str, text: str, command: str,
                                                               expected: set[str]) -> None:
    runs = _runs({**PACKAGE, definition: text.format(line=command)})
    assert runs & _ALL_SCRIPTS == expected, command
    assert "package.json" in runs  # the manifest CI runs from stays ci whatever it runs of it


def test_a_script_that_runs_others_by_pattern_runs_those() -> None:
    """npm-run-all's names and patterns are read since label88 (tests/test_classify_label88_classes.py): `run-s lint
    test:*` runs `lint` and `test:unit` with `test`'s pre/post scripts; another runner of lists reads it whole."""
    scripts = {**SCRIPTS, "test": "run-s lint test:*", "test:unit": "node scripts/unit.js"}
    files = {**PACKAGE, "package.json": json.dumps({"scripts": scripts}), "scripts/unit.js": "1\n"}
    definition, text = BLOCK_DEFINITIONS[0]
    assert _runs({**files, definition: text.format(line="npm test")}) & (_ALL_SCRIPTS | {"scripts/unit.js"}) \
        == {"scripts/pretest.js", "scripts/posttest.js", "scripts/lint.js", "scripts/unit.js"}
    scripts = {**scripts, "test": "concurrently \"npm:lint\" \"npm:test:*\""}
    files = {**files, "package.json": json.dumps({"scripts": scripts})}
    assert _runs({**files, definition: text.format(line="npm test")}) & (_ALL_SCRIPTS | {"scripts/unit.js"}) \
        == _ALL_SCRIPTS - {"scripts/test.js"} | {"scripts/unit.js"}


# A Makefile of real shape (gin, podinfo, custom-error-pages, nginx-proxy, requests' docs target)
MAKEFILE = """\
PROJECT=$(shell basename "$(PWD)")
.PHONY: all build test lint ci docs release

all: build

## build: the binary
build: gen main.go
\tgo build -o bin/app ./cmd/app

gen:
\t@./scripts/gen.sh

test:
\t./scripts/test.sh \\
\t  --race

lint:
\t-./scripts/lint.sh

ci: lint test

docs:
\t$(MAKE) -C docs html

release:
\t./scripts/release.sh $(VERSION)

bench: ; ./scripts/bench.sh
"""
DOCS_MAKEFILE = "SPHINXBUILD = sphinx-build\nhtml:\n\t$(SPHINXBUILD) -b html . _build\nclean:\n\t./clean.sh\n"
MAKE_FILES = {"Makefile": MAKEFILE, "docs/Makefile": DOCS_MAKEFILE, "docs/clean.sh": "rm -rf _build\n",
              "main.go": "package main\n", **{f"scripts/{name}.sh": "#!/bin/sh\n" for name in (
                  "gen", "test", "lint", "release", "bench")}}
_MAKE_SCRIPTS = {path for path in MAKE_FILES if path.endswith(".sh") or path == "main.go" or path == "docs/Makefile"}
_WHOLE = _MAKE_SCRIPTS - {"main.go", "docs/clean.sh"}  # every recipe (`make -C docs html` runs no `clean`)
MAKE_STEPS = [
    ("make test", {"scripts/test.sh"}), ("make -j4 test", {"scripts/test.sh"}), ("make -j 4 test", {"scripts/test.sh"}),
    ("make test VERBOSE=1", {"scripts/test.sh"}), ("make -C . test", {"scripts/test.sh"}),
    ("gmake test", {"scripts/test.sh"}), ("make ci", {"scripts/test.sh", "scripts/lint.sh"}),
    ("make lint test", {"scripts/test.sh", "scripts/lint.sh"}), ("make", {"scripts/gen.sh"}),
    ("make all", {"scripts/gen.sh"}), ("make build", {"scripts/gen.sh"}), ("make bench", {"scripts/bench.sh"}),
    ("make docs", {"docs/Makefile"}), ("make test > test.log 2>&1", {"scripts/test.sh"}),
    # not literal: the whole file (its prerequisites are still no commands); a goal no rule builds stops make
    # (over-reads 4 and 6: tests/test_classify_overreads4_make_goals.py)
    ("make $TARGET", _WHOLE), ("make ${{ matrix.target }}-x", _WHOLE),
    ("make nope", set()),
]


@each_case("definition, text, command, expected", [
    (definition, text, command, expected) for command, expected in MAKE_STEPS
    for definition, text in BLOCK_DEFINITIONS[:3]])
def test_a_make_target_ci_runs_is_ci_and_the_others_are_not(definition: str, text: str, command: str,
                                                             expected: set[str]) -> None:
    runs = _runs({**MAKE_FILES, definition: text.format(line=command)})
    assert runs & _MAKE_SCRIPTS == expected, command
    assert "Makefile" in runs


@each_case("makefile, command, expected, not_expected", [
    # `.DEFAULT_GOAL`; a pattern rule; a variable prerequisite reaches the variable targets; an inline recipe
    ("X = 1\nbuild:\n\t./a.sh\ncheck:\n\t./b.sh\n.DEFAULT_GOAL := check\n", "make", {"b.sh"}, {"a.sh"}),
    ("build-%:\n\t./a.sh $*\nother:\n\t./b.sh\n", "make build-linux", {"a.sh"}, {"b.sh"}),
    ("BIN = out/app\nbuild: $(BIN)\n$(BIN):\n\t./a.sh\nother:\n\t./b.sh\n", "make build", {"a.sh"}, {"b.sh"}),
    ("test: ; ./a.sh\nother: ; ./b.sh\n", "make test", {"a.sh"}, {"b.sh"}),
    # a target's variable with a command; a double-colon rule; a `define` is kept whole (a canned recipe)
    ("test: FLAGS = $(shell ./a.sh)\ntest:\n\techo\nother:\n\t./b.sh\n", "make test", {"a.sh"}, {"b.sh"}),
    ("test::\n\t./a.sh\ntest::\n\t./c.sh\nother:\n\t./b.sh\n", "make test", {"a.sh", "c.sh"}, {"b.sh"}),
    ("define RUN\n./c.sh\nendef\ntest:\n\t./a.sh\nother:\n\t./b.sh\n", "make test", {"a.sh", "c.sh"}, {"b.sh"}),
    # a recipe that runs its prerequisites (`$<`, `$^`, `$(<F)`): they are run, the other rules' are not
    ("test: a.sh\n\tbash $<\nother: b.sh\n\techo\n", "make test", {"a.sh"}, {"b.sh"}),
    ("test: a.sh c.sh\n\tfor s in $^; do sh $$s; done\nother: b.sh\n\techo\n", "make test", {"a.sh", "c.sh"}, {"b.sh"}),
    ("test: a.sh\n\tsh $(<F)\n", "make test", {"a.sh"}, set()), ("test: a.sh ; sh $<\n", "make test", {"a.sh"}, set()),
    # the default goal behind an include, `.RECIPEPREFIX`: the whole file
    ("include x.mk\nbuild:\n\t./a.sh\nother:\n\t./b.sh\n", "make", {"a.sh", "b.sh"}, set()),
    (".RECIPEPREFIX = >\ntest:\n> ./a.sh\nother:\n> ./b.sh\n", "make test", {"a.sh", "b.sh"}, set()),
    # a target an included file defines (node_exporter's Makefile.common): both whole
    ("include x.mk\nlocal:\n\t./a.sh\nother:\n\t./b.sh\n", "make common-local", {"a.sh", "b.sh", "c.sh", "d.sh"},
     set()),
    # any include: both whole (an included file may add a prerequisite to the target CI runs, define it, set the goal)
    ("include x.mk\nbuild: common\n\t./a.sh\nother:\n\t./b.sh\n", "make build", {"a.sh", "b.sh", "c.sh", "d.sh"},
     set()),
    ("-include x.mk\ntest:\n\techo\nevil:\n\t./b.sh\n", "make test", {"b.sh"}, set()),
])
def test_make_targets_prerequisites_default_goal_and_includes(makefile: str, command: str, expected: set[str],
                                                             not_expected: set[str]) -> None:
    included = "common:\n\t./c.sh\ncommon-local: local\n\t./c.sh\nunused:\n\t./d.sh\ntest: evil\n"
    files = {"Makefile": makefile, "x.mk": included, **{name: "#!/bin/sh\n" for name in ("a.sh", "b.sh", "c.sh",
                                                                                          "d.sh")}}
    definition, text = BLOCK_DEFINITIONS[0]
    runs = _runs({**files, definition: text.format(line=command)})
    assert expected <= runs, command
    assert not runs & not_expected, command


def test_a_file_asked_for_more_tasks_later_is_read_for_them() -> None:
    # two jobs: the first reaches the package.json for `test`, the second (read later) for `build`; the walk reads
    # the file again for `build` (and a third caller's whole-file ask reads it all)
    definition, text = BLOCK_DEFINITIONS[0]
    files = {**PACKAGE, definition: text.format(line="npm test"),
             ".gitlab-ci.yml": "b:\n  script:\n    - npm run build\n"}
    assert _runs(files) & _ALL_SCRIPTS == _TEST | _BUILD
    files["ci/x.sh"] = "npm run $1\n"
    files[".gitlab-ci.yml"] += "c:\n  script:\n    - bash ci/x.sh lint\n"
    assert _runs(files) & _ALL_SCRIPTS == _ALL_SCRIPTS


@each_case("tool, rest, names", [
    ("make", "test", {"test"}), ("make", "", {""}), ("make", "-C sub -f x.mk a b V=1", {"a", "b"}),
    ("make", "$(T)", None), ("make", "test \\", None), ("npm", "run build -- --watch", {"build"}),
    ("npm", "test", {"test"}), ("npm", "exec tsc", set()), ("npm", "run", None), ("npm", "weird", None),
    ("yarn", "", set(taskunits.asked("npm", "ci").names)),  # type: ignore[union-attr]
    ("pnpm", "-r build", {"build"}), ("bun", "run dev", {"dev"}), ("just", "test", {"test"}), ("just", "--list", set()),
    ("tox", "-e py", {"py"}), ("tox", "", None), ("tox", "-l", set()),
])
def test_the_tasks_a_runner_command_asks(tool: str, rest: str, names: set[str] | None) -> None:
    tasks = taskunits.asked(tool, rest)
    assert (None if tasks is None else set(tasks.names)) == names


# A justfile of real shape (arcuru/cmprss: a default that lists, aliases, parameters, a shebang recipe, dependencies)
JUSTFILE = """\
# development commands
alias t := test
version := `./scripts/version.sh`

[private]
default:
    @just --list

build mode='debug':
    ./scripts/build.sh {{ mode }}

test *args: build
    #!/usr/bin/env bash
    set -e
    ./bin/test.sh {{ args }}

release: test && publish
    ./scripts/release.sh

publish:
    ./scripts/publish.sh

commit:
    ./bin/commit.sh
"""
JUST_FILES = {"justfile": JUSTFILE, **{path: "#!/bin/sh\n" for path in (
    "scripts/version.sh", "scripts/build.sh", "bin/test.sh", "scripts/release.sh", "scripts/publish.sh",
    "bin/commit.sh")}}
_JUST_SCRIPTS = {path for path in JUST_FILES if path != "justfile"}
_JUST_TEST = {"scripts/version.sh", "scripts/build.sh", "bin/test.sh"}


@each_case("command, expected", [
    ("just test", _JUST_TEST), ("just t", _JUST_TEST), ("just test --nocapture", _JUST_TEST),
    ("just test full", _JUST_TEST), ("just --list", {"scripts/version.sh"}), ("just", {"scripts/version.sh"}),
    ("just build debug", {"scripts/version.sh", "scripts/build.sh"}),
    # an argument that is also a recipe's name is read as one (the safe side: the words' order is not kept)
    ("just build release", _JUST_SCRIPTS - {"bin/commit.sh"}),
    ("just release", _JUST_TEST | {"scripts/release.sh", "scripts/publish.sh"}),
    # not literal, no recipe of that name, a module's recipe: the whole file
    ("just $RECIPE", _JUST_SCRIPTS), ("just nope", _JUST_SCRIPTS), ("just tools::lint", _JUST_SCRIPTS),
])
def test_a_just_recipe_ci_runs_is_ci_and_the_others_are_not(command: str, expected: set[str]) -> None:
    definition, text = BLOCK_DEFINITIONS[0]
    runs = _runs({**JUST_FILES, definition: text.format(line=command)})
    assert runs & _JUST_SCRIPTS == expected, command
    assert "justfile" in runs


# A tox.ini of real shape (marshmallow, requests: a base environment, named ones, a generative one)
TOX_INI = """\
[tox]
envlist = py{39,310,311},lint,docs,mypy-test

[testenv]
extras = tests
commands = pytest {posargs}
    lint: ./scripts/factor_lint.sh

[testenv:lint]
commands = ./scripts/lint.sh

[testenv:docs]
commands = ./scripts/docs.sh

[testenv:mypy-test]
commands = ./scripts/mypy.sh

[testenv:py{39,310}-slow]
commands = ./scripts/slow.sh

[flake8]
exclude = build
"""
TOX_FILES = {"tox.ini": TOX_INI, **{f"scripts/{name}.sh": "#!/bin/sh\n" for name in (
    "factor_lint", "lint", "docs", "mypy", "slow")}}
_TOX_SCRIPTS = {path for path in TOX_FILES if path != "tox.ini"}
_TOX_BASE = {"scripts/factor_lint.sh", "scripts/slow.sh"}  # the base environment's lines and a generative section


@each_case("command, expected", [
    ("tox -e mypy-test", _TOX_BASE | {"scripts/mypy.sh"}),
    ("python -m tox -e mypy-test", _TOX_BASE | {"scripts/mypy.sh"}),
    ("tox -e lint,docs", _TOX_BASE | {"scripts/lint.sh", "scripts/docs.sh"}), ("tox run -e py311", _TOX_BASE),
    ("tox -elint", _TOX_BASE | {"scripts/lint.sh"}), ("tox --env=docs", _TOX_BASE | {"scripts/docs.sh"}),
    # every environment: no -e (env_list), a variable, a label, `ALL`, `tox p`
    ("tox", _TOX_SCRIPTS), ('tox -e "$TOXENV"', _TOX_SCRIPTS), ("tox -m ci", _TOX_SCRIPTS),
    ("tox -e ALL", _TOX_SCRIPTS), ("tox p", _TOX_SCRIPTS),
])
def test_a_tox_environment_ci_runs_is_ci_and_the_others_are_not(command: str, expected: set[str]) -> None:
    definition, text = BLOCK_DEFINITIONS[0]
    runs = _runs({**TOX_FILES, definition: text.format(line=command)})
    assert runs & _TOX_SCRIPTS == expected, command
    assert "tox.ini" in runs


def test_a_tox_section_that_refers_to_another_reads_the_whole_file() -> None:
    ini = TOX_INI.replace("commands = ./scripts/docs.sh", "commands = {[testenv:lint]commands}")
    definition, text = BLOCK_DEFINITIONS[0]
    assert _runs({**TOX_FILES, "tox.ini": ini, definition: text.format(line="tox -e docs")}) & _TOX_SCRIPTS \
        == _TOX_SCRIPTS - {"scripts/docs.sh"}


@each_case("path, hostile", [
    ("Makefile", lambda n: "a" + " " * n + "\n"),  # a long line without a colon (a rule header's search)
    ("Makefile", lambda n: "test: \\\n" * (n // 8) + "x\n\t./a.sh\n"),  # continued lines
    ("Makefile", lambda n: "".join(f"p{i}-%: q{i}\n\techo\n" for i in range(n // 20)) + "test: " + " ".join(
        f"x{i}" for i in range(n // 20)) + "\n"),  # pattern rules asked of many prerequisites
    ("justfile", lambda n: "a" + " " * n + "\n"), ("justfile", lambda n: "r:\n" + "  x\n" * (n // 4)),
    ("tox.ini", lambda n: "".join(f"[testenv:e{i}]\ncommands = x\n" for i in range(n // 32))),
])
def test_a_hostile_task_file_is_read_in_linear_time(path: str, hostile: object) -> None:
    assert callable(hostile)
    tasks = taskunits.Tasks(frozenset({"test", "r", "e1"}))
    assert_linear(lambda text: tasktexts.restricted(path, text, tasks), hostile, budget=0.25)
