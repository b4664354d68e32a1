"""Classes of misses the fifty-fifth label set found (bench/classify_accuracy/fiftyfifth.tsv: 22 repositories already
mirrored and in no label set, measured blind first), each with the look-alikes it must leave alone.

- Sentry's Craft keeps its release settings in a root `.craft.yml` (the targets the release job publishes to, the
  command it runs before a release): release automation (ci), as `.goreleaser.yml` is. Only at the root: a vendored
  copy stays deps and a `.craft.yml` deeper down is not claimed.
- Google's blunderbuss (`.github/blunderbuss.yml`) only assigns issues and pull requests: the settings of an outside app
  that neither merges nor gates (other), as snippet-bot's are; a workflow given its name stays ci.
- Go's `_fixtures/` folders (the go tool skips folders starting with `_`) in an `integration/` test tree hold the
  projects a test builds (ginkgo's fixture projects with their `go.mod` and `vendor/`): test data, which lowers deps to
  src, never ci or iac (a Dockerfile, a `.tf` file or a Kubernetes object there keeps its kind); inside vendored code
  the folder stays deps, as `vendor/**/fixtures/` does. Outside a test tree the name still decides nothing (the
  twentieth round's decision: a root `_fixtures/requirements.lock` stays deps), so ginkgo's
  `ginkgo/performance/_fixtures/` go.mod stays a counted miss.
"""

from __future__ import annotations

import glob
from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, patch_files, tree_files

SETS = Path(__file__).resolve().parent.parent / "bench" / "classify_accuracy"
# Craft's shape: the changelog policy, the command run before a release and the registries the release publishes to
CRAFT = ("minVersion: 2.21.1\nchangelog:\n  policy: auto\npreReleaseCommand: ruby .scripts/batch_release.rb\n"
         "artifactProvider:\n  name: github\ntargets:\n  - name: gem\n  - name: github\n  - name: registry\n"
         "    sdks:\n      gem:example-sdk:\n")
BLUNDERBUSS = "assign_issues:\n  - alice\n  - bob\nassign_prs:\n  - carol\n"
GO_MOD = ("module example.com/dependency_fetcher\n\ngo 1.16\n\nrequire github.com/onsi/gomega v1.13.0\n"
          "require gopkg.in/yaml.v2 v2.4.0\n")
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n"
WORKFLOW = "on: issues\njobs:\n  assign:\n    runs-on: ubuntu-latest\n    steps:\n    - run: echo assign\n"


@each_case(("path", "bucket", "rule"), [
    (".craft.yml", "ci", "ci.release-tools"),
    (".craft.yaml", "ci", "ci.release-tools"),
    ("vendor/github.com/getsentry/sentry-go/.craft.yml", "deps", "deps.vendored"),  # a vendored copy
    ("packages/sdk/.craft.yml", "src", None),  # only the root's
    ("craft.yml", "src", None), (".craft.yml.md", "src", None), ("docs/craft.md", "src", None),
    (".github/blunderbuss.yml", "other", "other.github-apps"),
    (".github/blunderbuss.yaml", "other", "other.github-apps"),
    (".github/issue_label_bot.yaml", "other", "other.github-apps"),  # its two lines became one pattern
    (".github/issue_label_bot.yml", "other", "other.github-apps"),
    (".github/workflows/blunderbuss.yml", "ci", "ci.workflows-folder"),  # a workflow under the name
    (".github/blunderbuss/assign.yml", "ci", "ci.github-other"),  # not the app's settings file
    (".github/blunderbuss.json", "ci", "ci.github-other"),
    (".github/sync-repo-settings.yaml", "ci", None),  # branch protection: gates merges, stays ci
    ("integration/_fixtures/focused_with_vendor_fixture/vendor/vendored.go", "src", "testdata.test-trees"),
    ("integration/_fixtures/focused_with_vendor_fixture/vendor/foo/foo.go", "src", "testdata.test-trees"),
    ("integration/_fixtures/version_mismatch_fixture/go.mod", "src", "testdata.test-trees"),
    ("integration/_fixtures/version_mismatch_fixture/go.sum", "src", "testdata.test-trees"),
    ("test/integration/_fixtures/app/package.json", "src", "testdata.test-trees"),
    ("tests/_fixtures/package.json", "src", "testdata.test-trees"),  # the twentieth round's, unchanged
    ("integration/_fixtures/Dockerfile", "iac", None),  # test data never lowers iac
    ("integration/_fixtures/main.tf", "iac", None),
    ("integration/_fixtures/.gitlab-ci.yml", "ci", None),  # nor ci
    (".github/integration/_fixtures/go.mod", "ci", None),  # a CI folder's test data is CI
    ("vendor/github.com/onsi/ginkgo/integration/_fixtures/x/go.mod", "deps", "deps.vendored"),
    ("_vendor/x/integration/_fixtures/go.mod", "deps", "deps.vendored"),
    ("_fixtures/requirements.lock", "deps", None),  # outside a test tree the name decides nothing
    ("ginkgo/performance/_fixtures/performance_fixture/go.mod", "deps", None),
    ("integrations/_fixtures/go.mod", "deps", None), ("integration/my_fixtures/go.mod", "deps", None),
    ("integration/go.mod", "deps", None),
])
def test_path_rules_of_the_fifty_fifth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


def test_a_craft_release_settings_edit_is_ci_from_the_patch_and_with_the_commits(git_repo: GitRepo,
                                                                                 tmp_path: Path) -> None:
    """sentry-ruby's shape: an edit of the root .craft.yml (a new publish target) is a CI change; the same text in a
    package folder below the root is not claimed by the path."""
    git_repo.write(".craft.yml", CRAFT)
    git_repo.write("sentry-ruby/.craft.yml", CRAFT)
    git_repo.write("lib/sentry.rb", "module Sentry\nend\n")
    git_repo.commit("base")
    git_repo.write(".craft.yml", CRAFT + "  - name: docker\n")
    git_repo.write("sentry-ruby/.craft.yml", CRAFT + "  - name: docker\n")
    git_repo.write("lib/sentry.rb", "module Sentry\n  VERSION = '1'\nend\n")
    git_repo.commit("head")
    for found in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert (found[".craft.yml"].bucket, found[".craft.yml"].rule) == ("ci", "ci.release-tools")
        assert found["sentry-ruby/.craft.yml"].bucket != "ci"
        assert found["lib/sentry.rb"].bucket == "src"


def test_blunderbuss_settings_are_other_and_a_workflow_beside_them_is_ci(git_repo: GitRepo, tmp_path: Path) -> None:
    """cloud-sql-jdbc-socket-factory's shape: the assignment bot's settings beside a workflow; only the settings are
    lowered, from the patch and with the commits."""
    git_repo.write(".github/blunderbuss.yml", BLUNDERBUSS)
    git_repo.write(".github/workflows/assign.yml", WORKFLOW)
    git_repo.commit("base")
    git_repo.write(".github/blunderbuss.yml", BLUNDERBUSS + "  - dave\n")
    git_repo.write(".github/workflows/assign.yml", WORKFLOW.replace("echo assign", "echo assigned"))
    git_repo.commit("head")
    for found in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert (found[".github/blunderbuss.yml"].bucket, found[".github/blunderbuss.yml"].rule) == (
            "other", "other.github-apps")
        assert found[".github/workflows/assign.yml"].bucket == "ci"


def test_go_fixture_projects_lower_deps_only_with_the_commits(git_repo: GitRepo, tmp_path: Path) -> None:
    """ginkgo's shape: a fixture project under integration/_fixtures/ with its go.mod and vendor/ is test data (src);
    the module's own go.mod stays deps; a Dockerfile and a Kubernetes object kept in the same folder stay iac, from the
    patch and with the commits."""
    git_repo.write("go.mod", GO_MOD.replace("dependency_fetcher", "ginkgo"))
    git_repo.write("integration/_fixtures/perf_fixture/go.mod", GO_MOD)
    git_repo.write("integration/_fixtures/perf_fixture/vendor/foo/foo.go", "package foo\n\nfunc FIt() {}\n")
    git_repo.write("integration/_fixtures/perf_fixture/Dockerfile", "FROM golang:1.22\n")
    git_repo.write("integration/_fixtures/perf_fixture/deploy.yaml", "replicas: 1\n")
    git_repo.commit("base")
    git_repo.write("go.mod", GO_MOD.replace("dependency_fetcher", "ginkgo").replace("v1.13.0", "v1.14.0"))
    git_repo.write("integration/_fixtures/perf_fixture/go.mod", GO_MOD.replace("v2.4.0", "v2.4.1"))
    git_repo.write("integration/_fixtures/perf_fixture/vendor/foo/foo.go",
                   "package foo\n\nfunc FIt() int { return 1 }\n")
    git_repo.write("integration/_fixtures/perf_fixture/Dockerfile", "FROM golang:1.23\n")
    git_repo.write("integration/_fixtures/perf_fixture/deploy.yaml", DEPLOYMENT)
    git_repo.commit("head")
    for found in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert found["go.mod"].bucket == "deps"
        fixture = "integration/_fixtures/perf_fixture/"
        assert (found[fixture + "go.mod"].bucket, found[fixture + "go.mod"].rule) == ("src", "testdata.test-trees")
        assert found[fixture + "vendor/foo/foo.go"].bucket == "src"
        assert found[fixture + "Dockerfile"].bucket == "iac"
        assert found[fixture + "deploy.yaml"].bucket == "iac"


def test_the_rules_of_this_round_lower_no_labelled_ci_or_iac_file() -> None:
    """Every labelled row of every set whose path the round's patterns reach: none labelled ci or iac is put in a lower
    bucket, and every such row labelled deps, src or other gets that bucket."""
    rows = [line.rstrip("\n").split("\t") for name in sorted(glob.glob(str(SETS / "*.tsv")))
            for line in Path(name).read_text().splitlines(keepends=True) if not line.startswith("#")]
    assert len(rows) > 20_000

    def reached(path: str) -> bool:
        name = path.rpartition("/")[2]
        return (name in (".craft.yml", ".craft.yaml", "blunderbuss.yml", "issue_label_bot.yaml", "issue_label_bot.yml")
                or ("/integration/" in f"/{path}" and "/_fixtures/" in path))

    touched = [(path, label, RULES.match(path).bucket) for _repo, _commit, path, label, _why in rows if reached(path)]
    assert len(touched) >= 4  # this set's four
    assert [row for row in touched if row[1] in ("ci", "iac") and row[2] not in ("ci", "iac")] == []
    assert [row for row in touched if row[1] in ("deps", "src", "other") and row[2] != row[1]] == []
