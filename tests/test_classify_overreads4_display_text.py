"""Over-reads 4, a false alarm: text a CI definition only shows was read as a command. circle-yml-split-example's job
hands an orb `custom-error-message: Please run "make circle-config" and push up.` (printed when the packed config is
stale), and the walk made the Makefile, which only a person runs, `ci` (the seventy-fourth set).

The class: in a YAML definition, the value of a key named for a message (`message`, `*-message`, `*_message`,
`*Message`) or a `description`, on its line or as a block scalar below it, is display text: no command. Look-alikes
that stay read: `run:`, `command:`, `script:`, a step's `name:` (the only hint of what an opaque action runs), a key
that only contains the word (`message-command:`), the same words in a shell script."""

from __future__ import annotations

from citools import one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciforms

CIRCLE = """version: 2.1
orbs:
  swissknife: roopakv/swissknife@0.54.0
jobs:
  lint-and-test:
    docker:
      - image: cimg/base:stable
    steps:
      - checkout
      - swissknife/build_and_check_circle_config:
          {line}
          fail-if-dirty: true
"""
ACTION = """name: check
description: Checks the packed config
inputs:
  hint:
    {line}
    required: false
runs:
  using: composite
  steps:
    - run: echo ok
      shell: bash
"""
FILES = {"Makefile": "circle-config:\n\tcircleci config pack src > config.yml\n", "scripts/pack.sh": "#!/bin/sh\n"}
SHOWN = [
    'custom-error-message: Please run "make circle-config" and push up.',
    "error_message: 'Run make circle-config, then ./scripts/pack.sh'",
    "failureMessage: run make circle-config",
    "message: Please run make circle-config",
    "description: Runs make circle-config and ./scripts/pack.sh",
    "description: |\n            Please run make circle-config\n            or ./scripts/pack.sh",
    "custom-error-message: >-\n            Please run \"make circle-config\"\n            and ./scripts/pack.sh",
]
READ = [
    "command: make circle-config", "run-command: ./scripts/pack.sh", "message-command: make circle-config",
    "script: |\n            make circle-config", "messages: Please run make circle-config",
]


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


@each_case("line", SHOWN)
def test_display_text_runs_nothing(line: str) -> None:
    runs = _runs({**FILES, ".circleci/config.yml": CIRCLE.format(line=line)})
    assert not runs & set(FILES), line


@each_case("line", READ)
def test_commands_stay_read(line: str) -> None:
    runs = _runs({**FILES, ".circleci/config.yml": CIRCLE.format(line=line)})
    assert runs & set(FILES), line


def test_an_action_input_description_runs_nothing_but_its_steps_do() -> None:
    text = ACTION.format(line="description: make circle-config before ./scripts/pack.sh")
    assert not _runs({**FILES, "action.yml": text}) & set(FILES)
    text = text.replace("run: echo ok", "run: ./scripts/pack.sh")
    assert _runs({**FILES, "action.yml": text}) & set(FILES) == {"scripts/pack.sh"}


def test_a_shell_script_keeps_its_words() -> None:
    files = {**FILES, ".circleci/config.yml": CIRCLE.format(line="command: bash ci/check.sh"),
             "ci/check.sh": 'description="x"\nmessage=$(make circle-config)\n'}
    assert "Makefile" in _runs(files)


@each_case("hostile", [repeated("a-", "", "message"), repeated("description: |\n", ""), repeated("x" * 63 + "-"),
                       repeated("  - message: >\n    run make x\n")])
def test_a_hostile_definition_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(ciforms.untold, hostile, budget=0.25)
