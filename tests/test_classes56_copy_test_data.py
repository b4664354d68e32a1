"""Test data inside a committed copy of other code is the copy's, by mechanism (issue 12, the classes56 round).

Before, `deps.vendored-test-data` listed copy folder x test-data folder pairs by glob (`vendor/**/testdata/**`, ...) and
every pair it missed fell to a test-data rule: `third_party/lib/test/data/x` was `src`, an edit of a vendored library's
file unreviewed with `--enable deps` (docs review 54's class). Now a test-data rule (and `src.e2e-data`,
`src.test-packages`) that decides a path yields to a copy rule below that also matches when the copy's folder lies
above the test data's (ruleset.copy_outer); the ci/iac yield still comes first (never lowers), and a copy kept as a
test's input (`testdata/mod/vendor/x`) stays test data. Paths by rule, generated shapes both ways, `--explain`,
`first_rule` (what the tree readers ask), and a real repository in tree and patch mode.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.ruleset import COPY_RULES
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# Copy folders (each a rule of COPY_RULES claims) and the test-data folders a copy carries.
COPIES = ("third_party/zlib", "third-party/zlib", "libs/third_party/box2d", "vendor/github.com/x/y", "_vendor/x",
          "vendored/pkg", "bower_components/lib", "node_modules/resolve", "web/node_modules/@scope/pkg",
          ".yarn/unplugged/lib-npm-1.0.0/node_modules/lib", "Pods/Lib", "Carthage/Checkouts/lib",
          "src/App/wwwroot/lib/jquery", "cue.mod/pkg/example.com/lib", "deps/lib", "3rdparty/dawn",
          "assets/packages/pkg")
TEST_DATA = ("test/data", "tests/fixtures", "testdata", "test-data", "__fixtures__", "__snapshots__",
             "spec/fixtures", "src/test/resources", "tests/integration/_fixtures/app", "__tests__/data",
             "test/e2e/data", "test/goldens")
PLAIN = ("input.json", "expected.txt", "sample.xml", "logo.png", "config.yaml", "go.mod", "package.json")
CI_IAC = ("Dockerfile", ".gitlab-ci.yml", "Jenkinsfile", "main.tf", "kustomization.yaml", "Chart.yaml")


@each_case("copy", COPIES)
@each_case("data", TEST_DATA)
def test_test_data_inside_a_copy_is_the_copys(copy: str, data: str) -> None:
    for name in PLAIN:
        path = f"{copy}/{data}/{name}"
        match = RULES.match(path)
        assert match.bucket == "deps" and match.rule.startswith(COPY_RULES), (path, match)
        hits = RULES.explain(path)  # --explain names the same deciding rule
        assert hits[0].decides and hits[0].rule.id == match.rule, (path, hits[0])
        assert RULES.first_rule(path) == match.rule, path  # the tree readers see the copy, not test data


@each_case("copy", COPIES)
@each_case("data", ("testdata", "test/data", "tests/fixtures"))
def test_a_copys_test_data_never_lowers_ci_or_iac(copy: str, data: str) -> None:
    # The ci/iac yield comes first: what a ci or iac rule decides for a test-data path stays ci/iac inside a copy.
    for name in CI_IAC:
        path = f"{copy}/{data}/{name}"
        alone = RULES.match(f"{data}/{name}")
        if alone.bucket in ("ci", "iac"):
            assert RULES.match(path).bucket in ("ci", "iac"), (path, RULES.match(path))


@each_case(("path", "rule"), [
    # a copy kept as a test's input: the test data is the outer folder
    ("testdata/mod/vendor/github.com/x/y/y.go", "testdata.folders"),
    ("pkg/testdata/vendor/lib.go", "testdata.folders"),
    ("test/fixtures/third_party/zlib/inflate.c", "testdata.test-trees"),
    ("tests/fixtures/node_modules/dep/index.js", "testdata.fixture-packages"),
    ("test/fixtures/project/node_modules/dep/index.js", "testdata.fixture-packages"),
    ("src/test/resources/vendor/jquery.js", "testdata.test-trees"),
    ("__fixtures__/bower_components/lib/lib.js", "testdata.folders"),
    ("test/node_modules/helper/index.js", "src.test-packages"),  # a test tree's own packages
    ("test/e2e/data/vendor/x.yaml", "src.e2e-data"),
    # a file-name copy glob (a versioned minified library) is no copy folder: a test's resources stay test data
    ("src/test/resources/public/immutable/library-1.0.0.min.js", "testdata.test-trees"),
    ("tests/fixtures/Libraries/Helper.dll", "testdata.test-trees"),
])
def test_look_alikes_stay_test_data(path: str, rule: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("src", rule), (path, match)
    assert RULES.first_rule(path) == rule, path


@each_case(("path", "rule"), [
    ("third_party/lib/test/data/x.txt", "deps.vendored"),
    ("internal/third_party/dep/fs/testdata/symlinks/file-symlink", "deps.vendored-nested"),
    ("node_modules/exit/test/fixtures/10-stderr.txt", "deps.npm.installed"),
    ("vendor/github.com/x/y/test/e2e/data/cluster.yaml", "deps.vendored"),  # src.e2e-data yields too
    ("node_modules/a/test/node_modules/b/index.js", "deps.vendored-test-data"),  # kept: a test tree's packages' tests
    ("test/node_modules/helper/__tests__/x.js", "deps.vendored-test-data"),
])
def test_copy_rules_by_name(path: str, rule: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("deps", rule), (path, match)


def test_an_equal_depth_keeps_the_test_data() -> None:
    # `test/a/node_modules/` is both a test tree's packages (src.test-packages) and node_modules: the test data stays.
    assert RULES.copy_outer("test/a/node_modules/b/index.js") is False
    assert RULES.copy_outer("third_party/lib/test/data/x.txt") is True
    assert RULES.copy_outer("x.txt") is False


DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n"


def test_a_real_repository_in_tree_and_patch_mode(git_repo: GitRepo, tmp_path: Path) -> None:
    head = {
        "third_party/zlib/test/data/input.json": '{"level": 9}\n',
        "libs/third_party/box2d/tests/fixtures/world.json": '{"gravity": -10}\n',
        "node_modules/exit/test/fixtures/out.txt": "stdout\n",
        "third_party/zlib/test/data/deploy.yaml": DEPLOYMENT,  # content still raises a copy's file: iac
        "testdata/mod/vendor/github.com/x/y/y.go": "package y\n",  # look-alike: a copy as a test's input
        "test/data/input.json": '{"a": 1}\n',  # the repository's own test data
    }
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    for path, text in head.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    want = {"third_party/zlib/test/data/input.json": "deps", "libs/third_party/box2d/tests/fixtures/world.json": "deps",
            "node_modules/exit/test/fixtures/out.txt": "deps", "third_party/zlib/test/data/deploy.yaml": "iac",
            "testdata/mod/vendor/github.com/x/y/y.go": "src", "test/data/input.json": "src"}
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {p: files[p].bucket for p in want} == want
