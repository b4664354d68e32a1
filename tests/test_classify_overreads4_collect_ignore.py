"""Over-reads 4, a false alarm: pytest's `collect_ignore` (and `collect_ignore_glob`) in a `conftest.py` lists the files
pytest leaves out of collection: data to pytest, never run. keyring's root conftest.py, which CI's pytest loads,
names its PyInstaller hook (`collect_ignore = ["hook-keyring.backend.py"] + [...] * not_macOS`), and the walk read the
name as a script the conftest runs: the hook, which the package ships for PyInstaller, was `ci` (the seventy-eighth
set).

The class: in a `conftest.py`, the value of `collect_ignore`/`collect_ignore_glob` (`=`, `+=`, `.append(`,
`.extend(`) is blanked for the walk, over its lines, when it holds only literals (strings, lists, `+`, `*`, names): no
call. A value with a call (`collect_ignore = [run("./x.sh")]` runs at import) and the conftest's other lines stay read;
another file's `collect_ignore` stays read."""

from __future__ import annotations

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import settingsexcludes

KEYRING = """import platform

not_macOS = platform.system() != 'Darwin'

collect_ignore = ["hook-keyring.backend.py"] + [
    'keyring/backends/macOS/api.py'
] * not_macOS
"""
FORMS = [
    KEYRING,
    'collect_ignore = ["hook-keyring.backend.py"]\n',
    "collect_ignore = ['setup.py', 'hook-keyring.backend.py']\n",
    'collect_ignore_glob = ["hook-*.py"]\n',
    'collect_ignore = []\ncollect_ignore.append("hook-keyring.backend.py")\n',
    'collect_ignore = []\ncollect_ignore += ["hook-keyring.backend.py"]\n',
    'collect_ignore = [\n    "docs/conf.py",\n    "hook-keyring.backend.py",  # PyInstaller\n]\n',
    'import sys\ncollect_ignore = []\nif sys.version_info < (3, 9):\n    collect_ignore.extend([\n'
    '        "hook-keyring.backend.py",\n    ])\n',
    'collect_ignore: list[str] = ["hook-keyring.backend.py"]\n',
]
HOOK = "hook-keyring.backend.py"
FILES = {HOOK: "hiddenimports = ['keyring.backends']\n", "scripts/setup.sh": "#!/bin/sh\n",
         "tests/test_x.py": "def test_x():\n    pass\n"}


def _runs(conftest: str, name: str = "conftest.py") -> set[str]:
    definition, text = BLOCK_DEFINITIONS[0]
    files = {**FILES, name: conftest, definition: text.format(line="python -m pytest")}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


@each_case("conftest", FORMS)
def test_what_pytest_leaves_out_is_not_run(conftest: str) -> None:
    runs = _runs(conftest)
    assert "conftest.py" in runs  # pytest loads it: still ci
    assert HOOK not in runs


@each_case("conftest", [
    'import subprocess\ncollect_ignore = [subprocess.check_output(["./hook-keyring.backend.py"])]\n',
    'collect_ignore = []\nsubprocess.run(["python", "hook-keyring.backend.py"])\n',
    'collect_ignore = ["docs"]\nexec(open("hook-keyring.backend.py").read())\n',
    'collect_ignore.append(run("hook-keyring.backend.py"))\n',
])
def test_a_call_or_another_line_stays_read(conftest: str) -> None:
    assert HOOK in _runs(conftest)


def test_only_a_conftest_is_read_so() -> None:
    text = 'collect_ignore = ["hook-keyring.backend.py"]\n'
    assert settingsexcludes.unexcluded("run.py", text) == text
    assert "hook-keyring" not in settingsexcludes.unexcluded("conftest.py", text)


@each_case("hostile", [repeated("[\n", "collect_ignore = "), repeated("'a', ", "collect_ignore = ["),
                       repeated("collect_ignore = [\n"), repeated("(", "collect_ignore = [")])
def test_a_hostile_conftest_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: settingsexcludes.unexcluded("conftest.py", text), hostile, budget=0.25)
