"""Review 66a, bypasses of over-reads 4's lowering (ciforms.untold): a key blanked as display text or trigger data
held more than text. A job named for a message (`lint-commit-message:`, GitLab's `check_commit_message:`), a job
named `filters:` in a workflow that mentions paths-filter, a display key whose value is a flow mapping, a value that
declares a YAML anchor a step's `run:` then aliases (`description: &c ./x.sh` ... `run: *c`, a trigger path `- &c
./x.sh`), and a GitLab `!reference [.setup, description]` that pastes a hidden job's `description` into a `script:`:
each made `scripts/check.sh`, which the pipeline runs, no CI file (exit 0 on 089857f9).

The class: only a scalar is display text or trigger data. A key whose value is a mapping or a list below it (a job, a
step list), a flow mapping, an anchored value (or one holding an anchor), or a key a `!reference` names stays read.
Look-alikes that stay lowered: over-reads 4's display texts and trigger lists (their own tests), a `description:` block
scalar, a message with `&&` or `R&D` in it, a `!reference` to another key."""

from __future__ import annotations

from citools import one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciforms, settingsexcludes

FILES = {"scripts/check.sh": "#!/bin/sh\n", "README.md": "# x\n"}
JOB_KEYS = ["lint-commit-message", "check_commit_message", "commitMessage", "message", "description",
            "pr-description", "'commit-message'"]
WORKFLOW_JOB = ("on: [pull_request]\njobs:\n  {key}:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n      - run: ./scripts/check.sh\n")
GITLAB_JOB = "stages: [test]\n{key}:\n  stage: test\n  script:\n    - ./scripts/check.sh\n"
CIRCLE_JOB = ("version: 2.1\njobs:\n  {key}:\n    docker:\n      - image: cimg/base:stable\n    steps:\n"
              "      - checkout\n      - run: ./scripts/check.sh\nworkflows:\n  w:\n    jobs: [{bare}]\n")
HIDDEN = [
    # a job named `filters:` where paths-filter is named (a comment is enough)
    ("# changes: dorny/paths-filter\non: [pull_request]\njobs:\n  filters:\n    runs-on: ubuntu-latest\n"
     "    steps:\n      - run: ./scripts/check.sh\n", ".github/workflows/ci.yml"),
    # a display-named job as a flow mapping
    ("on: [pull_request]\njobs:\n  lint-message: {runs-on: ubuntu-latest, steps: [{run: ./scripts/check.sh}]}\n",
     ".github/workflows/ci.yml"),
    # an anchored display value a step aliases
    ("on: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - name: x\n"
     "        description: &c ./scripts/check.sh\n      - run: *c\n", ".github/workflows/ci.yml"),
    ("on: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - name: x\n"
     "        message: &c |\n          ./scripts/check.sh\n      - run: *c\n", ".github/workflows/ci.yml"),
    # an anchored trigger path a step aliases
    ("on:\n  push:\n    paths:\n      - &c ./scripts/check.sh\njobs:\n  a:\n    runs-on: x\n    steps:\n"
     "      - run: *c\n", ".github/workflows/ci.yml"),
    ("on:\n  push:\n    paths: [&c ./scripts/check.sh]\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: *c\n",
     ".github/workflows/ci.yml"),
    # GitLab pastes a hidden job's display key into a script
    (".setup:\n  description: |\n    ./scripts/check.sh\ntest:\n  script:\n    - !reference [.setup, description]\n",
     ".gitlab-ci.yml"),
    (".setup:\n  commit_message: ./scripts/check.sh\ntest:\n  script:\n    - !reference [\".setup\", "
     "\"commit_message\"]\n", ".gitlab-ci.yml"),
    (".setup:\n  description:\n    - ./scripts/check.sh\ntest:\n  script:\n    - !reference [.setup, description]\n",
     ".gitlab-ci.yml"),
    # a display key's look-alike inside a step's block scalar is shell: `message: |` pipes into the next line
    ("on: [pull_request]\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: |\n          message: |\n"
     "            ./scripts/check.sh\n", ".github/workflows/ci.yml"),
    ("test:\n  script: >-\n    description: |\n      ./scripts/check.sh\n", ".gitlab-ci.yml"),
    ("on: [pull_request]\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: |-\n          paths: |\n"
     "            ./scripts/check.sh\n        name: paths-filter\n", ".github/workflows/ci.yml"),
]
SHOWN = [
    "description: |\n            Runs ./scripts/check.sh before the release\n",
    "message: Please run ./scripts/check.sh && push\n",
    "description: R&D build, see ./scripts/check.sh\n",
    "custom-error-message: >-\n            run ./scripts/check.sh\n",
]
STEP = ("on: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: some/action@v1\n"
        "        with:\n          {line}")


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


def _jobs() -> list[tuple[str, str]]:
    cases = []
    for key in JOB_KEYS:
        bare = key.strip("'")
        cases += [(WORKFLOW_JOB.format(key=key), ".github/workflows/ci.yml"),
                  (GITLAB_JOB.format(key=key), ".gitlab-ci.yml"),
                  (CIRCLE_JOB.format(key=key, bare=bare), ".circleci/config.yml")]
    return cases


@each_case("text, path", _jobs() + HIDDEN)
def test_a_job_or_value_behind_a_display_key_is_read(text: str, path: str) -> None:
    assert "scripts/check.sh" in _runs({**FILES, path: text}), text


@each_case("line", SHOWN)
def test_display_text_stays_unread(line: str) -> None:
    assert not _runs({**FILES, ".github/workflows/ci.yml": STEP.format(line=line)}) & set(FILES), line


def test_a_reference_to_another_key_keeps_the_description_unread() -> None:
    text = (".setup:\n  description: ./scripts/check.sh\n  script: [echo ok]\ntest:\n  script:\n"
            "    - !reference [.setup, script]\n")
    assert not _runs({**FILES, ".gitlab-ci.yml": text}) & set(FILES)


@each_case("hostile", [repeated("  message:\n    - &a x\n"), repeated("!reference [.a, message] "),
                       repeated("description: &", "", "x\n"), repeated("  filters:\n    a: {b: c}\n", "paths-filter\n"),
                       repeated("  paths:\n  - &a x\n", "on:\n"), repeated("  - run: |\n    message: |\n"),
                       repeated("a" * 200 + " ")])
def test_a_hostile_definition_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(ciforms.untold, hostile, budget=0.25)


PRECOMMIT_CI = ("on: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: pip install pre-commit && pre-commit run --all-files\n")
HOOK = "repos:\n  - repo: local\n    hooks:\n      - id: check\n        name: check\n{hook}        language: script\n"
PRECOMMIT_ANCHORED = [
    HOOK.format(hook="        exclude: &e scripts/check.sh\n        entry: *e\n"),
    HOOK.format(hook="        exclude: &e\n          scripts/check.sh\n        entry: *e\n"),
    "exclude: &e scripts/check.sh\n" + HOOK.format(hook="        entry: *e\n"),
    HOOK.format(hook="        exclude: !!str &e scripts/check.sh\n        entry: *e\n"),
]


@each_case("config", PRECOMMIT_ANCHORED)
def test_an_anchored_pre_commit_exclude_an_entry_aliases_is_read(config: str) -> None:
    files = {**FILES, ".github/workflows/ci.yml": PRECOMMIT_CI, ".pre-commit-config.yaml": config}
    assert "scripts/check.sh" in _runs(files), config


def test_a_pre_commit_exclude_stays_data() -> None:
    config = HOOK.format(hook="        exclude: ^scripts/check\\.sh$\n        entry: ./tools/lint\n")
    files = {**FILES, "tools/lint": "#!/bin/sh\n", ".github/workflows/ci.yml": PRECOMMIT_CI,
             ".pre-commit-config.yaml": config}
    assert _runs(files) & {*FILES, "tools/lint"} == {"tools/lint"}


@each_case("hostile", [repeated("  - exclude: &e x\n    y\n"), repeated("exclude:\n  a\n"),
                       repeated("exclude: |\n", "", "&e\n")])
def test_a_hostile_pre_commit_config_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: settingsexcludes.unexcluded(".pre-commit-config.yaml", text), hostile, budget=0.25)
