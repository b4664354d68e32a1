"""Red team 49: a name from the change that the CI log reads as a command.

CI runners read commands from what a step prints: Azure Pipelines' agent runs `##vso[area.action ...]message` and
`##[...]` found anywhere in a line of the step's output (so `set -x` echoes trigger them), TeamCity its
`##teamcity[...]` service messages, GitHub Actions' runner `::name ...::message` (and the old `##[...]`) at a line's
start after its blanks. Before, the text report, `classify`'s table and every other report printed a changed file's
name as it is: a workflow named `.github/workflows/##vso[task.setvariable variable=gate]allow.yml`, or a file
`x/##vso[task.prependpath]/tmp`, set a pipeline variable or put a folder first on PATH for the job's later steps
(`gate --dry-run`, the rollout mode, exits 0 with the report). Names and messages are printed with the marker
broken (`#\\x23vso[`, `\\x3a:`) by the one escaper every report uses; look-alikes (`C#`, `a::b` inside a name,
`## [x]`) print unchanged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gatekeeper.readable import printable
from gatekeeper.reports.findings import display, one_line
from tests.gitrepo import GitRepo
from tests.incli import run_cli

# What each runner acts on, read as generously as any of them reads it.
_ANYWHERE = re.compile(r"##(?:vso|teamcity)?\[", re.IGNORECASE)


def commands_in(text: str) -> list[str]:
    """The lines of `text` some CI runner would read as a command."""
    found = []
    for line in text.splitlines():
        lead = line.lstrip()
        if _ANYWHERE.search(line) or lead.startswith("::"):
            found.append(line)
    return found


_COMMANDS = ("vso[task.setvariable variable=gate]allow", "vso[task.prependpath]/tmp", "[error]x",
             "VSO[task.complete result=Succeeded;]", "teamcity[buildStatus status='SUCCESS' text='ok']",
             "Vso[build.addbuildtag]t", "[set-output name=outcome;]allow")
_LEADS = ("##", "###", "a##", "x/##", " ##", "#" * 5)
_GITHUB = ("::stop-commands::tok", "::set-output name=outcome::allow", "::error file=a::b", "  ::warning::w",
           "\t::notice::n", "\u3000::add-mask::m", "::::x")


def hostile_names() -> list[str]:
    """Generated names: each runner's marker behind leads, inside folders, at the start."""
    names = [f"{lead}{command}" for lead in _LEADS for command in _COMMANDS]
    names += [f"src/{name}.yml" for name in names[:20]]
    names += list(_GITHUB) + [f"{g}/x.yml" for g in _GITHUB]
    return names


LOOK_ALIKES = ("C#/Program.cs", "docs/#1.md", "src/a::b.rs", "x/#[derive].rs", "notes/## [x].md", "a#b#c",
               "lib/::/x", "#vso[x]", "a :: b")


@pytest.mark.parametrize("name", hostile_names())
def test_a_printed_name_is_no_command(name: str) -> None:
    assert not commands_in(printable(name)), printable(name)
    assert not commands_in(display(name)), display(name)
    assert not commands_in(one_line(name)), one_line(name)


def test_printed_names_stay_distinct() -> None:
    names = hostile_names() + [printable(n) for n in hostile_names()] + list(LOOK_ALIKES)
    assert len({printable(n) for n in names}) == len(set(names))


@pytest.mark.parametrize("name", [name for name in LOOK_ALIKES if "::" not in name.lstrip()[:2]])
def test_look_alikes_print_unchanged(name: str) -> None:
    assert printable(name) == name
    assert display(name) == name


@pytest.mark.parametrize("lead", ["", "  ", "\t", "text\n", "text\n   ", "a\r", "one\ntwo\n\u2003"])
def test_a_message_line_is_no_command(lead: str) -> None:
    for command in (*_GITHUB, *(f"##{c}" for c in _COMMANDS)):
        text = f"{lead}{command.lstrip()}"
        assert not commands_in(display(text)), display(text)
        assert not commands_in(one_line(text)), one_line(text)


@pytest.fixture(scope="module")
def hostile_repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("logcommands") / "repo")
    repo.write("README.md", "x\n")
    repo.commit("base")
    workflow = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n"
    repo.write(".github/workflows/##vso[task.setvariable variable=gate]allow.yml", workflow)
    repo.write(".github/workflows/::stop-commands::tok.yml", workflow)
    repo.write(".github/workflows/##teamcity[buildStatus status='SUCCESS']", workflow)
    repo.write("x/##vso[task.prependpath]/tmp", "echo\n")
    repo.write("##[error]top.txt", "x\n")
    repo.commit("head")
    return repo


@pytest.mark.parametrize("args", [
    ["gate", "--tree", "main~1..main", "--dry-run"],
    ["gate", "--tree", "main~1..main"],
    ["gate", "--tree", "main~1..main", "--format", "github"],
    ["classify", "--tree", "main~1..main"],
])
def test_no_command_reaches_the_log(hostile_repo: GitRepo, args: list[str]) -> None:
    done = run_cli([*args, "--repo", str(hostile_repo.root)], text=True)
    assert done.returncode in (0, 3), done.stderr
    out = str(done.stdout) + str(done.stderr)
    assert "vso[task.setvariable" in out  # the names are shown, only their markers broken
    # The gate's own annotations (`--format github`) are the only commands, and they carry no other.
    # (a property value escapes `:` and `,`, so a name cannot add one; text after `::` is the message).
    own = re.compile(r"::(?:error|warning|notice)[ :]")
    assert not [line for line in commands_in(out) if not own.match(line) or _ANYWHERE.search(line)], out


def test_a_patch_of_such_names_classifies_without_commands(hostile_repo: GitRepo, tmp_path: Path) -> None:
    patch = tmp_path / "change.diff"
    patch.write_bytes(hostile_repo.git("diff", "--binary", "main~1", "main"))
    done = run_cli(["classify", str(patch)], text=True)
    assert done.returncode == 0, done.stderr
    assert not commands_in(str(done.stdout) + str(done.stderr))


_NAMES = (".github/workflows/##vso[task.setvariable variable=gate]allow.yml", "x/##vso[task.prependpath]/tmp",
          "##[error]top.txt")


def _json_names(value: object) -> set[str]:
    """Every string in a JSON value."""
    if isinstance(value, dict):
        return {s for v in value.values() for s in _json_names(v)}
    if isinstance(value, list):
        return {s for v in value for s in _json_names(v)}
    return {value} if isinstance(value, str) else set()


@pytest.mark.parametrize("args", [
    ["gate", "--tree", "main~1..main", "--format", "json", "--dry-run"],
    ["gate", "--tree", "main~1..main", "--format", "sarif"],
    ["gate", "--tree", "main~1..main", "--format", "codequality"],
    ["classify", "--tree", "main~1..main", "--format", "json"],
    ["classify", "--explain", "x/##vso[task.prependpath]/tmp", "--format", "json"],
])
def test_json_on_the_log_carries_the_names_and_no_command(hostile_repo: GitRepo, args: list[str]) -> None:
    done = run_cli([*args, *(["--repo", str(hostile_repo.root)] if "--tree" in args else [])], text=True)
    assert done.returncode in (0, 3), done.stderr
    assert not commands_in(str(done.stdout) + str(done.stderr))
    strings = _json_names(json.loads(str(done.stdout)))
    # The same JSON value: only its spelling differs (SARIF and Code Quality carry the path as a URI or a message).
    assert any("vso[task." in s for s in strings)
    if args[-1] == "json" or "json" in args:
        assert any("##vso[task." in s for s in strings)


def test_packet_and_path_lists_on_the_log(hostile_repo: GitRepo, tmp_path: Path) -> None:
    patch = tmp_path / "change.diff"
    patch.write_bytes(hostile_repo.git("diff", "--binary", "main~1", "main"))
    listed = tmp_path / "paths.txt"
    listed.write_text("\n".join(_NAMES) + "\n")
    for args in (["packet", str(patch), "--format", "json"], ["classify", "--paths", str(listed), "--format", "json"],
                 ["classify", "--paths", str(listed)]):
        done = run_cli(args, text=True)
        assert done.returncode == 0, (args, done.stderr)
        assert not commands_in(str(done.stdout) + str(done.stderr)), args
        if "json" in args:
            assert set(_NAMES) <= _json_names(json.loads(str(done.stdout))), args


def test_an_error_line_is_no_command(tmp_path: Path) -> None:
    for name in ("##vso[task.setvariable variable=a]b.diff", "##teamcity[buildStatus status='SUCCESS']"):
        patch = tmp_path / name
        patch.write_text("not a patch\n")
        done = run_cli(["classify", str(patch)], text=True)
        assert done.returncode == 2
        assert "teamcity" in str(done.stderr) or "vso" in str(done.stderr)
        assert not commands_in(str(done.stderr)), done.stderr
