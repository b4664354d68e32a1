"""The seventy-fifth set's classes (issue 12): what the CI walk read too widely and what it did not follow.

- **A Python tool's exclude list is data** (settingsexcludes.py). Where CI runs pytest, the walk reads the
  pyproject.toml pytest loads, and a file its `[tool.isort] skip`, `[tool.mypy] exclude` or
  `[tool.ruff.lint.per-file-ignores]` named was `ci` (PyCQA/isort's `tests/unit/example_crlf_file.py`, a test input).
  The same names in a section that runs them (`[tool.poe.tasks]`, tox's `commands`, pytest's `addopts` loading a
  plugin) stay `ci`.
- **Kicker's `.kick`** (`other.dev-tool-settings`): the Ruby file watcher's settings at the root (resque's; 78
  repositories of the code index keep one: CocoaPods, hub, xcpretty, ZeroTierOne), a developer tool's, no code.
- **A loop over a script-relative folder whose body is on later lines** (shellvars.py), and a loop body's condition
  that runs the file (`if bash "$t" &> /dev/null; then`: ciloops.py). spf13/pflag's `verify/all.sh`
  (`ROOT=$(dirname "${BASH_SOURCE}")/..`, then `for t in \\`ls $ROOT/verify/*.sh\\`` with `do` and `bash "$t"` on the
  lines below) runs `verify/golint.sh`; the loop's header was written again with the folder, its body was not.
"""

from __future__ import annotations

from pathlib import Path

from citools import one_tree_runs
from cpucost import assert_linear
from tables import each_case

from gatekeeper.classify import settingsexcludes, shellvars
from gatekeeper.classify.ruleset import load_rules

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {line}\n")
TARGET = "tests/unit/example_crlf_file.py"


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


# --- exclude lists in the settings files pytest and tox load (real shapes: isort's pyproject.toml, flake8 and mypy
# in setup.cfg and tox.ini, ruff.toml, .coveragerc, pylintrc, black's regex)
T = TARGET
EXCLUDED = [
    ("pyproject.toml", f'[tool.isort]\nprofile = "hug"\nskip = [\n    "{T}"\n]\n'),
    ("pyproject.toml", f'[tool.isort]\nskip_glob = ["{T}", "build/*"]\n'),
    ("pyproject.toml", f'[tool.isort]\nextend_skip = ["{T}"]\n'),
    ("pyproject.toml", f'[tool.mypy]\nstrict = true\nexclude = "isort/_vendored|tests/unit/example_projects|{T}"\n'),
    ("pyproject.toml", f"[tool.mypy]\nexclude = [\n  '^{T}$',\n  '^build/',\n]\n"),
    ("pyproject.toml", f'[tool.ruff.lint.per-file-ignores]\n"{T}" = [ "F401" ]\n"tests/*" = ["S"]\n'),
    ("pyproject.toml", f'[tool.ruff.per-file-ignores]\n"{T}" = [\n  "F401",\n]\n'),
    ("pyproject.toml", f'[tool.ruff]\nextend-exclude = ["{T}"]\n'),
    ("pyproject.toml", f'[tool.ruff.lint]\nexclude = ["{T}"]\n'),
    ("pyproject.toml", f"[tool.black]\nextend-exclude = '''\n/(\n  {T}\n  | build\n)/\n'''\n"),
    ("pyproject.toml", f'[tool.coverage.run]\nbranch = true\nomit = [\n    "{T}",\n]\n'),
    ("pyproject.toml", f'[tool.pytest.ini_options]\nnorecursedirs = ["{T}", ".git"]\n'),
    ("pyproject.toml", f'[tool.pylint.main]\nignore-paths = ["{T}"]\n'),
    ("pyproject.toml", f'[tool.pyright]\nexclude = ["{T}"]\nignore = ["{T}"]\n'),
    ("pyproject.toml", f'[tool.codespell]\nskip = "{T},*.lock"\n'),
    ("pyproject.toml", f'[tool.bandit]\nexclude_dirs = ["{T}"]\n'),
    ("pyproject.toml", f'[tool.flake8]\nper-file-ignores = [\n    "{T}:F401",\n    "{T} : E501",\n]\n'),
    ("setup.cfg", f"[flake8]\nmax-line-length = 100\nexclude =\n    .git,\n    {T}\n"),
    ("setup.cfg", f"[flake8]\nper-file-ignores =\n    {T}: F401\n"),
    ("setup.cfg", f"[mypy]\nexclude = {T}\n"),
    ("setup.cfg", f"[isort]\nskip = {T}\n"),
    ("setup.cfg", f"[tool:pytest]\nnorecursedirs = {T} .git\n"),
    ("setup.cfg", f"[coverage:run]\nomit =\n    {T}\n"),
    ("tox.ini", f"[testenv]\ncommands = pytest tests/unit\n\n[flake8]\nexclude = {T},.tox\n"),
    ("tox.ini", f"[testenv]\ncommands = pytest tests/unit\n\n[pytest]\nnorecursedirs = {T}\n"),
    ("pytest.ini", f"[pytest]\nnorecursedirs =\n    {T}\n    .git\n"),
    (".flake8", f"[flake8]\nextend-exclude = {T}\n"),
    (".isort.cfg", f"[settings]\nskip = {T}\n"),
    ("ruff.toml", f'extend-exclude = ["{T}"]\n[lint.per-file-ignores]\n"{T}" = ["F401"]\n'),
    (".coveragerc", f"[run]\nomit =\n    {T}\n"),
    ("mypy.ini", f"[mypy]\nexclude = (?x)(\n    {T}\n  )\n"),
    (".pylintrc", f"[MAIN]\nignore-paths = {T}\n"),
]
# the same names where a tool runs them, or a file of another name: still `ci`
STILL_RUN = [
    ("pyproject.toml", f'[tool.poe.tasks]\nlint = "python {T}"\n[tool.isort]\nskip = ["x.py"]\n'),
    ("pyproject.toml", f'[tool.isort]\nskip = ["x.py"]\n[tool.hatch.envs.default.scripts]\ngen = "python {T}"\n'),
    ("pyproject.toml", f'[tool.pytest.ini_options]\nnorecursedirs = [".git"]\n[tool.x]\nrun = "python {T}"\n'),
    ("pyproject.toml", f'[tool.mypy]\nexclude = [\n  "build",\n]\nplugins = ["{T}"]\n'),  # after the array's close
    ("pyproject.toml", f'[tool.ruff]\nexclude = ["a.py"]\n[tool.taskipy.tasks]\nt = "python {T}"\n'),
    ("pyproject.toml", f'[tool.coverage.run]\nomit = [\n    "x.py",\n\n[tool.poe.tasks]\ng = "python {T}"\n'),
    ("setup.cfg", f"[flake8]\nexclude =\n    .git\nper-file-ignores = x.py: F401\n[aliases]\ngen = python {T}\n"),
    ("tox.ini", f"[flake8]\nexclude = .tox\n\n[testenv:gen]\ncommands =\n    python {T}\n"),
    ("tox.ini", f"[testenv]\nskip_install = true\ncommands = python {T}\n"),  # tox's own keys are not excludes
    ("tasks.toml", f'[tool.isort]\nskip = ["{T}"]\n'),  # no settings file the Python tools read by that name
    ("pyproject.toml", f'[project]\nname = "x"\n[tool.isort]\nskip = ["a.py"]\n[project.scripts]\nx = "python {T}"\n'),
]


def _pytest_tree(name: str, text: str, line: str = "pytest tests/unit/ -s") -> dict[str, str]:
    return {".github/workflows/ci.yml": WORKFLOW.format(line=line), name: text, TARGET: "import b\r\nimport a\r\n",
            "tests/unit/test_x.py": "def test_x():\n    pass\n"}


@each_case("name, text", EXCLUDED)
def test_an_exclude_list_in_a_settings_file_ci_loads_is_data(name: str, text: str) -> None:
    assert TARGET not in settingsexcludes.unexcluded(name, text)
    if name in ("pyproject.toml", "setup.cfg", "tox.ini", "pytest.ini"):  # the files pytest or tox load
        assert TARGET not in _runs(_pytest_tree(name, text, "tox -e py" if name == "tox.ini" else "pytest tests/unit/"))


@each_case("name, text", STILL_RUN)
def test_what_a_settings_file_runs_stays_ci(name: str, text: str) -> None:
    tree = _pytest_tree(name, text, "tox -e gen" if name == "tox.ini" else
                        "poe lint && pytest -c tasks.toml tests/unit" if name == "tasks.toml" else "pytest tests/unit")
    assert TARGET in _runs(tree)


def test_the_real_shape_of_isort() -> None:
    """PyCQA/isort's pyproject.toml names its CRLF test input in four tools' exclude lists; the CI workflow runs tox,
    whose test environment runs pytest over tests/unit/."""
    pyproject = ('[project]\nname = "isort"\n\n[tool.flake8]\nmax-line-length = 100\nper-file-ignores = [\n'
                 f'    "{T}:F401",\n    "tests/unit/test_regressions.py:E501",\n]\n\n[tool.mypy]\n'
                 'python_version = "3.10"\nstrict = true\npackages = ["isort", "tests"]\n'
                 f'exclude = "isort/_vendored|tests/unit/example_projects|{T}"\n\n'
                 '[tool.ruff.lint.per-file-ignores]\n"isort/hooks.py" = [ "S603" ]\n"tests/*" = [ "RUF001", "S" ]\n'
                 f'"{T}" = [ "F401" ]\n\n[tool.isort]\nprofile = "hug"\nsrc_paths = ["isort", "tests"]\nskip = [\n'
                 f'    "{T}"\n]\n\n[tool.pytest.ini_options]\nfilterwarnings = ["error"]\n')
    tox = ("[testenv]\nrunner = uv-venv-lock-runner\ncommands =\n    coverage run -m pytest tests/unit/ -s\n\n"
           "[testenv:lint]\ncommands =\n    mypy\n    isort --profile hug --check --diff isort/ tests/ scripts/\n")
    tree = {**_pytest_tree("pyproject.toml", pyproject, "uv run --with tox-uv tox -e py,coverage_report-ci"),
            "tox.ini": tox}
    assert TARGET not in _runs(tree)


def test_exclude_lists_are_read_in_linear_time() -> None:
    def text(n: int) -> str:
        return "[tool.isort]\nskip = [\n" + '    "a.py",\n' * n + "]\n[tool.ruff.lint.per-file-ignores]\n" + \
            '"b.py" = ["F401"]\n' * n + "[flake8]\nexclude =\n" + "    c.py\n" * n

    # ~39 characters an entry of each list: text(size // 39) is `size` long
    assert_linear(lambda t: settingsexcludes.unexcluded("pyproject.toml", t), lambda size: text(size // 39), budget=0.5)


# --- a loop over a script-relative folder, its body on later lines (real shape: spf13/pflag's verify/all.sh, the
# Kubernetes `hack/verify-all.sh` idiom)
FOLDERS = ['ROOT=$(dirname "${BASH_SOURCE}")/..', 'ROOT=$(dirname "$0")/..',
           'ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"', 'ROOT=$(git rev-parse --show-toplevel)']
HEADERS = ["for t in `ls $ROOT/verify/*.sh`", 'for t in $(ls "$ROOT"/verify/*.sh)', "for t in $ROOT/verify/*.sh",
           'for t in "${ROOT}"/verify/*.sh']
BODIES = ['  bash "$t"', '  if $SILENT ; then\n    if bash "$t" &> /dev/null; then\n      echo ok\n    fi\n  fi',
          '  "$t" || ret=1', '  source "$t"']
LOOPS = [(folder, header, do, body) for folder in FOLDERS for header in HEADERS for do in ("\ndo", "; do")
         for body in BODIES]


def _verify_tree(folder: str, header: str, do: str, body: str) -> dict[str, str]:
    script = f"#!/bin/bash\nset -o errexit\n{folder}\n\nret=0\n{header}{do}\n{body}\ndone\nexit $ret\n"
    return {".travis.yml": "language: go\nscript:\n  - verify/all.sh -v\n", "verify/all.sh": script,
            "verify/golint.sh": "#!/bin/bash\ngolint ./...\n"}


@each_case("folder, header, do, body", LOOPS)
def test_a_loop_over_a_script_relative_folder_runs_its_files(folder: str, header: str, do: str, body: str) -> None:
    assert "verify/golint.sh" in _runs(_verify_tree(folder, header, do, body))


# the same loop whose body only reads or prints each file: no run
READ_BODIES = ['  echo "$t"', '  wc -l "$t"', '  grep -q TODO "$t" && echo "$t"', '  shfmt -d "$t"',
               '  if [ -x "$t" ]; then\n    echo "$t"\n  fi', '  if test -f "$t"; then echo "$t"; fi',
               '  if ! grep -q x "$t"; then echo "$t"; fi', '  if [ ! "$t" ]; then echo; fi',
               '  while [ -n "$t" ]; do t=""; done']


@each_case("folder, body", [(folder, body) for folder in FOLDERS for body in READ_BODIES])
def test_a_loop_that_reads_each_file_runs_none(folder: str, body: str) -> None:
    assert "verify/golint.sh" not in _runs(_verify_tree(folder, "for t in $ROOT/verify/*.sh", "\ndo", body))


def test_the_lines_after_a_loop_are_not_carried() -> None:
    """Only the loop's own lines go with its rewritten header: what follows its `done` is read as before."""
    text = 'ROOT=$(dirname "$0")/..\nfor t in $ROOT/v/*.sh\ndo\n  bash "$t"\ndone\necho after\n'
    again = shellvars.resolved_lines("v/all.sh", text)
    assert "done" in again and "after" not in again


def test_carried_loop_bodies_stay_linear() -> None:
    def text(n: int) -> str:
        return 'ROOT=$(dirname "$0")/..\n' + 'for t in $ROOT/v/*.sh\ndo\n  bash "$t"\n  echo x\ndone\n' * n

    assert_linear(lambda t: shellvars.resolved_lines("v/all.sh", t), lambda size: text(size // 54), budget=0.5)


# --- Kicker's settings at the root; other names and places stay what they were
POLICIES = Path(__file__).resolve().parent.parent / "policies"
KICK = [(".kick", "other"), ("src/.kick", "src"), (".kickstart", "src"), ("kick.rb", "src"), (".kick.rb", "src"),
        (".github/workflows/.kick", "ci"), ("ci/.kick", "ci")]


def test_kickers_settings_at_the_root_are_a_developer_tools() -> None:
    rules = load_rules(POLICIES)
    assert [(path, rules.match(path).bucket) for path, _ in KICK] == KICK
    assert rules.match(".kick").rule == "other.dev-tool-settings"
