"""Attack 48: the relative imports of a test folder's module that a conftest.py (or a module it imports, in turn)
imports. pytest imports `tests/conftest.py`, which imports `tests/helpers/db.py`, whose `from .factories import make`
loads `tests/helpers/factories.py`: only a conftest's own relative imports were read, and an edit two imports away
was exit 0 on c315ac6c. Real python is the truth of what loads; the product's relative imports stay the product's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from citools import LINE_DEFINITIONS, tree_runs, with_line
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

BASE = {"tests/__init__.py": "", "tests/helpers/__init__.py": "", "tests/helpers/factories.py": "make = 1\n",
        "tests/helpers/fixtures.py": "", "tests/data.py": "", "tests/helpers/deep/__init__.py": "",
        "tests/helpers/deep/more.py": "", "tests/helpers/unused.py": "", "tests/test_a.py": "def test_a():\n    pass\n",
        "src/pkg/__init__.py": "", "src/pkg/mod.py": "from .other import x\n", "src/pkg/other.py": "x = 1\n"}
# (what tests/helpers/db.py says, a file that loads)
CHAINS = [("from .factories import make\n", "tests/helpers/factories.py"),
          ("from . import fixtures\n", "tests/helpers/fixtures.py"),
          ("from ..data import *\n", "tests/data.py"),
          ("from .deep.more import *\n", "tests/helpers/deep/more.py"),
          ("from .deep import more\n", "tests/helpers/deep/more.py"),
          ("try:\n    from .factories import make\nexcept ImportError:\n    pass\n", "tests/helpers/factories.py"),
          ("from . import (\n    fixtures,\n)\n", "tests/helpers/fixtures.py")]
CONFTESTS = ["from tests.helpers import db\n", "import tests.helpers.db\n", "from .helpers.db import *\n",
             "from tests.helpers.db import *\n"]
RUNS = ["pytest", "python -m pytest tests"]


def _files(conftest: str, db: str) -> dict[str, str]:
    return {**BASE, "tests/conftest.py": conftest, "tests/helpers/db.py": db}


def test_python_loads_the_chain(tmp_path: Path) -> None:
    for path, text in _files(CONFTESTS[0], CHAINS[0][0] + CHAINS[2][0]).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    code = "import sys, tests.conftest; print(sorted(m for m in sys.modules if m.startswith('tests')))"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "tests.helpers.factories" in done.stdout and "tests.data" in done.stdout


@each_case(("line", "conftest", "db", "target"),
           [(line, conftest, db, target) for line in RUNS for conftest in CONFTESTS for db, target in CHAINS])
def test_a_chain_from_a_conftest_is_ci(line: str, conftest: str, db: str, target: str) -> None:
    assert target in tree_runs(with_line(*LINE_DEFINITIONS[0], line, _files(conftest, db)))


@each_case(("definition", "template"), LINE_DEFINITIONS)
def test_each_definition(definition: str, template: str) -> None:
    files = _files(CONFTESTS[0], CHAINS[0][0])
    assert "tests/helpers/factories.py" in tree_runs(with_line(definition, template, "pytest", files))


@each_case("target", ["tests/helpers/unused.py", "src/pkg/other.py", "src/pkg/mod.py"])
def test_what_nothing_loads_and_the_product_stay_src(target: str) -> None:
    files = {**_files("from tests.helpers import db\nfrom pkg.mod import x\n", CHAINS[0][0])}
    assert target not in tree_runs(with_line(*LINE_DEFINITIONS[0], "pytest", files))


def test_the_edit_needs_a_human(tmp_path: Path) -> None:
    base = with_line(*LINE_DEFINITIONS[0], "pytest", _files(CONFTESTS[0], CHAINS[0][0]))
    edit = {"tests/helpers/factories.py": "import os\nos.system('id')\n"}
    _, first, second = two_commits(tmp_path / "repo", base, edit)
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]
