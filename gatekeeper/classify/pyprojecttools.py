"""Tier 3, continued: a pyproject.toml that holds only linters', formatters' and test runners' settings is `other`
(other.content.pyproject-tools), a lowering from `deps` that needs this proof on every side (sniff.py, lowering.py).

Many Python projects packaged by `setup.py` keep a pyproject.toml for `[tool.black]` or `[tool.pytest.ini_options]`
alone (the labelled sets: kube-hunter, HashiCorp's Ansible collection, Cisco's ansible-mso): what `.flake8` or
`tox.ini`'s tool sections would hold. It names no package and no requirement. The proof is strict: the file parses as
TOML, its only table is `[tool]`, and every tool under it is one of the settings-only tools below. Anything else —
`[project]`, `[build-system]`, `[dependency-groups]`, a packager's or installer's table (`[tool.poetry]`, `[tool.uv]`,
`[tool.hatch]`, `[tool.setuptools]`, `[tool.pdm]`, `[tool.tox]`, `[tool.cibuildwheel]`, ...), a tool not listed, a
parse error — keeps it `deps`.
"""

from __future__ import annotations

import re
import tomllib

from gatekeeper.lazy_pattern import lazy

PYPROJECT, RULE = "pyproject.toml", "other.content.pyproject-tools"
# Tools whose pyproject table is their own settings only: it installs nothing and names no command to run.
SETTINGS_ONLY = frozenset({
    "black", "isort", "ruff", "mypy", "pyright", "basedpyright", "pytest", "coverage", "pylint", "bandit", "codespell",
    "pydocstyle", "pycodestyle", "flake8", "docformatter", "autopep8", "autoflake", "yapf", "interrogate", "vulture",
    "darker", "djlint", "sqlfluff", "typos", "pycln", "refurb", "doc8", "pydoclint", "mdformat", "check-manifest",
    "towncrier", "pytype", "jupytext", "blackdoc", "slotscheck",
})
_TOOL_TABLE = lazy(r"^[ \t]*\[[ \t]*tool[ \t]*\.[^\]\n]*\]", re.MULTILINE)


def pyproject_tools(text: str) -> tuple[str, str, str] | None:
    """`other` for a pyproject.toml whose only table is `[tool]` holding settings-only tools; else None."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    tools = data.get("tool")
    if set(data) != {"tool"} or not isinstance(tools, dict) or not tools or not set(tools) <= SETTINGS_ONLY:
        return None
    m = _TOOL_TABLE.search(text)
    first = m.group(0).strip() if m is not None else "[tool]"
    return "other", RULE, f"{first[:80]} (tool settings only: {', '.join(sorted(tools))})"
