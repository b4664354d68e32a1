"""Review 67a: a make goal or target spelled with a leading `./` (issue 12; a lowering of over-reads 6's narrowing).

make drops a leading `./` (and the slashes after it, repeated: `.//./deploy`) from a goal it is asked and from a
rule's targets, so `make ./deploy` runs `deploy:`'s recipe and `make deploy` runs `./deploy:`'s. Since the make-goal
narrowing landed again (b493f73c), a goal no rule builds reads only variable targets, patterns and `.DEFAULT`: `make
./deploy` read none of `deploy:`'s recipe, and the script it runs went `src` (exit 0; it was `ci` on c315ac6c, where
an unmatched goal read the whole file). Real make is the truth: what `make -n` prints is what the walk must reach.
Look-alikes make does not normalise (`deploy/`, `x/../deploy`, an absolute path) stay unreached, as make stops."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, one_tree_runs
from tables import each_case

SCRIPT = "devTools/deploy.sh"
OTHER = "devTools/other.sh"
GOALS = ["./deploy", "././deploy", ".//deploy", ".//./deploy", "deploy"]
TARGETS = ["deploy", "./deploy", ".//deploy"]
# (a Makefile's rule for the target, as written): an ordinary, a double-colon and an inline-recipe rule
RULES = ["{target}:\n\t./devTools/deploy.sh\n", "{target}::\n\t./devTools/deploy.sh\n",
         "{target}: ; ./devTools/deploy.sh\n"]
TAIL = "other:\n\t./devTools/other.sh\n"
# goals make does not read as `deploy`: "No rule to make target", no recipe runs
LOOK_ALIKES = ["deploy/", "x/../deploy", "/srv/app/deploy"]


def _line(text: str, line: str) -> str:
    indent = re.search(r"\n([ \t]*)\{line\}", text)
    assert indent is not None
    return text.format(line=line.replace("\n", "\n" + indent.group(1)))


def _runs(makefile: str, goal: str, at: int = 0) -> set[str]:
    definition, text = BLOCK_DEFINITIONS[at]
    files = {"Makefile": makefile, SCRIPT: "#!/bin/sh\n", OTHER: "#!/bin/sh\n",
             definition: _line(text, f"make {goal}")}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


CASES = [(rule.format(target=target) + TAIL, goal, at)
         for rule, target, goal, at in itertools.product(RULES, TARGETS, GOALS, range(3))]


@each_case("makefile, goal, at", CASES)
def test_a_goal_spelled_with_dot_slash_reaches_its_rule(makefile: str, goal: str, at: int) -> None:
    runs = _runs(makefile, goal, at)
    assert SCRIPT in runs, (makefile, goal)
    assert OTHER not in runs, (makefile, goal)  # the narrowing still holds: `other` is not asked


@each_case("goal", LOOK_ALIKES)
def test_goals_make_does_not_normalise_stay_unreached(goal: str) -> None:
    assert SCRIPT not in _runs("deploy:\n\t./devTools/deploy.sh\n" + TAIL, goal), goal


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@each_case("makefile, goal", [(m, g) for m, g, at in CASES if at == 0]
           + [("deploy:\n\t./devTools/deploy.sh\n" + TAIL, g) for g in LOOK_ALIKES])
def test_real_make_agrees(tmp_path: Path, makefile: str, goal: str) -> None:
    (tmp_path / "Makefile").write_text(makefile)
    done = subprocess.run(["make", "-n", "-C", str(tmp_path), goal], capture_output=True, text=True, timeout=30,
                          check=False)
    printed = set(re.findall(r"devTools/\w+\.sh", done.stdout))
    assert printed == ({SCRIPT} & _runs(makefile, goal)), (makefile, goal, done.stdout, done.stderr)
    assert printed == (set() if goal in LOOK_ALIKES else {SCRIPT}), (goal, done.stdout)
