"""Review 70b: a Rakefile requiring a task file by `File.expand_path(File.join(__dir__, …))` (review 70's rakeloads).

`_COMPUTED` matched the outer `File.expand_path(` and took the first literal of the inner join for the whole path
(`tasks` of `'tasks', 'build'`): on 779774c6 12 of the 12 generated lines left the task file `src` where CI runs rake.
The inner join is now read as the join it is. Look-alikes: the project's code required so (`lib/gem/version`).
"""

from __future__ import annotations

from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import rakeloads

FORMS = ["require File.expand_path(File.join(__dir__, {parts}))", "load File.expand_path(File.join(__dir__, {parts}))",
         "require(File.expand_path(File.join( __dir__ , {parts})))", "require File.expand_path(File.join({parts}))"]
TASKS = [("tasks/build", "tasks/build.rb"), ("rakelib/support/notes", "rakelib/support/notes.rb"),
         ("lib/tasks/deploy", "lib/tasks/deploy.rb")]


def _files(line: str, task: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="bundle exec rake build"), "Gemfile": "source 'x'\n",
            "Rakefile": f"{line}\ntask default: :build\n", task: "task :build do\nend\n"}


def _line(form: str, path: str) -> str:
    parts = ", ".join(f"'{part}'" for part in path.split("/"))
    return form.format(parts=parts) + (" + '.rb'" if form.startswith("load") else "")


@each_case("line, task", [(_line(form, path), task) for form in FORMS for path, task in TASKS])
def test_a_task_file_required_by_an_expanded_join_is_ci(line: str, task: str) -> None:
    assert task in tree_runs(_files(line, task)), line  # before: 12/12 missed


@each_case("line, kept", [("require File.expand_path(File.join(__dir__, 'lib', 'gem', 'version'))",
                           "lib/gem/version.rb")])
def test_look_alikes_keep_their_bucket(line: str, kept: str) -> None:
    assert kept not in tree_runs(_files(line, kept)), line


def test_the_reader_names_the_whole_path() -> None:
    assert rakeloads.loaded("require File.expand_path(File.join(__dir__, 'tasks', 'build'))") == ["tasks/build.rb"]


def test_the_reader_is_linear() -> None:
    assert_linear(rakeloads.loaded, repeated("require File.expand_path(File.join(__dir__, 'tasks', 'x')) + '.rb'\n"
                                             "File.expand_path(File.join(("), budget=0.04)
