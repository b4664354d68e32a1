"""Classes of misses the fifty-eighth label set found (bench/classify_accuracy/fiftyeighth.tsv: 35 repositories already
mirrored and in no label set, measured blind first), each with the look-alikes it must leave alone.

- A PEP 723 script (`# /// script` with its `dependencies`) that a workflow runs by path (`uv run --no-project
  mirror.py`) is what the CI job runs: `ci`, as any script CI runs by path. Its own block made it `deps`
  (`deps.content.inline-script-metadata`), and a `deps` file was never checked for being run by CI. The same script
  that no CI definition runs stays `deps`.
- The word scan of a file CI runs took the relative names a *test* file imports (`import './compile.js'`,
  `require_relative 'models_test.rb'`) for scripts the job runs, so one test entry a workflow reaches (`npm test` ->
  `node test/index.js`) made every test module it imports `ci`, although ciimports.py follows no test file's imports
  (CI runs the tests, and they import the product). A name a test passes to a command (`execSync('sh
  scripts/prepare.sh')`) is still a script the job runs, and a non-test script's imports are still followed.
- Sample projects kept in a test tree's `examples/` folder (treefmt's `test/examples/rust/Cargo.toml`, the inputs of its
  formatter tests) are test data: deps lowered to src, never ci or iac.
"""

from __future__ import annotations

import glob
from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, tree_files

SETS = Path(__file__).resolve().parent.parent / "bench" / "classify_accuracy"
# ruff-pre-commit's shape: a PEP 723 block, then the code that bumps the mirrored version
PEP723 = ('# /// script\n# requires-python = ">=3.12"\n# dependencies = [\n#   "packaging==23.1",\n'
          '#   "urllib3==2.0.5",\n# ]\n# ///\n"""Bump the mirrored version."""\nimport re\n\n\ndef main() -> None:\n'
          '    print(re.escape("1.0"))\n\n\nmain()\n')
SCHEDULED = ("name: main\non:\n  schedule:\n    - cron: '0 */4 * * *'\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
             "    steps:\n      - uses: actions/checkout@v4\n      - run: {command}\n")
CARGO = '[package]\nname = "rust"\nversion = "0.1.0"\nedition = "2018"\n\n[dependencies]\n'


@each_case(("path", "bucket", "rule"), [
    ("test/examples/rust/Cargo.toml", "src", "testdata.test-trees"),
    ("test/examples/python/requirements.txt", "src", "testdata.test-trees"),
    ("test/examples/go/go.mod", "src", "testdata.test-trees"),
    ("tests/examples/node/package.json", "src", "testdata.test-trees"),
    ("pkg/scanner/test/examples/app/package.json", "src", "testdata.test-trees"),
    ("test/examples/terraform/main.tf", "iac", None),  # test data never lowers iac
    ("test/examples/docker/Dockerfile", "iac", None),
    ("test/examples/.gitlab-ci.yml", "ci", None),  # nor ci
    (".github/test/examples/package.json", "ci", None),  # a CI folder's test data is CI
    ("examples/rust/Cargo.toml", "deps", None),  # an example outside a test tree is what it is
    ("test/example/Cargo.toml", "deps", None), ("test/examples-app/Cargo.toml", "deps", None),
    ("testing/examples/Cargo.toml", "deps", None), ("test/Cargo.toml", "deps", None),
])
def test_path_rules_of_the_fifty_eighth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


@each_case("command", [
    "uv run --no-project mirror.py", "uv run mirror.py", "uv run --script mirror.py", "python3 mirror.py",
    "python mirror.py --check", "pipx run mirror.py", "./mirror.py",
])
def test_a_pep723_script_a_workflow_runs_is_ci(git_repo: GitRepo, command: str) -> None:
    """ruff-pre-commit's shape: the scheduled workflow runs the root script whose PEP 723 block names its dependencies;
    an edit of the script changes what the CI job runs (ci, not deps), however the step starts it. A second script
    with the same block that nothing runs stays deps."""
    git_repo.write(".github/workflows/main.yml", SCHEDULED.format(command=command))
    git_repo.write("mirror.py", PEP723, mode=0o755)
    git_repo.write("tools/bump.py", PEP723)
    git_repo.commit("base")
    git_repo.write("mirror.py", PEP723.replace('"urllib3==2.0.5",', '"urllib3==2.0.5",\n#   "evil==1.0",'),
                   mode=0o755)
    git_repo.write("tools/bump.py", PEP723.replace('"urllib3==2.0.5",', '"urllib3==2.0.6",'))
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert (found["mirror.py"].bucket, found["mirror.py"].rule) == ("ci", "ci.context.ci-run"), found["mirror.py"]
    assert "main.yml runs mirror.py" in found["mirror.py"].evidence
    assert (found["tools/bump.py"].bucket, found["tools/bump.py"].rule) == (
        "deps", "deps.content.inline-script-metadata")


def _node_project(git_repo: GitRepo, test_entry: str) -> None:
    git_repo.write(".github/workflows/ci.yml", SCHEDULED.format(command="npm test"))
    git_repo.write("package.json", '{"name": "mdx", "scripts": {"test": "node --test test/index.js"}}\n')
    git_repo.write("test/index.js", test_entry)
    git_repo.write("test/compile.js", "import assert from 'node:assert'\nassert.ok(true)\n")
    git_repo.write("test/evaluate.js", "import assert from 'node:assert'\nassert.ok(1)\n")
    git_repo.write("lib/index.js", "export const compile = () => 1\n")
    git_repo.write("scripts/prepare.sh", "#!/bin/sh\necho prepare\n")


TEST_ENTRY = ("import './compile.js'\nexport * from './evaluate.js'\nimport {compile} from '../lib/index.js'\n"
              "const again = await import('./compile.js')\n")


def test_the_modules_a_test_entry_ci_runs_imports_are_not_ci(git_repo: GitRepo) -> None:
    """mdx's shape: the workflow runs `npm test`, whose script runs `test/index.js` by path (ci: CI runs it by name);
    the test modules it imports and the product module it imports from `../lib/` stay src."""
    _node_project(git_repo, TEST_ENTRY)
    git_repo.commit("base")
    for path in ("test/index.js", "test/compile.js", "test/evaluate.js", "lib/index.js"):
        git_repo.write(path, (git_repo.root / path).read_text() + "// edited\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert found["test/index.js"].bucket == "ci"
    for path in ("test/compile.js", "test/evaluate.js", "lib/index.js"):
        assert found[path].bucket == "src", found[path]


def test_a_command_a_test_entry_runs_stays_ci_and_a_scripts_imports_are_followed(git_repo: GitRepo) -> None:
    """Look-alikes: a test entry that runs a script by a command names it (ci), and a release script outside the test
    tree that CI runs still makes the module it imports from its own folder ci (ciimports.py)."""
    runs = "import {execSync} from 'node:child_process'\nexecSync('sh scripts/prepare.sh')\n"
    _node_project(git_repo, TEST_ENTRY + runs)
    git_repo.write("scripts/release.mjs", "import {publish} from './publish.mjs'\npublish()\n")
    git_repo.write("scripts/publish.mjs", "export const publish = () => 1\n")
    git_repo.write(".github/workflows/release.yml", SCHEDULED.format(command="node scripts/release.mjs"))
    git_repo.commit("base")
    for path in ("scripts/prepare.sh", "scripts/publish.mjs", "test/compile.js"):
        git_repo.write(path, (git_repo.root / path).read_text() + "# edited\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert found["scripts/prepare.sh"].bucket == "ci", found["scripts/prepare.sh"]
    assert found["scripts/publish.mjs"].bucket == "ci", found["scripts/publish.mjs"]
    assert found["test/compile.js"].bucket == "src", found["test/compile.js"]


def test_the_files_a_ruby_test_ci_runs_by_path_requires_are_ci(git_repo: GitRepo) -> None:
    """Ruby: a workflow runs `ruby test/all.rb` by its path, so the files it loads by `require_relative` (or `require
    './…'`) with their extension are what CI runs, as a script it runs by a command is (review 55 changed this: the
    fifty-eighth set's change left them src; only a test file a package.json's scripts run drops its imports)."""
    git_repo.write(".github/workflows/ci.yml", SCHEDULED.format(command="ruby test/all.rb"))
    git_repo.write("test/all.rb", "require_relative 'models_test.rb'\nrequire './test/views_test.rb'\n"
                                  "system('bash script/seed.sh')\n")
    git_repo.write("test/models_test.rb", "puts 1\n")
    git_repo.write("test/views_test.rb", "puts 2\n")
    git_repo.write("script/seed.sh", "echo seed\n")
    git_repo.commit("base")
    for path in ("test/models_test.rb", "test/views_test.rb", "script/seed.sh"):
        git_repo.write(path, (git_repo.root / path).read_text() + "# edited\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert found["test/models_test.rb"].bucket == "ci", found["test/models_test.rb"]
    assert found["test/views_test.rb"].bucket == "src", found["test/views_test.rb"]  # a limit: read from test/
    assert found["script/seed.sh"].bucket == "ci", found["script/seed.sh"]


def test_sample_projects_in_a_test_trees_examples_folder_lower_deps_only(git_repo: GitRepo) -> None:
    """treefmt's shape, with the commits: the sample projects' manifests are test data (src); a Dockerfile and a
    Terraform file kept beside them stay iac; the root manifest stays deps."""
    git_repo.write("go.mod", "module example.com/treefmt\n\ngo 1.22\n")
    git_repo.write("test/examples/rust/Cargo.toml", CARGO)
    git_repo.write("test/examples/python/requirements.txt", "Flask==2.2.5\n")
    git_repo.write("test/examples/docker/Dockerfile", "FROM alpine:3.19\n")
    git_repo.write("test/examples/terraform/main.tf", 'resource "null_resource" "a" {}\n')
    git_repo.commit("base")
    git_repo.write("go.mod", "module example.com/treefmt\n\ngo 1.23\n")
    git_repo.write("test/examples/rust/Cargo.toml", CARGO + 'serde = "1"\n')
    git_repo.write("test/examples/python/requirements.txt", "Flask==2.3.0\n")
    git_repo.write("test/examples/docker/Dockerfile", "FROM alpine:3.20\n")
    git_repo.write("test/examples/terraform/main.tf", 'resource "null_resource" "b" {}\n')
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert found["go.mod"].bucket == "deps"
    assert found["test/examples/rust/Cargo.toml"].bucket == "src"
    assert found["test/examples/python/requirements.txt"].bucket == "src"
    assert found["test/examples/docker/Dockerfile"].bucket == "iac"
    assert found["test/examples/terraform/main.tf"].bucket == "iac"


def test_the_path_rule_of_this_round_lowers_no_labelled_ci_or_iac_file() -> None:
    """Every labelled row of every set whose path the round's pattern reaches: none labelled ci or iac is put in a
    lower bucket, and every such row labelled deps, src or other gets that bucket."""
    rows = [line.rstrip("\n").split("\t") for name in sorted(glob.glob(str(SETS / "*.tsv")))
            for line in Path(name).read_text().splitlines(keepends=True) if not line.startswith("#")]
    assert len(rows) > 20_000
    touched = [(path, label, RULES.match(path).bucket) for _repo, _commit, path, label, _why in rows
               if "/test/examples/" in f"/{path}" or "/tests/examples/" in f"/{path}"]
    assert len(touched) >= 4  # this set's two, and those of earlier sets
    assert [row for row in touched if row[1] in ("ci", "iac") and row[2] not in ("ci", "iac")] == []
    assert [row for row in touched if row[1] in ("deps", "src", "other") and row[2] != row[1]] == []
