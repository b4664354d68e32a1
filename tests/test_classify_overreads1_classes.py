"""The over-reads 1 round: product files the CI walk made `ci` (issue 12; docs/classification.md, "Over-reads 1").

- pyproject.toml's data keys (datawords.pyproject_data): a dependency list's requirements (`"pytest>=8",` read as a
  command ran pytest, so every `conftest.py` was CI's), ruff's `per-file-ignores` paths, exclude and include lists, the
  version file a build writes: packages and files tools read or write as data. Its commands stay: task tables,
  `addopts`, a build hook's `path`, a dependency that names a local path.
- The root project's own pytest plugin (`[project.entry-points.pytest11]` of the root pyproject.toml, setup.cfg or
  setup.py) is the product pytest tests; a plugin of a project the job installs from a subfolder stays CI's (cileft68).
- An Earthfile's `COPY`/`ADD` copy data into the image, and its `CMD`/`ENTRYPOINT` are the image's program (run where
  the image runs, as a Dockerfile's are): neither is a build command; a copy a `RUN` runs stays CI's.
"""

from __future__ import annotations

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear
from tables import each_case

from gatekeeper.classify import datawords


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


# The product files a pyproject.toml names as data (real shapes: pipx, psf/requests, pytest-mock, hatch-vcs projects)
PRODUCT = {
    "src/acme/__init__.py": "from acme.core import run\n",
    "src/acme/core.py": "def run():\n    return 1\n",
    "src/acme/venv.py": "import subprocess\n",
    "src/acme/compat.py": "import sys\n",
    "src/acme/_version.py": "__version__ = '1.0'\n",
    "tests/conftest.py": "import pytest\n",
    "tests/compat.py": "import sys\n",
    "tests/test_core.py": "def test_run():\n    assert True\n",
    "docs/conf.py": "project = 'acme'\n",
    "build/man/acme.1": ".TH ACME 1\n",
}
DATA_TABLES = [
    # a dependency list's requirements (pipx's `"pytest>=8",`, requests' `"pytest>=3",`)
    '[project]\nname = "acme"\ndependencies = [\n  "uv>=0.9.17",\n  "packaging>=20",\n]\n'
    'optional-dependencies.test = [\n  "pytest>=8",\n  "pre-commit>=3",\n]\n',
    '[project]\nname = "acme"\n\n[project.optional-dependencies]\ntest = [\n  "pytest>=6.2.5",\n  "pytest-cov",\n]\n'
    'dev = ["pre-commit", "tox"]\n',
    '[project]\nname = "acme"\n\n[dependency-groups]\ntest = [\n  "pytest>=8",\n  "pypiserver[cache,passlib]>=2.3.2",\n'
    ']\nlint = [{include-group = "test"}, "ruff"]\n',
    '[build-system]\nrequires = ["setuptools>=67.8", "pytest-runner"]\nbuild-backend = "setuptools.build_meta"\n',
    '[tool.hatch.envs.default]\ndependencies = [\n  "pytest",\n  "coverage[toml]",\n]\n',
    # ruff's per-file-ignores: a dotted key, an inline table, a table of its own (pipx, requests)
    '[tool.ruff]\nline-length = 120\nlint.per-file-ignores."src/acme/venv.py" = [\n  "S603",\n]\n'
    'lint.per-file-ignores."tests/**/*.py" = ["S101"]\n',
    '[tool.ruff.lint]\nper-file-ignores = {"src/acme/__init__.py" = ["E402", "F401"], "src/acme/compat.py" = ["E402"],'
    ' "tests/compat.py" = ["F401"]}\n',
    '[tool.ruff.lint.per-file-ignores]\n"src/acme/venv.py" = ["S603"]\n"tests/compat.py" = ["F401"]\n',
    '[tool.flake8]\nper-file-ignores = [\n    "src/acme/__init__.py:F401",\n    "tests/compat.py:F401",\n]\n',
    # exclude and include lists, the files a wheel or sdist packs, coverage's sources (pipx, requests, pytest-mock)
    '[tool.ruff]\nsrc = ["src/acme", "tests"]\nexclude = ["docs/conf.py", "build/"]\n'
    'extend-exclude = ["tests/compat.py"]\n',
    '[tool.coverage.run]\nsource = ["src/acme"]\nomit = ["src/acme/compat.py", "tests/compat.py"]\n'
    '[tool.coverage.report]\ninclude = ["src/acme/core.py"]\n',
    '[tool.hatch]\nbuild.targets.sdist.include = [\n  "/*.md",\n  "/src/acme/venv.py",\n  "/tests/compat.py",\n]\n'
    'build.targets.wheel.shared-data = { "build/man" = "share/man/man1" }\n',
    '[tool.mypy]\nexclude = ["tests/compat.py", "docs/conf.py"]\n\n[tool.ty]\nsrc.include = ["src/acme/venv.py"]\n',
    '[tool.setuptools.package-data]\nacme = ["py.typed", "_version.py"]\n',
    # the version file a build writes (setuptools-scm, hatch-vcs)
    '[tool.setuptools_scm]\nwrite_to = "src/acme/_version.py"\n',
    '[tool.hatch]\nversion.source = "vcs"\nbuild.hooks.vcs.version-file = "src/acme/_version.py"\n',
    '[tool.setuptools_scm]\nversion_file = "src/acme/_version.py"\n',
    # prose and a regex of words
    '[project]\nname = "acme"\ndescription = "Run tests/compat.py for humans"\nkeywords = ["pytest", "tox"]\n'
    'classifiers = ["Framework :: Pytest"]\n[tool.codespell]\nignore-regex = "\\\\b(UE|src/acme/venv.py)\\\\b"\n',
]
# A workflow step that reaches pyproject.toml as a tool's settings (uv, pytest: which loads every conftest.py itself, so
# that one is left out of what pytest's step must not name)
STEPS = ["uv sync && uv run ruff check", "uv run pytest tests/test_core.py", "python -m pytest"]
NAMED = {"src/acme/venv.py", "src/acme/__init__.py", "src/acme/compat.py", "src/acme/core.py",
         "src/acme/_version.py", "tests/conftest.py", "tests/compat.py", "docs/conf.py", "build/man/acme.1"}


@each_case("table, step", [(table, step) for table in DATA_TABLES for step in STEPS])
def test_pyproject_data_names_no_product_file(table: str, step: str) -> None:
    tree = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=step), "pyproject.toml": table, **PRODUCT}
    runs = _runs(tree)
    assert "pyproject.toml" in runs  # the step reaches the settings
    named = NAMED - {"tests/conftest.py"} if "pytest" in step else NAMED
    assert not runs & named, sorted(runs & named)


# What a pyproject.toml runs or loads stays CI's: a task table's command, pytest's `-p`, a build hook's path, a
# dependency on a local path (pip runs its setup.py), tox's legacy ini in a multi-line string, cibuildwheel's commands
STAYS = [
    ('[tool.poe.tasks]\ngen = "bash tools/gen.sh"\n', "tools/gen.sh"),
    ('[tool.hatch.envs.default.scripts]\ngen = "python tools/gen.py"\n', "tools/gen.py"),
    ('[tool.hatch.envs.default]\ndependencies = ["pytest"]\n[tool.hatch.envs.default.scripts]\n'
     'gen = "python tools/gen.py"\n', "tools/gen.py"),
    ('[tool.taskipy.tasks]\nlint = "sh tools/lint.sh"\n', "tools/lint.sh"),
    ('[tool.pdm.scripts]\ngen = {cmd = "python tools/gen.py"}\n', "tools/gen.py"),
    ('[tool.pytest.ini_options]\naddopts = "-p tools.plugin"\ntestpaths = ["tests"]\n', "tools/plugin.py"),
    ('[tool.hatch.build.hooks.custom]\npath = "tools/hook.py"\n', "tools/hook.py"),
    ('[tool.cibuildwheel]\nbefore-all = "bash tools/gen.sh"\n', "tools/gen.sh"),
    ('[tool.tox]\nlegacy_tox_ini = """\n[tox]\nrequires = tox>=4\n[testenv]\ncommands = bash tools/t.sh\n"""\n',
     "tools/t.sh"),
    ('[project]\ndependencies = [\n  "pytest",\n  "acme-plugin @ file:///${PROJECT_ROOT}/tools/plugin.py",\n]\n',
     "tools/plugin.py"),
    # a data key's value that never closes is no TOML a tool reads: every word stays (fail closed)
    ('[project]\ndependencies = [\n  "pytest",\n[tool.poe.tasks]\ngen = "bash tools/gen.sh"\n', "tools/gen.sh"),
    # a bracket inside a string does not close the list early, nor hide the next key
    ('[tool.ruff]\nexclude = ["a]", "b{"]\n[tool.poe.tasks]\ngen = "bash tools/gen.sh"\n', "tools/gen.sh"),
    ('[tool.ruff]\nexclude = [\n  "x]",\n]\ngen = "bash tools/gen.sh"\n', "tools/gen.sh"),
]
HELPERS = {"tools/gen.sh": "#!/bin/sh\necho gen\n", "tools/gen.py": "print(1)\n", "tools/lint.sh": "#!/bin/sh\n",
           "tools/plugin.py": "def pytest_configure(config):\n    pass\n", "tools/hook.py": "from hatchling import x\n",
           "tools/t.sh": "#!/bin/sh\n", "tests/conftest.py": "import pytest\n"}


@each_case("table, kept, step", [(table, kept, step) for table, kept in STAYS
                                  for step in ["pytest", "uv sync && uv run ruff check"]])
def test_pyproject_commands_stay_named(table: str, kept: str, step: str) -> None:
    tree = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=step), "pyproject.toml": table, **HELPERS}
    assert kept in _runs(tree)


def test_pyproject_data_reads_linearly() -> None:
    def text(size: int) -> str:
        return "[tool.ruff]\nexclude = [\n" + '  "a]b{\\"c",\n' * (size // 12) + "]\n"

    assert_linear(lambda text: datawords.package_commands("pyproject.toml", text), text, budget=0.5)


# The root project's own pytest plugin is the product (pytest-mock); one the job installs from a subfolder is CI's
ROOT_PLUGINS = [
    {"pyproject.toml": '[project]\nname = "acme-mock"\n[project.entry-points.pytest11]\nacme_mock = "acme_mock"\n'},
    {"pyproject.toml": '[tool.poetry]\nname = "acme-mock"\n[tool.poetry.plugins."pytest11"]\n'
                       '"acme_mock" = "acme_mock"\n'},
    {"setup.cfg": "[metadata]\nname = acme-mock\n[options.entry_points]\npytest11 =\n    acme_mock = acme_mock\n"},
    {"setup.py": 'from setuptools import setup\nsetup(name="acme-mock", entry_points={"pytest11": '
                 '["acme_mock = acme_mock"]})\n'},
]


@each_case("manifest, step", [(manifest, step) for manifest in ROOT_PLUGINS
                               for step in ["pytest", "uv run pytest", "pip install -e . && pytest"]])
def test_root_projects_pytest_plugin_is_the_product(manifest: dict[str, str], step: str) -> None:
    tree = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=step), **manifest,
            "src/acme_mock/__init__.py": "import pytest\n", "src/acme_mock/plugin.py": "import pytest\n"}
    assert not _runs(tree) & {"src/acme_mock/__init__.py", "src/acme_mock/plugin.py"}


@each_case("manifest", ROOT_PLUGINS)
def test_installed_subprojects_pytest_plugin_stays(manifest: dict[str, str]) -> None:
    (name, text), = manifest.items()
    tree = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(
        line="pip install -e ./tools/plug && pytest"), f"tools/plug/{name}": text,
        "tools/plug/src/acme_mock/__init__.py": "import pytest\n"}
    assert "tools/plug/src/acme_mock/__init__.py" in _runs(tree)


# An Earthfile's COPY/ADD and its image's CMD/ENTRYPOINT (mritd/autobuild's osarch, jira, open-vm-tools)
EARTH_COPIES = [
    "build:\n    FROM busybox\n    COPY osarch.sh /usr/bin/osarch\n    SAVE IMAGE --push acme/osarch:latest\n",
    "build:\n    FROM debian\n    COPY ./hijack.sh /hijack.sh\n    RUN chown app:app /opt\n    CMD [\"/hijack.sh\"]\n",
    "build:\n    FROM debian\n    COPY shutdown.sh /sbin/shutdown\n    ENTRYPOINT [\"/sbin/init\"]\n",
    "build:\n    FROM alpine\n    ADD --chmod=755 entry.sh /usr/local/bin/\n    ENTRYPOINT [\"entry.sh\"]\n",
    "build:\n    FROM alpine\n    COPY --dir conf /etc/app\n    CMD ./run.sh\n",
    "build:\n    FROM alpine\n    COPY run.sh /\n    CMD [\"sh\", \"/run.sh\"]\n    SAVE IMAGE acme/run\n",
]


@each_case("earthfile, folder", [(earthfile, folder) for earthfile in EARTH_COPIES for folder in ["", "images/app/"]])
def test_earthfile_copy_and_image_command_run_nothing(earthfile: str, folder: str) -> None:
    files = {f"{folder}{name}": "#!/bin/sh\necho product\n"
             for name in ("osarch.sh", "hijack.sh", "shutdown.sh", "entry.sh", "run.sh", "conf/app.sh")}
    tree = {f"{folder}Earthfile": "VERSION 0.8\n" + earthfile, **files}
    assert not _runs(tree) & set(files)


# What the build itself runs stays: a RUN of the copy (by path, by its name on PATH, on a continued line), a RUN of a
# file of the folder, an image the build runs (WITH DOCKER: its CMD runs in the build)
EARTH_RUNS = [
    ("build:\n    FROM alpine\n    COPY gen.sh /gen.sh\n    RUN /gen.sh\n", "gen.sh"),
    ("build:\n    FROM alpine\n    COPY gen.sh /usr/local/bin/gen\n    RUN gen --all\n", "gen.sh"),
    ("build:\n    FROM alpine\n    COPY tools/gen.sh /usr/local/bin/\n    RUN apk add bash && \\\n"
     "        gen.sh\n", "tools/gen.sh"),
    ("build:\n    FROM alpine\n    COPY . .\n    RUN ./tools/gen.sh\n", "tools/gen.sh"),
    ("build:\n    FROM alpine\n    RUN --push bash gen.sh\n", "gen.sh"),
    ("test:\n    FROM earthly/dind\n    COPY gen.sh /gen.sh\n    CMD [\"/gen.sh\"]\n    SAVE IMAGE t\n"
     "    WITH DOCKER --load img=+test\n        RUN docker run img\n    END\n", "gen.sh"),
    ("build:\n    LOCALLY\n    RUN bash tools/gen.sh\n", "tools/gen.sh"),
]


@each_case("earthfile, kept", EARTH_RUNS)
def test_earthfile_build_commands_stay(earthfile: str, kept: str) -> None:
    tree = {"Earthfile": "VERSION 0.8\n" + earthfile, "gen.sh": "#!/bin/sh\necho gen\n",
            "tools/gen.sh": "#!/bin/sh\necho gen\n"}
    assert kept in _runs(tree)


# A PowerShell script's `\` is a path separator, not the shell's escape (PowerShell's is the backtick): read as bash,
# `$PSScriptRoot\darc-init.ps1` lost its name and named every `.ps1` of the tree (Arcade's eng/common/tools.ps1 made
# dotnet/command-line-api's test snapshots `ci`)
PS_LINES = [
    ". $PSScriptRoot\\pipeline-logging-functions.ps1",
    "& $PSScriptRoot\\darc-init.ps1 -toolpath $darcPath | Out-Host",
    "& $PSScriptRoot\\darc-init.ps1 -toolpath $darcPath -darcVersion $version | Out-Host",
    "$env:Path = \"$PSScriptRoot\\bin;$env:Path\"; & $PSScriptRoot\\darc-init.ps1",
    "Import-Module $PSScriptRoot\\darc-init.ps1",
]
PS_PRODUCT = {"src/App.Tests/snapshots/Completions.verified.ps1": "Register-ArgumentCompleter\n",
              "tools/install.ps1": "Write-Host install\n", "eng/common/other.ps1": "Write-Host other\n"}


@each_case("line, script", [(line, script) for line in PS_LINES
                             for script in ["eng/common/tools.ps1", "eng/build.psm1"]])
def test_a_powershell_path_after_a_variable_keeps_its_name(line: str, script: str) -> None:
    tree = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=f"pwsh -File ./{script}"),
            script: f"param([string]$x)\n{line}\n", "eng/common/darc-init.ps1": "x\n", "eng/darc-init.ps1": "x\n",
            "eng/common/pipeline-logging-functions.ps1": "x\n", "eng/pipeline-logging-functions.ps1": "x\n",
            **PS_PRODUCT}
    runs = _runs(tree)
    folder = script.rpartition("/")[0]
    assert f"{folder}/darc-init.ps1" in runs or f"{folder}/pipeline-logging-functions.ps1" in runs
    assert not runs & set(PS_PRODUCT), sorted(runs & set(PS_PRODUCT))


@each_case("line", [*PS_LINES, '& "$tool\\run.ps1" -x 1', "& $Root\\eng\\common\\darc-init.ps1"])
def test_a_powershell_backslash_path_is_read_as_its_slash_form(line: str) -> None:
    files = {"eng/common/darc-init.ps1": "x\n", "eng/common/pipeline-logging-functions.ps1": "x\n",
             "run.ps1": "x\n", "eng/common/run.ps1": "x\n", **PS_PRODUCT}

    def reached(text: str) -> set[str]:
        return _runs({".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="pwsh ./eng/common/t.ps1"),
                      "eng/common/t.ps1": text, **files}) - {"eng/common/t.ps1"}

    assert reached(f"{line}\n") == reached(line.replace("\\", "/") + "\n")


# pathlib's read of a literal path is data, as `open('…')` is (pillow_heif's setup.py reads its version file)
READS = [
    'match = re.search(r\'__version__\\s*=\\s*"(.*?)"\', Path("acme/_version.py").read_text(encoding="utf-8"))',
    "VERSION = pathlib.Path('acme/_version.py').read_text().split('=')[1]",
    'data = Path("acme/_version.py").read_bytes()',
    'with Path("acme/_version.py").open() as f:',
]
RUNS = [
    'exec(Path("acme/_version.py").read_text())',  # runs what it read
    'runpy.run_path("acme/_version.py")',
    'ns = {}; exec(compile(Path("acme/_version.py").read_text(), "v", "exec"), ns)',
    'Path("acme/_version.py")',  # no read: a path the program may hand on
]


@each_case("line, named", [(line, False) for line in READS] + [(line, True) for line in RUNS])
def test_pathlib_reads_of_a_literal_path_are_data(line: str, named: bool) -> None:
    tree = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="python setup.py sdist"),
            "setup.py": f"import pathlib, re, runpy\nfrom pathlib import Path\n{line}\nsetup(version=VERSION)\n",
            "acme/_version.py": "__version__ = '1.0'\n"}
    assert ("acme/_version.py" in _runs(tree)) is named
