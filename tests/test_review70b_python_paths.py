"""Review 70b: `python -m` behind a wrapper reads the line's PYTHONPATH too (review 70's entries, commandlines._module).

`env PYTHONPATH=tools python -m lib.notes`, `sudo PYTHONPATH=tools python3 -m …`, `PYTHONPATH=tools timeout 60 python
-m …`, `PYTHONPATH=tools poetry run python -m …`: the wrapper table took `python -m NAME` for a wrapper of its own and
handed the reader the module's name as a command, so the module was never looked for below the PYTHONPATH (an edit
exit 0 on 779774c6: 16 of the 18 generated lines). Now the command behind the wrappers stops at the interpreter, as
it does when python leads the line. Look-alikes: a module the tree lacks, a PYTHONPATH of a variable only.
"""

from __future__ import annotations

from citools import RUN_WORKFLOW, tree_runs
from tables import each_case

from gatekeeper.classify import wrappers

WRAPPED = ["env PYTHONPATH={p} python -m lib.notes", "sudo PYTHONPATH={p} python3 -m lib.notes",
           "sudo -E env PYTHONPATH={p} python -m lib.notes", "PYTHONPATH={p} timeout 60 python -m lib.notes",
           "PYTHONPATH={p} poetry run python -m lib.notes", "PYTHONPATH={p} uv run python3 -u -m lib.notes",
           "export PYTHONPATH={p} && nice -n 5 python -m lib.notes", "env -i PYTHONPATH={p} python -mlib.notes",
           "PYTHONPATH={p} pipenv run python -m lib.notes --x"]
PATHS = [("tools", "tools/lib/notes.py"), ("ci/py", "ci/py/lib/notes/__main__.py")]


def _files(command: str, module: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command), module: "print('x')\n", "README.md": "x\n"}


@each_case("command, module", [(command.format(p=folder), module) for command in WRAPPED for folder, module in PATHS])
def test_a_module_a_wrapped_python_m_runs_from_the_pythonpath_is_ci(command: str, module: str) -> None:
    assert module in tree_runs(_files(command, module)), command  # before: 16/18 missed


@each_case("command, module", [("env PYTHONPATH=tools python -m lib.other", "tools/lib/notes.py"),
                               ("sudo PYTHONPATH=$TOOLS python -m lib.notes", "tools/lib/notes.py")])
def test_a_look_alike_runs_nothing(command: str, module: str) -> None:
    assert module not in tree_runs(_files(command, module)), command


@each_case("line, inner", [("sudo -E python3 -m pip install x", ["python3", "-m", "pip", "install", "x"]),
                           ("timeout 60 sudo bash tools/x", ["bash", "tools/x"])])
def test_the_command_behind_the_wrappers_stops_at_the_interpreter(line: str, inner: list[str]) -> None:
    assert wrappers.innermost(line.split()) == inner
