"""Over-reads 5: a Makefile's own sub-make whose goal is not literal (issue 12, the eighty-first set's infection).

infection's `compile` recipe runs `make $(INFECTION)` and its `cs-check` recipe `$(MAKE) check_trailing_whitespaces`;
a workflow runs each. A goal that is not literal reads the Makefile whole (fail closed: as a workflow's `make
$TARGET` does), but the walk asked a file that names itself only for the tasks it names literally: the whole read
joined with `check_trailing_whitespaces` became "no task asked" and the Makefile was never read again, so the script
`check_trailing_whitespaces` runs stayed `src` (exit 0) whenever any other recipe held such a sub-make. Now a task
file that names itself without a task is read again whole. Real make is the truth: every script `make -n <goal>`
prints for the goals CI runs is among what the walk reaches. Look-alikes: literal sub-makes only keep the unasked
targets' scripts `src`."""

from __future__ import annotations

import itertools
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, one_tree_runs
from tables import each_case

SCRIPTS = {f"devTools/{name}.sh": "#!/bin/sh\n" for name in ("trailing", "fixer", "phar", "unasked")}
# a variable goal (`$(INFECTION)`, `${TARGET}`, `$(OUT)/x`), spelt as make, $(MAKE) or ${MAKE}
SUBMAKES = ["make $(INFECTION)", "$(MAKE) $(INFECTION)", "${MAKE} ${INFECTION}", "$(MAKE) -C . $(INFECTION)"]
CALLS = ["$(MAKE) trailing", "make trailing", "${MAKE} -s trailing"]
MAKEFILE = """INFECTION = build/infection.phar

.PHONY: trailing
trailing:
\t./devTools/trailing.sh

.PHONY: compile
compile:\t ## Bundles a PHAR
compile:
\trm $(INFECTION) || true
\t{submake}

$(INFECTION):
\t./devTools/phar.sh

.PHONY: cs-check
cs-check:\t\t## Runs the fixer in dry-run mode
cs-check: $(FIXER)
\t./devTools/fixer.sh
\t{call}

unasked:
\t./devTools/unasked.sh
"""


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


def _workflows(goals: list[str]) -> dict[str, str]:
    definition, text = BLOCK_DEFINITIONS[0]
    return {f".github/workflows/{goal}.yml": text.format(line=f"make {goal}") for goal in goals}


def _make_prints(tmp_path: Path, makefile: str, goals: list[str]) -> set[str]:
    (tmp_path / "Makefile").write_text(makefile)
    printed = subprocess.run(["make", "-n", *goals], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    return {path for path in SCRIPTS if f"./{path}" in printed}


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@each_case("submake, call, goals", [
    (submake, call, list(goals)) for submake, call in itertools.product(SUBMAKES, CALLS)
    for goals in (["compile", "cs-check"], ["cs-check", "compile"])])
def test_every_script_make_runs_is_ci_beside_a_variable_submake(tmp_path: Path, submake: str, call: str,
                                                                goals: list[str]) -> None:
    makefile = MAKEFILE.format(submake=submake, call=call)
    # make's own reading (`make -n` runs a `$(MAKE)` line and prints a plain `make` one, which the recipe runs)
    printed = _make_prints(tmp_path, makefile, goals) | {"devTools/trailing.sh"}
    assert "devTools/fixer.sh" in printed and ("MAKE" not in call or "devTools/trailing.sh" in printed)
    runs = _runs({"Makefile": makefile, **SCRIPTS, **_workflows(goals)})
    assert printed <= runs, (goals, sorted(printed - runs))


@each_case("call", CALLS)
def test_literal_submakes_keep_the_unasked_targets_source(call: str) -> None:
    makefile = MAKEFILE.format(submake="$(MAKE) trailing", call=call)
    runs = _runs({"Makefile": makefile, **SCRIPTS, **_workflows(["compile", "cs-check"])})
    assert {"devTools/trailing.sh", "devTools/fixer.sh"} <= runs
    assert "devTools/unasked.sh" not in runs  # (`$(INFECTION):`'s phar.sh may be any goal's: overreads4)
