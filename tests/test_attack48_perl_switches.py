"""Attack 48: the modules a `perl`/`prove` command line loads with `-M`/`-m` (`perl -Ilib -MFoo::Bar t/x.t`): perl
requires `lib/Foo/Bar.pm` before the script. Only `PERL5OPT`'s switches were read, and an edit of the module was exit 0
on c315ac6c. Real perl is the truth of what loads."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import LINE_DEFINITIONS, tree_runs, with_line
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import jobenv

FILES = {"lib/Foo.pm": "package Foo; 1;\n", "lib/Foo/Bar.pm": "package Foo::Bar; 1;\n", "t/a.t": "print 1;\n",
         "ci/Hook.pm": "package Hook; 1;\n", "ci/perl/Boot.pm": "package Boot; 1;\n", "Other.pm": "1;\n"}
RUNS = [("perl -Ilib -MFoo -e 1", "lib/Foo.pm"), ("perl -Ilib -MFoo::Bar t/a.t", "lib/Foo/Bar.pm"),
        ("perl -I lib -mFoo::Bar=run t/a.t", "lib/Foo/Bar.pm"), ("perl -Ici -MHook t/a.t", "ci/Hook.pm"),
        ("perl -MFoo t/a.t", "lib/Foo.pm"), ("prove -Ilib -MFoo t", "lib/Foo.pm"),
        ("perl -I./ci/perl -MBoot -e 1", "ci/perl/Boot.pm"), ("perl -w -Ici -M-warnings -MHook x.pl", "ci/Hook.pm"),
        ("perl '-MFoo::Bar qw(x)' t/a.t", "lib/Foo/Bar.pm")]


@pytest.mark.skipif(shutil.which("perl") is None, reason="needs perl")
def test_perl_loads_the_module(tmp_path: Path) -> None:
    (tmp_path / "lib" / "Foo").mkdir(parents=True)
    (tmp_path / "lib" / "Foo" / "Bar.pm").write_text("package Foo::Bar; print \"loaded\\n\"; 1;\n")
    done = subprocess.run(["perl", "-Ilib", "-MFoo::Bar", "-e", "1"], cwd=tmp_path, capture_output=True, text=True)
    assert done.stdout == "loaded\n"


@each_case(("definition", "template", "line", "target"), [(*d, *run) for d in LINE_DEFINITIONS for run in RUNS])
def test_the_module_a_perl_switch_loads_is_ci(definition: str, template: str, line: str, target: str) -> None:
    assert target in tree_runs(with_line(definition, template, line, FILES))


@each_case(("line", "target"), [("perl -Ilib t/a.t", "lib/Foo.pm"), ("perl -MFoo t/a.t", "Other.pm"),
                                ("echo perl -MFoo", "lib/Foo.pm"), ("perl -Ilib -MFoo::Bar t/a.t", "lib/Foo.pm")])
def test_what_no_switch_loads_stays_src(line: str, target: str) -> None:
    assert target not in tree_runs(with_line(*LINE_DEFINITIONS[0], line, FILES))


def test_the_edit_needs_a_human(tmp_path: Path) -> None:
    base = with_line(*LINE_DEFINITIONS[0], "perl -Ilib -MFoo::Bar t/a.t", FILES)
    edit = {"lib/Foo/Bar.pm": "package Foo::Bar; system('id'); 1;\n"}
    _, first, second = two_commits(tmp_path / "repo", base, edit)
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]


@each_case("text", [repeated("-MFoo ", "perl ", "t"), repeated("perl -MFoo\n", "", ""), repeated("echo perl ", "", ""),
                    repeated("-I", "perl ", "x")])
def test_the_commands_are_read_in_linear_time(text: object) -> None:
    assert_linear(jobenv.loaded, text, budget=1.0)  # type: ignore[arg-type]


# The printed-or-run check as it read before suite round 40: a search of each `perl` word's line up to it, quadratic in
# the `perl` words of one line (0.87 CPU-s at 1 MiB of `echo perl `); the one pass over the text must agree with it.
_PRINTS_BEFORE = re.compile(r"\b(?:echo|printf)\b[^;&|(`]*+\Z|\A[ \t]*+#")
_WORDS = ["perl", "prove", "echo", "printf", "-MFoo", "-Ilib", "-mBar::Baz", "#", " ", "\t", "\n", ";", "&&", "|",
          "(", "`", ")", "x", "echoperl", "xecho", "'", '"', "-I", "a/b", "./", "$(", "#perl", "-M-warnings"]


def _printed_before(text: str, at: int) -> bool:
    return bool(_PRINTS_BEFORE.search(text[text.rfind("\n", 0, at) + 1:at]))


def test_the_one_pass_agrees_with_the_search_of_each_line() -> None:
    """20,000 generated lines of perl words, printers, separators and comments: the modules found are the ones the
    search of each `perl` word's line found (its printed-or-run answer is what differs if anything does)."""
    pick = random.Random(40)
    for _ in range(20_000):
        text = "".join(pick.choice(_WORDS) + pick.choice(["", " "]) for _ in range(pick.randrange(1, 14)))
        expected = [module for match in jobenv._PERL.finditer(text) if not _printed_before(text, match.start())
                    for module in jobenv._perl_switches(match.group())]
        assert jobenv._perl_switches(text) == expected, text


def test_a_long_line_of_printed_perl_words_is_read_in_linear_time() -> None:
    """`echo perl ` a MiB long: each `perl` word's line was searched up to it (5 times at 4 times the text from 16 KiB,
    8 from 64 KiB, 13 from 256 KiB: quadratic past the helper's sizes), so this one is read at 256 KiB and 1 MiB."""
    assert_linear(jobenv.loaded, lambda size: "echo perl " * (size * 16 // 10), budget=0.5)
