"""A CI line that runs a repository file through a path quoting glues together: `t'ools'/gen`, `tools/ge''n`,
`"tools"/gen`, `$'tools/gen'`, `tools/g\\en` (bash's quote removal makes each `tools/gen`). The walk read each quote as
a blank (`t ools /gen`), so the file was not named and its edit was allowed (`gate --tree --enable deps`, exit 0 on
main 2303c0b: red team 38's lead). A command line with such a word is now also read after quote removal
(`commandlines.unquoted`); real bash is the truth for every form.
"""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path

import pytest
from citools import yaml_quoted
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case
from test_attack38_fed_scripts import DEFINITIONS, EVIL, HELPER, _names

from gatekeeper.classify import commandlines

# ways to write the word `tools/gen` that bash reads as it (quoting glued to the word's other parts)
SPELLINGS = ["t'ools'/gen", "tools/ge''n", '"tools"/gen', "$'tools/gen'", "tools/g\\en", './t"ool"s/gen',
             "'tool's/gen", 'tools"/"gen', "to\"ol\"s'/g'en", '$"tools/gen"', "\\t\\o\\o\\l\\s/gen", "tools/gen''",
             "''tools/gen", "t'o'o'l's/gen"]
# where the word stands on a line: a command, an interpreter's script, behind a wrapper or an assignment
FORMS = ["{w}", "./{w}", "bash {w}", "sh -e {w} arg", "timeout 60 {w}", 'FOO="x" {w}', "set -e; {w}", "{w} && echo ok"]
LINES = [form.format(w=word.removeprefix("./") if form.startswith("./") else word)
         for form, word in itertools.product(FORMS, SPELLINGS)]


@each_case("line", LINES)
def test_a_glued_path_is_named(line: str) -> None:
    missed = [path for path, template in DEFINITIONS if not _names(path, template, line)]
    assert not missed, missed


@each_case("line", LINES[::5])
def test_bash_runs_tools_gen(tmp_path: Path, line: str) -> None:
    """The truth: bash runs tools/gen for every fifth line (the forms its words take)."""
    folder = tmp_path / str(LINES.index(line))
    (folder / "tools").mkdir(parents=True)
    (folder / "tools" / "gen").write_text(HELPER)
    (folder / "tools" / "gen").chmod(0o755)
    done = subprocess.run(["bash", "-c", line], cwd=folder, capture_output=True, timeout=30, check=False,
                          env={"PATH": os.environ["PATH"], "HOME": str(folder)})
    assert (folder / "ran.txt").exists(), done.stderr[-400:]


# quoting that names another file, or none: no tools/gen
LOOK_ALIKES = ["echo t'ools'/gen", "echo 'tools/gen'", "t'ools '/gen", "tools/gen-'x'",
               "cat t'ools'/gen", "# t'ools'/gen", "tools/'ge'n.md"]


@each_case("line", LOOK_ALIKES)
def test_a_look_alike_names_no_tools_gen(line: str) -> None:
    named = [path for path, template in DEFINITIONS if _names(path, template, line)]
    assert not named, named


@each_case(("line", "reading"), [
    ("tools/gen", None), ("bash 'tools/gen'", None), ('echo "a b" c', None), ("X='y' z", "X=y z"),
    ("t'ools'/gen", "tools/gen"), ("$'a'/b x", "a/b x"), ('"a\\"b"/c', 'a\\"b/c'), ("a\\ b", None),
    ("tools/g\\en x", "tools/gen x"), ("t'unclosed", None), ("it's", None)])
def test_the_second_reading_is_quote_removal_where_it_glues(line: str, reading: str | None) -> None:
    assert commandlines.unquoted(line) == reading


def test_a_hostile_line_is_read_in_linear_time() -> None:
    for unit in ("'a'", "\"\\'\"", "a\\", "$'", "\"'", "'\""):
        assert_linear(commandlines.unquoted, repeated(unit), budget=1.0)


@pytest.mark.parametrize("word", ["t'ools'/gen", "$'tools/gen'"])
def test_the_gated_edit_needs_a_human(tmp_path: Path, word: str) -> None:
    workflow = DEFINITIONS[0][1].format(line=yaml_quoted(f"bash {word}"))
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, "tools/gen": HELPER,
                                              "README.md": "x\n"}, {"tools/gen": EVIL})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
