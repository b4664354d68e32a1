"""Review 68a: hostile Rakefiles against rakeloads.py (the task files a Rakefile loads run before any task does).

On 58f4e83c only a literal ending in `.rake` counted: a root the Rakefile computes (`"#{root}/tasks/*.rake"`), a glob
that reaches `.rake` files by other glob parts (`*.{rake,rb}`, `*.ra?e`, `*.[r]ake`) or by none (`Dir['tasks/*'].each
{ |f| load f }`) named nothing, and the task file stayed `src`. Look-alikes: a packaging or test glob nothing loads."""

from __future__ import annotations

from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.rakeloads import loaded

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: bundle exec rake test\n")
LOADERS = ["Dir[{glob}].each {{ |f| load f }}\n", "Dir.glob({glob}).each do |f|\n  import f\nend\n",
           "FileList[{glob}].each {{ |t| load(t) }}\n", "Dir.glob({glob}).sort.each {{ |f| load f }}\n"]
GLOBS = [  # (the glob as the Rakefile writes it, the task file it loads)
    ('"#{root}/build/tasks/*.rake"', "build/tasks/release.rake"), ('"#{ROOT}/tasks/**/*.rake"', "tasks/a/b.rake"),
    ("'build/tasks/*.{rake,rb}'", "build/tasks/release.rake"), ("'build/tasks/*.ra?e'", "build/tasks/release.rake"),
    ("'build/tasks/*.[r]ake'", "build/tasks/release.rake"), ("'build/tasks/*'", "build/tasks/release.rake"),
    ("'build/tasks/**/*'", "build/tasks/ci/release.rake"), ('"#{__dir__}/build/*"', "build/release.rb"),
]


def _cases() -> list[tuple[str, str]]:
    return [(loader.format(glob=glob), loaded_file) for glob, loaded_file in GLOBS for loader in LOADERS]


@each_case("rakefile, task_file", _cases())
def test_a_task_file_a_rakefile_globs_and_loads_is_read(rakefile: str, task_file: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "Rakefile": "require 'rake'\n" + rakefile,
             task_file: "task :release do\n  sh 'true'\nend\n", "README.md": "x\n"}
    assert task_file in tree_runs(files), rakefile  # before: 32 of 32 missed


@each_case("rakefile", [
    "spec = Gem::Specification.new do |s|\n  s.files = FileList['build/**/*']\nend\n",
    "Rake::TestTask.new { |t| t.test_files = Dir['build/**/*'] }\n",
    "task :clean do\n  rm_rf Dir['build/tasks/*']\nend\n",
    "# Dir['build/tasks/*'].each { |f| load f }\n",
])
def test_look_alikes_load_no_task_file(rakefile: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "Rakefile": rakefile, "build/tasks/release.rake": "x\n",
             "build/tasks/ci/release.rake": "x\n", "README.md": "x\n"}
    assert not {"build/tasks/release.rake", "build/tasks/ci/release.rake"} & tree_runs(files), rakefile


@each_case("hostile", [repeated("Dir['a/*'].each { |f| load f }\n"), repeated("Dir['"), repeated("Dir[\"#{"),
                       repeated("'{a,b,{c,d}}.rake' "), repeated("'#{a}#{b}.rake' "), repeated("{"),
                       repeated("Dir['x/*']" + " " * 64), repeated("FileList['*'].each { |f| load f } ")])
def test_hostile_rakefiles_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(loaded, hostile, budget=0.25)


def test_a_rakefile_that_loads_itself_ends() -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "Rakefile": "load 'Rakefile'\nDir['*'].each { |f| load f }\n",
             "tasks.rake": "load 'tasks.rake'\nload '../tasks.rake'\nload '/etc/x.rake'\n", "README.md": "x\n"}
    assert "tasks.rake" in tree_runs(files)
