"""Over-reads 6: the goals CI runs, mixed, keep every script they reach `ci` (issue 12; infection's shape).

Over-reads 4 read a make goal no rule builds as the rules that may build it, not the whole Makefile; at the merge it
sent infection's `devTools/check_trailing_whitespaces.sh` to `src` (exit 0) when one workflow ran `make autoreview
--keep-going` and another `make compile`: `autoreview: cs-check` reaches `$(MAKE) check_trailing_whitespaces`,
`compile` runs `make $(INFECTION)`. These tests hold that shape, generated (`$(MAKE)`, `${MAKE}`, `make -C .`, `make -f
Makefile`, several goals in one call, two calls in one workflow or in two, a goal from a variable, a goal no rule
builds beside them), with real `make -n` as the truth, and the same mix for a justfile and package.json scripts (a
variable sub-task beside a literal one). They pass before and after the narrowing is landed again; the look-alikes
show what the narrowing lowers (a goal no rule builds, alone, reaches no recipe)."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, tree_runs
from tables import each_case

SCRIPTS = {f"devTools/{name}.sh": "#!/bin/sh\n" for name in ("trailing", "fixer", "phar", "phpstan", "unasked")}
TRAILING = "devTools/trailing.sh"

# infection's Makefile, cut down: `autoreview` reaches `cs-check`, whose recipe runs the literal sub-make `{call}`;
# `compile` runs the sub-make `{submake}`, whose goal is a variable's value
MAKEFILE = """.DEFAULT_GOAL := help
INFECTION = build/infection.phar
CHECK = trailing

.PHONY: help
help:
\t@echo usage

.PHONY: autoreview
autoreview: cs-check phpstan

.PHONY: compile
compile:\t ## Bundles a PHAR
compile:
\trm $(INFECTION) || true
\t{submake}

$(INFECTION):
\t./devTools/phar.sh

.PHONY: trailing
trailing:
\t./devTools/trailing.sh

.PHONY: cs-check
cs-check:\t\t## Runs the fixer in dry-run mode
cs-check:
\t./devTools/fixer.sh
\t{call}

.PHONY: phpstan
phpstan:
\t./devTools/phpstan.sh

unasked:
\t./devTools/unasked.sh
"""
CALLS = ["$(MAKE) trailing", "${MAKE} trailing", "$(MAKE) -C . trailing", "$(MAKE) -f Makefile trailing",
         "make -C . trailing", "$(MAKE) --no-print-directory trailing phpstan", "$(MAKE) $(CHECK)"]
SUBMAKES = ["make $(INFECTION)", "$(MAKE) $(INFECTION)", "${MAKE} -f Makefile ${INFECTION}", "$(MAKE) -C . $(GOAL)"]
# how CI runs the goals: (workflow file name -> its lines)
LAYOUTS: list[dict[str, list[str]]] = [
    {"autoreview": ["make autoreview --keep-going"], "compile": ["make compile"]},  # two workflows
    {"ci": ["make autoreview --keep-going", "make compile"]},  # two calls in one
    {"ci": ["make compile autoreview"]},  # several goals in one call
    {"ci": ["make -f Makefile autoreview compile"]},
    {"ci": ["make install", "make autoreview"], "compile": ["make compile"]},  # a goal no rule builds beside them
    {"ci": ["make nope autoreview compile -k"]},
]


def _workflows(layout: dict[str, list[str]]) -> dict[str, str]:
    steps = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
    return {f".github/workflows/{name}.yml": steps + "".join(f"      - run: {line}\n" for line in lines)
            for name, lines in layout.items()}


def _make_prints(tmp_path: Path, makefile: str, layout: dict[str, list[str]]) -> set[str]:
    (tmp_path / "Makefile").write_text(makefile)
    printed = ""
    for line in (line for lines in layout.values() for line in lines):
        words = [word for word in line.split()[1:] if word not in ("-k", "--keep-going")]
        if "-f" in words:
            words.remove("-f")
            words.remove("Makefile")
        done = subprocess.run(["make", "-n", "-k", *words], cwd=tmp_path, capture_output=True, text=True)
        printed += done.stdout
    return {path for path in SCRIPTS if f"./{path}" in printed}


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@each_case("call, submake, layout", list(itertools.product(CALLS, SUBMAKES, LAYOUTS)))
def test_every_script_the_goals_reach_is_ci(tmp_path: Path, call: str, submake: str,
                                            layout: dict[str, list[str]]) -> None:
    makefile = MAKEFILE.format(call=call, submake=submake)
    # make -n runs a `$(MAKE)` line and prints a plain `make` one (which CI's make then runs): the literal call's
    # script is run by every layout (each reaches cs-check)
    printed = _make_prints(tmp_path, makefile, layout) | {TRAILING}
    assert "devTools/fixer.sh" in printed
    runs = tree_runs({"Makefile": makefile, **SCRIPTS, **_workflows(layout)})
    assert printed <= runs, (layout, sorted(printed - runs))


# A goal no rule builds stops make; alone it reaches no recipe (what the narrowing lowers: cython's `make install`
# tried against a Makefile without `install`). A pattern, a variable-valued target or `.DEFAULT` may build it.
NO_RULE = """all:
\t./devTools/unasked.sh
{extra}"""
MAY_BUILD = [
    ("%:\n\t./devTools/phar.sh\n", "devTools/phar.sh"),
    ("$(OUT):\n\t./devTools/phar.sh\n", "devTools/phar.sh"),
    (".DEFAULT:\n\t./devTools/phar.sh\n", "devTools/phar.sh"),
    ("ins%:\n\t./devTools/phar.sh\n", "devTools/phar.sh"),
    ("$(eval $(call RULE,install))\n", "devTools/unasked.sh"),  # a rule made at run time: the whole file
]


def test_a_goal_no_rule_builds_reaches_no_recipe() -> None:
    makefile = NO_RULE.format(extra="lint:\n\t./devTools/fixer.sh\n")
    runs = tree_runs({"Makefile": makefile, **SCRIPTS, **_workflows({"ci": ["make install"]})})
    assert not set(SCRIPTS) & runs


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@each_case("extra, script", MAY_BUILD)
def test_a_rule_that_may_build_the_goal_stays_reached(tmp_path: Path, extra: str, script: str) -> None:
    makefile = NO_RULE.format(extra=extra)
    if "$(eval" not in extra:  # make's own reading (OUT names the goal)
        (tmp_path / "Makefile").write_text(makefile)
        printed = subprocess.run(["make", "-n", "install", "OUT=install"], cwd=tmp_path, capture_output=True,
                                 text=True, check=True).stdout
        assert f"./{script}" in printed
    runs = tree_runs({"Makefile": makefile, **SCRIPTS, **_workflows({"ci": ["make install"]})})
    assert script in runs


# The justfile and package.json analogues: a variable sub-task beside a literal one
JUSTFILE = """target := "build"

autoreview: cs-check phpstan

compile:
    {submake}

build:
    ./devTools/phar.sh

cs-check:
    ./devTools/fixer.sh
    {call}

trailing:
    ./devTools/trailing.sh

phpstan:
    ./devTools/phpstan.sh

unasked:
    ./devTools/unasked.sh
"""
JUST_CALLS = ["just trailing", "just --justfile justfile trailing", "just -f justfile trailing phpstan"]
JUST_SUBMAKES = ["just {{target}}", "just $TARGET", "just \"$@\""]
JUST_LAYOUTS: list[dict[str, list[str]]] = [
    {"autoreview": ["just autoreview"], "compile": ["just compile"]},
    {"ci": ["just autoreview", "just compile"]},
    {"ci": ["just compile autoreview"]},
    {"ci": ["just install", "just autoreview"], "compile": ["just compile"]},
]


@each_case("call, submake, layout", list(itertools.product(JUST_CALLS, JUST_SUBMAKES, JUST_LAYOUTS)))
def test_every_script_the_recipes_reach_is_ci(call: str, submake: str, layout: dict[str, list[str]]) -> None:
    justfile = JUSTFILE.format(call=call, submake=submake)
    runs = tree_runs({"justfile": justfile, **SCRIPTS, **_workflows(layout)})
    # a recipe not literal may be any (fail closed, as a workflow's `just $TARGET`): every recipe
    assert set(SCRIPTS) <= runs, (layout, sorted(set(SCRIPTS) - runs))


PACKAGE_CALLS = ["npm run trailing", "npm run-script trailing", "yarn trailing", "pnpm run trailing"]
PACKAGE_SUBMAKES = ["npm run $TARGET", "npm run ${npm_config_target:-build}", "yarn run \"$GOAL\""]
PACKAGE_LAYOUTS: list[dict[str, list[str]]] = [
    {"autoreview": ["npm run autoreview"], "compile": ["npm run compile"]},
    {"ci": ["npm run autoreview", "npm run compile"]},
    {"ci": ["npm run install-all", "npm run autoreview"], "compile": ["npm run compile"]},
]


@each_case("call, submake, layout", list(itertools.product(PACKAGE_CALLS, PACKAGE_SUBMAKES, PACKAGE_LAYOUTS)))
def test_every_script_the_package_scripts_reach_is_ci(call: str, submake: str, layout: dict[str, list[str]]) -> None:
    scripts = {"autoreview": "npm run cs-check && npm run phpstan", "compile": submake, "build": "./devTools/phar.sh",
               "cs-check": f"./devTools/fixer.sh && {call}", "trailing": "./devTools/trailing.sh",
               "phpstan": "./devTools/phpstan.sh", "unasked": "./devTools/unasked.sh"}
    package = json.dumps({"name": "x", "version": "1.0.0", "scripts": scripts}, indent=2)
    runs = tree_runs({"package.json": package, **SCRIPTS, **_workflows(layout)})
    assert set(SCRIPTS) <= runs, (layout, sorted(set(SCRIPTS) - runs))  # a script not literal: any


@each_case("definition", [path for path, _ in BLOCK_DEFINITIONS[:3]])
def test_literal_sub_makes_only_keep_the_unasked_target_source(definition: str) -> None:
    makefile = MAKEFILE.format(call="$(MAKE) trailing", submake="$(MAKE) phpstan")
    template = dict(BLOCK_DEFINITIONS)[definition]
    runs = tree_runs({"Makefile": makefile, **SCRIPTS, definition: template.format(line="make autoreview compile")})
    assert {TRAILING, "devTools/fixer.sh", "devTools/phpstan.sh"} <= runs
    assert "devTools/unasked.sh" not in runs


def test_literal_sub_tasks_only_keep_the_unasked_recipe_and_script_source() -> None:
    justfile = JUSTFILE.format(call="just trailing", submake="just build")
    scripts = {"autoreview": "npm run cs-check && npm run phpstan", "compile": "npm run build",
               "build": "./devTools/phar.sh", "cs-check": "./devTools/fixer.sh && npm run trailing",
               "trailing": "./devTools/trailing.sh", "phpstan": "./devTools/phpstan.sh",
               "unasked": "./devTools/unasked.sh"}
    package = json.dumps({"name": "x", "version": "1.0.0", "scripts": scripts}, indent=2)
    for runner, files in (("just", {"justfile": justfile}), ("npm run", {"package.json": package})):
        runs = tree_runs({**files, **SCRIPTS, **_workflows({"ci": [f"{runner} autoreview", f"{runner} compile"]})})
        assert set(SCRIPTS) - {"devTools/unasked.sh"} <= runs, (runner, sorted(runs))
        assert "devTools/unasked.sh" not in runs, runner
