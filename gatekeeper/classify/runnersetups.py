"""The files a test runner loads by its own configuration before any test, where a CI command runs it (attack 45).

- **RSpec** (`rspec`, `bin/rspec`, `bundle exec rspec`, `rake spec`) reads `.rspec` and `.rspec-local` and requires
  what `--require`/`-r` names there or on its command line, from `spec/` and `lib/` (its load path) and each `-I`
  folder; a helper of those (`spec_helper.rb`, `rails_helper.rb`) that requires by a `Dir[...]` glob loads
  `spec/support/**/*.rb`.
- **PHPUnit** (`phpunit`, `vendor/bin/phpunit`) reads `phpunit.xml`, `phpunit.xml.dist`, `phpunit.dist.xml` or the
  file `-c`/`--configuration` names and includes its `bootstrap=` file (or `--bootstrap FILE`) from the settings'
  folder, any folder here (fail wide: the settings are read by name).
- **testthat** (`devtools::test()`, `testthat::test_dir()`, `test_local()`, `R CMD check`, `rcmdcheck`,
  `devtools::check()`) sources `setup*.R` and `helper*.R` of `tests/testthat` (or the folder `test_dir` names).
- **Codeception** (`codecept run`, `vendor/bin/codecept run`, `php codecept run`; label 91) reads `codeception.yml`,
  else `codeception.dist.yml`, of the folder it runs in, or of the folder (or the file) `-c`/`--config` names: its
  suites, extensions and bootstrap; a test project's settings no `-c` names stay test data.
- **prove** reads `.proverc` and the tests load the helpers of `t/lib` and of each `-I` folder (`-l`, `-Ilib`: the
  product itself, which stays what its path says).
"""

from __future__ import annotations

import re

from gatekeeper.classify import wrappers
from gatekeeper.classify.ciforms import ANY_FOLDER
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["line_files", "loaded"]

# a runner at a command's start (after env assignments, `php`/`ruby`/`perl`/`bundle exec`, a folder), then its words
_RUNS = lazy(r"(?:^|[;&|(`]|\$\(|\b(?:then|do|run|script|command)\b:?+)[ \t]*+['\"]?+(?:-[ \t]++)?+"
             r"(?:[A-Za-z_]\w*+=\S*+[ \t]++)*+(?:(?:@?+php(?:[ \t]++-[\w.-]++(?:=\S*+|[ \t]++[\w.-]++=\S*+)?+)*+"
             r"|ruby|perl|bundle[ \t]++exec)[ \t]++)?+"
             r"(?:[\w.${}-]++[/\\])*+(rspec|parallel_rspec|turbo_rspec|turbo_tests|simple-phpunit|phpunit|paratest|pest"
             r"|artisan[ \t]++test|prove|yath|Build[ \t]++test|dzil[ \t]++test|rake[ \t]++spec(?::[\w:-]++)?+"
             r"|(?:rake|rails)[ \t]++test(?::[\w:-]++)?+|Makefile\.PL|codecept(?:\.phar|\.bat)?+[ \t]++run)"
             r"(?=[ \t;&|)'\"]|$)([^;&|\n]*+)")
_R_TESTS = lazy(r"\b(?:(?:devtools|testthat)::test(?:_dir|_file|_local|_check|_package)?+|devtools::check|"
                r"rcmdcheck::rcmdcheck|covr::(?:package_coverage|codecov|coveralls|report)|"
                r"r-lib/actions/check-r-package)\b|\bR[ \t]++CMD[ \t]++check\b"
                r"|(?<![\w.:])test_(?:dir|file|local|check|package)[ \t]*+\(")
_TEST_DIR = lazy(r"""test_(dir|file)[ \t]*+\([ \t]*+(?:path[ \t]*+=[ \t]*+)?+\\?+['"]([\w./-]{1,256}+)\\?+['"]""")
_OPTION = lazy(r"""(?<![\w-])(--require|-r|-I|--bootstrap|-c|--config(?:uration)?+|--options|-O)(?:=|[ \t]*+)['"]?+"""
               r"""([^\s'"]{1,256}+)""")
_BOOTSTRAP = lazy(r"""\bbootstrap[ \t]*+=[ \t]*+['"]([^'"]{1,256}+)['"]""")
_PHPUNIT_SETTINGS = lazy(r"phpunit(?:[\w-]|\.(?!xml(?:\.dist)?\Z)){0,64}+\.xml(?:\.dist)?+\Z")
_RSPEC_HELPER = lazy(r"(?:spec|rails)_helper\.rb\Z")
_GLOB_REQUIRE = lazy(r"\bDir(?:\[|\.glob\b)")
_WORDS = ("rspec", "turbo_tests", "phpunit", "paratest", "pest", "artisan", "prove", "yath", "Build", "dzil", "rake",
          "rails", "Makefile.PL", "codecept")
# RSpec's options from the environment (`SPEC_OPTS="--require x"`, a job's `env:` key `SPEC_OPTS: -r x`)
_SPEC_OPTS = lazy(r"""\bSPEC_OPTS['"]?+[ \t]*+[=:][ \t]*+([^\n]{0,1024}+)""")
# Minitest: the helper every test requires (Rails' `test/test_helper.rb`, a gem's `test/helper.rb`), and a Rakefile's
# `Rake::TestTask` (what `rake`, `rake test` run); a helper that requires by a `Dir[...]` glob loads `test/support/`
_MINITEST = ["test/test_helper.rb", "test/helper.rb", "test/minitest_helper.rb"]
_TEST_TASK = lazy(r"\bRake::TestTask\b")
_MINITEST_HELPER = lazy(r"(?:test|minitest)?+_?+helper\.rb\Z")
# PHPUnit's extensions (`<bootstrap class="A\B\Ext"/>`, PHPUnit 9's `<extension class=...>`): a class the autoloader
# finds by its last name (PSR-4: `Ext.php` below a folder of the namespace's; fail wide: below any folder)
_EXTENSION = lazy(r"""<(?:bootstrap|extension)\b[^>]{0,1024}?\bclass[ \t]*+=[ \t]*+['"]([\w\\]{1,256}+)['"]""")
# a Rakefile that defines RSpec's rake task (`RSpec::Core::RakeTask.new(:spec)`): its task runs RSpec
_RAKE_TASK = lazy(r"\bRSpec::Core::RakeTask\b")
_RAKEFILE = lazy(r"(?:[Rr]akefile(?:\.rb)?+|[\w.-]++\.rake)\Z")
_PRODUCT = frozenset({"lib", "./lib", "blib/lib", "blib/arch"})
_RSPEC_NAMES = (".rspec", ".rspec-local")
# what settings past the walk's read (FULL_READ) may load: any file of the runner's language (fail closed)
_PAST_READ = {".rspec": ["*.rb"], ".rspec-local": ["*.rb"], ".proverc": ["*.pm"], ".yath.rc": ["*.pm"]}
_OPTION_LINE = lazy(r"--?+[A-Za-z]")  # `--require boot`, `-r x`, `--format doc`: not YAML's `- item`
_REQUIRE_LINE = lazy(r"(?:--require|-r)(?:[ \t=]|(?<=-r)\S)")
_PHPUNIT_NAMES = ("phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml")
_CODECEPTION_NAMES = ("codeception.yml", "codeception.dist.yml")


def line_files(line: str) -> list[str]:
    """The settings and setup files the RSpec, PHPUnit, testthat and prove commands of `line` load."""
    out: list[str] = []
    if ("::" in line or "CMD" in line or "test_" in line or "r-lib/" in line) and _R_TESTS.search(line) is not None:
        folders = [path if kind == "dir" else path.rpartition("/")[0] for kind, path in _TEST_DIR.findall(line)]
        folders = [folder for folder in folders if folder.strip("./")] or ["tests/testthat"]
        out += [f"{folder.strip('/')}/{stem}*.{ext}" for folder in folders[:8] for stem in ("setup", "helper")
                for ext in ("R", "r")]
    if "SPEC_OPTS" in line:
        out += [path for options in _SPEC_OPTS.findall(line) for found in [_OPTION.findall(options)]
                for path in [*_required(found), *[value for option, value in found if option in ("--options", "-O")]]]
    if not any(word in line for word in _WORDS):
        return out  # most lines: no runner's name, no command split
    for command in dict.fromkeys([line, *wrappers.commands(line)]):
        for tool, rest in _RUNS.findall(command):
            minitest = tool.startswith(("rake", "rails")) and "test" in tool
            out += _MINITEST if minitest else \
                _runner_files(tool.split()[0].removeprefix("parallel_").removeprefix("turbo_"), rest)
    return out


def _runner_files(tool: str, rest: str) -> list[str]:
    options = _OPTION.findall(rest)
    if tool in ("rspec", "rake", "tests"):  # `turbo_tests` runs RSpec
        given = [value for option, value in options if option in ("--options", "-O")][:8]
        return [*_RSPEC_NAMES, *given, *_required(options)]
    if tool in ("phpunit", "simple-phpunit", "paratest", "pest", "artisan"):  # Pest and `artisan test` run PHPUnit
        given = [value for option, value in options if option in ("-c", "--configuration")]
        settings = [value if value.endswith((".xml", ".dist")) else f"{value.rstrip('/')}/{name}"
                    for value in given for name in (_PHPUNIT_NAMES if not value.endswith((".xml", ".dist")) else ("",))]
        return [name.rstrip("/") for name in settings or _PHPUNIT_NAMES] + \
            [value for option, value in options if option == "--bootstrap"] + \
            (["tests/Pest.php"] if tool in ("pest", "artisan") else [])
    if tool.startswith("codecept"):  # the folder's settings, or the folder or file `-c`/`--config` names (label 91)
        given = [value for option, value in options if option in ("-c", "--config")][:8]
        return list(dict.fromkeys(value if value.endswith((".yml", ".yaml")) else f"{value.rstrip('/')}/{name}"
                                  for value in given for name in _CODECEPTION_NAMES)) or list(_CODECEPTION_NAMES)
    return [".proverc", ".yath.rc", "t/lib/*.pm", *_helpers(options)]


def loaded(name: str, text: str) -> list[str]:
    """The files the runner settings file `name` (`.rspec`, `phpunit.xml`, `.proverc`, an RSpec helper) loads."""
    if len(text) >= FULL_READ and (name in _PAST_READ or _PHPUNIT_SETTINGS.match(name) is not None):
        return _PAST_READ.get(name, ["*.php"])  # the rest is not read: any file of its language (fail closed)
    # an options file `--options FILE`/`-O FILE` names is read as `.rspec` is (by its name: `.rspec_ci`, `*.opts`;
    # not the `bin/rspec` binstub)
    if name in _RSPEC_NAMES or name.endswith(".opts") or name.startswith((".rspec", "rspec")) and name != "rspec" \
            and "." not in name[1:]:
        return _required(_OPTION.findall(text))
    if "-r" in text and name != "rspec" and _options_text(text[:FULL_READ]):  # `-O ci/options`: any name (attack 47)
        return ["*.rb"] if len(text) >= FULL_READ else _required(_OPTION.findall(text))
    if _RAKEFILE.match(name) is not None and ("RSpec" in text or "TestTask" in text):
        return ([*_RSPEC_NAMES, *_required(_OPTION.findall(text))] if _RAKE_TASK.search(text) is not None else []) \
            + (_MINITEST if _TEST_TASK.search(text) is not None else [])
    if name in (".proverc", ".yath.rc"):
        return _helpers(_OPTION.findall(text))
    if _PHPUNIT_SETTINGS.match(name) is not None:
        boots = [boot.removeprefix("./") for boot in _BOOTSTRAP.findall(text)[:8] if "://" not in boot]
        classes = dict.fromkeys(_EXTENSION.findall(text))  # an extension's class: `Boot.php` below any folder
        boots += [f"{found.rpartition(chr(92))[2]}.php" for found in classes][:64]
        return [path for boot in boots for path in (boot, f"{ANY_FOLDER}/{boot}")]
    if _RSPEC_HELPER.match(name) is not None and "support" in text and _GLOB_REQUIRE.search(text) is not None:
        return ["spec/support/*.rb"]
    if _MINITEST_HELPER.match(name) is not None and "support" in text and _GLOB_REQUIRE.search(text) is not None:
        return ["test/support/*.rb"]
    return []


def _options_text(text: str) -> bool:
    """Option lines, `#` comments and blank lines only, one a `--require`/`-r`: RSpec's options file by its text,
    whatever its name (a file the walk reaches: `-O ci/options`, `--options config/spec.conf`)."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return bool(lines) and all(_OPTION_LINE.match(line) is not None for line in lines) \
        and any(_REQUIRE_LINE.match(line) is not None for line in lines)


def _required(options: list[tuple[str, str]]) -> list[str]:
    """What RSpec's `--require` options load: a path as it is, a feature name from `spec/`, `lib/` and `-I` folders."""
    folders = ["spec", "lib", *[value for option, value in options if option == "-I"][:8]]
    out: list[str] = []
    for option, value in options[:64]:
        if option not in ("--require", "-r"):
            continue
        feature = value if value.endswith(".rb") else f"{value}.rb"
        out += [feature.removeprefix("./")] if value.startswith(("./", "../")) else \
            [feature, *[f"{folder.rstrip('/')}/{feature}" for folder in folders]]
    return out


def _helpers(options: list[tuple[str, str]]) -> list[str]:
    """The Perl modules below each `-I` folder that is not the product's `lib`."""
    folders = [value.rstrip("/") for option, value in options if option == "-I" and value.rstrip("/") not in _PRODUCT]
    return [f"{folder}/*.pm" for folder in dict.fromkeys(folders[:8]) if re.fullmatch(r"[\w./-]+", folder)]
