"""The modules a Python task runner's table in pyproject.toml calls by name (issue 12: the seventy-eighth set).

poethepoet's `script` tasks (`[tool.poe.tasks.ty] script = "scripts.test.run:ty_src"`, also inline in a sequence)
and PDM's `call` scripts (`[tool.pdm.scripts] gen = {call = "tools.gen:main"}`) import a module and call a function
in it: `poetry run poe ty` in a workflow runs `scripts/test/run.py` as surely as `python scripts/test/run.py` would.
The walk read the table's `cmd` strings (their words name files) but not a dotted module name, so pandas-stubs'
check scripts stayed `src`. `called(text)` gives each such module as the file patterns Python would import it from
(`scripts/test/run.py`, `scripts/test/run/__init__.py`, and below `src/`), read against the pyproject's folder.
"""

from __future__ import annotations

import tomllib
from typing import Any

from gatekeeper.lazy_pattern import lazy

__all__ = ["called"]

_MODULE = lazy(r"\A[ \t]*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)[ \t]*:")
_KEYS = ("script", "call")  # poe's script task, PDM's call script
MAX_MODULES = 64  # module names read of one file (a larger table: its first ones; its `cmd` words are read anyway)


def called(text: str) -> list[str]:
    """The file patterns of the modules pyproject.toml's poe and PDM tables call (`pkg.mod:func(args)`)."""
    if "poe" not in text and "pdm" not in text:
        return []
    try:
        tool = tomllib.loads(text).get("tool")
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    if not isinstance(tool, dict):
        return []
    tables = [_get(tool, "poe", "tasks"), _get(tool, "pdm", "scripts")]
    modules: dict[str, None] = {}
    for table in tables:
        for value in table.values() if isinstance(table, dict) else ():
            _collect(value, modules)
    return [pattern for module in list(modules)[:MAX_MODULES] for pattern in _files(module)]


def _get(tool: dict[str, Any], name: str, key: str) -> Any:
    section = tool.get(name)
    return section.get(key) if isinstance(section, dict) else None


def _collect(value: Any, modules: dict[str, None]) -> None:
    """The module names of one task: a table's `script`/`call`, a sequence's items, in turn."""
    if isinstance(value, list):
        for item in value[:MAX_MODULES]:
            _collect(item, modules)
    elif isinstance(value, dict):
        for key in _KEYS:
            found = _MODULE.match(value[key]) if isinstance(value.get(key), str) else None
            if found is not None:
                modules[found.group(1)] = None
        for key in ("sequence", "parallel"):  # poe's composite tasks
            if isinstance(value.get(key), list):
                _collect(value[key], modules)


def _files(module: str) -> list[str]:
    path = module.replace(".", "/")
    return [f"{path}.py", f"{path}/__init__.py", f"src/{path}.py", f"src/{path}/__init__.py"]
