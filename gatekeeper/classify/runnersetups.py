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
             r"(?:[\w.${}-]++/)*+(rspec|parallel_rspec|turbo_rspec|turbo_tests|simple-phpunit|phpunit|paratest|pest"
             r"|artisan[ \t]++test|prove|yath|Build[ \t]++test|dzil[ \t]++test|rake[ \t]++spec(?::[\w:-]++)?+)"
             r"(?=[ \t;&|)'\"]|$)([^;&|\n]*+)")
_R_TESTS = lazy(r"\b(?:(?:devtools|testthat)::test(?:_dir|_file|_local|_check|_package)?+|devtools::check|"
                r"rcmdcheck::rcmdcheck|covr::(?:package_coverage|codecov|coveralls|report)|"
                r"r-lib/actions/check-r-package)\b|\bR[ \t]++CMD[ \t]++check\b"
                r"|(?<![\w.:])test_(?:dir|file|local|check|package)[ \t]*+\(")
_TEST_DIR = lazy(r"""test_(dir|file)[ \t]*+\([ \t]*+(?:path[ \t]*+=[ \t]*+)?+\\?+['"]([\w./-]{1,256}+)\\?+['"]""")
_OPTION = lazy(r"""(?<![\w-])(--require|-r|-I|--bootstrap|-c|--configuration)(?:=|[ \t]*+)['"]?+([^\s'"]{1,256}+)""")
_BOOTSTRAP = lazy(r"""\bbootstrap[ \t]*+=[ \t]*+['"]([^'"]{1,256}+)['"]""")
_PHPUNIT_SETTINGS = lazy(r"phpunit(?:[\w-]|\.(?!xml(?:\.dist)?\Z)){0,64}+\.xml(?:\.dist)?+\Z")
_RSPEC_HELPER = lazy(r"(?:spec|rails)_helper\.rb\Z")
_GLOB_REQUIRE = lazy(r"\bDir(?:\[|\.glob\b)")
_WORDS = ("rspec", "turbo_tests", "phpunit", "paratest", "pest", "artisan", "prove", "yath", "Build", "dzil", "rake")
# a Rakefile that defines RSpec's rake task (`RSpec::Core::RakeTask.new(:spec)`): its task runs RSpec
_RAKE_TASK = lazy(r"\bRSpec::Core::RakeTask\b")
_RAKEFILE = lazy(r"(?:[Rr]akefile(?:\.rb)?+|[\w.-]++\.rake)\Z")
_PRODUCT = frozenset({"lib", "./lib", "blib/lib", "blib/arch"})
_RSPEC_NAMES = (".rspec", ".rspec-local")
# what settings past the walk's read (FULL_READ) may load: any file of the runner's language (fail closed)
_PAST_READ = {".rspec": ["*.rb"], ".rspec-local": ["*.rb"], ".proverc": ["*.pm"], ".yath.rc": ["*.pm"]}
_PHPUNIT_NAMES = ("phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml")


def line_files(line: str) -> list[str]:
    """The settings and setup files the RSpec, PHPUnit, testthat and prove commands of `line` load."""
    out: list[str] = []
    if ("::" in line or "CMD" in line or "test_" in line or "r-lib/" in line) and _R_TESTS.search(line) is not None:
        folders = [path if kind == "dir" else path.rpartition("/")[0] for kind, path in _TEST_DIR.findall(line)]
        folders = [folder for folder in folders if folder.strip("./")] or ["tests/testthat"]
        out += [f"{folder.strip('/')}/{stem}*.{ext}" for folder in folders[:8] for stem in ("setup", "helper")
                for ext in ("R", "r")]
    if not any(word in line for word in _WORDS):
        return out  # most lines: no runner's name, no command split
    for command in dict.fromkeys([line, *wrappers.commands(line)]):
        for tool, rest in _RUNS.findall(command):
            out += _runner_files(tool.split()[0].removeprefix("parallel_").removeprefix("turbo_"), rest)
    return out


def _runner_files(tool: str, rest: str) -> list[str]:
    options = _OPTION.findall(rest)
    if tool in ("rspec", "rake", "tests"):  # `turbo_tests` runs RSpec
        return [*_RSPEC_NAMES, *_required(options)]
    if tool in ("phpunit", "simple-phpunit", "paratest", "pest", "artisan"):  # Pest and `artisan test` run PHPUnit
        given = [value for option, value in options if option in ("-c", "--configuration")]
        settings = [value if value.endswith((".xml", ".dist")) else f"{value.rstrip('/')}/{name}"
                    for value in given for name in (_PHPUNIT_NAMES if not value.endswith((".xml", ".dist")) else ("",))]
        return [name.rstrip("/") for name in settings or _PHPUNIT_NAMES] + \
            [value for option, value in options if option == "--bootstrap"] + \
            (["tests/Pest.php"] if tool in ("pest", "artisan") else [])
    return [".proverc", ".yath.rc", "t/lib/*.pm", *_helpers(options)]


def loaded(name: str, text: str) -> list[str]:
    """The files the runner settings file `name` (`.rspec`, `phpunit.xml`, `.proverc`, an RSpec helper) loads."""
    if len(text) >= FULL_READ and (name in _PAST_READ or _PHPUNIT_SETTINGS.match(name) is not None):
        return _PAST_READ.get(name, ["*.php"])  # the rest is not read: any file of its language (fail closed)
    if name in _RSPEC_NAMES:
        return _required(_OPTION.findall(text))
    if _RAKEFILE.match(name) is not None and _RAKE_TASK.search(text) is not None:
        return [*_RSPEC_NAMES, *_required(_OPTION.findall(text))]
    if name in (".proverc", ".yath.rc"):
        return _helpers(_OPTION.findall(text))
    if _PHPUNIT_SETTINGS.match(name) is not None:
        boots = [boot.removeprefix("./") for boot in _BOOTSTRAP.findall(text)[:8] if "://" not in boot]
        return [path for boot in boots for path in (boot, f"{ANY_FOLDER}/{boot}")]
    if _RSPEC_HELPER.match(name) is not None and "support" in text and _GLOB_REQUIRE.search(text) is not None:
        return ["spec/support/*.rb"]
    return []


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
