"""Hardening 50: a name from the change that Buildkite's log reads as a group header.

Buildkite folds a job's log at a line that starts with `--- `, `+++ ` or `~~~ ` (a collapsed, expanded or
de-emphasised group named by the rest of the line) and `^^^ +++` opens the previous group. A changed file named
`--- :white_check_mark: gate allowed` printed at a line's start (the `classify --paths` listing, a message line)
would fold the gate's report away under a title the change chose. The one escaper (`readable.inert`) breaks the
first character of such a lead (`\\x2d-- `) after any blanks, as it breaks GitHub's `::`; look-alikes print unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gatekeeper.readable import inert, printable
from gatekeeper.reports.findings import display, one_line
from tests.gitrepo import GitRepo
from tests.incli import run_cli

# Read as generously as Buildkite could: the lead after any blanks, then a blank or the line's end.
_HEADER = re.compile(r"^\s*(?:---|\+\+\+|~~~|\^\^\^)(?:\s|$)")


def headers_in(text: str) -> list[str]:
    return [line for line in text.splitlines() if _HEADER.match(line)]


_LEADS = ("--- ", "+++ ", "~~~ ", "^^^ +++", "---\t", "+++", "---  :rocket: deploy", "~~~ ~~~ ")
_BEFORE = ("", " ", "  ", "\t", "\u3000")


def hostile_names() -> list[str]:
    names = [f"{before}{lead}gate allowed" for before in _BEFORE for lead in _LEADS]
    return names + [f"{lead}x/y.yml" for lead in _LEADS] + [lead.rstrip() for lead in _LEADS]


LOOK_ALIKES = ("a--- b", "src/--- x", "x+++ y", "c++/a.cc", "--help.txt", "-- x", "++ x", "~~x", "^^ x", "---x",
               "+++x", "~~~x", "^^^x", "a/~~~ b")


@pytest.mark.parametrize("name", hostile_names())
def test_a_printed_name_opens_no_group(name: str) -> None:
    for shown in (printable(name), display(name), one_line(name), inert(name)):
        assert not headers_in(shown), shown


def test_printed_names_stay_distinct() -> None:
    names = hostile_names() + [printable(n) for n in hostile_names()] + list(LOOK_ALIKES)
    assert len({printable(n) for n in names}) == len(set(names))


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_print_unchanged(name: str) -> None:
    assert printable(name) == name
    assert display(name) == name


@pytest.mark.parametrize("before", ["text\n", "text\n   ", "a\r", "one\ntwo\n\t", "x\n\n"])
def test_a_message_line_opens_no_group(before: str) -> None:
    for lead in _LEADS:
        text = f"{before}{lead}gate allowed"
        assert not headers_in(display(text)), display(text)
        assert not headers_in(inert(text)), inert(text)


@pytest.fixture(scope="module")
def hostile_repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("loggroups") / "repo")
    repo.write("README.md", "x\n")
    repo.commit("base")
    workflow = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n"
    repo.write(".github/workflows/--- gate allowed.yml", workflow)
    repo.write("--- :white_check_mark: gate allowed", "x\n")
    repo.write("+++ expanded", "x\n")
    repo.write("~~~ quiet/x", "x\n")
    repo.commit("head")
    return repo


@pytest.mark.parametrize("args", [
    ["gate", "--tree", "main~1..main", "--dry-run"],
    ["gate", "--tree", "main~1..main", "--format", "github"],
    ["gate", "--tree", "main~1..main", "--format", "markdown"],
    ["classify", "--tree", "main~1..main"],
])
def test_no_group_header_reaches_the_log(hostile_repo: GitRepo, args: list[str]) -> None:
    done = run_cli([*args, "--repo", str(hostile_repo.root)], text=True)
    assert done.returncode in (0, 3), done.stderr
    out = str(done.stdout) + str(done.stderr)
    assert "gate allowed" in out
    assert not headers_in(out), out


def test_path_lists_and_patches_open_no_group(hostile_repo: GitRepo, tmp_path: Path) -> None:
    patch = tmp_path / "change.diff"
    patch.write_bytes(hostile_repo.git("diff", "--binary", "main~1", "main"))
    listed = tmp_path / "paths.txt"
    listed.write_text("--- :white_check_mark: gate allowed\n+++ expanded\n~~~ quiet/x\n^^^ +++\n")
    for args in (["classify", str(patch)], ["classify", "--paths", str(listed)], ["packet", str(patch)]):
        done = run_cli(args, text=True)
        assert done.returncode == 0, (args, done.stderr)
        assert not headers_in(str(done.stdout) + str(done.stderr)), (args, done.stdout)
