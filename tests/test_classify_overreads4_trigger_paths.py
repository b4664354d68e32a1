"""Over-reads 4, a false alarm: the paths that trigger a GitHub workflow are data. cython's sanitizers.yml hands
`dorny/paths-filter` the files whose change starts its jobs (`Cython/Compiler/Nodes.py`, ...): the walk read them as
scripts the workflow runs, then the compiler's comments (`make ...`) as commands, which read the root Makefile whole
and made an old talk's `Doc/s5/Makefile` `ci` (the seventy-eighth set). The `paths:`/`paths-ignore:` of the workflow's
`on:` triggers are the same kind of list.

The class: in a workflow, the `paths`/`paths-ignore` lists of its `on:` block and the `filters:` a `dorny/paths-filter`
step is handed name no file the job runs. Look-alikes that stay read: the same path in a step's `run:`, a `paths:`
key outside `on:` (an action's input), `filters:` in a workflow that uses no paths-filter."""

from __future__ import annotations

from citools import one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciforms

FILES = {"tools/gen.py": "print(1)\n", "scripts/x.sh": "#!/bin/sh\n", "README.md": "# x\n"}
STEPS = "jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: {run}\n"
TRIGGERS = [
    'on:\n  push:\n    paths:\n      - "tools/gen.py"\n      - scripts/x.sh\n',
    "on:\n  pull_request:\n    paths-ignore:\n    - tools/gen.py\n    - scripts/x.sh\n  push:\n    branches: [main]\n",
    "on:\n  push:\n    paths: [tools/gen.py, scripts/x.sh]\n",
    "'on':\n  pull_request_target:\n    paths:\n      - 'tools/gen.py'  # the generator\n\n      - scripts/x.sh\n",
]
FILTER = ("on: push\njobs:\n  changes:\n    runs-on: ubuntu-latest\n    steps:\n"
          "      - uses: dorny/paths-filter@v3\n        id: filter\n        with:\n          filters: |\n"
          "            src:\n              - \"tools/gen.py\"\n              - scripts/x.sh\n"
          "  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {run}\n")


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


@each_case("trigger", TRIGGERS)
def test_trigger_paths_run_nothing(trigger: str) -> None:
    text = trigger + STEPS.format(run="echo hi")
    assert not _runs({**FILES, ".github/workflows/t.yml": text}) & set(FILES), trigger
    text = trigger + STEPS.format(run="python tools/gen.py")  # and what a step runs still is CI's
    assert _runs({**FILES, ".github/workflows/t.yml": text}) & set(FILES) == {"tools/gen.py"}


def test_a_paths_filter_runs_nothing() -> None:
    assert not _runs({**FILES, ".github/workflows/t.yml": FILTER.format(run="echo hi")}) & set(FILES)
    text = FILTER.format(run="bash scripts/x.sh")
    assert _runs({**FILES, ".github/workflows/t.yml": text}) & set(FILES) == {"scripts/x.sh"}


@each_case("text", [
    "on: push\n" + STEPS.format(run="echo") + "      - uses: ./.github/actions/lint\n        with:\n"
    "          paths: scripts/x.sh\n",
    "on: push\n" + STEPS.format(run="echo") + "      - uses: acme/run@v1\n        with:\n          filters: |\n"
    "            - scripts/x.sh\n",
])
def test_the_same_keys_elsewhere_stay_read(text: str) -> None:
    assert "scripts/x.sh" in _runs({**FILES, ".github/workflows/t.yml": text})


@each_case("hostile", [repeated("  paths:\n", "on:\n"), repeated("    - a\n", "on:\n  push:\n    paths:\n"),
                       repeated(" ", "on:\n  paths:", "\n"), repeated("filters:\n", "dorny/paths-filter\n")])
def test_a_hostile_workflow_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(ciforms.untold, hostile, budget=0.25)
