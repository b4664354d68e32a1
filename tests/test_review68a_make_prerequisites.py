"""Review 68a: a pattern rule's recipe that runs its prerequisite in other words than `python $<` (makestems.py).

On 58f4e83c only `$<` right after an interpreter's name (or at a command's start) made the `%` prerequisites a family
of scripts the job runs: `python $^`, `$(firstword $^)`, `$(PYTHON) $<`, `uv run $<`, `bash -e $<`, `source $<`,
`. ./$<`, `python $(notdir $<)` named nothing, and `make out.txt` ran `gen/out.py` unreviewed. Look-alikes: a
compiler's or a copy's operand (`$(CC) -c $<`, `tsc $<`, `cp $^ $@`) is no program CI runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.makestems import holed

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: make out.txt\n")
RECIPES = ["python $^", "python $(firstword $^)", "$(PYTHON) $<", "$(PYTHON3) -u $<", "uv run $<", "bash -e $<",
           "sh -eu $<", "source $<", ". ./$<", "cd gen && python $(notdir $<)",
           "python3 -X dev $+"]


def _makefile(recipe: str) -> str:
    kind = "sh" if recipe.split()[0] in ("bash", "sh", "source", ".") else "py"
    return f"PYTHON ?= python3\nPYTHON3 ?= python3\nSHELL := bash\n%.txt: gen/%.{kind}\n\t{recipe} > $@\n"


@each_case("recipe", RECIPES)
def test_a_prerequisite_the_recipe_runs_is_read(recipe: str) -> None:
    kind = "sh" if recipe.split()[0] in ("bash", "sh", "source", ".") else "py"
    files = {".github/workflows/ci.yml": WORKFLOW, "Makefile": _makefile(recipe), f"gen/out.{kind}": "print(1)\n",
             "README.md": "x\n"}
    assert f"gen/out.{kind}" in tree_runs(files), recipe  # before: 11 of 11 missed


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@each_case("recipe", RECIPES)
def test_real_make_runs_that_prerequisite(tmp_path: Path, recipe: str) -> None:
    kind = "sh" if recipe.split()[0] in ("bash", "sh", "source", ".") else "py"
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / f"out.{kind}").write_text("print(1)\n")
    (tmp_path / "Makefile").write_text(_makefile(recipe))
    done = subprocess.run(["make", "-n", "out.txt"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "out" in done.stdout and ("gen/out" in done.stdout or "notdir" in recipe), done.stdout


@each_case("recipe", ["$(CC) -c $< -o $@", "tsc $<", "cp $^ $@", "$(CXX) $(CFLAGS) $^ -o $@", "gzip -c $< > $@"])
def test_look_alikes_run_no_prerequisite(recipe: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "Makefile": f"%.txt: gen/%.py\n\t{recipe}\n",
             "gen/out.py": "x\n", "README.md": "x\n"}
    assert "gen/out.py" not in tree_runs(files), recipe


@each_case("hostile", [repeated("%.x: g/%.py\n\tpython $^\n"), repeated("\t$(PYTHON) -u -u $<\n", "%: %.py\n"),
                       repeated("$(firstword $(notdir $^)) ", "%: %.py\n\t")])
def test_hostile_makefiles_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(holed, hostile, budget=0.5)
