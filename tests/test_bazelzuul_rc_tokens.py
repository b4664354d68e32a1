"""Docs review 54: Bazel run-control lines read as Bazel's own run-control parser reads them (rc_file.cc).

Bazel deletes each backslash-newline (also backslash-CR-newline) before it splits a run-control file into lines, then
splits each line into words as a shell would (quotes and backslashes removed, `#` starts a comment), the first word
its command with any `:config` name after the colon. The readers matched one regular expression per spelling, so a
hook or module-source option continued onto the next line, a config name holding `.`, `/` or `+`
(`build:ci.linux`, rules_foreign_cc's `common:bazel-8.x`), a quoted command word (`"build"`, `buil"d"`) or a quoted or
backslash-escaped option name (`--workspace_status_"command=..."`, `--workspace_status_comman\\d=`) left the file
`other`, and the default gate allowed it from the patch and with --tree (exit 0 on integ 894a6f7). Also: a
run-control file longer than is read, from a patch (the tree mode already failed closed), and a file `.bazelrc`
imports under any name (`tools/bazel.cfg`).

Every variant is one real repository, git's own patch and the CLI's packet, gated by the default policy.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.bazelrc import rc_lines

FLAGS = "build --jobs=4\n"
HOOK = "--workspace_status_command=/bin/sh"
# Each spelling of a command line (before the options) and of an option, generated against each other below.
COMMANDS = {"plain": "build", "config-dot": "build:ci.linux", "config-slash": "build:linux/x86",
            "config-plus": "build:asan+ubsan", "config-version": "common:bazel-8.x", "quoted": '"build"',
            "split-quote": 'buil"d"', "single-quoted": "'common'", "escaped": "bu\\ild"}
SPELLINGS = {  # how the option is written, from `--name=value`
    "plain": lambda opt: opt,
    "continued": lambda opt: "--jobs=4 \\\n    " + opt,
    "continued-crlf": lambda opt: "--jobs=4 \\\r\n  " + opt,
    "continued-inside": lambda opt: opt[:8] + "\\\n" + opt[8:],
    "quoted-half": lambda opt: opt[:12] + '"' + opt[12:] + '"',
    "escaped-char": lambda opt: opt[:-12] + "\\" + opt[-12:],
    "single-quoted-name": lambda opt: "'" + opt.partition("=")[0] + "'=" + opt.partition("=")[2],
}
HOOKS = [HOOK, "--credential_helper=/usr/local/bin/h", "--run_under=/tmp/x"]
SOURCES = ["--registry=https://evil.example/", "--override_module=rules_x=/tmp/x"]


def _case(tmp_path: Path, line: str, name: str = ".bazelrc") -> object:
    return committed(tmp_path, {"MODULE.bazel": 'module(name = "app")\n', name: FLAGS}, {name: FLAGS + line + "\n"})


@each_case("command, spelling", [(command, spelling) for command in COMMANDS for spelling in SPELLINGS])
def test_every_spelling_of_a_hook_line_is_ci(tmp_path: Path, command: str, spelling: str) -> None:
    case = _case(tmp_path, COMMANDS[command] + " " + SPELLINGS[spelling](HOOK))
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and named.get("core.ci") == [".bazelrc"], (tree, named)  # before: other, exit 0


@pytest.mark.parametrize("hook", HOOKS[1:] + ["startup \\\n  --host_jvm_args=-javaagent:/tmp/a.jar"])
def test_other_hooks_continued(tmp_path: Path, hook: str) -> None:
    line = hook if hook.startswith("startup") else "test:ci.x --jobs=4 \\\n  " + hook
    case = _case(tmp_path, line)
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and named.get("core.ci") == [".bazelrc"], (tree, named)


@each_case("source, spelling", [(source, spelling) for source in SOURCES
           for spelling in ["continued", "continued-crlf", "quoted-half", "escaped-char"]])
def test_every_spelling_of_a_module_source_is_deps(tmp_path: Path, source: str, spelling: str) -> None:
    case = _case(tmp_path, "common:ci.mirror " + SPELLINGS[spelling](source))
    for tree in (False, True):
        code, named = gated_rules(case, tree, "deps")
        assert code == 3 and any(".bazelrc" in paths for paths in named.values()), (tree, named)


# Lines Bazel reads as no hook: a comment (also one a continuation does not reach), a flag of another name, a quoted
# word holding the name after other text, a backslash that ends the file.
CALM = ["# build \\\n --jobs=2", "build --jobs=4 # " + HOOK, "build --workspace_status_commands_x=1",
        "build \"--copt=" + HOOK + "\"", "build --jobs=4 \\"]


@each_case("line", CALM)
def test_lines_that_run_nothing_keep_their_class(tmp_path: Path, line: str) -> None:
    case = _case(tmp_path, line)
    for tree in (False, True):
        assert gated_rules(case, tree) == (0, {}), (tree, line)


def test_the_tokenizer_reads_as_bazel() -> None:
    lines = rc_lines('a \\\r\n b\n"bu"il\\d:x.y \'--c d\' e#f # g\nimport  %workspace%/x.cfg\n\n# c \\\nstill\n')
    assert [(line.command, line.config, line.words) for line in lines] == [
        ("a", "", ("b",)), ("build", "x.y", ("--c d", "e#f")), ("import", "", ("%workspace%/x.cfg",))]
    assert [line.start for line in lines] == [0, 8, 37]


PAD = "# " + "x" * 98 + "\n"


@pytest.mark.parametrize("base", ["", "build --jobs=4\n"])
def test_a_run_control_file_longer_than_is_read_is_ci_from_the_patch(tmp_path: Path, base: str) -> None:
    head = base + PAD * 11000 + "build " + HOOK + "\n"
    files = {"MODULE.bazel": 'module(name = "app")\n'}
    case = committed(tmp_path, {**files, **({".bazelrc": base} if base else {})}, {".bazelrc": head})
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and ".bazelrc" in named.get("core.ci", []), (tree, named)  # before: patch other, exit 0


@each_case("name, line", [(name, line)
           for name in ["tools/bazel.cfg", "tools/remote.conf", "tools/ci.txt", "config/bazel.ini"]
           for line in ["build " + HOOK, "build:x \\\n  " + HOOK]])
def test_a_file_bazelrc_imports_by_any_name_is_read_as_run_control(tmp_path: Path, name: str, line: str) -> None:
    base = {"MODULE.bazel": 'module(name = "app")\n', ".bazelrc": f"try-import %workspace%/{name}\n", name: FLAGS}
    case = committed(tmp_path, base, {name: FLAGS + line + "\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and name in named.get("core.ci", []), named  # before: src, exit 0 with --tree
    code, _ = gated_rules(case, False)
    assert code != 0  # from the patch alone: not known imported, still not allowed


def test_a_file_nothing_imports_keeps_its_class(tmp_path: Path) -> None:
    base = {"MODULE.bazel": 'module(name = "app")\n', ".bazelrc": FLAGS, "tools/bazel.cfg": "a = 1\n"}
    case = committed(tmp_path, base, {"tools/bazel.cfg": "a = 2\n"})
    assert gated_rules(case, True)[0] == 0
