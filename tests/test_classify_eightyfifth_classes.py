"""The eighty-fifth set's classes (docs/classification.md, "The eighty-fifth set"): issue and pull request templates
where GitHub reads them, fixture packages of test suites, lists of C constants, PHPStan settings in their folder.

GitHub reads a repository's issue and pull request templates from three places: the root, `docs/` and `.github/`
(docs.github.com, "Creating a pull request template for your repository"); the rules named only `.github/`, so
ex_aws' root `ISSUE_TEMPLATE.md` was documentation (`src`) rather than a forge community file (`other`). A template
anywhere else is a document GitHub never reads and stays `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.classify import RuleSet, load_rules
from gatekeeper.classify.buildshapes import build_shape

REPO_ROOT = Path(__file__).resolve().parents[1]

NAMES = ["ISSUE_TEMPLATE", "PULL_REQUEST_TEMPLATE", "issue_template", "pull_request_template"]
EXTENSIONS = ["", ".md", ".txt", ".markdown"]
TEMPLATES = [f"{folder}{name}{ext}" for folder in ("", "docs/") for name in NAMES for ext in EXTENSIONS]
TEMPLATES += [f"{folder}{name}/{file}" for folder in ("", "docs/")
              for name in ("ISSUE_TEMPLATE", "PULL_REQUEST_TEMPLATE")
              for file in ("bug_report.md", "feature.md", "release.md")]
# a template GitHub does not read: deeper in docs/, in a package folder, in an example project's root
LOOK_ALIKES = ["docs/guide/ISSUE_TEMPLATE.md", "packages/core/ISSUE_TEMPLATE.md", "src/pull_request_template.md",
               "examples/app/PULL_REQUEST_TEMPLATE.md", "doc/ISSUE_TEMPLATE.md", "ISSUE_TEMPLATES.md",
               "docs/issue-template.md"]


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


@pytest.mark.parametrize("path", TEMPLATES)
def test_a_template_github_reads_is_a_community_file(rules: RuleSet, path: str) -> None:
    assert (rules.match(path).bucket, rules.match(path).rule) == ("other", "other.github-community")


@pytest.mark.parametrize("path", LOOK_ALIKES)
def test_a_template_github_does_not_read_stays_documentation(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == "src"


# The packages a test suite builds, lints or loads, in folders the test-data rules did not name: testthat's fixture
# folders (lintr's `tests/testthat/dummy_packages/*/DESCRIPTION`: every subfolder of `tests/testthat/` is the suite's
# data, the tests sit at its top), Julia's `test/pkgs/` (Revise.jl, beside Pkg.jl's `test_packages/`) and a test
# tree's `samples/` (luacheck's `spec/samples/bad.rockspec`). Test data lowers `deps` only (principle 1).
FIXTURE_FOLDERS = ["tests/testthat/dummy_packages/pkg", "tests/testthat/testdir", "pkg/tests/testthat/fixtures/a",
                   "test/pkgs/ExcludeFile", "tests/pkgs/v1", "spec/samples", "test/samples/rocks", "tests/samples",
                   "lib/spec/samples"]
MANIFESTS = ["DESCRIPTION", "renv.lock", "Project.toml", "Manifest.toml", "package.json", "bad.rockspec",
             "x-1.0-1.rockspec", "Gemfile", "composer.json"]
FIXTURE_MANIFESTS = [f"{folder}/{name}" for folder in FIXTURE_FOLDERS for name in MANIFESTS]
# the package's own manifests, a test environment, samples outside a test tree, and CI or infrastructure files there
STAYS = [("DESCRIPTION", "deps"), ("test/Project.toml", "deps"), ("tests/testthat.R", "src"),
         ("samples/app/package.json", "deps"), ("docs/samples/Project.toml", "deps"),
         ("tests/testthat/dummy_packages/pkg/Dockerfile", "iac"), ("spec/samples/.gitlab-ci.yml", "ci"),
         ("test/pkgs/App/Dockerfile", "iac"), ("test/PackageCompiler/Project.toml", "deps")]


@pytest.mark.parametrize("path", FIXTURE_MANIFESTS)
def test_a_test_suites_fixture_package_manifest_is_test_data(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == "src", rules.match(path).rule


@pytest.mark.parametrize(("path", "bucket"), STAYS)
def test_manifests_outside_those_folders_and_ci_or_iac_inside_keep_their_bucket(rules: RuleSet, path: str,
                                                                                  bucket: str) -> None:
    assert rules.match(path).bucket == bucket, rules.match(path).rule


# A list of C constants the build turns into a header (strace's 800 `src/xlat/*.in`: `#unconditional`, then
# `INPUT_PROP_POINTER` a line) is shaped like a pip-tools input of bare names; 357 of strace's were `deps`. Names that
# are all upper case are C macros, not PyPI projects, when one of them holds an underscore or there are three at least:
# such a list is no requirements input. A pip input keeps its bucket however its names are cased, and so do one or two
# upper-case names without an underscore and an upper-case name with a version or an option line beside it.
CONSTANTS = ["INPUT_PROP_POINTER", "AT_SYMLINK_NOFOLLOW", "TIPC_LOW_IMPORTANCE", "O_RDONLY", "SOCK_STREAM",
             "MAP_SHARED_VALIDATE", "EPOLL_CLOEXEC", "V4L2_BUF_TYPE_VIDEO_CAPTURE"]
HEADS = ["", "#unconditional\n", "#value_indexed\n#From include/uapi/linux/input-event-codes.h\n",
         "# generated list\n\n", "#sorted\n#Prefix AT_\n"]
CONSTANT_LISTS = [(f"src/xlat/{CONSTANTS[i].lower()}.in", head + "\n".join(CONSTANTS[i:i + n]) + "\n")
                  for i, head in enumerate(HEADS) for n in (1, 2, 3)]
CONSTANT_LISTS += [("src/xlat/baud_options.in", "#unconditional\nB0\nB50\nB75\n"),
                   ("src/xlat/tcflsh_options.in", "TCIFLUSH\nTCOFLUSH\nTCIOFLUSH\n"),
                   ("src/xlat/mixed.in", "SETNAME\nFLUSH_CACHE\n")]
PIP_INPUTS = [("requirements/dev.in", "Django\nPyYAML\n"), ("dev.in", "PYYAML>=6\n"), ("tools.in", "PIL\n"),
              ("two.in", "PIL\nRX\n"),
              ("req.in", "-r base.in\nMY_PACKAGE\n"), ("ci.in", "SQLAlchemy==2.0\nFLASK_LOGIN\n"),
              ("deps.in", "requests\nURLLIB3_SECURE_EXTRA\n")]


@pytest.mark.parametrize(("path", "text"), CONSTANT_LISTS)
def test_a_list_of_c_constants_is_no_pip_input(path: str, text: str) -> None:
    assert build_shape(path.rpartition("/")[2], text) is None, text


@pytest.mark.parametrize(("path", "text"), PIP_INPUTS)
def test_a_pip_input_keeps_its_bucket_however_cased(path: str, text: str) -> None:
    found = build_shape(path.rpartition("/")[2], text)
    assert found is not None and found[1] == "deps.content.pip-compile-input", text


def test_a_long_constant_list_is_read_in_linear_time() -> None:
    assert_linear(lambda text: build_shape("flags.in", text), repeated("AT_SYMLINK_NOFOLLOW\n", head="#sorted\n"),
                  budget=0.5)


# PHPStan's settings kept in a folder of their own and included from phpstan.neon(.dist) (graphql-php's
# `phpstan/php-below-8.2.neon`, a `build/phpstan/baseline.neon`) or named after it with a dot are the same linter's
# settings as `phpstan.neon`: `other`. A Nette application's `.neon` configuration and code in a phpstan/ folder stay
# `src`.
PHPSTAN_FOLDERS = ["phpstan", "build/phpstan", "tests/phpstan", ".phpstan", "tools/phpstan/config"]
PHPSTAN_NAMES = ["baseline.neon", "php-below-8.2.neon", "ignore-errors.neon", "level-max.neon"]
PHPSTAN_SETTINGS = [f"{folder}/{name}" for folder in PHPSTAN_FOLDERS for name in PHPSTAN_NAMES]
PHPSTAN_SETTINGS += ["tests.phpstan.neon", "config/src.phpstan.neon", "phpstan.tests.neon", "build/phpstan.src.neon"]
NEON_LOOK_ALIKES = ["app/config/common.neon", "config/services.neon", "phpstan/README.md", "phpstan/Rule.php",
                    "src/phpstan-rules/Extension.php", "baseline.neon"]


@pytest.mark.parametrize("path", PHPSTAN_SETTINGS)
def test_phpstan_settings_in_their_folder_are_linter_settings(rules: RuleSet, path: str) -> None:
    assert (rules.match(path).bucket, rules.match(path).rule) == ("other", "other.lint-format")


@pytest.mark.parametrize("path", NEON_LOOK_ALIKES)
def test_other_neon_files_and_code_stay_src(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == "src", rules.match(path).rule
