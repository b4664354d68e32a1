"""The CI walk's command readers read a package.json's scripts one a line (determinism round 45; determ44's Left 1).

determ44 fixed the order of the scripts tasktexts.restricted keeps, but the readers still read its JSON text:
fixtureinstalls' `npm i` words ran past a script's closing `"` into the next script, so calva's
`"pree2e-test": "cd ./src/extension-test/e2e-test/ && npm i"` took the next script's `./out/…/cljs-lib-tests.js` as an
installed fixture folder. Which script came next decided the answer: reordering or renaming scripts changed it. Now
every command reader gets the scripts' decoded strings, one a line (tasktexts.command_text), so no reader can read
across two scripts, and a package.json's answer is the same in any order of its scripts.
"""

from __future__ import annotations

import itertools
import json

import pytest
from citools import one_tree_runs

from gatekeeper.classify import tasktexts

# an installer's command at a script's end, whose words a reader takes up to the end of a command
_INSTALLERS = ("npm i", "npm install", "pnpm add", "yarn add", "npm --silent install", "pnpm install")
# a next script's command that names a path below a test tree (what an installer's words must not take)
_FOLLOWERS = ("node ./test/{n}/run.js", "./test/{n}/run.js --fast", "mocha ./test/{n}/run.js", "tap ./test/{n}/run.js")


def _tree(scripts: dict[str, str], runs: list[str]) -> dict[str, str]:
    """A repository whose workflow runs `npm run NAME` for each of `runs`, its package.json holding `scripts` (in
    that order); each follower's path is also a folder holding what npm would run of an installed one."""
    files = {"package.json": json.dumps({"name": "x", "scripts": scripts}),
             ".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
             + "".join(f"      - run: npm run {name}\n" for name in runs),
             "test/e2e/package.json": "{}"}
    for name in scripts:
        files[f"test/{name}/run.js/package.json"] = "{}"  # what a read across scripts would name
        files[f"test/{name}/run.js/binding.gyp"] = "{}"
    return files


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict), "the walk closed"
    return set(runs)


@pytest.mark.parametrize(("installer", "follower"), list(itertools.product(_INSTALLERS, _FOLLOWERS)))
def test_no_reader_reads_into_the_next_script(installer: str, follower: str) -> None:
    """An install at one script's end, a test path at the next script's start: the path is no installed folder."""
    scripts = {"pretest": f"cd ./test/e2e/ && {installer}", "test": follower.format(n="unit")}
    runs = _runs(_tree(scripts, ["test"]))
    assert not {path for path in runs if "/run.js/" in path}, sorted(runs)
    assert "test/e2e/package.json" in runs  # the real install still counts (look-alike that must not change)


# other readers' heads at a script's end (pip's, Go's, Cargo's installs, a Docker build, `dotnet run`)
_OTHER_HEADS = ("pip install", "python -m pip install -e", "go install", "cargo install --path", "docker build -f",
                "dotnet run --project")


@pytest.mark.parametrize("installer", _INSTALLERS + _OTHER_HEADS)
def test_answer_does_not_depend_on_script_order(installer: str) -> None:
    """Every order of a package.json's scripts gives one answer."""
    names = ["alpha", "beta", "gamma"]
    base = {f"pre{names[0]}": f"cd ./test/e2e/ && {installer}"} | {
        name: _FOLLOWERS[index].format(n=name) for index, name in enumerate(names)}
    answers = {frozenset(_runs(_tree(dict(order), names))) for order in itertools.permutations(base.items())}
    assert len(answers) == 1, [sorted(a ^ b) for a, b in itertools.combinations(answers, 2)]


@pytest.mark.parametrize(("name", "value", "lines"), [
    ("test", 'node -e "require(\'./x\')"', ['node -e "require(\'./x\')"']),  # decoded, not `\"`
    ("build", "a && b\nc", ["a && b", "c"]),  # a newline in a script: two shell lines
])
def test_command_text_is_each_script_decoded(name: str, value: str, lines: list[str]) -> None:
    text = json.dumps({"name": "x", "description": "run npm i ./test/y", "scripts": {name: value, "other": "d"}})
    assert tasktexts.command_text("package.json", text).splitlines() == [*lines, "d"]


def test_command_text_keeps_release_and_wireit_commands() -> None:
    """What else of a package.json runs as a command (ciruns._package's lines): semantic-release's, wireit's."""
    text = json.dumps({"scripts": {"t": "a"}, "release": {"plugins": [["@semantic-release/exec", {"prepareCmd": "b"}]]},
                       "wireit": {"build": {"command": "c"}}})
    assert tasktexts.command_text("package.json", text).splitlines() == ["a", "b", "c"]


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"scripts": "npm i ./test/x"}', "\ufeff{"])
def test_command_text_unreadable_is_whole(text: str) -> None:
    """Fail closed: a package.json that does not read as an object of scripts is read whole, as before."""
    assert tasktexts.command_text("package.json", text) == text


@pytest.mark.parametrize("path", ["composer.json", "Makefile", ".github/workflows/ci.yml", "pkg/package.json.bak"])
def test_command_text_of_other_files_unchanged(path: str) -> None:
    text = '{"scripts": {"a": "npm i", "b": "node ./test/x/run.js"}}'
    assert tasktexts.command_text(path, text) == text
