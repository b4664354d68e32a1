"""Classes of misses the fifty-third label set found (bench/classify_accuracy/fiftythird.tsv: 35 repositories already
mirrored and in no label set, measured blind first), each with the look-alikes it must leave alone.

- The .NET engineering folder's `eng/ci/` holds Azure Pipelines definitions and their templates (Azure Functions'
  `eng/ci/official-build.yml`, `eng/ci/templates/jobs/*.yml`): a CI folder (ci) from the path alone, as `eng/pipelines/`
  is; only at the root (a `src/eng/ci/` folder is not claimed) and not `eng/cinema/`.
- Jest's `__tests__/data/` is a test-data folder (setup-go's `.go-version`, `.tool-versions` and `go.mod` a test reads
  as input): it lowers deps to src, never ci or iac (a Dockerfile, a `.tf` file or a Kubernetes object there stays
  iac); inside vendored code the folder stays deps, as `vendor/**/test/` does.
- Jest settings under variant names (`jest.config.cli.js`, `jest.config.base.js`, `jest.config.integration.ts`) and
  cspell word lists (`cspell-dict.txt`) are tool settings (other), as `jest.config.js` and `cspell.json` are; a CI- or
  infrastructure-typed end under those names keeps its kind, and a test named after a settings file
  (`jest.config.ts.test.ts`, Jest's own e2e tests) stays code.
"""

from __future__ import annotations

import glob
from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, patch_files, tree_files

SETS = Path(__file__).resolve().parent.parent / "bench" / "classify_accuracy"
# Azure Functions' shape: an official build that extends a 1ES template and runs job templates of eng/ci/templates/
OFFICIAL_BUILD = ("trigger:\n  batch: true\n  branches:\n    include:\n    - main\n    - release/*\n"
                  "resources:\n  repositories:\n  - repository: 1es\n    type: git\n"
                  "    name: 1ESPipelineTemplates/1ESPipelineTemplates\n"
                  "extends:\n  template: v1/1ES.Official.PipelineTemplate.yml@1es\n  parameters:\n    stages:\n"
                  "    - stage: Build\n      jobs:\n"
                  "      - template: /eng/ci/templates/official/jobs/build-artifacts.yml@self\n")
JOB_TEMPLATE = ("jobs:\n- job: RunUnitTests\n  pool:\n    name: 1es-pool-azfunc\n  steps:\n"
                "  - template: /eng/ci/templates/steps/install-dotnet.yml@self\n  - task: DotNetCoreCLI@2\n"
                "    inputs:\n      command: test\n")
GO_MOD = "module example.com/mymodule\n\ngo 1.20\n\nrequire example.com/othermodule v1.2.3\n"
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n"
JEST_CONFIG = ("module.exports = {\n  preset: 'ts-jest',\n  testEnvironment: 'node',\n"
               "  testMatch: ['**/test/**/*.test.ts'],\n}\n")
# the variant names the round's jest pattern gives (a generated spread of the shape) and ends a tool reads as settings
JEST_VARIANTS = ("cli", "base", "integration", "e2e", "unit", "chrome-mv3", "node.dev")
JEST_ENDS = (".js", ".ts", ".cjs", ".mjs", ".json")


@each_case(("path", "bucket", "rule"), [
    ("eng/ci/official-build.yml", "ci", "ci.script-folders"),
    ("eng/ci/public-build.yml", "ci", "ci.script-folders"),
    ("eng/ci/templates/jobs/run-unit-tests.yml", "ci", "ci.script-folders"),
    ("eng/ci/templates/steps/install-dotnet.yml", "ci", "ci.script-folders"),
    ("eng/ci/scripts/sign.ps1", "ci", "ci.script-folders"),
    ("eng/pipelines/public-build.yml", "ci", "ci.system-folders"),  # the older .NET folder, unchanged
    ("src/eng/ci/official-build.yml", "src", None),  # only the root's eng/
    ("eng/cinema/official-build.yml", "src", None),
    ("eng/ci.md", "src", None),
    ("__tests__/data/go.mod", "src", "testdata.test-trees"),
    ("__tests__/data/.go-version", "src", "testdata.test-trees"),
    ("__tests__/data/.tool-versions", "src", "testdata.test-trees"),
    ("__tests__/data/go.work", "src", "testdata.test-trees"),
    ("packages/core/__tests__/data/package.json", "src", "testdata.test-trees"),
    ("src/__tests__/unit/data/Cargo.toml", "src", "testdata.test-trees"),
    ("__tests__/data/Dockerfile", "iac", None),  # test data never lowers iac
    ("__tests__/data/main.tf", "iac", None),
    ("__tests__/data/.github/workflows/ci.yml", "src", None),  # a nested project's workflow GitHub never runs
    (".github/actions/setup/__tests__/data/go.mod", "ci", None),  # a CI folder's test data is CI
    ("vendor/github.com/x/y/__tests__/data/go.mod", "deps", "deps.vendored"),
    ("_vendor/x/__tests__/data/package.json", "deps", "deps.vendored"),
    ("data/go.mod", "deps", None),  # no test tree
    ("__tests__/go.mod", "deps", None),  # a test tree, no test-data folder
    ("jest.config.cli.js", "other", "other.lint-format"),
    ("packages/core/auth-js/jest.config.cli.js", "other", "other.lint-format"),
    ("jest.config.base.js", "other", "other.lint-format"),
    ("jest.config.js", "other", "other.lint-format"),
    ("cspell-dict.txt", "other", "other.lint-format"),
    ("docs/cspell-words.txt", "other", "other.lint-format"),
    ("jest.config.Dockerfile", "iac", None),
    ("jest.config.infra.tf", "iac", None),
    (".github/workflows/jest.config.yml", "ci", None),
    ("ci/cspell-dict.txt", "ci", None),
    ("cspell-dict.tf", "iac", None),
    ("jest.md", "src", None), ("my-jest.config.js", "src", None),
    # tests named after a Jest settings file are code (Jest's own e2e tests), not settings
    ("e2e/__tests__/jest.config.js.test.ts", "src", "src.tests-named-like-dockerfile"),
    ("e2e/__tests__/jest.config.ts.spec.js", "src", "src.tests-named-like-dockerfile"),
])
def test_path_rules_of_the_fifty_third_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


@each_case("variant", JEST_VARIANTS)
@each_case("end", JEST_ENDS)
def test_every_jest_settings_variant_is_other(variant: str, end: str) -> None:
    assert_path_rule(f"packages/app/jest.config.{variant}{end}", "other", "other.lint-format")


def test_an_eng_ci_pipeline_is_ci_from_the_patch_and_with_the_commits(git_repo: GitRepo, tmp_path: Path) -> None:
    """Azure Functions' shape: the official build and a job template it runs; an edit of either is a CI change. A
    folder named like it below src/ with the same text is not claimed by the path (content decides there)."""
    git_repo.write("eng/ci/official-build.yml", OFFICIAL_BUILD)
    git_repo.write("eng/ci/templates/jobs/run-unit-tests.yml", JOB_TEMPLATE)
    git_repo.write("src/Worker/Program.cs", "class Program { static void Main() {} }\n")
    git_repo.commit("base")
    git_repo.write("eng/ci/official-build.yml", OFFICIAL_BUILD.replace("batch: true", "batch: false"))
    git_repo.write("eng/ci/templates/jobs/run-unit-tests.yml", JOB_TEMPLATE.replace("command: test", "command: build"))
    git_repo.write("src/Worker/Program.cs", "class Program { static void Main() { } }\n")
    git_repo.commit("head")
    for found in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert (found["eng/ci/official-build.yml"].bucket, found["eng/ci/official-build.yml"].rule) == (
            "ci", "ci.script-folders")
        assert found["eng/ci/templates/jobs/run-unit-tests.yml"].bucket == "ci"
        assert found["src/Worker/Program.cs"].bucket == "src"


def test_jest_test_data_lowers_deps_only_with_the_commits(git_repo: GitRepo, tmp_path: Path) -> None:
    """setup-go's shape: version files and a go.mod its tests read from __tests__/data/ are test data (src); the
    action's own go.mod stays deps; a Dockerfile and a Kubernetes object kept in the same folder stay iac, from the
    patch and with the commits."""
    git_repo.write("go.mod", GO_MOD)
    git_repo.write("__tests__/data/go.mod", GO_MOD)
    git_repo.write("__tests__/data/.go-version", "1.22.4\n")
    git_repo.write("__tests__/data/Dockerfile", "FROM golang:1.22\n")
    git_repo.write("__tests__/data/deploy.yaml", "replicas: 1\n")
    git_repo.write("__tests__/setup-go.test.ts", "test('reads the version file', () => {})\n")
    git_repo.commit("base")
    git_repo.write("go.mod", GO_MOD.replace("v1.2.3", "v1.2.4"))
    git_repo.write("__tests__/data/go.mod", GO_MOD.replace("1.20", "1.21"))
    git_repo.write("__tests__/data/.go-version", "1.23.0\n")
    git_repo.write("__tests__/data/Dockerfile", "FROM golang:1.23\n")
    git_repo.write("__tests__/data/deploy.yaml", DEPLOYMENT)
    git_repo.commit("head")
    for found in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert found["go.mod"].bucket == "deps"
        assert (found["__tests__/data/go.mod"].bucket, found["__tests__/data/go.mod"].rule) == (
            "src", "testdata.test-trees")
        assert found["__tests__/data/.go-version"].bucket == "src"
        assert found["__tests__/data/Dockerfile"].bucket == "iac"
        assert found["__tests__/data/deploy.yaml"].bucket == "iac"


def test_jest_variant_settings_are_other_and_a_workflow_under_the_name_is_ci(git_repo: GitRepo, tmp_path: Path) -> None:
    """supabase-js's shape: a package's jest.config.cli.js beside its jest.config.js; a workflow given a jest name in
    the workflows folder is still a workflow."""
    git_repo.write("packages/auth-js/jest.config.js", JEST_CONFIG)
    git_repo.write("packages/auth-js/jest.config.cli.js", JEST_CONFIG)
    git_repo.write(".github/workflows/jest.config.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n"
                   "    steps:\n    - run: npx jest\n")
    git_repo.commit("base")
    git_repo.write("packages/auth-js/jest.config.cli.js", JEST_CONFIG.replace("node", "jsdom"))
    git_repo.write(".github/workflows/jest.config.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n"
                   "    steps:\n    - run: npx jest --ci\n")
    git_repo.commit("head")
    for found in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert (found["packages/auth-js/jest.config.cli.js"].bucket,
                found["packages/auth-js/jest.config.cli.js"].rule) == ("other", "other.lint-format")
        assert found[".github/workflows/jest.config.yml"].bucket == "ci"


def test_the_rules_of_this_round_lower_no_labelled_ci_or_iac_file() -> None:
    """Every labelled row of every set whose path the round's patterns reach: none labelled ci or iac is put in a lower
    bucket, and every such row labelled deps, src or other gets that bucket."""
    rows = [line.rstrip("\n").split("\t") for name in sorted(glob.glob(str(SETS / "*.tsv")))
            for line in Path(name).read_text().splitlines(keepends=True) if not line.startswith("#")]
    assert len(rows) > 20_000

    def reached(path: str) -> bool:
        name = path.rpartition("/")[2]
        return (path.startswith("eng/ci/") or ("/__tests__/" in f"/{path}" and "/data/" in path)
                or name.startswith("jest.config.") or (name.startswith("cspell-") and name.endswith(".txt")))

    touched = [(path, label, RULES.match(path).bucket) for _repo, _commit, path, label, _why in rows if reached(path)]
    assert len(touched) >= 6  # the sets hold such files (this set's six and older sets' jest settings)
    # a Jest settings module labelled ci is one a CI run loads: --tree decides it (nodeconfigs.py, the rule of
    # 2026-12-07 in docs/classification.md; fnm's jest.config.cjs in the eighty-first set), its path stays other
    walked = [row for row in touched if row[1] == "ci" and row[0].rpartition("/")[2].startswith("jest.config.")
              and row[0].endswith((".js", ".cjs", ".mjs", ".ts", ".cts", ".mts")) and row[2] == "other"]
    assert [row for row in touched if row[1] in ("ci", "iac") and row[2] not in ("ci", "iac")
            and row not in walked] == []
    assert [row for row in touched if row[1] in ("deps", "src", "other") and row[2] != row[1]] == []
