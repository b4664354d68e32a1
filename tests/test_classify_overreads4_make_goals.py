"""Over-reads 4: a make goal the Makefile defines no rule for. A CI line that builds another project it cloned
(cython's compiled_python.yml: `cd cpython_main`, `./configure`, `make -j8`, `make install`) reached the root Makefile
too (the walk does not know which `cd` a line is under: every folder is tried), and `install`, a goal no rule of the
root Makefile builds, read the whole file: its `s5` target's `$(MAKE) -C Doc/s5 slides` made an old talk's slides'
Makefile `ci` (the seventy-eighth set).

make stops at a goal no rule builds ("No rule to make target"): no recipe of that file runs for it, except a rule
whose targets are a variable's value (`$(WHEELS):`, which may be any name), a pattern that matches it (`%:`,
`wheel_%`) and `.DEFAULT`'s recipe. So such a goal reaches those, not the whole file; a Makefile that makes rules at
run time (`$(eval ...)` outside a `define`) or includes another file is still read whole (fail closed). Real make is
the truth: for every generated Makefile the scripts `make -n <goal>` prints are among what the walk reaches."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, one_tree_runs
from tables import each_case

SCRIPTS = {f"scripts/{name}.sh": "#!/bin/sh\n" for name in ("build", "test", "wheel", "default", "gen", "dyn")}
SLIDES = "Doc/s5/Makefile"
# cython's root Makefile's shape: a default goal, ordinary targets, a sub-make into a slides folder, a pattern rule and
# a rule whose targets are a variable's value
CYTHON = """PYTHON?=python3
VERSION?=$(shell sed -ne 's|^__version__ = "\\(.*\\)"|\\1|p' Cython/Shadow.py)
IMAGES = manylinux2014_x86_64 musllinux_1_1_x86_64

all:    local

local:
\t./scripts/build.sh

test:
\t./scripts/test.sh

s5:
\t$(MAKE) -C Doc/s5 slides

wheel_%: dist/x.tar.gz
\t./scripts/wheel.sh $@
"""
CLONED = "git clone --depth 1 https://github.com/python/cpython/ cpython_main\ncd cpython_main\n./configure\n" \
         "make -j8\nmake {goal}"
GOALS = ["install", "altinstall", "check-world", "install DESTDIR=/tmp/x", "-j4 install"]


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


def _line(definition: str, text: str, line: str) -> str:
    # a definition's block holds each line at the indentation of `{line}`
    indent = re.search(r"\n([ \t]*)\{line\}", text)
    assert indent is not None
    return text.format(line=line.replace("\n", "\n" + indent.group(1)))


@each_case("definition, text, goal", [(d, t, g) for d, t in BLOCK_DEFINITIONS[:3] for g in GOALS])
def test_a_goal_no_rule_builds_reads_no_other_target(definition: str, text: str, goal: str) -> None:
    files = {"Makefile": CYTHON, SLIDES: "slides:\n\trst2s5 talk.txt\n", **SCRIPTS,
             definition: _line(definition, text, CLONED.format(goal=goal))}
    runs = _runs(files)
    assert "Makefile" in runs  # the root Makefile may be what `make` runs: still ci
    assert "scripts/build.sh" in runs  # `make -j8`: its default goal
    assert SLIDES not in runs and "scripts/test.sh" not in runs, goal


# (a Makefile, the goal CI asks, the scripts that must be reached): what may build a goal no explicit rule names
STAYS = [
    # a rule whose targets are a variable's value may be any name
    ("TARGETS = install\n$(TARGETS):\n\t./scripts/dyn.sh\nother:\n\t./scripts/test.sh\n", "install",
     {"scripts/dyn.sh"}),
    ("${NAME}-install:\n\t./scripts/dyn.sh\n", "app-install", {"scripts/dyn.sh"}),
    # a pattern that matches it, match-anything rules, .DEFAULT
    ("%:\n\t./scripts/default.sh $@\nother:\n\t./scripts/test.sh\n", "install", {"scripts/default.sh"}),
    ("%::\n\t./scripts/default.sh $@\n", "install", {"scripts/default.sh"}),
    ("inst%:\n\t./scripts/default.sh\n", "install", {"scripts/default.sh"}),
    (".DEFAULT:\n\t./scripts/default.sh $@\nother:\n\t./scripts/test.sh\n", "install", {"scripts/default.sh"}),
    # rules made at run time, an include: the whole file
    ("$(eval install: ; ./scripts/dyn.sh)\nother:\n\t./scripts/test.sh\n", "install", {"scripts/dyn.sh"}),
    ("$(foreach t,install,$(eval $(t): ; ./scripts/dyn.sh))\nother:\n\t./scripts/test.sh\n", "install",
     {"scripts/dyn.sh"}),
    ("RULE = $(1): ; ./scripts/dyn.sh\n$(eval $(call RULE,install))\nother:\n\t./scripts/test.sh\n", "install",
     {"scripts/dyn.sh"}),
    ("include x.mk\nother:\n\t./scripts/test.sh\n", "install", {"scripts/test.sh"}),
    # a defined goal, a double-colon one, a variable's assignment that runs a command at parse time
    ("install:\n\t./scripts/build.sh\nother:\n\t./scripts/test.sh\n", "install", {"scripts/build.sh"}),
    ("install::\n\t./scripts/build.sh\n", "install", {"scripts/build.sh"}),
    ("X := $(shell ./scripts/gen.sh)\nother:\n\t./scripts/test.sh\n", "install", {"scripts/gen.sh"}),
]


@each_case("makefile, goal, expected", STAYS)
def test_what_may_build_an_unnamed_goal_is_still_reached(makefile: str, goal: str, expected: set[str]) -> None:
    definition, text = BLOCK_DEFINITIONS[0]
    files = {"Makefile": makefile, "x.mk": "install:\n\t./scripts/wheel.sh\n", **SCRIPTS,
             definition: _line(definition, text, f"make {goal}")}
    assert expected <= _runs(files), (makefile, goal)


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@each_case("makefile, goal", [(m, g) for m, g, _ in STAYS] + [(CYTHON, "install"), (CYTHON, "s5"), (CYTHON, "")])
def test_what_real_make_runs_is_reached(tmp_path: Path, makefile: str, goal: str) -> None:
    (tmp_path / "Makefile").write_text(makefile)
    (tmp_path / "x.mk").write_text("install:\n\t./scripts/wheel.sh\n")
    done = subprocess.run(["make", "-n", "-C", str(tmp_path), *goal.split()], capture_output=True, text=True,
                          timeout=30, check=False)
    printed = set(re.findall(r"scripts/\w+\.sh|-C Doc/s5", done.stdout + done.stderr))
    definition, text = BLOCK_DEFINITIONS[0]
    files = {"Makefile": makefile, "x.mk": "install:\n\t./scripts/wheel.sh\n", **SCRIPTS, SLIDES: "s:\n\techo\n",
             definition: _line(definition, text, f"make {goal}".strip())}
    runs = _runs(files) | ({"-C Doc/s5"} if SLIDES in _runs(files) else set())
    assert printed <= runs, (makefile, goal, done.stdout, done.stderr)
