"""Classes of misses the fifty-ninth label set found (bench/classify_accuracy/fiftyninth.tsv: 22 repositories already
mirrored and in no label set, measured blind first), each with the look-alikes it must leave alone.

- The Gradle builds a Gradle plugin's tests run, kept below the test source set (licensee's
  `src/test/test-build-logic/settings.gradle`), are test data as the YAML and JSON beside them are: deps lowered to
  src, never ci or iac; a build file outside `src/test/` stays deps.
- Scala Steward's settings kept in `.github/` without the leading dot (play-json's `.github/scala-steward.conf`) are an
  outside app's settings, as `.github/.scala-steward.conf` is: `other`, not an unknown `.github/` file (`ci`).
- A setup.cfg whose only setuptools section is empty (httpie's `[wheel]` above pytest and pycodestyle settings) holds
  tool settings only: `other`. A setuptools section that holds a key, a package name or [DEFAULT] keys keep it deps.
"""

from __future__ import annotations

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, tree_files

TEST_BUILD = 'dependencyResolutionManagement {\n  repositories {\n    mavenCentral()\n  }\n}\n' \
             'rootProject.name = "test-build-logic"\n'
# httpie's shape: an empty wheel section, then test-runner and style settings
TOOLS_CFG = ("# keep ASCII\n[wheel]\n\n\n[tool:pytest]\nnorecursedirs = tests/fixtures\naddopts = --tb=native\n\n\n"
             "[pycodestyle]\nexclude = .git,build,dist\nignore = E241,E501,W503\n")


@each_case(("path", "bucket", "rule"), [
    ("src/test/test-build-logic/settings.gradle", "src", "testdata.test-trees"),
    ("src/test/test-build-logic/build.gradle", "src", "testdata.test-trees"),
    ("plugin/src/test/projects/android/build.gradle.kts", "src", "testdata.test-trees"),
    ("plugin/src/test/projects/android/settings.gradle.kts", "src", "testdata.test-trees"),
    ("settings.gradle", "deps", None),  # the repository's own build
    ("build-logic/settings.gradle.kts", "deps", None),
    ("src/testing/build.gradle", "deps", None), ("src/tests/build.gradle", "deps", None),
    ("test/build.gradle", "deps", None),  # a test project of the build itself, no test source set
    ("src/test/kotlin/app/Foo.kt", "src", None),
    ("src/test/test-build-logic/Dockerfile", "iac", None),  # test data never lowers iac
    ("src/test/.gitlab-ci.yml", "ci", None),  # nor ci
    (".github/scala-steward.conf", "other", "other.github-apps"),
    (".github/.scala-steward.conf", "other", "other.github-apps"),
    (".scala-steward.conf", "other", None),
    (".github/workflows/scala-steward.yml", "ci", None),  # the job that runs the bot is CI
    (".github/steward.conf", "ci", None),  # an unknown .github/ file stays ci
    (".github/scala-steward/run.sh", "ci", None),
])
def test_path_rules_of_the_fifty_ninth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


def test_a_setup_cfg_whose_setuptools_section_is_empty_is_tool_settings(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "# cli\n")
    git_repo.commit("base")
    git_repo.write("setup.cfg", TOOLS_CFG)
    git_repo.write("a/setup.cfg", TOOLS_CFG.replace("[wheel]\n", "[wheel]\nuniversal = 1\n"))  # a key: packaging
    git_repo.write("b/setup.cfg", TOOLS_CFG.replace("[wheel]\n", "[wheel]\n[metadata]\nname = cli\n"))
    git_repo.write("c/setup.cfg", TOOLS_CFG.replace("[wheel]\n", "[bdist_wheel]\npython-tag = py3\n"))
    git_repo.write("d/setup.cfg", "[DEFAULT]\nuniversal = 1\n" + TOOLS_CFG)  # every section inherits it
    git_repo.write("e/setup.cfg", TOOLS_CFG.replace("[wheel]\n", "[options]\n\n[options.extras_require]\nx = y\n"))
    git_repo.write("f/setup.cfg", TOOLS_CFG + "[wheel]\n")  # a duplicate section: unreadable, stays deps
    git_repo.write("g/setup.cfg", "[wheel]\n\n[options]\n")  # only empty setuptools sections, no tool: deps
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert (files["setup.cfg"].bucket, files["setup.cfg"].rule) == ("other", "other.content.setup-cfg-tools")
    for path in ("a/setup.cfg", "b/setup.cfg", "c/setup.cfg", "d/setup.cfg", "e/setup.cfg", "f/setup.cfg",
                 "g/setup.cfg"):
        assert files[path].bucket == "deps", path


def test_an_empty_wheel_section_gained_on_one_side_does_not_lower_the_other(git_repo: GitRepo) -> None:
    git_repo.write("setup.cfg", TOOLS_CFG.replace("[wheel]\n", "[options]\ninstall_requires =\n    requests\n"))
    git_repo.commit("base")
    git_repo.write("setup.cfg", TOOLS_CFG)  # the change drops the requirements: the base side still names them
    git_repo.commit("change")
    assert tree_files(git_repo)["setup.cfg"].bucket == "deps"
