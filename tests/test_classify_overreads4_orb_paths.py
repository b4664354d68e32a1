"""Over-reads 4, a CI miss: a CircleCI orb's job or command is handed a folder of the repository as a parameter
(slack-orb's `.circleci/config.yml`: `- bats/run: {path: ./src/tests}`; the bats orb runs every `.bats` file there), and
the walk read no parameter of an orb's job, so `src/tests/notify.bats` was `src` (the seventy-eighth set).

The class: in a CircleCI configuration, a parameter of an orb's job or command (`<orb>/<name>:` in a workflow's `jobs:`
or a job's `steps:`) whose value is a relative path names that file, and, as a folder, the scripts and bats tests in
it (`.sh`, `.bash`, `.bats`). Look-alikes: a value that is no path (a name, a URL, a variable, an absolute path, a
sentence), a local job's parameters, a GitHub workflow's `with:` of a remote action, a data file in the folder."""

from __future__ import annotations

from citools import one_tree_runs
from tables import each_case

from gatekeeper.classify import ciforms

ORB_JOB = """version: 2.1
orbs:
  bats: circleci/bats@1.1
  shellcheck: circleci/shellcheck@3.4
workflows:
  lint-pack:
    jobs:
      - shellcheck/check:
          shell: bash
      - {orb}:
          {key}: {value}
          filters: *filters
"""
ORB_STEP = """version: 2.1
orbs:
  tools: acme/tools@2.0
jobs:
  test:
    docker:
      - image: cimg/base:stable
    steps:
      - checkout
      - {orb}:
          {key}: {value}
"""
FILES = {"src/tests/notify.bats": "@test 'x' { true; }\n", "src/tests/helper.bash": "f() { :; }\n",
         "src/tests/sampleCustomTemplate.json": "{}\n", "src/tests/run.sh": "#!/bin/sh\n",
         "tests/bats/a.bats": "@test 'a' { true; }\n", "ci/check.sh": "#!/bin/sh\n", "README.md": "# x\n"}
# (orb, key, value, the files it must name)
CASES = [
    ("bats/run", "path", "./src/tests", {"src/tests/notify.bats", "src/tests/helper.bash", "src/tests/run.sh"}),
    ("bats/run", "path", "src/tests", {"src/tests/notify.bats", "src/tests/helper.bash", "src/tests/run.sh"}),
    ("bats/run", "path", "./src/tests/", {"src/tests/notify.bats", "src/tests/run.sh"}),
    ("bats/run", "path", "tests/bats", {"tests/bats/a.bats"}),
    ("tools/run-script", "script", "./ci/check.sh", {"ci/check.sh"}),
    ("tools/run-script", "file", "ci/check.sh", {"ci/check.sh"}),
    ("tools/test", "test-dir", "'./src/tests'", {"src/tests/notify.bats"}),
]
LOOK_ALIKES = [
    ("bats/run", "path", "https://example.com/src/tests"), ("bats/run", "path", "$TEST_DIR/src/tests"),
    ("bats/run", "path", "<< parameters.dir >>"), ("bats/run", "path", "/home/circleci/src/tests"),
    ("bats/run", "message", "Please run src/tests before pushing"), ("bats/run", "path", "notify"),
    ("bats/run", "path", "."), ("bats/run", "path", "./"), ("bats/run", "path", "../src/tests"),
]


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


@each_case("form, orb, key, value, named", [(f, *case) for f in (ORB_JOB, ORB_STEP) for case in CASES])
def test_a_path_an_orb_is_handed_is_ci(form: str, orb: str, key: str, value: str, named: set[str]) -> None:
    config = form.replace("{orb}", orb).replace("{key}", key).replace("{value}", value)
    config = config.replace("filters: *filters", "filters: {}")
    runs = _runs({**FILES, ".circleci/config.yml": config})
    assert named <= runs, (orb, value, runs)
    assert "src/tests/sampleCustomTemplate.json" not in runs and "README.md" not in runs


@each_case("orb, key, value", LOOK_ALIKES)
def test_what_is_no_path_names_nothing(orb: str, key: str, value: str) -> None:
    config = ORB_JOB.replace("{orb}", orb).replace("{key}", key).replace("{value}", value)
    config = config.replace("filters: *filters", "filters: {}")
    assert not _runs({**FILES, ".circleci/config.yml": config}) & set(FILES)


def test_a_local_job_and_a_remote_action_name_no_folder() -> None:
    local = ORB_STEP.replace("{orb}", "run").replace("{key}", "name").replace("{value}", "src/tests")
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/bats@v1\n"
                "        with:\n          path: ./src/tests\n")
    for path, text in ((".circleci/config.yml", local), (".github/workflows/t.yml", workflow)):
        assert not _runs({**FILES, path: text}) & set(FILES), path
    assert ciforms.orb_paths(".github/workflows/t.yml", workflow) == []
