"""Tier 3, continued: a setup.cfg that holds tool settings only (flake8, isort, pytest, ...) and no packaging is
`other` (other.content.setup-cfg-tools), a lowering that needs this proof on every side (sniff.py, lowering.py).
So is a file named like R's `DESCRIPTION` that holds none of its fields (src.content.not-r-description: Commander's
extension-less example program `examples/description`, the fortieth set).
"""

from __future__ import annotations

import configparser
import re

from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
# setuptools' setup.cfg is packaging when it names a package or its requirements ([metadata] name/version,
# [options] and its tables, build commands' sections); many projects keep only tool settings there (flake8, isort,
# pytest, coverage, mypy, tox), which are what tox.ini or .flake8 would hold.
# A section header of setuptools or of one of its commands is packaging when it holds a key (_tools_only): an empty
# `[wheel]` above pytest and pycodestyle settings sets nothing (httpie's setup.cfg, the fifty-ninth set).
_SETUP_CFG_PACKAGING = lazy(
    r"^[ \t]*(?:name|version|install_requires|setup_requires|tests_require|extras_require|python_requires|packages|"
    r"py_modules|entry_points|dependency_links)[ \t]*[=:]", _FLAGS)
_PACKAGE_KEYS = frozenset({"name", "version", "install_requires", "setup_requires", "tests_require", "extras_require",
                           "python_requires", "packages", "py_modules", "entry_points", "dependency_links"})
# The sections setuptools and its commands read (`[options.extras_require]`, `[easy_install]`'s index, ...).
_SETUPTOOLS_SECTION = lazy(
    r"options(?:\..*)?|bdist\w*|build\w*|install\w*|sdist|egg_info|dist_info|easy_install|develop|editable_wheel|"
    r"pbr|files|entry_points|wheel|upload\w*|aliases?|global|register|test|rotate|saveopts|setopt|check|clean|config")
# The keys of tox's sections that name what tox installs, or how (gatekeeper/deps/toxconfig.py reads them in tox.ini).
_TOX_INSTALLS = frozenset({"requires", "deps", "install_command", "setenv", "set_env", "pip_pre", "indexserver",
                           "min_version", "minversion", "list_dependencies_command", "runner", "virtualenv_spec"})
_SETUP_CFG_TOOL = lazy(
    r"^\[(?:flake8|pycodestyle|pep8|pydocstyle|isort|mypy(?:-[^\]\n]+)?|tool:[\w.-]+|coverage:[\w.-]+|tox:tox|"
    r"testenv(?::[^\]\n]+)?|yapf|pylint[\w.-]*|darglint|bandit|codespell|bumpversion(?::[^\]\n]+)?)\][ \t]*$",
    _FLAGS)


def setup_cfg(text: str) -> tuple[str, str, str] | None:
    """A setup.cfg holding only tool settings (no package, no requirements): other. Lowers deps only on this
    proof, from the whole file on every side (context.py)."""
    if _SETUP_CFG_PACKAGING.search(text) or (m := _SETUP_CFG_TOOL.search(text)) is None or not _tools_only(text):
        return None
    return "other", "other.content.setup-cfg-tools", evidence_line(text, m)


def _tools_only(text: str) -> bool:
    """Whether setuptools reads no packaging from `text`: configparser as setuptools sets it up (a header may be
    indented or have text after its `]`; keys are lowercased and dashes made underscores after reading), no section
    setuptools or one of its commands reads that holds a key, but a [metadata] that names no package, and no [DEFAULT]
    keys, which every section inherits."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        parser.read_string(text)
    except configparser.Error:
        return False
    if not parser.sections() or parser.defaults():
        return False
    for name in parser.sections():
        if name == "metadata":  # a license file is no package; a name or a version is
            keys = {key.lower().replace("-", "_") for key in parser.options(name)}
            if keys & _PACKAGE_KEYS:
                return False
        elif _SETUPTOOLS_SECTION.fullmatch(name.strip().lower()) and parser.options(name):
            return False  # an empty one (`[wheel]` alone) configures nothing
        elif name == "tox:tox" or name == "testenv" or name.startswith("testenv:"):
            # what tox installs (red team 30, tests/test_redteam30_tox.py): a manifest's entries, not a tool's setting
            if {key.lower().replace("-", "_") for key in parser.options(name)} & _TOX_INSTALLS:
                return False
    return True


# The fields an R package's DESCRIPTION (a Debian control file: `Field: value` lines) names it and its dependencies by.
_R_DESCRIPTION_FIELD = lazy(
    r"^(?:Package|Type|Title|Version|Authors@R|Author|Maintainer|Description|License|Depends|Imports|Suggests|"
    r"LinkingTo|Enhances|Remotes|Encoding|RoxygenNote|Config/[\w/.-]+)[ \t]*:", _FLAGS)
_SCRIPT = lazy(r"\A#!", 0)


def not_r_description(text: str) -> tuple[str, str, str] | None:
    """A file named DESCRIPTION that is no R package description: a program (`#!` first) or text with none of its
    fields. Lowers deps only on this proof, from the whole file on every side (lowering.py)."""
    if _R_DESCRIPTION_FIELD.search(text):
        return None
    first = text.lstrip().partition("\n")[0]
    why = "a program, not an R package's fields" if _SCRIPT.match(text) else "none of an R package's fields"
    return "src", "src.content.not-r-description", f"{first[:80]} ({why})"
